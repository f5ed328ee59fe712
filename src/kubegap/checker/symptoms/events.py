"""Events as bounded digests: a time window, a cut message, and equal events merged while listing.

A busy cluster keeps tens of thousands of Events, and a hostile one can send any number with any
message. So each listed Event passes `EventDigest.keep` as it arrives, never after the whole list:

* events outside the window (default the last 24 h, judged on the newest time the event carries)
  are dropped, and so are `Normal` events whose text names no catalog entry;
* the message is cut to MESSAGE_CHARS before the matcher reads it, and only its first KEPT_CHARS
  (cut at a space) are kept, redacted, so a credential an application wrote into an event is never
  stored, not even in a snapshot file;
* events of one reason, one catalog match and one object merge into one Event (the way the API
  server itself folds repeats into `count`): its `count` is the occurrences and the annotation
  DISTINCT_ANNOTATION the distinct events; past MAX_OBJECTS merged objects, further objects fold
  into one `(other objects)` entry per reason and match, and past MAX_REASONS those into one.

So memory is bounded by the number of merged entries, whatever the stream, and counts stay whole.
Core `v1` and `events.k8s.io/v1` Events are read alike; a uid seen twice counts once. The two groups
serve the same stored events, so a live read lists each group through its own digest and passes the
uids of a group read whole (`counted`) to the next: an event served by both counts once, and a group
that failed part-way leaves nothing behind that would hide the other group's copy.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kubegap.checker.snapshot import KubeObject
from kubegap.redaction import redact_text

EVENT_KINDS = ("Event", "events.k8s.io/Event")
DEFAULT_WINDOW_SECONDS = 24 * 3600
MESSAGE_CHARS = 2048  # what is matched of one event's message
KEPT_CHARS = 512  # what is kept (redacted) as the example a report shows
NAME_CHARS = 253  # a Kubernetes name is never longer
REASON_CHARS = 128
MAX_OBJECTS = 5000  # merged (reason, match, object) entries kept per read
MAX_REASONS = 500  # (reason, match) overflow entries; past it, one entry for everything else
DISTINCT_ANNOTATION = "kubegap.io/distinct-events"
OTHER_OBJECTS = "(other objects)"
OTHER_REASONS = "(other reasons)"

Matcher = Callable[[str], tuple[str, ...]]


@dataclass(frozen=True)
class EventFields:
    """What symptoms read of one Event, whichever API group served it."""

    uid: str
    type: str
    reason: str
    message: str
    kind: str  # of the object the event is about
    namespace: str
    name: str
    host: str  # the node that reported it, when the reporter says
    first: float | None  # epoch seconds
    last: float | None
    occurrences: int
    distinct: int


def epoch(value: object) -> float | None:
    """RFC 3339 time as epoch seconds; None for anything else."""
    if not isinstance(value, str) or not value or len(value) > 40:
        return None
    try:
        parsed = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=dt.UTC)
    return parsed.timestamp()


def iso(moment: float | None) -> str:
    if moment is None:
        return ""
    return dt.datetime.fromtimestamp(moment, dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _text(value: object, limit: int) -> str:
    return value[:limit] if isinstance(value, str) else ""


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def event_fields(obj: KubeObject) -> EventFields | None:
    """The fields of a core/v1 or events.k8s.io/v1 Event; None when it is not an object."""
    if not isinstance(obj, dict):
        return None
    metadata = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
    assert isinstance(metadata, dict)
    core = "involvedObject" in obj or "message" in obj or str(obj.get("apiVersion", "")) == "v1"
    involved = obj.get("involvedObject") if core else obj.get("regarding")
    involved = involved if isinstance(involved, dict) else {}
    series = obj.get("series") if isinstance(obj.get("series"), dict) else {}
    assert isinstance(series, dict)
    source = obj.get("source") if core else obj.get("deprecatedSource")
    source = source if isinstance(source, dict) else {}
    first_key, last_key, count_key = (
        ("firstTimestamp", "lastTimestamp", "count")
        if core
        else ("deprecatedFirstTimestamp", "deprecatedLastTimestamp", "deprecatedCount")
    )
    times = [
        moment
        for moment in (
            epoch(obj.get(first_key)),
            epoch(obj.get(last_key)),
            epoch(obj.get("eventTime")),
            epoch(series.get("lastObservedTime")),
        )
        if moment is not None
    ]
    annotations = metadata.get("annotations") if isinstance(metadata.get("annotations"), dict) else {}
    assert isinstance(annotations, dict)
    distinct = annotations.get(DISTINCT_ANNOTATION)
    return EventFields(
        uid=_text(metadata.get("uid"), NAME_CHARS),
        type=_text(obj.get("type"), 32),
        reason=_text(obj.get("reason"), REASON_CHARS),
        message=_text(obj.get("message") if core else obj.get("note"), MESSAGE_CHARS),
        kind=_text(involved.get("kind"), 64),
        namespace=_text(involved.get("namespace"), NAME_CHARS),
        name=_text(involved.get("name"), NAME_CHARS),
        host=_text(source.get("host") or obj.get("reportingInstance"), NAME_CHARS),
        first=min(times) if times else None,
        last=max(times) if times else None,
        occurrences=max(1, _count(series.get("count")) or _count(obj.get(count_key))),
        distinct=int(distinct) if isinstance(distinct, str) and distinct.isdigit() else 1,
    )


def matched_text(fields: EventFields) -> str:
    """What the catalog matcher reads of an event: its reason and its message."""
    return f"{fields.reason} {fields.message}"


class EventDigest:
    """Keeps, merges and counts events within a window; `keep` is the per-object hook of a LIST.

    `keep` returns the merged Event the first time an entry is seen (the caller stores it) and None
    afterwards (the stored one was updated in place), so the caller's list holds only merged entries.
    """

    def __init__(
        self,
        matcher: Matcher,
        until: float,
        window: float = DEFAULT_WINDOW_SECONDS,
        counted: set[str] | frozenset[str] = frozenset(),
    ) -> None:
        self._match = matcher
        self._counted = counted  # uids another, completed list already counted
        self.until = until
        self.window = window
        self._entries: dict[tuple[str, ...], KubeObject] = {}
        self._overflow = 0
        self._uids: set[str] = set()
        self.read = 0  # events seen
        self.kept = 0  # distinct events within the window that are symptoms
        self.outside = 0  # distinct events older than the window

    @property
    def since(self) -> float:
        return self.until - self.window

    def keep(self, obj: KubeObject) -> KubeObject | None:
        fields = event_fields(obj)
        self.read += 1
        if fields is None:
            return None
        if fields.uid:
            if fields.uid in self._uids or fields.uid in self._counted:
                return None
            self._uids.add(fields.uid)
        if fields.last is not None and fields.last < self.since:
            self.outside += fields.distinct
            return None
        matched = self._match(matched_text(fields))
        if fields.type != "Warning" and not matched:
            return None
        self.kept += fields.distinct
        key: tuple[str, ...] = (
            fields.type,
            fields.reason,
            ",".join(matched),
            fields.kind,
            fields.namespace,
            fields.name,
        )
        entry = self._entries.get(key)
        if entry is None and len(self._entries) >= MAX_OBJECTS:
            key, fields = self._folded(fields, matched)
            entry = self._entries.get(key)
        if entry is not None:
            _merge(entry, fields)
            return None
        entry = _digest(fields)
        self._entries[key] = entry
        return entry

    def _folded(self, fields: EventFields, matched: tuple[str, ...]) -> tuple[tuple[str, ...], EventFields]:
        """The overflow entry an event folds into once MAX_OBJECTS entries exist."""
        key = ("", fields.type, fields.reason, ",".join(matched))
        if key not in self._entries:
            self._overflow += 1
            if self._overflow > MAX_REASONS:
                key = ("", "", OTHER_REASONS, "")
                fields = _replace(fields, reason=OTHER_REASONS, message="")
        return key, _replace(fields, kind="", namespace="", name=OTHER_OBJECTS, host="")

    @property
    def uids(self) -> set[str]:
        """The uids this digest has seen (counted or found outside the window)."""
        return self._uids

    def entries(self) -> list[KubeObject]:
        return list(self._entries.values())


def _replace(fields: EventFields, **changes: Any) -> EventFields:
    return dataclasses.replace(fields, **changes)


def _digest(fields: EventFields) -> KubeObject:
    """A core/v1 Event holding the merged entry; its message redacted once, here."""
    digest: KubeObject = {
        "apiVersion": "v1",
        "kind": "Event",
        "metadata": {
            "name": f"{fields.name or 'event'}.{_checksum(fields)}"[-NAME_CHARS:],
            "namespace": fields.namespace,
            "uid": fields.uid,
            "annotations": {DISTINCT_ANNOTATION: str(fields.distinct)},
        },
        "type": fields.type,
        "reason": fields.reason,
        "message": redact_text(_kept(fields.message), limit=KEPT_CHARS),
        "involvedObject": {"kind": fields.kind, "namespace": fields.namespace, "name": fields.name},
        "source": {"host": fields.host},
        "count": fields.occurrences,
        "firstTimestamp": iso(fields.first),
        "lastTimestamp": iso(fields.last),
    }
    return digest


def _kept(text: str) -> str:
    """The first KEPT_CHARS of a message, cut at a space so no credential is halved past recognition."""
    if len(text) <= KEPT_CHARS:
        return text
    cut = text.rfind(" ", 0, KEPT_CHARS)
    return text[:cut] if cut > 0 else ""


def _checksum(fields: EventFields) -> str:
    return f"{zlib.crc32(f'{fields.reason}/{fields.uid}'.encode()):x}"


def _merge(entry: KubeObject, fields: EventFields) -> None:
    annotations = entry["metadata"]["annotations"]
    annotations[DISTINCT_ANNOTATION] = str(int(annotations[DISTINCT_ANNOTATION]) + fields.distinct)
    entry["count"] += fields.occurrences
    if fields.first is not None:
        current = epoch(entry["firstTimestamp"])
        if current is None or fields.first < current:
            entry["firstTimestamp"] = iso(fields.first)
    if fields.last is not None:
        current = epoch(entry["lastTimestamp"])
        if current is None or fields.last > current:
            entry["lastTimestamp"] = iso(fields.last)
