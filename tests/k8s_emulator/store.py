"""Objects the emulator serves, indexed by resource and namespace, plus fixture loading and selectors."""

from __future__ import annotations

import base64
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import orjson
import yaml

from .catalog import BUILT_IN, KNOWN_CUSTOM, ApiResource, from_definition, guess, preferred_first

_BUILT_IN_GROUPS = {resource.group for resource in BUILT_IN}


def load_objects(path: str | Path) -> list[dict[str, Any]]:
    """Objects from a kubectl List (JSON or YAML), a JSON/YAML list, or multi-document YAML."""
    text = Path(path).read_bytes()
    documents: Iterable[Any] = (
        [orjson.loads(text)] if str(path).endswith(".json") else yaml.safe_load_all(text.decode())
    )
    return list(_flatten(documents))


def _flatten(documents: Iterable[Any]) -> Iterator[dict[str, Any]]:
    for document in documents:
        if isinstance(document, list):
            yield from _flatten(document)
        elif (
            isinstance(document, dict)
            and str(document.get("kind", "")).endswith("List")
            and "items" in document
        ):
            yield from _flatten(document["items"] or [])
        elif isinstance(document, dict) and document.get("kind"):
            yield document


def kind_key_of(obj: dict[str, Any]) -> str:
    api_version = str(obj.get("apiVersion", ""))
    group = api_version.rpartition("/")[0]
    return f"{group}/{obj['kind']}" if group else str(obj["kind"])


def _sort_key(obj: dict[str, Any]) -> tuple[str, str]:
    metadata = obj.get("metadata") or {}
    return (str(metadata.get("namespace", "")), str(metadata.get("name", "")))


class ObjectStore:
    """Static cluster state: which resources exist at which versions, and their objects in name order."""

    def __init__(self, objects: Iterable[dict[str, Any]], enabled: Iterable[str] = ()) -> None:
        objects = list(objects)
        by_key: dict[str, list[ApiResource]] = {}
        for resource in BUILT_IN:
            by_key.setdefault(resource.key, []).append(resource)
        for obj in objects:
            if obj.get("kind") == "CustomResourceDefinition":
                for resource in from_definition(obj):
                    by_key.setdefault(resource.key, []).append(resource)
        known = {resource.key: resource for resource in KNOWN_CUSTOM}
        enabled_keys = set(enabled)
        object_keys = {kind_key_of(obj) for obj in objects}
        wanted = enabled_keys | object_keys
        for key in sorted(wanted):
            if key not in by_key and key in known:
                by_key[key] = [known[key]]
            elif key not in by_key and key not in object_keys and "/" in key:
                group, kind = key.rsplit("/", 1)
                by_key[key] = [guess(f"{group}/v1", kind, namespaced=not kind.startswith("Cluster"))]
        grouped: dict[str, list[dict[str, Any]]] = {}
        for obj in objects:
            grouped.setdefault(kind_key_of(obj), []).append(obj)
        for key, members in grouped.items():
            if key not in by_key:
                namespaced = any((obj.get("metadata") or {}).get("namespace") for obj in members)
                by_key[key] = [
                    guess(str(members[0].get("apiVersion", "v1")), str(members[0]["kind"]), namespaced)
                ]
        self.served: dict[tuple[str, str], list[ApiResource]] = {}
        for resources in by_key.values():
            for resource in resources:
                self.served.setdefault((resource.group, resource.version), []).append(resource)
        self._objects: dict[tuple[str, str], list[dict[str, Any]]] = {}
        self._namespaced: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
        for key, members in grouped.items():
            first = by_key[key][0]
            ordered = sorted(members, key=_sort_key)
            self._objects[(first.group, first.name)] = ordered
            for obj in ordered:
                namespace = str((obj.get("metadata") or {}).get("namespace", ""))
                self._namespaced.setdefault((first.group, first.name, namespace), []).append(obj)
        self.resource_version = 1000 + len(objects)

    def groups(self) -> dict[str, list[str]]:
        """Named API groups and their versions, preferred version first."""
        versions: dict[str, list[str]] = {}
        for group, version in self.served:
            if group:
                versions.setdefault(group, []).append(version)
        return {group: preferred_first(found) for group, found in sorted(versions.items())}

    def resource_at(self, group: str, version: str, name: str) -> ApiResource | None:
        for resource in self.served.get((group, version), []):
            if resource.name == name or name in resource.short_names:
                return resource
        return None

    def objects(self, resource: ApiResource, namespace: str | None) -> list[dict[str, Any]]:
        if namespace is None or not resource.namespaced:
            return self._objects.get((resource.group, resource.name), [])
        return self._namespaced.get((resource.group, resource.name, namespace), [])

    def find(self, resource: ApiResource, namespace: str | None, name: str) -> dict[str, Any] | None:
        for obj in self.objects(resource, namespace):
            if (obj.get("metadata") or {}).get("name") == name:
                return obj
        return None

    def present(self, obj: dict[str, Any], resource: ApiResource, *, in_list: bool) -> dict[str, Any]:
        """An object as the API server sends it: built-in list items carry no apiVersion/kind."""
        if in_list and resource.group in _BUILT_IN_GROUPS:
            return {key: value for key, value in obj.items() if key not in ("apiVersion", "kind")}
        return {**obj, "apiVersion": resource.api_version, "kind": resource.kind}


def encode_continue(offset: int, resource_version: int) -> str:
    raw = orjson.dumps({"offset": offset, "rv": resource_version})
    return base64.urlsafe_b64encode(raw).decode()


def decode_continue(token: str) -> int | None:
    """The offset a continue token points at, or None when it is not one of ours."""
    try:
        decoded = orjson.loads(base64.urlsafe_b64decode(token.encode()))
        return int(decoded["offset"])
    except (ValueError, KeyError, TypeError, orjson.JSONDecodeError):
        return None


def matches_labels(obj: dict[str, Any], selector: str) -> bool:
    """Equality-based label selectors: a=b, a==b, a!=b, a, !a (comma means and)."""
    labels = (obj.get("metadata") or {}).get("labels") or {}
    for term in filter(None, (part.strip() for part in selector.split(","))):
        if "!=" in term:
            key, value = term.split("!=", 1)
            if labels.get(key.strip()) == value.strip():
                return False
        elif "=" in term:
            key, value = term.replace("==", "=").split("=", 1)
            if labels.get(key.strip()) != value.strip():
                return False
        elif term.startswith("!"):
            if term[1:] in labels:
                return False
        elif term not in labels:
            return False
    return True


def matches_fields(obj: dict[str, Any], selector: str) -> bool | None:
    """metadata.name / metadata.namespace equality; None when the selector uses another field."""
    metadata = obj.get("metadata") or {}
    for term in filter(None, (part.strip() for part in selector.split(","))):
        negate = "!=" in term
        field_name, _, value = term.replace("!=", "=").replace("==", "=").partition("=")
        if field_name not in ("metadata.name", "metadata.namespace"):
            return None
        actual = str(metadata.get(field_name.split(".")[1], ""))
        if (actual == value) == negate:
            return False
    return True
