"""Which kinds this API server serves, where to list them, and whether they are namespaced.

Plain group/version discovery (`/api`, `/api/v1`, `/apis`, `/apis/<group>/<version>`), asked only for
the groups a scan needs, so a cluster with hundreds of CRD groups costs a handful of requests. Each
group is read at its preferred version; a kind missing there is looked for in the group's other versions,
because some CRDs keep an old kind only in an older version.

Discovery documents are validated by shape before use (`discovery_shapes.py`), and every group,
version and resource name must pass the Kubernetes name grammar before it becomes part of a path: a
hostile or broken server makes the kinds it describes "malformed", never a traceback and never a
request kubegap did not mean to send.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from kubegap.bilingual import message
from kubegap.checker.live.client import ApiError, MalformedBody, ReadOnlyClient
from kubegap.checker.live.discovery_shapes import ShapeError, api_groups, api_resources, api_versions
from kubegap.checker.names import is_group_name, is_kind_name, is_resource_name, is_version_name
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
    """What discovery found: resources by kind key, and why groups or kinds could not be placed.

    `group_errors` holds groups whose discovery failed (unreachable, 5xx); `malformed` holds groups
    and kind keys whose documents were of the wrong shape or named something outside the grammar.
    """

    resources: dict[str, Resource] = field(default_factory=dict)
    group_errors: dict[str, str] = field(default_factory=dict)
    malformed: dict[str, str] = field(default_factory=dict)

    def find(self, key: str) -> Resource | None:
        return self.resources.get(key)

    def failure_for(self, key: str) -> str | None:
        """Why a kind's group could not be discovered, if that is the reason it is missing."""
        return self.group_errors.get(group_of(key))

    def malformed_for(self, key: str) -> str | None:
        """Why a kind, or its group's documents, could not be trusted, if that is why it is missing."""
        return self.malformed.get(key) or self.malformed.get(f"group:{group_of(key)}")


def group_of(key: str) -> str:
    """'apps/DaemonSet' -> 'apps'; 'Pod' -> '' (the core group)."""
    return key.rsplit("/", 1)[0] if "/" in key else ""


def kind_of(key: str) -> str:
    return key.rsplit("/", 1)[-1]


def discover(client: ReadOnlyClient, keys: Iterable[str], deadline: float | None = None) -> Discovery:
    """Discover the resources behind `keys`; raise ApiError (a ClusterError) if nothing can be read."""
    wanted: dict[str, set[str]] = {}
    for key in keys:
        wanted.setdefault(group_of(key), set()).add(kind_of(key))
    found = Discovery()
    reader = _Reader(client, found, deadline)
    if "" in wanted:
        core = reader.first("/api", "")
        versions = reader.shaped("/api", core, api_versions, "") if core is not None else None
        if versions is not None:
            reader.read_group("", versions, wanted[""])
    named = {group: kinds for group, kinds in wanted.items() if group}
    if not named:
        return found
    if "" in wanted:
        try:
            groups_document: dict[str, Any] | None = client.get("/apis", deadline=deadline)
        except MalformedBody as error:
            found.malformed["group:*"] = error.one_line()
            groups_document = None
        except ApiError as error:
            found.group_errors.update(dict.fromkeys(named, error.one_line()))
            return found
    else:
        groups_document = reader.first("/apis", "*")
    groups = reader.shaped("/apis", groups_document, api_groups, "*") if groups_document is not None else None
    if groups is None:
        reason = found.malformed.pop("group:*", "discovery of /apis failed")
        found.malformed.update({f"group:{group}": reason for group in named})
        return found
    for name, versions in groups:
        if name in named:
            reader.read_group(name, versions, named[name])
    return found


class _Reader:
    """The requests of one discovery, with the failures and malformed answers remembered per group."""

    def __init__(self, client: ReadOnlyClient, found: Discovery, deadline: float | None) -> None:
        self._client = client
        self._found = found
        self._deadline = deadline

    def first(self, path: str, group: str) -> dict[str, Any] | None:
        """The first request of a scan: a failure means the cluster cannot be read at all, in one line.

        A malformed answer is not that: it is remembered for `group` ('*' for all) and None returned.
        """
        try:
            return self._client.get(path, deadline=self._deadline)
        except MalformedBody as error:
            self._found.malformed[f"group:{group}"] = error.one_line()
            return None
        except ApiError as error:
            if error.status in (401, 403):
                # still an ApiError with its status, so a fleet scan can tell forbidden from unreachable
                raise ApiError(
                    message(
                        "{host}의 API 서버가 디스커버리를 거부했습니다({status}). "
                        "{who}의 자격 증명을 확인하세요",
                        "the API server at {host} refused discovery ({status}); "
                        "check the credentials of {who}",
                        host=self._client.host,
                        status=str(error.status),
                        who=self._client.describe(),
                    ),
                    status=error.status,
                    path=path,
                ) from None
            raise ApiError(
                error.args[0] if error.args else str(error), status=error.status, path=path
            ) from None

    def shaped(self, path: str, document: dict[str, Any], shape: Any, group: str) -> Any:
        """`shape(document)`, or None with the group ('*' for every group, for /apis) marked malformed."""
        try:
            return shape(document)
        except ShapeError as error:
            self._found.malformed[f"group:{group}"] = (
                f"GET {path} answered a discovery document of the wrong shape: {error}"
            )
            return None

    def read_group(self, group: str, versions: list[str], kinds: set[str]) -> None:
        """Read versions in order of preference until every wanted kind of the group is placed."""
        if group and not is_group_name(group):
            return  # a name outside the grammar cannot be one this scan asked for
        missing = set(kinds)
        for version in versions:
            if not missing:
                return
            if not is_version_name(version):
                self._mark(
                    group,
                    f"discovery listed version {version[:60]!r} of group {group or 'core'}, "
                    "which is not a valid version name",
                )
                continue
            path = f"/apis/{group}/{version}" if group else f"/api/{version}"
            document = self._get_or_none(path, group)
            if document is None:
                continue
            resources = self.shaped(path, document, api_resources, group)
            if resources is None:
                continue
            for entry in resources:
                if entry.kind not in missing or not is_kind_name(entry.kind):
                    continue
                key = kind_key(f"{group}/{version}" if group else version, entry.kind)
                missing.discard(entry.kind)
                if not is_resource_name(entry.name):
                    self._found.malformed[key] = (
                        f"discovery of {path} named the resource of {entry.kind} {entry.name[:80]!r}, "
                        "which is not a valid Kubernetes resource name; it was not requested"
                    )
                    continue
                self._found.resources[key] = Resource(
                    key=key,
                    group=group,
                    version=version,
                    name=entry.name,
                    kind=entry.kind,
                    namespaced=entry.namespaced,
                )

    def _mark(self, group: str, reason: str) -> None:
        self._found.malformed.setdefault(f"group:{group}", reason)

    def _get_or_none(self, path: str, group: str) -> dict[str, Any] | None:
        """A discovery document, or None with the failure remembered (an aggregated API may be down).

        A 404 is a failure too: `/api` or `/apis` announced this group version, so a document that is
        not there is a read that failed, and the kinds it would have placed are unknown, not absent.
        """
        try:
            return self._client.get(path, deadline=self._deadline)
        except MalformedBody as error:
            self._found.malformed.setdefault(f"group:{group}", error.one_line())
            return None
        except ApiError as error:
            self._found.group_errors.setdefault(group, error.one_line())
            return None
