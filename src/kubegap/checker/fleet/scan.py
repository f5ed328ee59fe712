"""Scan several clusters at once, with bounded concurrency and each cluster's own request rate.

Each cluster is an ordinary single-cluster scan (`run_scan`) on a worker thread, with its own
read-only client and token bucket, so `--qps` limits what each API server sees and `--concurrency`
limits how many are read at the same time. A cluster that cannot be reached, refuses us or has a
broken kubeconfig entry becomes a ClusterResult with that status and its one-line reason; the others
finish as if it were not there.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

from kubegap import __version__
from kubegap.checker.fleet.report import ClusterResult, FleetReport
from kubegap.checker.live.client import ApiError
from kubegap.checker.scanning import ScanRequest, run_scan
from kubegap.errors import KubegapError

DEFAULT_CONCURRENCY = 4


@dataclass(frozen=True)
class FleetRequest:
    """One scan request applied to every context; `scan.live.context` is replaced per cluster."""

    contexts: Sequence[str]
    scan: ScanRequest
    concurrency: int = DEFAULT_CONCURRENCY


def _now() -> str:
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _status_of(error: KubegapError) -> str:
    """forbidden (401/403 from the server), unreachable (no answer or a server error), or error."""
    if isinstance(error, ApiError):
        return "forbidden" if error.status in (401, 403) else "unreachable"
    return "error"  # the kubeconfig entry or the credentials themselves are unusable


def scan_one(context: str, request: ScanRequest) -> ClusterResult:
    """Scan one context; every expected failure becomes a result, never an exception."""
    started = time.perf_counter()
    live = replace(request.live, context=context, progress=False)
    try:
        report = run_scan(replace(request, live=live))
    except KubegapError as error:
        return ClusterResult(
            name=context,
            status=_status_of(error),
            error=error.sentence(),
            seconds=time.perf_counter() - started,
        )
    return ClusterResult(
        name=context,
        status="scanned",
        report=report,
        seconds=time.perf_counter() - started,
        requests=report.requests,
    )


def scan_fleet(
    request: FleetRequest,
    *,
    on_done: Callable[[ClusterResult], None] | None = None,
    scanner: Callable[[str, ScanRequest], ClusterResult] = scan_one,
) -> FleetReport:
    """Scan every context of the request; results keep the order the contexts were given in."""
    contexts = list(dict.fromkeys(request.contexts))
    workers = max(1, min(request.concurrency, len(contexts) or 1))
    started_at = _now()
    started = time.perf_counter()

    def run(context: str) -> ClusterResult:
        result = scanner(context, request.scan)
        if on_done is not None:
            on_done(result)
        return result

    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="kubegap-fleet") as pool:
        results = list(pool.map(run, contexts))
    return FleetReport(
        clusters=results,
        started_at=started_at,
        finished_at=_now(),
        wall_seconds=time.perf_counter() - started,
        concurrency=workers,
        kubegap_version=__version__,
    )
