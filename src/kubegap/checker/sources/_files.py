"""Turning paths into parsed documents: folders walked, gzip opened, JSON or YAML detected by content.

Everything that can go wrong with a file (missing, unreadable, binary, bad gzip, bad JSON or YAML,
past a limit of `_limits`: size, gzip bomb, documents, depth, string size, alias expansion) becomes
one InputError line naming the file. YAML documents keep the line they start on, so findings about
manifest objects can point at them (SARIF).
"""

from __future__ import annotations

import os
import stat
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
FLOW_YAML_BYTES = 4 << 20  # a file that starts like JSON is tried as flow-style YAML up to this size


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


def expand_paths(paths: Sequence[str | Path], outside: list[Path] | None = None) -> list[tuple[Path, bool]]:
    """Files to read, each flagged True when named explicitly (False when found by walking a folder).

    A file found by walking a folder is read only when its real path lies inside that folder: a
    symlink in a checked-out repository can point anywhere (`~/.kube/config`, `/proc/self/environ`),
    and whoever asked for the folder did not ask for that. Such links are left out and, when
    `outside` is given, appended to it so the caller can say so; a file named explicitly is read
    wherever it leads.
    """
    found: list[tuple[Path, bool]] = []
    most = limits().files
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            walked = []
            root = os.path.realpath(path)
            for candidate in _walk(path):
                if _leads_outside(candidate, root):
                    if outside is not None:
                        outside.append(candidate)
                elif candidate.is_file():
                    walked.append(candidate)
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


def _walk(folder: Path) -> list[Path]:
    """Input files (by name) under a folder, sorted, hidden files and folders left out; folders that
    are symlinks are not entered."""
    return sorted(
        candidate
        for candidate in folder.rglob("*")
        if _is_input_file(candidate)
        and not any(part.startswith(".") for part in candidate.relative_to(folder).parts)
    )


def _leads_outside(candidate: Path, root: str) -> bool:
    """True when the file's real path is not inside `root` (the walked folder's real path)."""
    try:
        return not Path(os.path.realpath(candidate)).is_relative_to(root)
    except (OSError, ValueError, RuntimeError):
        return True  # a link that cannot be resolved (a loop) leads nowhere that was asked for


def _bad(path: Path, ko: str, en: str, **values: object) -> InputError:
    """'<file>: <problem>' in both languages: the one shape of every input-file error."""
    return InputError(message("{path}: " + ko, "{path}: " + en, path=str(path), **values))


def read_bytes(path: Path) -> bytes:
    """The file's content, gunzipped when it is gzip (by its magic bytes, whatever its name).

    Only a regular file is read, and never more than the limit: the file is opened without waiting
    (a FIFO would block the open itself) and judged on what it is, not on its name, so a FIFO,
    `/dev/zero` or a link to either is one error line instead of a scan that never ends.
    """
    chosen = limits()
    limit = chosen.whole_file_bytes
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
        with os.fdopen(descriptor, "rb") as file:
            info = os.fstat(file.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise _bad(path, "일반 파일이 아닙니다", "not a regular file")
            if info.st_size > limit:
                raise too_large(path, "holds", limit)
            raw = file.read(limit + 1)
    except OSError as error:
        raise _bad(
            path, "읽을 수 없습니다({reason})", "cannot read: {reason}", reason=str(error.strerror or error)
        ) from None
    if len(raw) > limit:  # it grew while being read
        raise too_large(path, "holds", limit)
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
        try:
            data = parse_json(path, raw)
        except InputError as not_json:
            return _flow_yaml(path, raw, not_json)
        check_json(path, data, limits())
        return [Document(data, str(path), 1)]
    return list(iter_yaml(path, _text(path, raw)))


def _flow_yaml(path: Path, raw: bytes, not_json: InputError) -> list[Document]:
    """A file that starts like JSON but is not: YAML in flow style (`{apiVersion: v1, kind: Pod}`) is
    valid YAML, so it is read as YAML. When that fails too, a file named .json gets the JSON error
    and any other the YAML one (which also recognises an unrendered `{{ template }}`). Large files are
    not tried twice: flow-style manifests are small, and a broken 200 MB dump is simply broken JSON.
    """
    if len(raw) > FLOW_YAML_BYTES:
        raise not_json
    try:
        return list(iter_yaml(path, _text(path, raw)))
    except InputError:
        if path.name.lower().removesuffix(".gz").endswith(".json"):
            raise not_json from None
        raise
