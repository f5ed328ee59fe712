"""Turning paths into parsed documents: folders walked, gzip opened, JSON or YAML detected by content.

Everything that can go wrong with a file (missing, unreadable, binary, bad gzip, bad JSON or YAML,
past a limit of `_limits`: size, gzip bomb, documents, depth, string size, alias expansion) becomes
one InputError line naming the file. YAML documents keep the line they start on, so findings about
manifest objects can point at them (SARIF).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import yaml

from kubegap.bilingual import message
from kubegap.checker.sources._limits import check_json, check_yaml, gunzip, limits, too_large
from kubegap.errors import InputError

_GZIP_MAGIC = b"\x1f\x8b"
_UTF8_BOM = b"\xef\xbb\xbf"
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
_SUFFIXES = (".json", ".yaml", ".yml")
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class Document:
    """One parsed document and where it came from (line 0 when unknown, e.g. JSON)."""

    data: Any
    path: str
    line: int = 0
    index: int = 1  # which document of the file, from 1 (a YAML stream holds several)


def _is_input_file(path: Path) -> bool:
    name = path.name.lower()
    if name.endswith(".gz"):
        name = name[:-3]
    return name.endswith(_SUFFIXES)


def expand_paths(paths: Sequence[str | Path]) -> list[tuple[Path, bool]]:
    """Files to read, each flagged True when named explicitly (False when found by walking a folder)."""
    found: list[tuple[Path, bool]] = []
    most = limits().files
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            walked = sorted(
                candidate
                for candidate in path.rglob("*")
                if candidate.is_file()
                and _is_input_file(candidate)
                and not any(part.startswith(".") for part in candidate.relative_to(path).parts)
            )
            if not walked:
                raise InputError(
                    message(
                        "{path}: 이 폴더에는 .json, .yaml, .yml 파일이 없습니다",
                        "{path}: no .json, .yaml or .yml files in this folder",
                        path=str(path),
                    )
                )
            found.extend((candidate, False) for candidate in walked)
            if len(found) > most:
                raise InputError(f"{path}: more than {most:,} input files; name a narrower folder")
        elif path.is_file():
            found.append((path, True))
        elif path.exists():
            raise InputError(
                message(
                    "{path}: 일반 파일도 폴더도 아닙니다",
                    "{path}: not a regular file or folder",
                    path=str(path),
                )
            )
        else:
            raise InputError(
                message(
                    "{path}: 그런 파일이나 폴더가 없습니다", "{path}: no such file or folder", path=str(path)
                )
            )
    return found


def _bad(path: Path, ko: str, en: str, **values: object) -> InputError:
    """'<file>: <problem>' in both languages: the one shape of every input-file error."""
    return InputError(message("{path}: " + ko, "{path}: " + en, path=str(path), **values))


def read_bytes(path: Path) -> bytes:
    """The file's content, gunzipped when it is gzip (by its magic bytes, whatever its name)."""
    chosen = limits()
    limit = chosen.whole_file_bytes
    try:
        if path.stat().st_size > limit:
            raise too_large(path, "holds", limit)
        raw = path.read_bytes()
    except OSError as error:
        raise _bad(
            path, "읽을 수 없습니다({reason})", "cannot read: {reason}", reason=str(error.strerror or error)
        ) from None
    if raw[:2] == _GZIP_MAGIC:
        return gunzip(path, raw, chosen)
    if path.name.lower().endswith(".gz"):
        raise _bad(path, "이름은 .gz인데 gzip 데이터가 아닙니다", "named .gz but not gzip data")
    return raw


def _text(path: Path, raw: bytes) -> str:
    if b"\x00" in raw[:8192]:
        raise _bad(path, "JSON이나 YAML이 아닌 바이너리 데이터입니다", "binary data, not JSON or YAML")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise _bad(
            path, "UTF-8 텍스트가 아닙니다(바이너리 데이터일 수 있음)", "not UTF-8 text (binary data?)"
        ) from None


def _looks_like_json(raw: bytes) -> bool:
    head = raw.lstrip()[:1]
    return head in (b"{", b"[")


def parse_json(path: Path, raw: bytes) -> Any:
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        raise _bad(
            path,
            "JSON 형식이 잘못되었습니다({line}번째 줄 {column}번째 글자)",  # the parser's words are English
            "not valid JSON: {error}",
            error=str(error),
            line=error.lineno,
            column=error.colno,
        ) from None


def _yaml_problem(path: Path, error: yaml.YAMLError, text: str = "") -> InputError:
    """The parser's complaint, or what it almost always means: a Helm or Go template nobody rendered."""
    if "{{" in text and "}}" in text:
        return _bad(
            path,
            "렌더링하지 않은 템플릿입니다({{ ... }}). 먼저 렌더링하고(`helm template`, `kustomize build`) "
            "그 결과를 스캔하세요",
            "an unrendered template ({{ ... }}); render it first (`helm template`, `kustomize build`) and "
            "scan the output",
        )
    mark = getattr(error, "problem_mark", None)
    problem = getattr(error, "problem", None) or "syntax error"
    line = mark.line + 1 if mark is not None else 0
    return _bad(
        path,
        "YAML 형식이 잘못되었습니다{ko_where}",  # the parser's own words are English: the line says where
        "not valid YAML{where}: {problem}",
        where=f" at line {line}" if line else "",
        ko_where=f"({line}번째 줄)" if line else "",
        problem=str(problem),
    )


def iter_yaml(path: Path, text: str) -> Iterator[Document]:
    """Every document of a multi-document YAML text, with the line it starts on (1-based).

    The text is checked against the limits on its events first, so a bomb builds nothing.
    """
    try:
        check_yaml(path, text, _LOADER, limits())
    except yaml.YAMLError as error:
        raise _yaml_problem(path, error, text) from None
    except RecursionError:
        raise InputError(f"{path}: YAML that cannot be read as data: RecursionError") from None
    loader = _LOADER(text)
    index = 0
    try:
        while loader.check_node():
            node = loader.get_node()
            index += 1
            if node is None:
                continue
            line = node.start_mark.line + 1
            yield Document(loader.construct_document(node), str(path), line, index)
    except yaml.YAMLError as error:
        raise _yaml_problem(path, error, text) from None
    except (RecursionError, ValueError, TypeError) as error:
        raise _bad(
            path,
            "데이터로 읽을 수 없는 YAML입니다: {error}",
            "YAML that cannot be read as data: {error}",
            error=type(error).__name__,
        ) from None
    finally:
        loader.dispose()


def _normalize_encoding(path: Path, raw: bytes) -> bytes:
    """UTF-8 without BOM; UTF-16 with a BOM (PowerShell's `>` writes it) is converted."""
    if raw.startswith(_UTF8_BOM):
        return raw[len(_UTF8_BOM) :]
    if raw.startswith(_UTF16_BOMS):
        try:
            return raw.decode("utf-16").encode("utf-8")
        except UnicodeDecodeError:
            raise _bad(path, "UTF-16 텍스트가 깨졌습니다", "damaged UTF-16 text") from None
    return raw


def read_documents(path: Path) -> list[Document]:
    """All documents in one file: JSON (one document) or YAML (one or more)."""
    raw = _normalize_encoding(path, read_bytes(path))
    if not raw.strip():
        return []
    if _looks_like_json(raw):
        data = parse_json(path, raw)
        check_json(path, data, limits())
        return [Document(data, str(path), 1)]
    return list(iter_yaml(path, _text(path, raw)))
