"""Bounded concurrency and the per-cluster request budget, measured on the scanner's own calls."""

from __future__ import annotations

import threading
import time

from kubegap.checker.fleet import ClusterResult, FleetRequest, scan_fleet
from kubegap.checker.scanning import LiveTarget, ScanRequest


def test_no_more_clusters_are_read_at_once_than_the_concurrency_allows() -> None:
    in_flight = 0
    peak = 0
    lock = threading.Lock()
    seen: list[tuple[str, float]] = []

    def scanner(context: str, request: ScanRequest) -> ClusterResult:
        nonlocal in_flight, peak
        with lock:
            in_flight += 1
            peak = max(peak, in_flight)
            seen.append((context, request.live.qps))
        time.sleep(0.05)
        with lock:
            in_flight -= 1
        return ClusterResult(name=context, status="unreachable", error="test")

    contexts = [f"cluster-{index}" for index in range(7)]
    request = FleetRequest(contexts, ScanRequest(live=LiveTarget(qps=3.0)), concurrency=3)
    fleet = scan_fleet(request, scanner=scanner)
    assert peak == 3
    assert fleet.concurrency == 3
    assert fleet.names == contexts  # results keep the order given, whatever order they finished in
    assert sorted(seen) == [(name, 3.0) for name in contexts]  # each cluster gets the whole --qps


def test_a_fleet_of_one_uses_one_worker_and_duplicates_are_scanned_once() -> None:
    calls: list[str] = []

    def scanner(context: str, request: ScanRequest) -> ClusterResult:
        calls.append(context)
        return ClusterResult(name=context, status="error", error="no such context")

    fleet = scan_fleet(FleetRequest(["a", "a"], ScanRequest(), concurrency=8), scanner=scanner)
    assert calls == ["a"] and fleet.concurrency == 1
    assert fleet.exit_code(None) == 3
