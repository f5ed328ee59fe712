"""One call from a source to a ScanReport, shared by the CLI and the MCP server.

`load_source()` picks exactly one source (snapshot files, manifests, the demo, or the live cluster
when none is given) and `scan()` runs the selected checks over it with exemptions applied. Both
raise only KubegapError subclasses with one-line messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from kubegap.checker.registry import CheckModule, select_checks
from kubegap.checker.scan_report import ScanReport
from kubegap.checker.snapshot import Snapshot
from kubegap.errors import UsageError


@dataclass(frozen=True)
class LiveOptions:
    """How to reach the live cluster."""

    kubeconfig: str | None = None
    context: str | None = None
    namespaces: tuple[str, ...] = ()
    qps: float = 20.0
    timeout: float = 30.0
    progress: bool = False

    def read(self, kinds: Sequence[str]) -> Snapshot:
        from kubegap.checker.live import read_cluster  # lazy: the kubernetes client is slow to import

        return read_cluster(
            list(kinds),
            kubeconfig=self.kubeconfig,
            context=self.context,
            namespaces=list(self.namespaces) or None,
            qps=self.qps,
            timeout=self.timeout,
            progress=self.progress,
        )


def kinds_for(checks: Sequence[CheckModule]) -> list[str]:
    """Every kind the given checks need or may use (what a live read lists); never Secrets."""
    from kubegap.checker.rbac import kinds_read

    return kinds_read(check.meta for check in checks)


def load_source(
    *,
    snapshot_paths: Sequence[str | Path] = (),
    manifest_paths: Sequence[str | Path] = (),
    demo: bool = False,
    live: LiveOptions | None = None,
    checks: Sequence[CheckModule] | None = None,
) -> Snapshot:
    """The snapshot from exactly one source; with none, the live cluster (listing what `checks` read)."""
    from kubegap.checker.sources import load_demo, load_manifests, load_snapshot_files

    chosen = sum(bool(value) for value in (snapshot_paths, manifest_paths, demo))
    if chosen > 1:
        raise UsageError(
            "choose one source: --snapshot, --manifests or --demo (or none for the live cluster)"
        )
    if snapshot_paths:
        return load_snapshot_files(snapshot_paths)
    if manifest_paths:
        return load_manifests(manifest_paths)
    if demo:
        return load_demo()
    selected = list(checks) if checks is not None else select_checks(None)
    return (live or LiveOptions()).read(kinds_for(selected))


def scan(
    *,
    snapshot_paths: Sequence[str | Path] = (),
    manifest_paths: Sequence[str | Path] = (),
    demo: bool = False,
    live: LiveOptions | None = None,
    check_ids: Sequence[str] | None = None,
    namespaces: Sequence[str] | None = None,
    exemptions_path: str | Path | None = None,
    honour_annotations: bool = True,
) -> ScanReport:
    """Load one source and run the checks: the whole of `kubegap scan` short of rendering."""
    from kubegap.checker.exemptions import load_exemptions
    from kubegap.checker.runner import run_checks

    checks = select_checks(check_ids)  # unknown ids fail before any cluster I/O
    exemptions = load_exemptions(exemptions_path) if exemptions_path else None
    if live is not None and namespaces and not live.namespaces:
        live = replace(live, namespaces=tuple(namespaces))
    snapshot = load_source(
        snapshot_paths=snapshot_paths, manifest_paths=manifest_paths, demo=demo, live=live, checks=checks
    )
    return run_checks(
        snapshot,
        namespaces=namespaces or None,
        exemptions=exemptions,
        honour_annotations=honour_annotations,
        checks=checks,
    )
