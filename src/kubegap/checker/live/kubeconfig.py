"""Finding, reading and merging a kubeconfig as kubectl does, with every problem said in one line.

The Kubernetes client raises whatever its parser raises (a YAML traceback for `garbage: [`, a
RecursionError for deep nesting, a KeyError for a context without a cluster), and it silently skips
a $KUBECONFIG that names no file. Here the files are read by kubegap, bounded in size and nesting,
merged by kubectl's rule (the first file to define a name wins), and the one context used is handed
on as a small kubeconfig of its own (`ChosenContext.as_config`), with every file it names made
absolute. Each problem is a `KubeconfigError`: one sentence, exit code 2 on the CLI, the same
sentence as an MCP tool error, redacted, and never quoting a credential.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from kubegap.bilingual import Message, message
from kubegap.checker.sources._limits import Limits, check_yaml
from kubegap.errors import InputError, KubeconfigError
from kubegap.redaction import redact_text

_DEMO_HINT = "try `kubegap scan --demo` or `kubegap scan --snapshot FILE`"
_DEMO_HINT_KO = "`kubegap scan --demo`나 `kubegap scan --snapshot FILE`로 해 볼 수 있습니다"
_LISTED = 5
KUBECONFIG_BYTES = 16 << 20  # a kubeconfig is a few KiB; one with 1,000 contexts and their certificates fits
_LIMITS = Limits(depth=50, string_chars=KUBECONFIG_BYTES, alias_values=100_000)
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# Fields that name a file, resolved against the folder of the file that defines them, as kubectl does.
_CLUSTER_FILES = ("certificate-authority",)
_USER_FILES = ("client-certificate", "client-key", "tokenFile")


def problem(path: str, ko: str, en: str, **values: object) -> KubeconfigError:
    """A kubeconfig problem in one line that names the file; text from outside goes through `clean`."""
    said = message(
        "kubeconfig {path}: " + ko + ". " + _DEMO_HINT_KO,
        "kubeconfig {path}: " + en + "; " + _DEMO_HINT,
        path=path,
        **values,
    )
    return KubeconfigError(said)


def clean(text: object, limit: int = 300) -> str:
    """Text from outside (a library's exception, a plugin's stderr) as one redacted line."""
    return redact_text(" ".join(str(text).split()), limit=limit)


def resolve_kubeconfig(explicit: str | None) -> str | None:
    """The kubeconfig path(s) to read, as kubectl picks them; None when there is none at all.

    `--kubeconfig` must exist. $KUBECONFIG is read now (MCP hosts and tests change it); a
    colon-separated value keeps the files that exist, as kubectl merges them, but a value that names
    no existing file at all is an error that says so, not a silent fall back to ~/.kube/config.
    """
    if explicit:
        path = Path(explicit).expanduser()
        if not path.is_file():
            if path.exists() and not path.is_dir():
                raise problem(explicit, "일반 파일이 아닙니다", "is not a regular file")
            raise problem(explicit, "파일이 없습니다", "the file does not exist")
        return str(path)
    from_env = os.environ.get("KUBECONFIG", "")
    if from_env:
        named = [str(Path(part).expanduser()) for part in from_env.split(os.pathsep) if part]
        existing = [part for part in named if Path(part).is_file()]
        if existing:
            return os.pathsep.join(existing)
        if named:
            raise problem(
                from_env, "KUBECONFIG가 가리키는 파일이 없습니다", "KUBECONFIG names no file that exists"
            )
    default = Path("~/.kube/config").expanduser()
    return str(default) if default.is_file() else None


def read_kubeconfig(path: str) -> dict[str, Any]:
    """One kubeconfig file as a mapping; bounded in size, nesting and aliases before it is built."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(KUBECONFIG_BYTES + 1)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise problem(
            path, "읽을 수 없습니다({reason})", "cannot be read ({reason})", reason=reason
        ) from None
    if len(raw) > KUBECONFIG_BYTES:
        raise problem(path, "16 MiB보다 큽니다", "is larger than 16 MiB")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise problem(path, "UTF-8 텍스트가 아닙니다", "not UTF-8 text") from None
    try:
        check_yaml(Path(path), text, _LOADER, _LIMITS)
        data = yaml.load(text, Loader=_LOADER)
    except InputError as error:  # nesting, aliases: the limit's own words, after the path
        reason = str(error).removeprefix(f"{path}: ")
        raise problem(path, "YAML로 읽지 않았습니다({reason})", "{reason}", reason=reason) from None
    except yaml.YAMLError as error:
        if "nesting depth" in str(getattr(error, "problem", "")):  # libyaml's own limit, met first
            raise problem(
                path,
                "YAML로 읽지 않았습니다({reason})",
                "{reason}",
                reason=f"YAML nested more than {_LIMITS.depth} levels deep",
            ) from None
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 0
        where = f" (line {line})" if line else ""
        ko_where = f"({line}번째 줄)" if line else ""
        raise problem(
            path,
            "YAML 형식이 잘못되었습니다{ko_where}",
            "is not valid YAML{where}",
            where=where,
            ko_where=ko_where,
        ) from None
    except (RecursionError, ValueError, TypeError) as error:
        reason = type(error).__name__
        raise problem(
            path, "데이터로 읽을 수 없습니다({reason})", "cannot be read as data ({reason})", reason=reason
        ) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise problem(path, "YAML 매핑이 아닙니다", "is not a YAML mapping")
    return data


@dataclass(frozen=True)
class Entry:
    """A named cluster or user entry and the file that defined it (its folder anchors relative paths)."""

    name: str
    body: dict[str, Any] = field(default_factory=dict)
    file: str = ""


@dataclass(frozen=True)
class ChosenContext:
    """The one context a client uses: its name, its cluster and user entries, and where they came from."""

    path: str  # the file(s) read, as given (':'-joined for a $KUBECONFIG list)
    name: str
    cluster: Entry
    user: Entry
    namespace: str = ""

    def as_config(self, user: dict[str, Any]) -> dict[str, Any]:
        """A kubeconfig with only this context, `user` as its credentials, every file path absolute."""
        context: dict[str, Any] = {"cluster": self.cluster.name, "user": self.user.name or "-"}
        if self.namespace:
            context["namespace"] = self.namespace
        return {
            "apiVersion": "v1",
            "kind": "Config",
            "clusters": [
                {
                    "name": self.cluster.name,
                    "cluster": absolute(self.cluster.body, _CLUSTER_FILES, self.cluster.file),
                }
            ],
            "users": [{"name": self.user.name or "-", "user": user}],
            "contexts": [{"name": self.name, "context": context}],
            "current-context": self.name,
        }


def absolute(body: dict[str, Any], keys: tuple[str, ...], file: str) -> dict[str, Any]:
    """`body` with the file paths under `keys` made absolute against the folder of `file`."""
    folder = os.path.dirname(os.path.abspath(file)) if file else os.getcwd()
    made = dict(body)
    for key in keys:
        value = made.get(key)
        if isinstance(value, str) and value:
            made[key] = os.path.normpath(os.path.join(folder, value))
    return made


def _merged(path: str) -> tuple[dict[str, list[tuple[dict[str, Any], str]]], str]:
    """Every named entry of the file(s), in order, with the file it came from; and the current-context."""
    merged: dict[str, list[tuple[dict[str, Any], str]]] = {"contexts": [], "clusters": [], "users": []}
    current = ""
    for file in [part for part in path.split(os.pathsep) if part]:
        data = read_kubeconfig(file)
        for key, found in merged.items():
            entries = data.get(key)
            if entries is not None and not isinstance(entries, list):
                raise problem(file, "{key}가 목록이 아닙니다", "{key} is not a list", key=key)
            found += [(entry, file) for entry in entries or [] if isinstance(entry, dict)]
        current = current or str(data.get("current-context") or "")
    return merged, current


def _first(entries: list[tuple[dict[str, Any], str]], name: str) -> tuple[dict[str, Any], str] | None:
    return next(((entry, file) for entry, file in entries if str(entry.get("name")) == name), None)


def context_names(path: str) -> tuple[list[str], str]:
    """The context names of the file(s) in order, each once, and the current-context."""
    merged, current = _merged(path)
    names = [str(entry["name"]) for entry, _ in merged["contexts"] if entry.get("name")]
    return list(dict.fromkeys(names)), current


def choose_context(path: str, context: str | None) -> ChosenContext:
    """Read the file(s) as kubectl merges them and return the context to use, or raise one clear line."""
    merged, current = _merged(path)
    contexts = list(dict.fromkeys(str(entry["name"]) for entry, _ in merged["contexts"] if entry.get("name")))
    known = ", ".join(contexts[:_LISTED]) + (" …" if len(contexts) > _LISTED else "")
    if not contexts:
        raise problem(path, "컨텍스트가 하나도 없습니다", "defines no context")
    chosen = context or current
    if not chosen:
        raise problem(
            path,
            "current-context가 없습니다. --context로 고르세요(컨텍스트: {known})",
            "sets no current-context; pass --context (contexts: {known})",
            known=known,
        )
    found = _first(merged["contexts"], chosen)
    if found is None:
        raise problem(
            path,
            "없는 컨텍스트입니다: {chosen} (있는 것: {known})",
            "has no context {chosen} (contexts: {known})",
            chosen=repr(chosen[:80]),
            known=known,
        )
    body = found[0].get("context")
    body = body if isinstance(body, dict) else {}
    cluster_name, user_name = str(body.get("cluster") or ""), str(body.get("user") or "")
    cluster = _first(merged["clusters"], cluster_name) if cluster_name else None
    if cluster is None or not isinstance(cluster[0].get("cluster"), dict):
        raise problem(
            path,
            "컨텍스트 {chosen}에 적힌 클러스터가 정의되어 있지 않습니다: {cluster}",
            "context {chosen} names cluster {cluster}, which is not defined",
            chosen=repr(chosen[:80]),
            cluster=repr(cluster_name[:80]),
        )
    if not str(cluster[0]["cluster"].get("server") or "").strip():  # the client would send to no host at all
        raise problem(
            path,
            "클러스터 {cluster}에 server가 없습니다",
            "cluster {cluster} has no server",
            cluster=repr(cluster_name[:80]),
        )
    user = Entry(user_name)
    if user_name:
        found_user = _first(merged["users"], user_name)
        if found_user is None:
            raise problem(
                path,
                "컨텍스트 {chosen}에 적힌 사용자가 정의되어 있지 않습니다: {user}",
                "context {chosen} names user {user}, which is not defined",
                chosen=repr(chosen[:80]),
                user=repr(user_name[:80]),
            )
        user_body = found_user[0].get("user")
        user = Entry(user_name, dict(user_body) if isinstance(user_body, dict) else {}, found_user[1])
    return ChosenContext(
        path,
        chosen,
        Entry(cluster_name, dict(cluster[0]["cluster"]), cluster[1]),
        user,
        str(body.get("namespace") or ""),
    )


def load_error(path: str, context: str | None, error: BaseException) -> KubeconfigError:
    """What the Kubernetes client raised while loading (a bad certificate), in one redacted line."""
    where: Message = message("", "")
    if context:
        where = message("컨텍스트 {context}: ", "context {context}: ", context=repr(context[:80]))
    return problem(
        path,
        "{ko_where}쓸 수 없습니다({reason})",
        "{en_where}cannot be used: {reason}",
        ko_where=where.render("ko"),
        en_where=str(where),
        reason=clean(error) or type(error).__name__,
    )
