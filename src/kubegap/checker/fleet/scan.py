"""Scan several clusters at once, with bounded concurrency and each cluster's own request rate.

Each cluster is an ordinary single-cluster scan (`run_scan`) on a worker thread, with its own
read-only client and token bucket, so `--qps` limits what each API server sees and `--concurrency`
limits how many are read at the same time. A cluster that cannot be reached, refuses us or has a
broken kubeconfig entry becomes a ClusterResult with that status and its one-line reason; the others
finish as if it were not there.

Threads, not processes: a live scan spends almost all of its time waiting on its API server (measured
in bench/bench_fleet.py: about 0.15 s of CPU in a 2.8 s scan of 4,000 pods with 50 ms per request),
so one process keeps many clusters in flight, and the work every cluster shares (the incident
titles reports cite) is done once, on its own thread, while the clusters wait on the network.
"""

from __future__ import annotations

import datetime as dt
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

from kubegap import __version__
from kubegap.checker.fleet.report import ClusterResult, FleetReport
from kubegap.checker.live.client import ApiError
from kubegap.checker.scanning import ScanRequest, run_scan
from kubegap.errors import KubegapError

CLUSTERS_PER_CPU = 8
MAX_DEFAULT_CONCURRENCY = 16


def default_concurrency(cpus: int | None = None) -> int:
    """Clusters read at once when none is asked for: 8 per CPU, between 4 and 16.

    A cluster in flight mostly waits on its API server, so several per core keep the cores busy;
    the ceiling bounds memory, since each cluster in flight holds its listed objects until its
    checks have run.
    """
    count = cpus if cpus is not None else (os.cpu_count() or 1)
    return max(4, min(MAX_DEFAULT_CONCURRENCY, CLUSTERS_PER_CPU * count))


@dataclass(frozen=True)
class FleetRequest:
    """One scan request applied to every context; `scan.live.context` is replaced per cluster.

    `concurrency` None means `default_concurrency()`.
    """

    contexts: Sequence[str]
    scan: ScanRequest
    concurrency: int | None = None


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
    shared: Sequence[Callable[[], object]] = (),
) -> FleetReport:
    """Scan every context of the request; results keep the order the contexts were given in.

    `shared` is work that does not depend on any cluster (such as loading what the reports cite):
    it runs once, on one thread beside the clusters, and is finished when this returns. Its errors
    are left for the caller to meet again when it needs the result.
    """
    contexts = list(dict.fromkeys(request.contexts))
    asked = request.concurrency if request.concurrency is not None else default_concurrency()
    workers = max(1, min(asked, len(contexts) or 1))
    started_at = _now()
    started = time.perf_counter()
    helper = threading.Thread(target=_run_shared, args=(shared,), name="kubegap-fleet-shared", daemon=True)
    if shared:
        helper.start()

    def run(context: str) -> ClusterResult:
        result = scanner(context, request.scan)
        if on_done is not None:
            on_done(result)
        return result

    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="kubegap-fleet") as pool:
        results = list(pool.map(run, contexts))
    if shared:
        helper.join()
    return FleetReport(
        clusters=results,
        started_at=started_at,
        finished_at=_now(),
        wall_seconds=time.perf_counter() - started,
        concurrency=workers,
        kubegap_version=__version__,
    )


def _run_shared(shared: Sequence[Callable[[], object]]) -> None:
    for work in shared:
        try:
            work()
        except Exception:  # the renderer meets (and reports) it again in its own time
            continue
