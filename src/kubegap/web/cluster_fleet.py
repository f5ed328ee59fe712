"""The "your cluster" page when `kubegap serve` scans several contexts: a cluster × check matrix.

The source and scanner are built here (`fleet_source`, `fleet_scanner`) and handed to the ordinary
ClusterScan, which keeps the FleetReport in its state; the page route sends fleet sources here.
Each cell links to that cluster's own report (`?cluster=ID`), which is the usual cluster page
built from the cluster's ScanReport. Every name and message passes the report helpers' redaction,
and no context name ever goes into a URL: a name can hold what redaction hides in text (a token, a
host), and a URL travels further (history, Referer, logs). The ID is a keyed hash of the name, stable
while the server runs and meaningless outside it. Scanning again is a POST with the page's token,
the same as on the single-cluster page.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlencode

from kubegap.checker.fleet import FleetRequest, resolve_contexts, scan_fleet
from kubegap.checker.fleet.report import NOT_SCANNED, FleetReport
from kubegap.checker.reports._common import one_line
from kubegap.checker.scanning import LiveTarget, ScanRequest
from kubegap.errors import NotFoundError
from kubegap.text import Lang
from kubegap.web import urls
from kubegap.web.cluster_page import ClusterPage, build_cluster_page, time_label
from kubegap.web.cluster_scan import RescanOutcome, Scanner, ScanState
from kubegap.web.cluster_source import ClusterSource
from kubegap.web.cluster_status import check_anchor
from kubegap.web.labels import t
from kubegap.web.site import Site

REFRESH_SECONDS = 3
_SHOWN = ("fail", "unknown")


def fleet_source(kubeconfig: str | None, contexts: Sequence[str], all_contexts: bool) -> ClusterSource:
    where = "every context" if all_contexts else "contexts " + ", ".join(contexts)
    detail = f"{where} of kubeconfig {kubeconfig}" if kubeconfig else f"{where} of the kubeconfig"
    return ClusterSource("fleet", "asked", detail, ScanRequest(live=LiveTarget(kubeconfig=kubeconfig)))


def fleet_scanner(source: ClusterSource, contexts: Sequence[str], all_contexts: bool) -> Scanner:
    """Scan the contexts (re-read from the kubeconfig on every scan with --all-contexts)."""
    request = source.request or ScanRequest()

    def scan() -> FleetReport:
        names = resolve_contexts(request.live.kubeconfig, contexts, all_contexts)
        return scan_fleet(FleetRequest(names, request))

    return scan


@dataclass(frozen=True, slots=True)
class ClusterRow:
    name: str
    status: str
    status_label: str
    fails: str
    unknowns: str
    requests: str
    error: str
    url: str  # the cluster's own report, "" when it was not scanned


@dataclass(frozen=True, slots=True)
class Cell:
    status: str
    label: str
    url: str


@dataclass(frozen=True, slots=True)
class CheckRow:
    id: str
    title: str
    url: str
    severity: str
    severity_label: str
    worst: str
    cells: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class FleetPage:
    kind: str
    lang: str
    title: str
    url: str
    state: str
    message: str
    error: str
    refresh_seconds: int
    rescan_url: str  # POST here with rescan_token (form field or X-Kubegap-Token header)
    rescan_token: str
    notices: tuple[str, ...]
    read_only: str
    source_detail: str
    labels: dict[str, str]  # column headings and fixed words, so the template holds no lookups
    clusters: tuple[ClusterRow, ...]
    columns: tuple[str, ...]
    rows: tuple[CheckRow, ...]  # checks with a fail or unknown somewhere, worst first
    quiet_rows: tuple[CheckRow, ...]  # pass or not applicable everywhere


def fleet_or_member_page(
    site: Site, lang: Lang, rescan: RescanOutcome | None, cluster: str | None
) -> tuple[FleetPage | ClusterPage, str]:
    """The matrix, or with `cluster` the report of that one cluster; (context, template)."""
    scan = site.cluster.state()
    if cluster is None:
        return build_fleet_page(site, lang, scan, rescan), "fleet.html"
    fleet = scan.fleet
    key = site.cluster.link_key
    wanted = cluster.encode("utf-8", "surrogatepass")  # bytes: compare_digest refuses non-ASCII text
    members = fleet.clusters if fleet else []
    member = next(
        (item for item in members if hmac.compare_digest(member_id(key, item.name).encode(), wanted)), None
    )
    if fleet is None or member is None or member.report is None:
        raise NotFoundError(t("error.not-found", lang) + f": {one_line(cluster, 100)}")
    source = ClusterSource("live", "asked", f"context {member.name}")
    state = ScanState("done", source, member.report, "", fleet.started_at, fleet.finished_at)
    return build_cluster_page(site, lang, rescan, state), "cluster.html"


def member_id(key: bytes, name: str) -> str:
    """The opaque id of a context in URLs: 16 hex digits of an HMAC of its name under the server's key."""
    return hmac.new(key, name.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()[:16]


def member_url(lang: str, key: bytes, name: str) -> str:
    return urls.cluster_url(lang) + "?" + urlencode({"cluster": member_id(key, name)})


def build_fleet_page(site: Site, lang: Lang, scan: ScanState, rescan: RescanOutcome | None) -> FleetPage:
    fleet = scan.fleet
    waiting = scan.state in ("waiting", "scanning")
    key = site.cluster.link_key
    rows = _rows(fleet, lang, key) if fleet else ()
    can_rescan = scan.state in ("done", "error")
    return FleetPage(
        kind="fleet",
        lang=lang,
        title=t("fleet.title", lang),
        url=urls.cluster_url(lang),
        state=scan.state,
        message=_message(scan, lang),
        error=scan.error,
        refresh_seconds=REFRESH_SECONDS if waiting else 0,
        rescan_url=urls.cluster_url(lang) if can_rescan else "",
        rescan_token=site.cluster.action_token if can_rescan else "",
        notices=(t(f"cluster.rescan.{rescan.outcome}", lang, wait=rescan.wait),) if rescan else (),
        read_only=t("cluster.read-only", lang),
        source_detail=one_line(scan.source.detail, 500),
        labels={key: t(f"fleet.{key}", lang) for key in _HEADINGS},
        clusters=_clusters(fleet, lang, key) if fleet else (),
        columns=tuple(one_line(name, 100) for name in fleet.names) if fleet else (),
        rows=tuple(row for row in rows if row.worst in _SHOWN),
        quiet_rows=tuple(row for row in rows if row.worst not in _SHOWN),
    )


_HEADINGS = (
    "clusters", "cluster", "status", "fails", "unknowns", "requests", "why", "matrix", "check", "severity",
)  # fmt: skip


def _message(scan: ScanState, lang: Lang) -> str:
    fleet = scan.fleet
    if scan.state == "error":
        return t("cluster.state.error", lang, error=scan.error)
    if scan.state == "done" and fleet is not None:
        total, scanned = len(fleet.clusters), len(fleet.scanned())
        return t("fleet.state.done", lang, time=time_label(scan.finished_at), total=total, scanned=scanned)
    if scan.state == "scanning":
        return t("fleet.state.scanning", lang, total=len(fleet.clusters) if fleet else "…")
    return t(f"cluster.state.{scan.state}", lang)


def _clusters(fleet: FleetReport, lang: Lang, key: bytes) -> tuple[ClusterRow, ...]:
    rows = []
    for cluster in fleet.clusters:
        counts = cluster.report.counts if cluster.report else None
        rows.append(
            ClusterRow(
                name=one_line(cluster.name, 100),
                status=cluster.status,
                status_label=t(f"fleet.status.{cluster.status}", lang),
                fails=f"{counts['fail']:,}" if counts else "",
                unknowns=f"{counts['unknown']:,}" if counts else "",
                requests=f"{cluster.requests:,}" if counts else "",
                error=one_line(cluster.error, 300),
                url=member_url(lang, key, cluster.name) if cluster.report else "",
            )
        )
    return tuple(rows)


def _rows(fleet: FleetReport, lang: Lang, key: bytes) -> tuple[CheckRow, ...]:
    rows = []
    for row in fleet.matrix():
        cells = []
        for cluster, cell in zip(fleet.clusters, row.cells, strict=True):
            if cell == NOT_SCANNED:
                cells.append(Cell(cell, t("fleet.not-scanned", lang), ""))
                continue
            link = f"{member_url(lang, key, cluster.name)}#{check_anchor(row.check_id)}"
            cells.append(Cell(cell, t(f"status.{cell}", lang), link))
        rows.append(
            CheckRow(
                id=row.check_id,
                title=one_line(row.meta.title.get(lang), 200),
                url=urls.check_url(lang, row.check_id),
                severity=row.meta.severity.value,
                severity_label=t(f"severity.{row.meta.severity.value}", lang),
                worst=row.worst,
                cells=tuple(cells),
            )
        )
    return tuple(rows)
