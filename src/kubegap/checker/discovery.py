"""Which kinds this API server serves, where to list them, and whether they are namespaced.

Plain group/version discovery (`/api`, `/api/v1`, `/apis`, `/apis/<group>/<version>`), asked only for
the groups a scan needs, so a cluster with hundreds of CRD groups costs a handful of requests. Each
group is read at its preferred version; a kind missing there is looked for in the group's other versions,
because some CRDs keep an old kind only in an older version.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from kubegap.checker.client import ApiError, ReadOnlyClient
from kubegap.checker.snapshot import kind_key


@dataclass(frozen=True)
class Resource:
    """One listable resource, e.g. key 'apps/DaemonSet' at /apis/apps/v1/daemonsets."""

    key: str
    group: str
    version: str
    name: str  # the plural resource name in URLs
    kind: str
    namespaced: bool

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    def list_path(self, namespace: str | None = None) -> str:
        base = f"/apis/{self.group}/{self.version}" if self.group else f"/api/{self.version}"
        if namespace is not None and self.namespaced:
            return f"{base}/namespaces/{namespace}/{self.name}"
        return f"{base}/{self.name}"


@dataclass
class Discovery:
    """What discovery found: resources by kind key, and groups whose discovery failed (with why)."""

    resources: dict[str, Resource] = field(default_factory=dict)
    group_errors: dict[str, str] = field(default_factory=dict)

    def find(self, key: str) -> Resource | None:
        return self.resources.get(key)

    def failure_for(self, key: str) -> str | None:
        """Why a kind's group could not be discovered, if that is the reason it is missing."""
        return self.group_errors.get(group_of(key))


def group_of(key: str) -> str:
    """'apps/DaemonSet' -> 'apps'; 'Pod' -> '' (the core group)."""
    return key.rsplit("/", 1)[0] if "/" in key else ""


def kind_of(key: str) -> str:
    return key.rsplit("/", 1)[-1]


def discover(client: ReadOnlyClient, keys: Iterable[str]) -> Discovery:
    """Discover the resources behind `keys`; raise ApiError (a ClusterError) if nothing can be read."""
    wanted: dict[str, set[str]] = {}
    for key in keys:
        wanted.setdefault(group_of(key), set()).add(kind_of(key))
    found = Discovery()
    if "" in wanted:
        core = _first_request(client, "/api")
        versions = [str(version) for version in core.get("versions") or []]
        _read_group(client, found, "", versions, wanted[""])
    named = {group: kinds for group, kinds in wanted.items() if group}
    if not named:
        return found
    if "" not in wanted:
        groups = _first_request(client, "/apis")
    else:
        try:
            groups = client.get("/apis")
        except ApiError as error:
            found.group_errors.update(dict.fromkeys(named, error.one_line()))
            return found
    for entry in groups.get("groups") or []:
        name = str(entry.get("name", ""))
        if name not in named:
            continue
        preferred = str((entry.get("preferredVersion") or {}).get("version", ""))
        others = [str(item.get("version", "")) for item in entry.get("versions") or []]
        ordered = [preferred] + [version for version in others if version and version != preferred]
        _read_group(client, found, name, [version for version in ordered if version], named[name])
    return found


def _read_group(
    client: ReadOnlyClient, found: Discovery, group: str, versions: list[str], kinds: set[str]
) -> None:
    """Read versions in order of preference until every wanted kind of the group is placed."""
    missing = set(kinds)
    for version in versions:
        if not missing:
            return
        path = f"/apis/{group}/{version}" if group else f"/api/{version}"
        document = _get_or_none(client, path, found, group)
        if document is None:
            continue
        for resource in _listable(document):
            kind = str(resource.get("kind", ""))
            if kind in missing:
                missing.discard(kind)
                key = kind_key(f"{group}/{version}" if group else version, kind)
                found.resources[key] = Resource(
                    key=key,
                    group=group,
                    version=version,
                    name=str(resource["name"]),
                    kind=kind,
                    namespaced=bool(resource.get("namespaced", False)),
                )


def _listable(document: dict[str, Any]) -> Iterable[dict[str, Any]]:
    """Top-level resources that can be listed (subresources such as pods/log are skipped)."""
    for resource in document.get("resources") or []:
        if not isinstance(resource, dict) or "/" in str(resource.get("name", "/")):
            continue
        verbs = resource.get("verbs")
        if verbs is None or "list" in verbs:
            yield resource


def _first_request(client: ReadOnlyClient, path: str) -> dict[str, Any]:
    """The first request of a scan: any failure here means the cluster cannot be read, in one line."""
    try:
        return client.get(path)
    except ApiError as error:
        # Still an ApiError with its status, so a fleet scan can tell "forbidden" from "unreachable".
        if error.status in (401, 403):
            raise ApiError(
                f"the API server at {client.host} refused discovery ({error.status}); "
                f"check the credentials of {client.describe()}",
                status=error.status,
                path=path,
            ) from None
        raise ApiError(error.one_line(), status=error.status, path=path) from None


def _get_or_none(
    client: ReadOnlyClient, path: str, found: Discovery, group: str = ""
) -> dict[str, Any] | None:
    """A discovery document, or None with the failure remembered (an aggregated API may be down)."""
    try:
        return client.get(path)
    except ApiError as error:
        if error.status != 404:
            found.group_errors.setdefault(group, error.one_line())
        return None
