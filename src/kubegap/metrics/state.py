"""What the exporter knows about each cluster, updated by the scan loop and read at every scrape.

A failed scan does not erase the last good one: its check series stay (with the time of that last
success beside them), and `kubegap_scan_success` drops to 0, so an alert can tell "the gap is still
there" from "we could not look". Counters only grow, as Prometheus expects.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from dataclasses import dataclass, field

from kubegap.checker.fleet.report import ClusterResult
from kubegap.checker.scan_report import ScanReport


@dataclass
class ClusterState:
    """The latest view of one cluster."""

    name: str
    last_status: str = ""  # the last attempt: scanned | forbidden | unreachable | error
    last_error: str = ""
    last_report: ScanReport | None = None  # the last successful scan
    last_success: float = 0.0  # Unix time of that scan, 0 before the first
    last_attempt: float = 0.0
    last_duration: float = 0.0
    last_requests: int = 0
    requests_total: int = 0
    scans_total: Counter[str] = field(default_factory=Counter)  # by result


class ExporterState:
    """Thread-safe: the loop calls `record`, scrapes call `clusters` and get a consistent copy."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._clusters: dict[str, ClusterState] = {}
        self._rounds = 0

    def record(self, result: ClusterResult, name: str | None = None, now: float | None = None) -> None:
        """Fold one cluster's scan result in; `name` overrides the label (the in-cluster case)."""
        moment = time.time() if now is None else now
        label = name or result.name
        with self._lock:
            state = self._clusters.setdefault(label, ClusterState(label))
            state.last_status = result.status
            state.last_error = result.error
            state.last_attempt = moment
            state.last_duration = result.seconds
            state.last_requests = result.requests
            state.requests_total += result.requests
            state.scans_total[result.status] += 1
            if result.report is not None:
                state.last_report = result.report
                state.last_success = moment

    def finish_round(self) -> None:
        with self._lock:
            self._rounds += 1

    @property
    def rounds(self) -> int:
        with self._lock:
            return self._rounds

    def clusters(self) -> list[ClusterState]:
        """A snapshot of every cluster's state, by name; the objects are copies, safe to read."""
        with self._lock:
            return [
                ClusterState(
                    name=state.name,
                    last_status=state.last_status,
                    last_error=state.last_error,
                    last_report=state.last_report,
                    last_success=state.last_success,
                    last_attempt=state.last_attempt,
                    last_duration=state.last_duration,
                    last_requests=state.last_requests,
                    requests_total=state.requests_total,
                    scans_total=Counter(state.scans_total),
                )
                for state in sorted(self._clusters.values(), key=lambda item: item.name)
            ]
