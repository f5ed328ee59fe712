"""Which API paths kubegap may send, decided on the decoded, normalised path, before any I/O.

The read-only promise lives here and in `client.py`: a path is refused when it names the `secrets`
resource (in any group, namespace or spelling), a watch, or a pod exec/attach/log/proxy subresource.
One narrow exception, only when the user asked for pod logs (`--logs`, `logs=True` here): a GET of
`/api/v1/namespaces/<ns>/pods/<name>/log` with a bounded `tailLines` and `limitBytes` and nothing
but `container` and `previous` besides; any other subresource, resource or parameter stays refused.
Every path kubegap builds comes from names that pass the Kubernetes name grammar (`names.py`), so a path
that needs percent-encoding, `..`, an empty segment or anything outside that grammar is not ours:
it is refused outright rather than decoded and guessed at, which is how `..%2F..%2Fsecrets` from a
hostile discovery document once reached the wire.
"""

from __future__ import annotations

import posixpath
import re
import unicodedata
from collections.abc import Mapping
from urllib.parse import unquote

from kubegap.errors import ClusterError

_REFUSED_SUBRESOURCES = frozenset({"exec", "attach", "log", "portforward", "proxy", "eviction", "binding"})
# One path segment as kubegap ever builds it: API prefixes, DNS group names, versions, plural
# resource names, namespace and object names. No '%', no '/', no whitespace, nothing non-ASCII.
_SEGMENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,252}")
_LONGEST_PATH = 2048


class ReadOnlyViolation(ClusterError):
    """A request kubegap must never send (Secrets, watch, exec, logs); raised before any I/O."""

    code = "read-only-violation"


LOG_PARAMS = frozenset({"tailLines", "limitBytes", "container", "previous"})
MAX_TAIL_LINES = 1000
MAX_LIMIT_BYTES = 1024 * 1024


def check_path(path: str, params: Mapping[str, object] | None = None, *, logs: bool = False) -> None:
    """Refuse any request that could read Secrets, do more than a plain read, or hide what it reads.

    `logs` (the user passed --logs) lets one bounded pod log through (see the module docstring)."""
    shown = _shown(path)
    if not isinstance(path, str) or not path.startswith("/") or len(path) > _LONGEST_PATH:
        raise ReadOnlyViolation(f"refused request path {shown}: give an API path of at most 2,048 characters")
    if "://" in path or "?" in path or "#" in path:
        raise ReadOnlyViolation(f"refused request path {shown}: give an API path without a query string")
    decoded = _fully_decoded(path)
    normalised = posixpath.normpath(decoded)
    segments = [part for part in normalised.strip("/").split("/") if part]
    lowered = [part.casefold() for part in segments]
    if params and any(str(key).casefold() == "watch" for key in params):
        raise ReadOnlyViolation(f"refused watch request for {shown}: kubegap only lists")
    resource, subresource = _resource_of(lowered)
    if resource == "secrets" or (resource is None and "secrets" in lowered):
        raise ReadOnlyViolation(f"refused request for {shown}: kubegap never reads Secrets")
    raw_segments = path.strip("/").split("/") if path.strip("/") else []
    if decoded != path or any(part in {".", ".."} for part in raw_segments):
        raise ReadOnlyViolation(
            f"refused request path {shown}: encoded characters and relative segments are not allowed"
        )
    if "//" in path or any(not _SEGMENT.fullmatch(part) for part in raw_segments):
        raise ReadOnlyViolation(f"refused request path {shown}: a segment is not a Kubernetes name")
    if resource == "watch":
        raise ReadOnlyViolation(f"refused watch request for {shown}: kubegap only lists")
    if subresource == "log" and logs and _bounded_log_request(segments, params):
        return
    if subresource in _REFUSED_SUBRESOURCES:
        raise ReadOnlyViolation(
            f"refused request for {shown}: kubegap never uses the {subresource} subresource"
        )


def _bounded_log_request(segments: list[str], params: Mapping[str, object] | None) -> bool:
    """A core pod's log, tail- and byte-bounded, with no parameter beyond LOG_PARAMS (`follow`, `since`
    and the rest are refused)."""
    shaped = len(segments) == 7 and segments[:3] == ["api", "v1", "namespaces"] and segments[4] == "pods"
    given = dict(params or {})
    if not shaped or segments[6] != "log" or not set(map(str, given)) <= LOG_PARAMS:
        return False
    tail, size = given.get("tailLines"), given.get("limitBytes")
    return (
        isinstance(tail, int)
        and isinstance(size, int)
        and 0 < tail <= MAX_TAIL_LINES
        and 0 < size <= MAX_LIMIT_BYTES
        and given.get("previous", "false") in ("true", "false")
    )


def _fully_decoded(path: str) -> str:
    """Percent-decoding repeated until nothing changes (%252F -> %2F -> /), then NFKC-normalised."""
    current = path
    for _ in range(5):
        decoded = unquote(current)
        if decoded == current:
            break
        current = decoded
    return unicodedata.normalize("NFKC", current)


def _resource_of(segments: list[str]) -> tuple[str | None, str | None]:
    """(resource, subresource) of an API path; (None, None) for non-resource paths such as /version."""
    if segments[:1] == ["api"]:
        rest = segments[2:]
    elif segments[:1] == ["apis"]:
        rest = segments[3:]
    else:
        return None, None
    if not rest:
        return "", None
    if rest[0] == "watch":
        return "watch", None
    if rest[0] == "namespaces" and len(rest) >= 3:
        return rest[2], rest[4] if len(rest) > 4 else None
    return rest[0], rest[2] if len(rest) > 2 else None


def _shown(path: object) -> str:
    """A path as error messages show it: repr, at most 120 characters."""
    text = repr(path)
    return text if len(text) <= 120 else f"{text[:117]}..."
