"""Tolerant field access: real objects carry strings where lists belong, nulls, and odd quantities.

Every extractor reads raw dicts through these helpers so that an ill-typed field is treated as
absent instead of raising: one malformed object must never take a whole scan down.
"""

from __future__ import annotations

import re
from typing import Any

from kubegap.checker.finding import ObjectRef
from kubegap.checker.snapshot import KubeObject, place_of

_QUANTITY = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*([a-zA-Z]*)\s*$")
_SUFFIX = {
    "": 1.0,
    "m": 0.001,
    "k": 1e3,
    "M": 1e6,
    "G": 1e9,
    "T": 1e12,
    "Ki": 1024.0,
    "Mi": 1024.0**2,
    "Gi": 1024.0**3,
    "Ti": 1024.0**4,
}


def mapping(value: Any) -> dict[str, Any]:
    """The value if it is a dict, else an empty dict."""
    return value if isinstance(value, dict) else {}


def items(value: Any) -> list[dict[str, Any]]:
    """The dict elements of a list; anything else (a string, a dict, None) counts as absent."""
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, dict)]


def strings(value: Any) -> list[str]:
    """The scalar elements of a list as strings; a lone string stays a one-element list."""
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list):
        return []
    return [str(item) for item in value if isinstance(item, str | int | float)]


def dig(obj: Any, *path: str) -> Any:
    """obj[path[0]][path[1]]..., or None as soon as a step is not a dict."""
    current = obj
    for step in path:
        if not isinstance(current, dict):
            return None
        current = current.get(step)
    return current


def integer(value: Any, default: int = 0) -> int:
    """An int from an int, a float or a numeric string; the default otherwise (bools are not ints)."""
    if isinstance(value, bool):
        return default
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value)
    if isinstance(value, str):
        parsed = quantity(value)
        return int(parsed) if parsed is not None else default
    return default


def quantity(value: Any) -> float | None:
    """A Kubernetes quantity ('8', '500m', '64Gi') as a number; None when unreadable."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if not isinstance(value, str):
        return None
    match = _QUANTITY.match(value)
    if match is None or match.group(2) not in _SUFFIX:
        return None
    return float(match.group(1)) * _SUFFIX[match.group(2)]


def percent_or_count(value: Any, total: int) -> float | None:
    """An intstr such as '25%' or 3, as a fraction of `total` (None when unreadable or total is 0)."""
    if isinstance(value, str) and value.strip().endswith("%"):
        number = quantity(value.strip()[:-1])
        return None if number is None else number / 100.0
    count = quantity(value) if isinstance(value, str) else value
    if isinstance(count, bool) or not isinstance(count, int | float) or total <= 0:
        return None
    return float(count) / total


def metadata(obj: KubeObject) -> dict[str, Any]:
    return mapping(obj.get("metadata"))


def name_of(obj: KubeObject) -> str:
    """metadata.name, or generateName for objects meant for `kubectl create` (shown as 'prefix-')."""
    meta = metadata(obj)
    return str(meta.get("name") or meta.get("generateName") or "")


def namespace_of(obj: KubeObject) -> str:
    return str(metadata(obj).get("namespace") or "")


def labels_of(obj: KubeObject) -> dict[str, str]:
    return {str(key): str(value) for key, value in mapping(metadata(obj).get("labels")).items()}


def annotations_of(obj: KubeObject) -> dict[str, str]:
    return {str(key): str(value) for key, value in mapping(metadata(obj).get("annotations")).items()}


def ref(obj: KubeObject) -> ObjectRef:
    """The ObjectRef of a raw object, with the file, line and document a manifest object came from."""
    place = place_of(obj)
    return ObjectRef(
        kind=str(obj.get("kind") or ""),
        name=name_of(obj),
        namespace=namespace_of(obj),
        api_version=str(obj.get("apiVersion") or ""),
        source_file=place[0] if place else "",
        source_line=place[1] if place else 0,
        source_document=place[2] if place else 0,
    )


def controller_owner(obj: KubeObject) -> dict[str, Any] | None:
    """The ownerReference marked as controller (or the only one), if any. Hot path: one call per pod."""
    meta = obj.get("metadata")
    owners = meta.get("ownerReferences") if isinstance(meta, dict) else None
    if not owners or not isinstance(owners, list):
        return None
    found = [owner for owner in owners if isinstance(owner, dict)]
    for owner in found:
        if owner.get("controller") is True:
            return owner
    return found[0] if len(found) == 1 else None
