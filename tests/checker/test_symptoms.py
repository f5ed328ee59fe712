"""Symptoms without a cluster: the one catalog matcher, the window, distinct counts, bounds, odd input."""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from k8s_emulator.symptoms import EXPECTED, event, seeded_cluster, stalled_job
from kubegap.checker.snapshot import Coverage, KindCoverage, Snapshot
from kubegap.checker.symptoms import collect_symptoms
from kubegap.checker.symptoms.catalog import catalog
from kubegap.checker.symptoms.events import (
    DISTINCT_ANNOTATION,
    MAX_OBJECTS,
    MAX_REASONS,
    OTHER_OBJECTS,
    EventDigest,
)
from kubegap.knowledge import load_knowledge

NOW = dt.datetime(2026, 12, 6, 4, 0, tzinfo=dt.UTC)
_NOISY = (
    "[{line}] 2026-12-06T03:59:59Z host-17 kernel: {pattern} (pid=4242, PCI:0000:3b:00.0)",
    "{pattern}",
    "E1206 {pattern}, rank 3 of 64",
)


def _snapshot(objects: list[dict[str, object]], **coverage: Coverage) -> Snapshot:
    snapshot = Snapshot(mode="snapshot", created_at=NOW.isoformat().replace("+00:00", "Z"))
    for obj in objects:
        snapshot.add(obj)
    for key, status in coverage.items():
        snapshot.coverage[key.replace("__", "/")] = KindCoverage(status, "GET /api/v1/events: 403 Forbidden")
    return snapshot


def _library_texts() -> list[str]:
    texts = []
    for entry in load_knowledge().errors:
        for pattern in entry.patterns:
            texts += [template.format(pattern=pattern, line=len(texts)) for template in _NOISY]
    return [*texts, "nothing to see here", "Xid", "79 Xid", "NCCL WARN all is well"]


def test_symptoms_match_exactly_as_kubegap_errors_does() -> None:
    """One matcher: every catalog pattern, inside noisy lines, resolves to the same entries, in the same
    order, through the checker's in-memory matcher and the library's index (`kubegap errors show`)."""
    from kubegap.library.library import Library

    library = Library.open()
    known = catalog()
    for text in _library_texts():
        assert list(known.match(text)) == [entry.id for entry in library.resolve_error(text)], text


def test_the_seeded_cluster_read_from_a_snapshot_shows_every_symptom() -> None:
    report = collect_symptoms(_snapshot(seeded_cluster(NOW)))
    found = {(group.signature.id, group.place): group.distinct for group in report.groups}
    assert {(signature, place): distinct for signature, place, distinct in EXPECTED}.items() <= found.items()
    assert report.groups[0].signature.catalog  # catalog matches rank first
    assert report.since == "2026-12-05T04:00:00Z" and report.until == "2026-12-06T04:00:00Z"


def test_an_event_served_by_both_api_groups_counts_once_and_old_ones_not_at_all() -> None:
    core = event(1, NOW, "XidError", "NVRM: Xid (PCI:0000:3b:00): 79, pid=1", count=4)
    newer = {
        "apiVersion": "events.k8s.io/v1",
        "kind": "Event",
        "metadata": {"name": core["metadata"]["name"], "namespace": "default", "uid": "ev-1"},
        "type": "Warning",
        "reason": "XidError",
        "note": "NVRM: Xid (PCI:0000:3b:00): 79, pid=1",
        "regarding": {"kind": "Node", "name": "gpu-a"},
        "eventTime": core["lastTimestamp"],
        "series": {"count": 4, "lastObservedTime": core["lastTimestamp"]},
    }
    other = {**newer, "metadata": {**newer["metadata"], "uid": "ev-2"}}
    old = event(3, NOW, "XidError", "NVRM: Xid (PCI:0000:3b:00): 79", age=dt.timedelta(days=2))
    report = collect_symptoms(_snapshot([core, newer, other, old]))
    (group,) = report.groups
    assert (group.signature.id, group.distinct, group.occurrences) == ("xid-79", 2, 8)
    assert collect_symptoms(_snapshot([old]), window_seconds=3 * 86400).groups[0].distinct == 1


def test_a_dump_without_a_read_time_is_windowed_from_its_newest_event() -> None:
    old = NOW - dt.timedelta(days=30)
    dump = Snapshot(mode="snapshot")  # `kubectl get events -o json`: no createdAt
    for obj in (
        event(1, old, "XidError", "NVRM: Xid 79"),
        event(2, old, "XidError", "Xid 79", age=dt.timedelta(days=3)),
    ):
        dump.add(obj)
    report = collect_symptoms(dump)
    assert [(group.signature.id, group.distinct) for group in report.groups] == [("xid-79", 1)]
    assert report.until == (old - dt.timedelta(minutes=10)).replace(microsecond=0).isoformat().replace(
        "+00:00", "Z"
    )


def test_unreadable_events_are_unknown_with_the_reason() -> None:
    report = collect_symptoms(_snapshot(seeded_cluster(NOW)[:5], Event=Coverage.forbidden))
    assert report.status == "unknown"
    assert "events not readable (403)" in str(report.reason)
    assert collect_symptoms(_snapshot([])).status == "unknown"  # no events in the input: not "none"


def test_the_digest_stays_bounded_and_keeps_every_count() -> None:
    digest = EventDigest(catalog().match, NOW.timestamp())
    stored = []
    total = 3 * MAX_OBJECTS
    for index in range(total):
        kept = digest.keep(event(index, NOW, f"Reason{index % (MAX_REASONS * 2)}", "x", name=f"pod-{index}"))
        if kept is not None:
            stored.append(kept)
    assert len(stored) <= MAX_OBJECTS + MAX_REASONS + 1
    assert digest.kept == total
    assert sum(int(obj["metadata"]["annotations"][DISTINCT_ANNOTATION]) for obj in stored) == total
    assert any(obj["involvedObject"]["name"] == OTHER_OBJECTS for obj in stored)


@pytest.mark.parametrize(
    "broken",
    [
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}, "status": 3.5},
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}, "spec": {"taints": "x"}},
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "a"}, "status": []},
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": 7}},
        {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j"}, "status": {"conditions": "no"}},
        {"apiVersion": "v1", "kind": "Event", "metadata": "x", "involvedObject": 5, "count": "many"},
        {"apiVersion": "v1", "kind": "Event", "lastTimestamp": "not a time", "series": [], "message": 7},
    ],
)
def test_malformed_objects_give_no_symptom_and_no_traceback(broken: dict[str, object]) -> None:
    report = collect_symptoms(_snapshot([broken]))
    assert report.status in ("read", "unknown")


def _stalled(objects: list[dict[str, object]]) -> list[str]:
    report = collect_symptoms(_snapshot(objects))
    return [group.place for group in report.groups if group.signature.id == "k8s:job-no-progress"]


def _restarted(objects: list[dict[str, Any]], hours: float) -> list[dict[str, Any]]:
    when = (NOW - dt.timedelta(hours=hours)).isoformat().replace("+00:00", "Z")
    objects[1]["status"]["containerStatuses"][0]["lastState"] = {"terminated": {"finishedAt": when}}
    return objects


def _finished(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    objects[0]["status"]["conditions"] = [{"type": "Complete", "status": "True"}]
    return objects


def _suspended(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    objects[0]["spec"]["suspend"] = True
    return objects


def _without_gpus(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    del objects[0]["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"]
    del objects[0]["spec"]["template"]["spec"]["containers"][0]["resources"]["requests"]["nvidia.com/gpu"]
    return objects


def _one_pending(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    objects[2]["status"]["phase"] = "Pending"
    return objects


def _without_pods(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return objects[:1]


def _with_recent_warning(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    warning = event(7, NOW, "Unhealthy", "probe failed", kind="Pod", name="ft-1", namespace="ml")
    return [*objects, warning]


def test_a_gpu_job_unchanged_past_the_threshold_shows_no_progress_and_links_its_guards() -> None:
    report = collect_symptoms(_snapshot(stalled_job("ft", "ml", NOW, hours=30)))
    [group] = [group for group in report.groups if group.signature.id == "k8s:job-no-progress"]
    assert group.place == "Job ml/ft" and group.distinct == 1
    assert {"gpu-job-no-deadline", "nccl-watchdog-disabled", "nccl-hang-dump"} <= set(group.checks)
    assert "for 30 h (since 2026-12-04T22:00:00Z)" in group.example
    restarted_long_ago = _restarted(stalled_job("ft", "ml", NOW, hours=30), hours=40)
    assert _stalled(restarted_long_ago) == [
        "Job ml/ft"
    ]  # a restart before the threshold is no progress either


@pytest.mark.parametrize(
    "change",
    [
        lambda objects: objects,  # running 20 h: under the threshold
        _finished,
        _suspended,
        _without_gpus,
        _one_pending,
        _without_pods,
        _with_recent_warning,
    ],
    ids=["young", "finished", "suspended", "no-gpus", "pending-pod", "pods-unseen", "recent-event"],
)
def test_a_job_with_visible_change_or_nothing_to_judge_by_shows_no_stall(
    change: Callable[[list[dict[str, Any]]], list[dict[str, Any]]],
) -> None:
    hours = 20 if change.__name__ == "<lambda>" else 30
    assert _stalled(change(stalled_job("ft", "ml", NOW, hours=hours))) == []


def test_a_pod_restarted_inside_the_threshold_is_progress() -> None:
    assert _stalled(_restarted(stalled_job("ft", "ml", NOW, hours=30), hours=2)) == []
