"""A check's status in the scanned cluster, as a small badge beside the check wherever it is listed.

The badge links to the check's entry on the cluster page, so a reader who meets a check in the
library sees at once whether their own cluster has the gap. Every badge names the scan it comes from
("demo cluster", "live: context X", "snapshot: file"), so the bundled demo's verdicts are never read
as the reader's own cluster. No report yet (off, still scanning, or failed) or a check the scan did
not run means no badge: the pages never guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath

from kubegap.checker.scan_report import ScanReport
from kubegap.text import Lang
from kubegap.web import urls
from kubegap.web.cluster_source import ClusterSource
from kubegap.web.labels import t
from kubegap.web.site import Site

_NOT_ANCHOR = re.compile(r"[^a-z0-9-]+")


@dataclass(frozen=True, slots=True)
class ClusterBadge:
    status: str  # pass, fail, unknown or not-applicable
    label: str
    hint: str
    url: str
    scope: str = ""  # which scan: "데모 클러스터" / "demo cluster", "live: context X", "snapshot: file"


def check_anchor(check_id: str) -> str:
    """The fragment id of a check on the cluster page; check ids are slugs, anything else is folded."""
    return "check-" + _NOT_ANCHOR.sub("-", check_id.lower())[:120]


def cluster_check_url(lang: Lang, check_id: str) -> str:
    return urls.cluster_url(lang) + "#" + check_anchor(check_id)


def cluster_badges(site: Site, lang: Lang) -> dict[str, ClusterBadge]:
    """check id -> badge, for every check of the current report; empty without one."""
    report = site.cluster.state().report
    if report is None:
        return {}
    badges: dict[str, ClusterBadge] = {}
    scope = scan_scope(site.cluster.source, report, lang)
    for summary in report.checks:
        status = summary.status.value
        label = t(f"status.{status}", lang)
        badges[summary.check_id] = ClusterBadge(
            status,
            label,
            t("badge.hint", lang, scope=scope, status=label),
            cluster_check_url(lang, summary.check_id),
            scope,
        )
    return badges


def scan_scope(source: ClusterSource, report: ScanReport, lang: Lang) -> str:
    """Which scan a verdict comes from, in a few words: the demo, a live context, or the files read."""
    if source.kind == "live":
        context = report.context or t("badge.current-context", lang)
        return t("badge.scope.live", lang, context=context[:80])
    if source.kind in ("snapshot", "manifests"):
        names = [PurePath(part.strip()).name for part in source.detail.split(",") if part.strip()]
        shown = ", ".join(names[:2]) + (f" +{len(names) - 2}" if len(names) > 2 else "")
        return t(f"badge.scope.{source.kind}", lang, file=shown[:80])
    return t("badge.scope.demo", lang)


def cluster_badge(site: Site, check_id: str, lang: Lang) -> ClusterBadge | None:
    return cluster_badges(site, lang).get(check_id)


def cache_control(site: Site) -> str:
    """Pages that show badges must be revalidated while a scan can still change them."""
    return "" if site.cluster.state().state == "off" else "no-cache"
