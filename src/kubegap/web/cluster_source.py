"""Which cluster `kubegap serve` reports on, decided once at start-up from its flags and the environment.

With no source flag the server should just work: a kubeconfig (explicit, $KUBECONFIG, ~/.kube/config)
or an in-cluster service account means the live cluster, read-only; nothing at all means the bundled
demo snapshot, so `make run` shows a full report on any machine. The kubeconfig is found by the live
client's own functions, so `serve` and `scan` can never disagree about which cluster "the" cluster is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from kubegap.checker.scanning import LiveTarget, ScanRequest
from kubegap.errors import ClusterError, UsageError
from kubegap.redaction import redact_text

# kind -> how the start-up line names it
_KIND_NAMES = {
    "live": "live cluster, read-only",
    "demo": "demo snapshot",
    "snapshot": "snapshot files",
    "manifests": "manifest files",
    "off": "off",
}
# reason -> why this source was picked, for the start-up line
_REASON_NOTES = {
    "asked": "",
    "kubeconfig-found": "",
    "in-cluster": "in-cluster service account",
    "no-kubeconfig": "no kubeconfig found",
    "no-scan": "--no-scan",
}


@dataclass(frozen=True)
class ClusterSource:
    """The one source the server scans: `kind` is live, demo, snapshot, manifests or off.

    `reason` says why it was picked (asked, kubeconfig-found, in-cluster, no-kubeconfig, no-scan);
    `detail` names it (kubeconfig path and context, or the files); `request` is None when scanning is off.
    """

    kind: str
    reason: str
    detail: str = ""
    request: ScanRequest | None = field(default=None, compare=False)

    def startup_line(self, lang: str = "en") -> str:
        """One line for stderr, e.g. 'cluster report: demo snapshot (no kubeconfig found)'."""
        asked_demo = "--demo" if (self.kind, self.reason) == ("demo", "asked") else ""
        if lang == "ko":
            from kubegap.web.labels import t

            reason = (
                ""
                if self.reason in ("asked", "kubeconfig-found")
                else t(f"cluster.reason.{self.reason}", lang)
            )
            parts = [part for part in (self.detail, reason, asked_demo) if part]
            note = f" ({'; '.join(parts)})" if parts else ""
            return redact_text(f"클러스터 보고서: {t(f'cluster.source.{self.kind}', lang)}{note}", limit=400)
        parts = [part for part in (self.detail, _REASON_NOTES.get(self.reason, ""), asked_demo) if part]
        note = f" ({'; '.join(parts)})" if parts else ""
        return redact_text(f"cluster report: {_KIND_NAMES.get(self.kind, self.kind)}{note}", limit=400)


OFF = ClusterSource("off", "no-scan")


def choose_source(
    *,
    snapshot_paths: Sequence[str | Path] = (),
    manifest_paths: Sequence[str | Path] = (),
    demo: bool = False,
    kubeconfig: str | None = None,
    context: str | None = None,
    no_scan: bool = False,
) -> ClusterSource:
    """The source the flags name, else the live cluster when a kubeconfig resolves, else the demo.

    Raises UsageError when the flags contradict each other. Nothing here talks to a cluster: a
    kubeconfig that points at an unreachable server is found out by the scan and shown on the page.
    """
    files = [bool(snapshot_paths), bool(manifest_paths), demo]
    if no_scan:
        if any(files) or kubeconfig or context:
            raise UsageError("--no-scan cannot be combined with a cluster source")
        return OFF
    if sum(files) > 1:
        raise UsageError(
            "choose one source: --snapshot, --manifests or --demo (or none for the live cluster)"
        )
    if any(files) and (kubeconfig or context):
        raise UsageError("--kubeconfig and --context choose a live cluster; drop them with a file source")
    if snapshot_paths:
        return ClusterSource(
            "snapshot", "asked", _names(snapshot_paths), ScanRequest(snapshot_paths=tuple(snapshot_paths))
        )
    if manifest_paths:
        return ClusterSource(
            "manifests", "asked", _names(manifest_paths), ScanRequest(manifest_paths=tuple(manifest_paths))
        )
    if demo:
        return ClusterSource("demo", "asked", "", ScanRequest(demo=True))
    return _live_or_demo(kubeconfig, context)


def _live_or_demo(kubeconfig: str | None, context: str | None) -> ClusterSource:
    from kubegap.checker.live.client import ReadOnlyClient, resolve_kubeconfig

    live = ScanRequest(live=LiveTarget(kubeconfig=kubeconfig, context=context))
    if kubeconfig or context:  # asked for by name: a missing file is an error to show, not a reason to demo
        return ClusterSource("live", "asked", _live_detail(kubeconfig, context), live)
    path = resolve_kubeconfig(None)
    if path is not None:
        return ClusterSource("live", "kubeconfig-found", _live_detail(path, None), live)
    try:  # no kubeconfig file: the client's own loader still finds a pod's service account
        ReadOnlyClient.from_kubeconfig(None, None).close()
    except ClusterError:
        return ClusterSource("demo", "no-kubeconfig", "", ScanRequest(demo=True))
    return ClusterSource("live", "in-cluster", "", live)


def _live_detail(kubeconfig: str | None, context: str | None) -> str:
    where = f"kubeconfig {kubeconfig}" if kubeconfig else "kubeconfig as kubectl finds it"
    return f"{where}, context {context}" if context else f"{where}, current context"


def _names(paths: Sequence[str | Path]) -> str:
    return ", ".join(str(path) for path in paths)
