"""Finding and loading a kubeconfig as kubectl does, with every problem said in one line that names the file.

The Kubernetes client raises whatever its parser raises (a YAML traceback for `garbage: [`, a
KeyError for a context without a cluster), and it silently skips a $KUBECONFIG that names no file.
Here each of those becomes a `KubeconfigError`: one sentence, exit code 2 on the CLI, the same sentence
as an MCP tool error.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import yaml

from kubegap.bilingual import Message, message
from kubegap.errors import KubeconfigError

_DEMO_HINT = "try `kubegap scan --demo` or `kubegap scan --snapshot FILE`"
_DEMO_HINT_KO = "`kubegap scan --demo`나 `kubegap scan --snapshot FILE`로 해 볼 수 있습니다"
_LISTED = 5


def _problem(path: str, ko: str, en: str, **values: object) -> KubeconfigError:
    said = message(
        "kubeconfig {path}: " + ko + ". " + _DEMO_HINT_KO,
        "kubeconfig {path}: " + en + "; " + _DEMO_HINT,
        path=path,
        **values,
    )
    return KubeconfigError(said)


def resolve_kubeconfig(explicit: str | None) -> str | None:
    """The kubeconfig path(s) to read, as kubectl picks them; None when there is none at all.

    `--kubeconfig` must exist. $KUBECONFIG is read now (MCP hosts and tests change it); a
    colon-separated value keeps the files that exist, as kubectl merges them, but a value that names
    no existing file at all is an error that says so, not a silent fall back to ~/.kube/config.
    """
    if explicit:
        path = Path(explicit).expanduser()
        if not path.is_file():
            raise _problem(explicit, "파일이 없습니다", "the file does not exist")
        return str(path)
    from_env = os.environ.get("KUBECONFIG", "")
    if from_env:
        named = [str(Path(part).expanduser()) for part in from_env.split(os.pathsep) if part]
        existing = [part for part in named if Path(part).is_file()]
        if existing:
            return os.pathsep.join(existing)
        if named:
            raise _problem(
                from_env, "KUBECONFIG가 가리키는 파일이 없습니다", "KUBECONFIG names no file that exists"
            )
    default = Path("~/.kube/config").expanduser()
    return str(default) if default.is_file() else None


def _read(path: str) -> dict[str, Any]:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise _problem(path, "UTF-8 텍스트가 아닙니다", "not UTF-8 text") from None
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise _problem(
            path, "읽을 수 없습니다({reason})", "cannot be read ({reason})", reason=reason
        ) from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 0
        where = f" (line {line})" if line else ""
        ko_where = f"({line}번째 줄)" if line else ""
        raise _problem(
            path,
            "YAML 형식이 잘못되었습니다{ko_where}",
            "is not valid YAML{where}",
            where=where,
            ko_where=ko_where,
        ) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise _problem(path, "YAML 매핑이 아닙니다", "is not a YAML mapping")
    return data


def _names(entries: object) -> list[str]:
    if not isinstance(entries, list):
        return []
    return [str(entry.get("name")) for entry in entries if isinstance(entry, dict) and entry.get("name")]


def check_kubeconfig(path: str, context: str | None) -> str:
    """Read the file(s) as kubectl merges them and return the context to use, or raise one clear line."""
    files = [part for part in path.split(os.pathsep) if part]
    merged: dict[str, list[object]] = {"contexts": [], "clusters": [], "users": []}
    current = ""
    for file in files:
        data = _read(file)
        for key in merged:
            entries = data.get(key)
            if entries is not None and not isinstance(entries, list):
                raise _problem(file, "{key}가 목록이 아닙니다", "{key} is not a list", key=key)
            merged[key] += entries or []
        current = current or str(data.get("current-context") or "")
    contexts = _names(merged["contexts"])
    known = ", ".join(contexts[:_LISTED]) + (" …" if len(contexts) > _LISTED else "")
    if not contexts:
        raise _problem(path, "컨텍스트가 하나도 없습니다", "defines no context")
    chosen = context or current
    if not chosen:
        raise _problem(
            path,
            "current-context가 없습니다. --context로 고르세요(컨텍스트: {known})",
            "sets no current-context; pass --context (contexts: {known})",
            known=known,
        )
    if chosen not in contexts:
        raise _problem(
            path,
            "없는 컨텍스트입니다: {chosen} (있는 것: {known})",
            "has no context {chosen} (contexts: {known})",
            chosen=repr(chosen[:80]),
            known=known,
        )
    entry = next(e for e in merged["contexts"] if isinstance(e, dict) and e.get("name") == chosen)
    body = entry.get("context") if isinstance(entry, dict) else None
    cluster = body.get("cluster") if isinstance(body, dict) else None
    if not cluster or str(cluster) not in _names(merged["clusters"]):
        raise _problem(
            path,
            "컨텍스트 {chosen}에 적힌 클러스터가 정의되어 있지 않습니다: {cluster}",
            "context {chosen} names cluster {cluster}, which is not defined",
            chosen=repr(chosen[:80]),
            cluster=repr(str(cluster)[:80]),
        )
    return chosen


def load_error(path: str, context: str | None, error: BaseException) -> KubeconfigError:
    """What the Kubernetes client raised while loading (a bad certificate, an exec plugin), in one line."""
    first = (" ".join(str(error).split()) or type(error).__name__)[:300]
    where: Message = message("", "")
    if context:
        where = message("컨텍스트 {context}: ", "context {context}: ", context=repr(context[:80]))
    return _problem(
        path,
        "{ko_where}쓸 수 없습니다({reason})",
        "{en_where}cannot be used: {reason}",
        ko_where=where.render("ko"),
        en_where=str(where),
        reason=first,
    )


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(" ".join(record.getMessage().split()))


@contextmanager
def client_errors() -> Iterator[list[str]]:
    """Errors the Kubernetes client only logs while loading (a failing exec plugin), collected.

    The client logs `exec: process returned 1` and goes on without credentials, so the scan would
    fail later with a misleading "unauthorized". Collecting the log lets the loader say what broke;
    the root logger's own handlers are set aside meanwhile, so no stray log line reaches the terminal.
    """
    root = logging.getLogger()
    saved, collector = root.handlers[:], _Collect()
    root.handlers = [collector]
    try:
        yield collector.messages
    finally:
        root.handlers = saved


def exec_error(path: str, context: str, messages: list[str]) -> KubeconfigError:
    """The credentials plugin of the context failed while the kubeconfig was loaded."""
    return _problem(
        path,
        "컨텍스트 {context}의 자격 증명 플러그인(exec)이 실패했습니다: {reason}",
        "the credential plugin (exec) of context {context} failed: {reason}",
        context=repr(context[:80]),
        reason="; ".join(messages)[:300],
    )
