"""Is this a Kubernetes object, is this a List body? One answer for the live reader and every file source.

A list whose body has the wrong shape (`items` an object, a list of numbers, objects without metadata)
must not be read as "no objects": checks would then say "no GPU nodes, not applicable". The sources
ask these functions and record the kind as `malformed` instead. Each answer is a short reason, or ''
when the shape is fine, so the coverage can say what was wrong.
"""

from __future__ import annotations

from typing import Any

_SAMPLE = 3  # how many bad items a reason names


class MalformedList(Exception):
    """A LIST answer that is not a list of objects; its text is the reason the coverage shows."""


def type_name(value: object) -> str:
    """The JSON name of a value's type, for reasons a user reads ('an object', not 'dict')."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def object_problem(obj: object) -> str:
    """Why an object cannot be used as a Kubernetes object, or '' when it can."""
    if not isinstance(obj, dict):
        return "not a mapping"
    kind, api_version = obj.get("kind"), obj.get("apiVersion")
    if not isinstance(kind, str) or not kind:
        return "no kind"
    if not isinstance(api_version, str) or not api_version:
        return "no apiVersion"
    metadata = obj.get("metadata")
    if not isinstance(metadata, dict):
        return "no metadata"
    name = metadata.get("name") or metadata.get("generateName")
    if not isinstance(name, str) or not name:
        return "no metadata.name"
    namespace = metadata.get("namespace")
    if namespace is not None and not isinstance(namespace, str):
        return "metadata.namespace is not a string"
    for field in ("labels", "annotations"):
        if metadata.get(field) is not None and not isinstance(metadata[field], dict):
            return f"metadata.{field} that is not a mapping"
    for field in ("spec", "status"):
        if obj.get(field) is not None and not isinstance(obj[field], dict):
            return f"{field} that is not a mapping"
    return ""


def list_body_problem(body: object) -> str:
    """Why a LIST answer is not a list of objects at its top level, or '' when `items` can be walked.

    `items: null` is an empty list (Go encodes an empty slice so); a missing `items` is not.
    """
    if not isinstance(body, dict):
        return f"the body is {type_name(body)}, not an object"
    if "items" not in body:
        return "the body has no items"
    items = body["items"]
    if items is not None and not isinstance(items, list):
        return f"items is {type_name(items)}, not a list"
    metadata = body.get("metadata")
    if metadata is not None and not isinstance(metadata, dict):
        return f"metadata is {type_name(metadata)}, not an object"
    return ""


def items_problem(items: list[Any]) -> str:
    """Why some items of a list (already typed with kind and apiVersion) are not objects, or ''."""
    bad = []
    for index, item in enumerate(items):  # the hot path of a live read: no allocation per good item
        problem = object_problem(item)
        if problem:
            bad.append((index, problem))
    if not bad:
        return ""
    named = ", ".join(f"items[{index}]: {problem}" for index, problem in bad[:_SAMPLE])
    more = f" and {len(bad) - _SAMPLE} more" if len(bad) > _SAMPLE else ""
    return f"{len(bad)} of {len(items)} item(s) are not Kubernetes objects ({named}{more})"
