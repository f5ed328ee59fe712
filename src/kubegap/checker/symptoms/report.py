"""Signals grouped by signature and place, with counts, first and last seen, and what links them.

`collect_symptoms(snapshot)` is the one function every face calls (scan reports, `kubegap symptoms`,
MCP, web, exporter). It is honest about what it could not read: when Events were forbidden or
failed, the report is `unknown` with that reason, never "no symptoms"; the window is always said.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from kubegap.bilingual import Message, message
from kubegap.checker.extract._fields import name_of, namespace_of
from kubegap.checker.extract.nodes import NodeView
from kubegap.checker.snapshot import UNREADABLE, Coverage, Snapshot
from kubegap.checker.symptoms.catalog import Signature, catalog
from kubegap.checker.symptoms.events import (
    DEFAULT_WINDOW_SECONDS,
    EVENT_KINDS,
    EventDigest,
    epoch,
    event_fields,
    iso,
)
from kubegap.checker.symptoms.progress import stalled_job_signals
from kubegap.checker.symptoms.signals import (
    PodPlace,
    Signal,
    event_signal,
    job_signals,
    node_signals,
    node_views,
    pod_places,
    pod_signals,
)

SIGNAL_KINDS = (*EVENT_KINDS, "Node", "Pod", "batch/Job")
MAX_GROUPS = 200  # groups a report keeps; the rest are counted
T = TypeVar("T")
_FAMILY_RANK = {"xid": 0, "nccl": 1, "infiniband": 2, "cuda": 3, "nvml": 4, "etcd": 5, "kubernetes": 6}


@dataclass
class SymptomGroup:
    signature: Signature
    place: str
    node: str
    gpu: bool
    reason: str  # the Kubernetes reason of the first signal (condition type, event reason, ...)
    example: str  # the first signal's text (raw here: every output redacts it)
    sources: set[str] = field(default_factory=set)
    distinct: int = 0
    occurrences: int = 0
    first: float | None = None
    last: float | None = None

    @property
    def checks(self) -> tuple[str, ...]:
        extra = self.signature.gpu_checks if self.gpu else ()
        return tuple(dict.fromkeys((*self.signature.checks, *extra)))

    def add(self, signal: Signal) -> None:
        self.sources.add(signal.source)
        self.distinct += signal.distinct
        self.occurrences += signal.occurrences
        if signal.first is not None and (self.first is None or signal.first < self.first):
            self.first = signal.first
        if signal.last is not None and (self.last is None or signal.last > self.last):
            self.last = signal.last


@dataclass
class SymptomReport:
    status: str  # read | unknown
    reason: Message | str  # why unknown ('' when read)
    since: str  # ISO time the window starts ('' when the input has no window)
    until: str
    window_seconds: int
    groups: list[SymptomGroup]
    events: int  # distinct events inside the window that are symptoms
    more_groups: int = 0  # groups past MAX_GROUPS, counted but not listed
    unread: dict[str, str] = field(default_factory=dict)  # signal kind -> coverage status

    @property
    def window(self) -> Message:
        hours = self.window_seconds / 3600
        amount = f"{hours:g} h" if hours >= 1 else f"{self.window_seconds // 60} min"
        ko_amount = f"{hours:g}시간" if hours >= 1 else f"{self.window_seconds // 60}분"
        return message(
            "최근 {ko_amount}({since}~{until})",
            "last {amount} ({since} to {until})",
            amount=amount,
            ko_amount=ko_amount,
            since=self.since or "?",
            until=self.until or "?",
        )


def _rank(group: SymptomGroup) -> tuple[int, int, int, str, str]:
    signature = group.signature
    return (
        0 if signature.catalog else 1,
        _FAMILY_RANK.get(signature.family, 9),
        -group.distinct,
        signature.id,
        group.place,
    )


def _events_reason(snapshot: Snapshot) -> Message | str:
    """Why events could not be read, or '' when they were.

    Either API group will do: core/v1 and events.k8s.io/v1 serve the same stored events, so one group
    read whole sees them all, and a 403 or a failed list of the other changes nothing. The section is
    unknown only when neither was read; the reason names the group that refused (core first) rather
    than one the server simply does not serve."""
    statuses = {key: snapshot.status_of(key) for key in EVENT_KINDS if key in snapshot.coverage}
    if any(coverage.status is Coverage.read for coverage in statuses.values()):
        return ""
    if not statuses:
        return message(
            "이벤트를 읽지 않음: 입력에 이벤트가 없습니다",
            "events not read: the input holds none",
        )
    refused = [coverage for coverage in statuses.values() if coverage.status is not Coverage.absent]
    coverage = (refused or list(statuses.values()))[0]
    code = "403" if coverage.status is Coverage.forbidden else coverage.status.value
    return message(
        "이벤트를 읽을 수 없음({code}): {detail}",
        "events not readable ({code}): {detail}",
        code=code,
        detail=coverage.detail or coverage.status.value,
    )


def _until(snapshot: Snapshot) -> float:
    """When the input was read; for a dump without that time (`kubectl get events -o json`), the
    newest event in it, so an old dump still shows what it held; else now."""
    created = epoch(snapshot.created_at) if snapshot.created_at else None
    if created is not None:
        return created
    newest = [
        fields.last
        for key in EVENT_KINDS
        for obj in snapshot.of(key)
        if (fields := event_fields(obj)) is not None and fields.last is not None
    ]
    return max(newest) if newest else dt.datetime.now(dt.UTC).timestamp()


def collect_symptoms(snapshot: Snapshot, window_seconds: int | None = None) -> SymptomReport:
    """Every symptom the snapshot shows, grouped and ranked; `window_seconds` defaults to the one
    the snapshot was read with (24 h)."""
    known = catalog()
    window = window_seconds or snapshot.event_window or DEFAULT_WINDOW_SECONDS
    until = _until(snapshot)
    digest = EventDigest(known.match, until, window)
    for key in EVENT_KINDS:
        for obj in snapshot.of(key):
            digest.keep(obj)
    no_pods: dict[tuple[str, str], PodPlace] = {}
    no_nodes: list[NodeView] = []
    pods = _safely(lambda: pod_places(snapshot), no_pods)
    nodes = _safely(lambda: node_views(snapshot), no_nodes)
    gpu_nodes = {node.name for node in nodes if node.is_gpu}
    signals: list[Signal] = []
    kept = [fields for entry in digest.entries() if (fields := event_fields(entry)) is not None]
    for fields in kept:
        signals.append(event_signal(fields, pods, gpu_nodes))
    for node in nodes:
        signals.extend(_signals_of(node_signals, node))
    for pod in snapshot.of("Pod"):
        place = pods.get((namespace_of(pod), name_of(pod))) if isinstance(pod, dict) else None
        if place is not None:
            signals.extend(_signals_of(pod_signals, pod, place))
    for job in snapshot.of("batch/Job"):
        if isinstance(job, dict):
            signals.extend(_signals_of(job_signals, job))
    signals.extend(_signals_of(stalled_job_signals, snapshot, kept, until))
    signals.extend(signal for signal in snapshot.log_signals if isinstance(signal, Signal))
    groups = _groups(signals, window, until)
    reason = _events_reason(snapshot)
    unread = {
        key: snapshot.status_of(key).status.value
        for key in SIGNAL_KINDS
        if key not in EVENT_KINDS
        if snapshot.status_of(key).status in UNREADABLE
    }
    ranked = sorted(groups, key=_rank)
    return SymptomReport(
        status="unknown" if reason else "read",
        reason=reason,
        since=iso(until - window),
        until=iso(until),
        window_seconds=int(window),
        groups=ranked[:MAX_GROUPS],
        events=digest.kept,
        more_groups=max(0, len(ranked) - MAX_GROUPS),
        unread=unread,
    )


def _safely(read: Callable[[], T], instead: T) -> T:
    """A reader over objects of any shape: a malformed object (a number where a list belongs, from a
    hand-edited snapshot) gives no signal rather than a traceback; the checks report its kind."""
    try:
        return read()
    except (TypeError, ValueError, AttributeError, KeyError):
        return instead


def _signals_of(read: Callable[..., Iterable[Signal]], *args: Any) -> list[Signal]:
    none: list[Signal] = []
    return _safely(lambda: list(read(*args)), none)


def _groups(signals: Iterable[Signal], window: float, until: float) -> list[SymptomGroup]:
    known = catalog()
    groups: dict[tuple[str, str, str], SymptomGroup] = {}
    for signal in signals:
        if signal.source != "event" and signal.last is not None and signal.last < until - window:
            continue  # a state that changed before the window began is old news, not now
        matched = known.match(signal.text)
        signature_id = matched[0] if matched else signal.signal
        if not signature_id:
            if signal.source != "event":
                continue  # a termination reason or condition the catalog does not know: not a symptom
            signature_id = "k8s:warning-event"
        key = (signature_id, signal.place, "" if matched or signal.signal else signal.reason)
        group = groups.get(key)
        if group is None:
            group = groups[key] = SymptomGroup(
                known.signature(signature_id),
                signal.place,
                signal.node,
                signal.gpu,
                signal.reason,
                signal.text,
            )
        group.add(signal)
    return list(groups.values())
