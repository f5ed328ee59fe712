"""`kubegap scan --context a --context b` / `--all-contexts`: the fleet half of the scan command."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from kubegap.checker.fleet.render import render_fleet, shared_work
from kubegap.checker.fleet.report import ClusterResult, FleetReport
from kubegap.checker.fleet.scan import FleetRequest, scan_fleet
from kubegap.checker.fleet.targets import resolve_contexts
from kubegap.checker.scanning import ScanRequest
from kubegap.errors import UsageError

__all__ = ["render_fleet", "run_fleet_scan"]


def _progress(result: ClusterResult) -> None:
    """One line on stderr per finished cluster, so a long fleet scan shows it is moving."""
    if result.report is not None:
        counts = result.report.counts
        what = f"{counts['fail']} fail, {counts['unknown']} unknown, {result.requests} requests"
    else:
        what = f"{result.status}: {result.error}"
    click.echo(f"{result.name}: {what} ({result.seconds:.1f}s)", err=True)


def run_fleet_scan(
    request: ScanRequest,
    contexts: Sequence[str],
    all_contexts: bool,
    concurrency: int | None,
    fmt: str | None = None,
) -> FleetReport:
    """Resolve the contexts and scan them all; a cluster's failure is in the report, not raised.

    With `fmt`, what that report format needs from outside the clusters is prepared once, while the
    clusters are read.
    """
    if request.snapshot_paths or request.manifest_paths or request.demo:
        raise UsageError("a fleet scan reads live clusters: drop --snapshot, --manifests and --demo")
    names = resolve_contexts(request.live.kubeconfig, contexts, all_contexts)
    on_done = _progress if sys.stderr.isatty() else None
    shared = shared_work(fmt) if fmt else ()
    return scan_fleet(FleetRequest(names, request, concurrency), on_done=on_done, shared=shared)
