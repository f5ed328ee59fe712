"""Resource paths of the emulated API server: resource lists, LIST with paging, GET, and Table output."""

from __future__ import annotations

from typing import Any

from .catalog import ApiResource
from .store import ObjectStore, decode_continue, encode_continue, matches_fields, matches_labels

_REASONS = {
    400: "BadRequest",
    401: "Unauthorized",
    403: "Forbidden",
    404: "NotFound",
    405: "MethodNotAllowed",
    410: "Expired",
    429: "TooManyRequests",
    500: "InternalError",
    503: "ServiceUnavailable",
}

Reply = tuple[int, dict[str, Any]]


def status_body(code: int, message: str) -> dict[str, Any]:
    """A metav1.Status, the body every Kubernetes error carries."""
    return {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": message,
        "reason": _REASONS.get(code, "Unknown"),
        "code": code,
    }


def respond_api_path(
    store: ObjectStore, group: str, version: str, rest: list[str], query: dict[str, str], accept: str
) -> Reply:
    """Answer /api/<v>/... or /apis/<group>/<v>/... for the given path remainder."""
    served = store.served.get((group, version))
    group_version = f"{group}/{version}" if group else version
    if served is None:
        return 404, status_body(404, f"the server could not find the requested resource ({group_version})")
    if not rest:
        return 200, {
            "kind": "APIResourceList",
            "apiVersion": "v1",
            "groupVersion": group_version,
            "resources": [resource.discovery_entry() for resource in served],
        }
    if rest[0] == "watch" or query.get("watch") in ("true", "1"):
        return 405, status_body(405, "the emulator does not serve watches")
    namespace: str | None = None
    if rest[0] == "namespaces" and len(rest) >= 3:
        namespace, rest = rest[1], rest[2:]
    resource = store.resource_at(group, version, rest[0])
    if resource is None or resource.name != rest[0] or len(rest) > 2:
        return 404, status_body(404, f"the server could not find the requested resource ({'/'.join(rest)})")
    if namespace is not None and not resource.namespaced:
        return 404, status_body(404, f"{resource.name} is not namespaced")
    if len(rest) == 2:
        return _get_one(store, resource, namespace, rest[1], accept, query)
    return _list(store, resource, namespace, query, accept)


def _get_one(
    store: ObjectStore,
    resource: ApiResource,
    namespace: str | None,
    name: str,
    accept: str,
    query: dict[str, str],
) -> Reply:
    if resource.namespaced and namespace is None:
        return 404, status_body(
            404, f"{resource.name} is namespaced: use /namespaces/<namespace>/{resource.name}"
        )
    found = store.find(resource, namespace, name)
    if found is None:
        return 404, status_body(404, f'{resource.name} "{name}" not found')
    if "as=Table" in accept:
        return 200, _table(store, resource, [found], {}, query)
    return 200, store.present(found, resource, in_list=False)


def _list(
    store: ObjectStore, resource: ApiResource, namespace: str | None, query: dict[str, str], accept: str
) -> Reply:
    objects = store.objects(resource, namespace)
    if query.get("labelSelector"):
        objects = [obj for obj in objects if matches_labels(obj, query["labelSelector"])]
    if query.get("fieldSelector"):
        selected = [matches_fields(obj, query["fieldSelector"]) for obj in objects]
        if any(verdict is None for verdict in selected):
            return 400, status_body(400, f"field label not supported: {query['fieldSelector']}")
        objects = [obj for obj, verdict in zip(objects, selected, strict=True) if verdict]
    offset = 0
    if query.get("continue"):
        decoded = decode_continue(query["continue"])
        if decoded is None:
            return 400, status_body(400, "invalid continue token")
        offset = decoded
    limit = int(query["limit"]) if query.get("limit", "").isdigit() and int(query["limit"]) > 0 else 0
    end = offset + limit if limit else len(objects)
    page = objects[offset:end]
    metadata: dict[str, Any] = {"resourceVersion": str(store.resource_version)}
    if end < len(objects):
        metadata["continue"] = encode_continue(end, store.resource_version)
        metadata["remainingItemCount"] = len(objects) - end
    if "as=Table" in accept:
        return 200, _table(store, resource, page, metadata, query)
    return 200, {
        "kind": f"{resource.kind}List",
        "apiVersion": resource.api_version,
        "metadata": metadata,
        "items": [store.present(obj, resource, in_list=True) for obj in page],
    }


def _table(
    store: ObjectStore,
    resource: ApiResource,
    objects: list[dict[str, Any]],
    metadata: dict[str, Any],
    query: dict[str, str],
) -> dict[str, Any]:
    """The minimal meta.k8s.io/v1 Table kubectl prints by default: name and creation time."""
    include = query.get("includeObject", "Metadata")
    rows = []
    for obj in objects:
        meta = obj.get("metadata") or {}
        row: dict[str, Any] = {"cells": [meta.get("name", ""), meta.get("creationTimestamp") or "<unknown>"]}
        if include == "Object":
            row["object"] = store.present(obj, resource, in_list=False)
        elif include != "None":
            row["object"] = {
                "kind": "PartialObjectMetadata",
                "apiVersion": "meta.k8s.io/v1",
                "metadata": meta,
            }
        rows.append(row)
    return {
        "kind": "Table",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": metadata,
        "columnDefinitions": [
            {"name": "Name", "type": "string", "format": "name", "description": "Name", "priority": 0},
            {
                "name": "Created At",
                "type": "date",
                "format": "",
                "description": "Creation time",
                "priority": 0,
            },
        ],
        "rows": rows,
    }
