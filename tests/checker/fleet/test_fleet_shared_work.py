"""A fleet scan does its shared work once, keeps many clusters in flight, and changes no report.

The fleet's JSON carries, for each cluster, exactly the document a single scan of that cluster
writes (redacted once, not twice), and scanning clusters side by side gives the same content as
scanning them one by one.
"""

from __future__ import annotations

import re
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from fleet_helpers import Fleet

from k8s_emulator.factories import gpu_cluster
from kubegap.checker.fleet import ClusterResult, FleetRequest, scan_fleet
from kubegap.checker.fleet.documents import fleet_document
from kubegap.checker.fleet.render import shared_work
from kubegap.checker.fleet.scan import default_concurrency, scan_one
from kubegap.checker.reports import report_document
from kubegap.checker.scanning import LiveTarget, ScanRequest
from kubegap.redaction import TRUNCATE_AT

_TIMES = {"startedAt", "finishedAt", "snapshotCreatedAt", "wallSeconds", "seconds", "concurrency"}
_TIMES |= {"since", "until"}  # the symptoms window ends at the read time
_TOOK = re.compile(r"\d+(\.\d+)? ?(s|초)\b")  # "live read took 0.2 s of a 172 s ... budget"


def _timeless(value: Any) -> Any:
    """The document without clock readings (the symptoms window ends at the read time) and the worker
    count, which differ run to run."""
    if isinstance(value, dict):
        return {key: _timeless(item) for key, item in value.items() if key not in _TIMES}
    if isinstance(value, list):
        return [_timeless(item) for item in value]
    return _TOOK.sub("…", value) if isinstance(value, str) else value


def _emulated(fleet: Fleet, count: int) -> ScanRequest:
    for index in range(count):
        fleet.add(f"c{index}", list(gpu_cluster(nodes=3 + index, pods=20 + 5 * index, namespaces=2)))
    return ScanRequest(live=LiveTarget(kubeconfig=str(fleet.kubeconfig())))


def test_default_concurrency_is_eight_clusters_per_cpu_between_4_and_16() -> None:
    assert [default_concurrency(cpus) for cpus in (1, 2, 3, 64)] == [8, 16, 16, 16]
    assert 4 <= default_concurrency() <= 16


def test_without_a_concurrency_ten_clusters_are_read_at_once_on_two_cpus(monkeypatch: Any) -> None:
    monkeypatch.setattr("kubegap.checker.fleet.scan.os.cpu_count", lambda: 2)
    in_flight = peak = 0
    lock = threading.Lock()

    def scanner(context: str, request: ScanRequest) -> ClusterResult:
        nonlocal in_flight, peak
        with lock:
            in_flight += 1
            peak = max(peak, in_flight)
        time.sleep(0.2)
        with lock:
            in_flight -= 1
        return ClusterResult(name=context, status="unreachable", error="test")

    fleet = scan_fleet(FleetRequest([f"c{index}" for index in range(10)], ScanRequest()), scanner=scanner)
    assert peak == 10 and fleet.concurrency == 10


def test_shared_work_runs_once_beside_the_clusters_and_is_done_when_the_scan_returns() -> None:
    calls: list[str] = []
    overlapped: list[bool] = []
    scanning, shared_done = threading.Event(), threading.Event()

    def scanner(context: str, request: ScanRequest) -> ClusterResult:
        scanning.set()
        overlapped.append(shared_done.wait(5))  # the shared work finishes while clusters are read
        return ClusterResult(name=context, status="unreachable", error="test")

    def shared() -> None:
        assert scanning.wait(5)
        calls.append(threading.current_thread().name)
        shared_done.set()

    def broken() -> None:
        raise RuntimeError("the renderer meets this again itself")

    request = FleetRequest(["a", "b", "c"], ScanRequest(), concurrency=3)
    fleet = scan_fleet(request, scanner=scanner, shared=(broken, shared))
    assert calls == ["kubegap-fleet-shared"]  # once, finished before scan_fleet returned
    assert overlapped == [True, True, True]
    assert fleet.names == ["a", "b", "c"]


def test_formats_that_cite_incidents_load_the_titles_during_the_scan() -> None:
    assert [len(shared_work(fmt)) for fmt in ("json", "markdown", "sarif", "table", "plain", "tsv")] == [
        1,
        1,
        1,
        0,
        0,
        0,
    ]


def test_each_fleet_entry_is_the_single_scan_document_redacted_once(tmp_path: Path) -> None:
    fleet = Fleet(tmp_path)
    try:
        request = _emulated(fleet, 2)
        long_note = "x" * (TRUNCATE_AT + 500)  # cut once to the limit plus a note of what was cut

        def scanner(context: str, scan: ScanRequest) -> ClusterResult:
            result = scan_one(context, scan)
            assert result.report is not None
            return replace(result, report=replace(result.report, notes=[*result.report.notes, long_note]))

        report = scan_fleet(FleetRequest(["c0", "c1"], request, concurrency=2), scanner=scanner)
    finally:
        fleet.stop()
    document = fleet_document(report)
    for entry, cluster in zip(document["clusters"], report.clusters, strict=True):
        assert cluster.report is not None
        alone = report_document(cluster.report)
        assert entry["report"] == alone
        assert alone["notes"][-1].endswith("… (+500 characters)")


def test_clusters_scanned_side_by_side_give_what_scanning_them_one_by_one_gives(tmp_path: Path) -> None:
    fleet = Fleet(tmp_path)
    try:
        request = _emulated(fleet, 4)
        names = list(fleet.servers)
        together = scan_fleet(FleetRequest(names, request), shared=shared_work("json"))
        for emulator in fleet.emulators.values():
            emulator.reset_log()
        one_by_one = [scan_one(name, request) for name in names]
        requests = [len(emulator.requests) for emulator in fleet.emulators.values()]
    finally:
        fleet.stop()
    assert together.concurrency == 4
    assert [cluster.requests for cluster in together.clusters] == requests
    alone = replace(together, clusters=one_by_one)
    for fmt_lang in ("en", "ko"):
        assert _timeless(fleet_document(together, fmt_lang)) == _timeless(fleet_document(alone, fmt_lang))
