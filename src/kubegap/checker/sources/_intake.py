"""The door every object passes through on its way into a Snapshot, whatever the source.

Secrets never get in: any object of kind Secret is dropped (inside Lists too), and `stringData`, or
`data` on anything but a ConfigMap, is removed. Objects that are not Kubernetes objects (no kind, no
metadata.name) are skipped and counted, so a bad object costs one line in the coverage notes, not the
scan. Objects are kept as parsed, never copied.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from kubegap.checker.snapshot import Coverage, KindCoverage, Snapshot, kind_key

SECRETS_NOTE = "Secrets are never read: any Secret object in the input was dropped unread."
SECRET_KINDS = frozenset({"Secret", "SecretList"})
_LIST_SUFFIX = "List"


def is_list(document: dict[str, Any]) -> bool:
    kind = document.get("kind")
    return isinstance(kind, str) and kind.endswith(_LIST_SUFFIX) and isinstance(document.get("items"), list)


def _problem(obj: object) -> str:
    """Why an object cannot be used, or '' when it can."""
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


class Intake:
    """Collects objects into one Snapshot, dropping Secrets (and duplicates, for snapshots), counting skips.

    Manifests keep same-named objects from different files: examples often reuse a name and are applied
    to different namespaces.
    """

    def __init__(self, snapshot: Snapshot, *, dedupe: bool = True) -> None:
        self.snapshot = snapshot
        self.dedupe = dedupe
        self.skipped: Counter[str] = Counter()
        self.secrets_dropped = 0
        self.duplicates = 0
        self.added = 0
        self._seen: set[tuple[str, str, str]] = set()

    def add_list(self, document: dict[str, Any], origin: str, line: int = 0) -> None:
        """A `List` or typed `<Kind>List`: items lacking kind and apiVersion inherit the list's."""
        list_kind = str(document["kind"])
        item_kind = list_kind[: -len(_LIST_SUFFIX)] if list_kind != _LIST_SUFFIX else ""
        api_version = document.get("apiVersion") if isinstance(document.get("apiVersion"), str) else ""
        if item_kind and item_kind not in SECRET_KINDS and api_version:
            key = kind_key(api_version, item_kind)
            self.snapshot.coverage.setdefault(key, KindCoverage(Coverage.read))
        for item in document["items"]:
            if isinstance(item, dict) and item_kind:
                item.setdefault("kind", item_kind)
                if api_version:
                    item.setdefault("apiVersion", api_version)
            self.add(item, origin, line)

    def add(self, obj: object, origin: str, line: int = 0) -> None:
        if isinstance(obj, dict) and is_list(obj):
            self.add_list(obj, origin, line)
            return
        if isinstance(obj, dict) and isinstance(obj.get("kind"), str) and obj["kind"] in SECRET_KINDS:
            self.secrets_dropped += 1
            return
        problem = _problem(obj)
        if problem:
            self.skipped[problem] += 1
            return
        assert isinstance(obj, dict)
        obj.pop("stringData", None)
        if obj["kind"] != "ConfigMap":
            obj.pop("data", None)
        metadata = obj["metadata"]
        key = kind_key(obj["apiVersion"], obj["kind"])
        namespace, name = str(metadata.get("namespace") or ""), metadata.get("name")
        if isinstance(name, str) and name:
            identity = (key, namespace, name)
            if self.dedupe:
                if identity in self._seen:
                    self.duplicates += 1
                    return
                self._seen.add(identity)
        if line and origin:
            # An object with only generateName is located under that prefix.
            located = name if isinstance(name, str) and name else str(metadata.get("generateName"))
            self.snapshot.locations.setdefault((key, namespace, located), (origin, line))
            self.snapshot.locations.setdefault((obj["kind"], namespace, located), (origin, line))
        self.snapshot.add(obj)
        self.added += 1

    def finish(self) -> Snapshot:
        """Write what was skipped into the snapshot's notes and return it."""
        notes = self.snapshot.notes
        for problem, count in sorted(self.skipped.items()):
            notes.append(f"skipped {count} object(s) with {problem}")
        if self.duplicates:
            notes.append(f"skipped {self.duplicates} duplicate object(s) (same kind, namespace and name)")
        if self.secrets_dropped:
            notes.append(f"dropped {self.secrets_dropped} Secret object(s) unread")
        if SECRETS_NOTE not in notes:
            notes.append(SECRETS_NOTE)
        return self.snapshot
