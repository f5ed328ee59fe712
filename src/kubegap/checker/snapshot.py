"""One snapshot model for every source: live cluster, snapshot files and manifests all become this.

Objects are kept as plain dicts (as the API server returns them) grouped by kind key. `coverage` says,
for every kind a check may need, whether it was read and if not why: a check never passes on data
that was never seen.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

KubeObject = dict[str, Any]
Place = tuple[str, int, int]  # a manifest object's file, line (1-based, 0 unknown) and document (from 1)


class LocatedObject(dict[str, Any]):
    """A manifest object that remembers the file, line and document it was read from.

    It is the object's own dict (a shallow copy, made once at intake), so every extractor and check
    reads it as before, and `ref()` gives each finding the place of the very object it is about: two
    files that define the same kind, namespace and name keep their own places.
    """

    __slots__ = ("place",)

    def __init__(self, obj: dict[str, Any], place: Place) -> None:
        super().__init__(obj)
        self.place = place


def place_of(obj: object) -> Place | None:
    """Where a manifest object came from, when it was read from a file; None otherwise."""
    return obj.place if isinstance(obj, LocatedObject) else None


class Coverage(StrEnum):
    read = "read"  # listed completely
    absent = "absent"  # the API does not serve this kind (CRD not installed) or manifests lack it
    forbidden = "forbidden"  # 401/403
    failed = "failed"  # timed out, 5xx after retries, unparsable
    malformed = "malformed"  # the body was not a list of objects (items of the wrong shape)
    partial = "partial"  # listing stopped before the end (a page, byte or time limit, or an error mid-way)
    not_collected = "not-collected"  # the source did not try (e.g. a snapshot file without it)


# What keeps a verdict from being pass or not-applicable: the kind exists (or may exist) but was not
# seen whole. `absent` is not here: a kind the server does not serve holds no counter-example.
UNREADABLE = frozenset(
    {Coverage.forbidden, Coverage.failed, Coverage.malformed, Coverage.partial, Coverage.not_collected}
)


@dataclass(frozen=True)
class KindCoverage:
    status: Coverage
    detail: str = ""


# Workload kinds first served by `extensions` and moved to `apps`: old manifests still use the old
# group, and every check reads them as the same kind (the object keeps its own apiVersion).
_MOVED_TO_APPS = frozenset({"DaemonSet", "Deployment", "ReplicaSet"})


def kind_key(api_version: str, kind: str) -> str:
    """Stable key for a kind regardless of version: 'Pod', 'apps/DaemonSet', 'jobset.x-k8s.io/JobSet'."""
    group = api_version.split("/")[0] if "/" in api_version else ""
    if group == "extensions" and kind in _MOVED_TO_APPS:
        group = "apps"
    return f"{group}/{kind}" if group else kind


@dataclass
class Snapshot:
    """Everything a scan could read, and what it could not."""

    objects: dict[str, list[KubeObject]] = field(default_factory=dict)
    coverage: dict[str, KindCoverage] = field(default_factory=dict)
    source: str = ""  # human description: "live: context prod (~/.kube/config)", "snapshot: x.json"
    mode: str = "snapshot"  # live | snapshot | manifests | demo
    requests: int = 0  # API requests made (live only)
    context: str = ""  # live only: the kubeconfig context used
    kubeconfig: str = ""  # live only: the kubeconfig file used
    created_at: str = ""  # ISO 8601 UTC time the cluster was read (snapshot files keep the original)
    notes: list[str] = field(default_factory=list)  # what a source skipped or noticed, shown in reports
    event_window: int = 0  # seconds of Events the source kept (symptoms); 0: not said, the default
    # symptom signals matched in pod logs (--logs only): in memory, never written to a snapshot file
    log_signals: list[Any] = field(default_factory=list)
    # manifests mode: files found in a folder that could not be parsed; the scan is incomplete
    skipped_files: list[str] = field(default_factory=list)
    # manifests mode: (kind key, namespace, name) and (kind, namespace, name) -> the first place that
    # defined it, for findings whose ObjectRef was built by hand (`ref()` carries the exact place)
    locations: dict[tuple[str, str, str], Place] = field(default_factory=dict)

    def add(self, obj: KubeObject) -> None:
        key = kind_key(str(obj.get("apiVersion", "")), str(obj.get("kind", "")))
        self.objects.setdefault(key, []).append(obj)
        self.coverage.setdefault(key, KindCoverage(Coverage.read))

    def of(self, key: str) -> list[KubeObject]:
        return self.objects.get(key, [])

    def kinds(self) -> Iterable[str]:
        return self.objects.keys()

    def status_of(self, key: str) -> KindCoverage:
        """Coverage of a kind; in manifests mode an unseen kind is absent, elsewhere not collected."""
        found = self.coverage.get(key)
        if found is not None:
            return found
        if key in self.objects:
            return KindCoverage(Coverage.read)
        if self.mode == "manifests":
            return KindCoverage(Coverage.absent, "not in the given manifests")
        return KindCoverage(Coverage.not_collected, "not in this snapshot")

    def __iter__(self) -> Iterator[KubeObject]:
        for items in self.objects.values():
            yield from items
