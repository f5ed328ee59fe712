"""The door every object passes through on its way into a Snapshot, whatever the source.

Secrets never get in: any object of kind Secret is dropped (inside Lists too), and `stringData`, or
`data` on anything but a ConfigMap, is removed. Objects that are not Kubernetes objects (no kind, no
metadata.name) are skipped and counted, so a bad object costs one line in the coverage notes, not the
scan. When the kind of a bad object is known (it says so itself, or its typed List does), that kind is
recorded as `malformed`: its good objects are kept, but no check may pass on it, since what was
skipped may be the counter-example. A typed List whose `items` is not a list is malformed too, never
an empty list. Objects are kept as parsed, never copied.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from kubegap.checker.object_shape import object_problem, type_name
from kubegap.checker.snapshot import Coverage, KindCoverage, LocatedObject, Snapshot, kind_key
from kubegap.checker.sources import notes as said

# Older kubegap wrote this note into every snapshot; the report's Secrets line says it once now.
LEGACY_SECRETS_NOTE = "Secrets are never read: any Secret object in the input was dropped unread."
SECRET_KINDS = frozenset({"Secret", "SecretList"})
_LIST_SUFFIX = "List"
_REASONS_KEPT = 3  # problems named per malformed kind


def is_list(document: dict[str, Any]) -> bool:
    """A List or `<Kind>List` with items to walk; `items: null` is an empty list (as Go writes one)."""
    kind = document.get("kind")
    items = document.get("items", False)
    return (
        isinstance(kind, str) and kind.endswith(_LIST_SUFFIX) and (items is None or isinstance(items, list))
    )


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
        # which files each kind of skip came from, so the note can name them
        self._origins: dict[str, set[str]] = {}
        self.added = 0
        self.malformed: dict[str, Counter[str]] = {}  # kind key -> what was wrong, counted
        self._seen: set[tuple[str, str, str]] = set()

    def _malformed(self, key: str, problem: str, origin: str) -> None:
        where = f"{origin}: " if origin else ""
        self.malformed.setdefault(key, Counter())[f"{where}{problem}"] += 1

    def add_list(self, document: dict[str, Any], origin: str, line: int = 0, index: int = 0) -> None:
        """A `List` or typed `<Kind>List`: items lacking kind and apiVersion inherit the list's."""
        list_kind = str(document["kind"])
        item_kind = list_kind[: -len(_LIST_SUFFIX)] if list_kind != _LIST_SUFFIX else ""
        api_version = document.get("apiVersion") if isinstance(document.get("apiVersion"), str) else ""
        if item_kind and item_kind not in SECRET_KINDS and api_version:
            key = kind_key(api_version, item_kind)
            self.snapshot.coverage.setdefault(key, KindCoverage(Coverage.read))
        for item in document["items"] or []:
            if isinstance(item, dict) and item_kind:
                item.setdefault("kind", item_kind)
                if api_version:
                    item.setdefault("apiVersion", api_version)
            elif item_kind and item_kind not in SECRET_KINDS and api_version:
                # Not an object at all: it still belonged to this list's kind.
                self.skipped["not a mapping"] += 1
                self._malformed(kind_key(api_version, item_kind), f"an item is {type_name(item)}", origin)
                continue
            self.add(item, origin, line, index)

    def _bad_list(self, document: dict[str, Any], origin: str) -> bool:
        """A `<Kind>List` whose items is not a list: its kind is malformed. True when it was one."""
        kind = document.get("kind")
        if not (isinstance(kind, str) and kind.endswith(_LIST_SUFFIX) and "items" in document):
            return False
        items = document["items"]
        if items is None or isinstance(items, list):
            return False
        item_kind = kind[: -len(_LIST_SUFFIX)]
        api_version = document.get("apiVersion")
        self.skipped["a List whose items is not a list"] += 1
        if item_kind and item_kind not in SECRET_KINDS and isinstance(api_version, str) and api_version:
            self._malformed(
                kind_key(api_version, item_kind), f"items is {type_name(items)}, not a list", origin
            )
        return True

    def add(self, obj: object, origin: str, line: int = 0, index: int = 0) -> None:
        """One object (or a List of them); `line` and `index` place a manifest's object in its file."""
        if isinstance(obj, dict) and is_list(obj):
            self.add_list(obj, origin, line, index)
            return
        if isinstance(obj, dict) and isinstance(obj.get("kind"), str) and obj["kind"] in SECRET_KINDS:
            self.secrets_dropped += 1
            self._origins.setdefault("secret", set()).add(origin)
            return
        if isinstance(obj, dict) and self._bad_list(obj, origin):
            return
        problem = object_problem(obj)
        if problem:
            self.skipped[problem] += 1
            if isinstance(obj, dict) and problem not in ("no kind", "no apiVersion"):
                self._malformed(kind_key(obj["apiVersion"], obj["kind"]), f"an object with {problem}", origin)
            self._origins.setdefault(problem, set()).add(origin)
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
                    self._origins.setdefault("duplicate", set()).add(origin)
                    return
                self._seen.add(identity)
        if line and origin:
            # An object with only generateName is located under that prefix.
            located = name if isinstance(name, str) and name else str(metadata.get("generateName"))
            place = (origin, line, index)
            self.snapshot.locations.setdefault((key, namespace, located), place)
            self.snapshot.locations.setdefault((obj["kind"], namespace, located), place)
            # The object itself carries its place, so two files defining the same kind/namespace/name
            # each keep their own (`ref()` reads it); the map above serves refs built by hand.
            obj = LocatedObject(obj, place)
        self.snapshot.add(obj)
        self.added += 1

    def drop_secrets(self, count: int, origin: str) -> None:
        """Count Secrets a streaming reader dropped before they reached `add`."""
        if count:
            self.secrets_dropped += count
            self._origins.setdefault("secret", set()).add(origin)

    def finish(self) -> Snapshot:
        """Write what was skipped into the snapshot's notes and return it."""
        notes = self.snapshot.notes
        for key, problems in sorted(self.malformed.items()):
            self.snapshot.coverage[key] = KindCoverage(Coverage.malformed, _malformed_detail(problems))
        for problem, count in sorted(self.skipped.items()):
            notes.append(said.bad_objects(count, problem, self._origins.get(problem, ())))
        if self.duplicates:
            notes.append(said.duplicates(self.duplicates, self._origins.get("duplicate", ())))
        if self.secrets_dropped:
            notes.append(said.secrets_dropped(self.secrets_dropped, self._origins.get("secret", ())))
        return self.snapshot


def _malformed_detail(problems: Counter[str]) -> str:
    """'nodes.json: an object with no metadata (2); ...', the first few problems and how many more."""
    named = [
        f"{problem} ({count})" if count > 1 else problem
        for problem, count in problems.most_common(_REASONS_KEPT)
    ]
    more = sum(problems.values()) - sum(count for _problem, count in problems.most_common(_REASONS_KEPT))
    return "; ".join(named) + (f"; and {more} more" if more else "")
