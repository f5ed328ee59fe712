"""One scan, from the caller's choice of source to a ScanReport: the plain function the CLI and MCP share.

Exactly one source is read: snapshot files, manifest files, the bundled demo, or (when none is named)
the live cluster through the kubeconfig. Only the kinds the selected checks need are listed live.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from kubegap.bilingual import message
from kubegap.checker.live.limits import LiveLimits
from kubegap.checker.registry import select_checks
from kubegap.checker.scan_report import ScanReport
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.symptoms.events import DEFAULT_WINDOW_SECONDS
from kubegap.checker.symptoms.logs import LogLimits
from kubegap.errors import UsageError


@dataclass(frozen=True)
class LiveTarget:
    """How to reach a live cluster; None fields mean 'as kubectl would' (KUBECONFIG, then ~/.kube/config)."""

    kubeconfig: str | None = None
    context: str | None = None
    qps: float = 20.0
    timeout: float = 30.0
    progress: bool = False
    limits: LiveLimits | None = None  # None: LiveLimits with `timeout` as the request timeout
    logs: LogLimits | None = None  # pod logs of pods with a symptom, only when the user passed --logs


@dataclass(frozen=True)
class ScanRequest:
    snapshot_paths: Sequence[str | Path] = ()
    manifest_paths: Sequence[str | Path] = ()
    demo: bool = False
    live: LiveTarget = field(default_factory=LiveTarget)
    check_ids: Sequence[str] | None = None
    namespaces: Sequence[str] = ()
    exemptions_path: str | Path | None = None
    honour_annotations: bool = True
    event_window: int = DEFAULT_WINDOW_SECONDS  # seconds of Events symptoms keep (live reads)


def load_source(request: ScanRequest, kinds: list[str]) -> Snapshot:
    """Read the one source the request names; raises KubegapError subclasses with one-line messages."""
    from kubegap.checker.sources import load_demo, load_manifests, load_snapshot_files

    chosen = sum(bool(value) for value in (request.snapshot_paths, request.manifest_paths, request.demo))
    if chosen > 1:
        raise UsageError(
            message(
                "입력은 하나만 고르세요: --snapshot, --manifests, --demo 중 하나"
                "(실제 클러스터는 아무것도 주지 않음)",
                "choose one source: --snapshot, --manifests or --demo (or none for the live cluster)",
            )
        )
    if request.snapshot_paths:
        return load_snapshot_files(request.snapshot_paths)
    if request.manifest_paths:
        return load_manifests(request.manifest_paths)
    if request.demo:
        return load_demo()
    from kubegap.checker.live.reader import read_cluster  # lazy: the kubernetes client is slow to import

    live = request.live
    return read_cluster(
        kinds,
        kubeconfig=live.kubeconfig,
        context=live.context,
        namespaces=list(request.namespaces) or None,
        qps=live.qps,
        timeout=live.timeout,
        progress=live.progress,
        limits=live.limits,
        logs=live.logs,
        event_window=request.event_window,
    )


def run_scan(request: ScanRequest) -> ScanReport:
    """Select checks, read their kinds from the source, run them, and return the report."""
    from kubegap.checker.exemptions import load_exemptions
    from kubegap.checker.live.rbac import kinds_read
    from kubegap.checker.runner import run_checks
    from kubegap.checker.symptoms import collect_symptoms

    selected = select_checks(request.check_ids)
    symptoms = not request.manifest_paths  # manifests hold no cluster state
    snapshot = load_source(request, kinds_read((check.meta for check in selected), symptoms=symptoms))
    exemptions = load_exemptions(request.exemptions_path) if request.exemptions_path else None
    with _frozen_heap():
        report = run_checks(
            snapshot,
            namespaces=request.namespaces or None,
            exemptions=exemptions,
            honour_annotations=request.honour_annotations,
            checks=selected,
        )
        if snapshot.mode != "manifests":  # manifests hold no cluster state: nothing is showing yet
            report.symptoms = collect_symptoms(snapshot)
    return report


@contextmanager
def _frozen_heap() -> Iterator[None]:
    """Keep the garbage collector out of the way while the checks run.

    The loaded snapshot is frozen (moved out of the collector's sight), and the collector is paused
    while the checks build their views and findings: each full collection would otherwise walk
    everything built so far again, which grows with the cluster, though those objects form no cycles
    worth collecting mid-scan. Reference counting still frees everything; afterwards the collector
    runs as before and the frozen objects return to its care, so a long-running server keeps nothing
    frozen.
    """
    was_enabled = gc.isenabled()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
        gc.unfreeze()
