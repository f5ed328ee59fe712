"""The "your cluster" page: the server's scan report as a typed context, for HTML and JSON alike.

It reads the `ScanState` kept by `ClusterScan`: while scanning the page says so and reloads itself;
an error is one sentence; a report shows counts, coverage problems (kinds that could not be read and
why) and the checks worst first, each with its findings, fix and cited incidents. Every string that
came from the cluster passes through the report helpers' redaction before it reaches the context.
"""

from __future__ import annotations

from dataclasses import dataclass

from kubegap.bilingual import render_any
from kubegap.checker.coverage_text import detail_text
from kubegap.checker.finding import Status
from kubegap.checker.report_summary import (
    BUCKETS,
    OUT_OF_REACH,
    finding_counts,
    read_not_checked,
    tally,
    unknown_groups,
)
from kubegap.checker.reports import words
from kubegap.checker.reports._common import count_label, name_text, one_line
from kubegap.checker.scan_report import COUNT_KEYS, ScanReport
from kubegap.text import Lang
from kubegap.web import urls
from kubegap.web.cluster_results import CheckResult, Count, check_results
from kubegap.web.cluster_scan import RescanOutcome, ScanState
from kubegap.web.cluster_symptoms import SymptomsSection, symptoms_section
from kubegap.web.labels import t
from kubegap.web.site import Site

REFRESH_SECONDS = 3
_GAP_STATUSES = frozenset({Status.failed, Status.unknown})


@dataclass(frozen=True, slots=True)
class SourceView:
    kind: str
    label: str
    reason: str
    detail: str
    scanned: str  # the report's own description of what it read, once there is a report


@dataclass(frozen=True, slots=True)
class CoverageProblem:
    kind: str
    status: str
    status_label: str
    detail: str
    needed_by: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ClusterPage:
    kind: str
    lang: str
    title: str
    url: str
    state: str  # off, waiting, scanning, done, error
    message: str  # one sentence saying where the scan stands
    error: str
    source: SourceView
    started_at: str  # ISO 8601, UTC
    finished_at: str
    started_label: str  # the same, for reading: '2026-12-02 10:39:46 UTC'
    finished_label: str
    refresh_seconds: int  # > 0 while a scan runs: the HTML reloads itself
    rescan_url: str  # POST here (form field or X-Kubegap-Token header: rescan_token) to scan again
    rescan_token: str
    notices: tuple[str, ...]
    read_only: str
    hint: str
    check_counts: tuple[Count, ...]
    counts: tuple[Count, ...]
    severities: tuple[Count, ...]
    groups: tuple[str, ...]  # one line per group of checks that did not decide, with what resolves it
    read_not_checked: str  # kinds the scan read that no check understands
    coverage_summary: str
    coverage: tuple[CoverageProblem, ...]
    optional_unread: tuple[str, ...]
    gaps: tuple[CheckResult, ...]
    passed: tuple[CheckResult, ...]
    notes: tuple[str, ...]
    symptoms: SymptomsSection | None = None  # what the cluster already shows (cluster_symptoms.py)


def build_cluster_page(
    site: Site, lang: Lang, rescan: RescanOutcome | None = None, scan: ScanState | None = None
) -> ClusterPage:
    """The page for the server's scan, or for `scan` when given (one cluster of a fleet scan)."""
    scan = scan or site.cluster.state()
    report = scan.report
    results = check_results(site, report, lang) if report else ()
    waiting = scan.state in ("waiting", "scanning")
    return ClusterPage(
        kind="cluster",
        lang=lang,
        title=t("cluster.title", lang),
        url=urls.cluster_url(lang),
        state=scan.state,
        message=_message(scan, lang),
        error=scan.error,
        source=_source(scan, lang),
        started_at=scan.started_at,
        finished_at=scan.finished_at,
        started_label=time_label(scan.started_at),
        finished_label=time_label(scan.finished_at),
        refresh_seconds=REFRESH_SECONDS if waiting else 0,
        rescan_url=urls.cluster_url(lang) if scan.state in ("done", "error") else "",
        rescan_token=site.cluster.action_token if scan.state in ("done", "error") else "",
        notices=(t(f"cluster.rescan.{rescan.outcome}", lang, wait=rescan.wait),) if rescan else (),
        read_only=t("cluster.read-only", lang),
        hint=t(f"cluster.hint.{scan.source.kind}", lang) if scan.source.kind in ("demo", "off") else "",
        check_counts=_check_counts(report, lang),
        counts=tuple(Count(key, count_label(key, lang), finding_counts(report)[key]) for key in COUNT_KEYS)
        if report
        else (),
        severities=tuple(
            Count(key, t(f"severity.{key}", lang), count) for key, count in report.severity_counts.items()
        )
        if report
        else (),
        groups=tuple(
            one_line(words.group_line(group, report.mode, lang), 1000) for group in unknown_groups(report)
        )
        if report
        else (),
        read_not_checked=name_text(words.read_not_checked_line(read_not_checked(report), lang), 1000)
        if report
        else "",
        coverage_summary=_coverage_summary(report, lang),
        coverage=_coverage_problems(report, lang),
        optional_unread=_optional_unread(report),
        gaps=tuple(result for result in results if result.status in _GAP_STATUSES),
        passed=tuple(result for result in results if result.status not in _GAP_STATUSES),
        notes=tuple(one_line(render_any(note, lang), 300) for note in report.notes) if report else (),
        symptoms=symptoms_section(report, lang),
    )


def _message(scan: ScanState, lang: Lang) -> str:
    if scan.state == "error":
        return t("cluster.state.error", lang, error=scan.error)
    if scan.state == "done":
        return t("cluster.state.done", lang, time=time_label(scan.finished_at))
    return t(f"cluster.state.{scan.state}", lang)


def time_label(stamp: str) -> str:
    """'2026-12-02T10:39:46Z' -> '2026-12-02 10:39:46 UTC'; anything else is shown as it is."""
    if len(stamp) == 20 and stamp[10] == "T" and stamp.endswith("Z"):
        return f"{stamp[:10]} {stamp[11:19]} UTC"
    return stamp


def _source(scan: ScanState, lang: Lang) -> SourceView:
    source = scan.source
    return SourceView(
        kind=source.kind,
        label=t(f"cluster.source.{source.kind}", lang),
        reason=t(f"cluster.reason.{source.reason}", lang),
        detail=one_line(source.detail, 500),
        scanned=one_line(render_any(scan.report.source, lang), 500) if scan.report else "",
    )


def _check_counts(report: ScanReport | None, lang: Lang) -> tuple[Count, ...]:
    """Checks by outcome, adding up to the checks run (out-of-reach apart, as the terminal says it)."""
    if report is None:
        return ()
    counts = tally(report)
    return tuple(
        Count(key, words.bucket_label(key, report.mode, lang), counts[key])
        for key in BUCKETS
        if key != OUT_OF_REACH or counts[key]
    )


def _coverage_problems(report: ScanReport | None, lang: Lang) -> tuple[CoverageProblem, ...]:
    """Kinds a check needed but could not read, and every forbidden or failed read (as the table shows)."""
    if report is None:
        return ()
    return tuple(
        CoverageProblem(
            row.kind,
            row.status,
            t(f"coverage.{row.status}", lang),
            one_line(detail_text(row.detail, lang), 300),
            row.needed_by,
        )
        for row in report.coverage
        if row.status != "read"
        and row.kind != "Secret"
        and (row.needed_by or row.status in ("forbidden", "failed", "malformed", "partial"))
    )


def _optional_unread(report: ScanReport | None) -> tuple[str, ...]:
    if report is None:
        return ()
    problems = {problem.kind for problem in _coverage_problems(report, "en")}
    return tuple(
        row.kind
        for row in report.coverage
        if row.status != "read" and row.kind != "Secret" and row.kind not in problems
    )


def _coverage_summary(report: ScanReport | None, lang: Lang) -> str:
    if report is None:
        return ""
    rows = [row for row in report.coverage if row.kind != "Secret"]  # Secrets have their own line
    read = [row for row in rows if row.status == "read"]
    objects = sum(row.objects for row in read)
    unread = sum(1 for row in rows if row.status != "read")
    return t("cluster.coverage.summary", lang, read=f"{len(read):,}", objects=f"{objects:,}", unread=unread)
