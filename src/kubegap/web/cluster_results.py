"""The checks of a scan report as the cluster page shows them: worst first, each with its findings.

Each check carries its status, counts, fix and the incidents it cites (linked to their case pages
when this library holds them). Findings are capped per check so a huge cluster still gives a page a
browser can open; `kubegap scan` shows them all. Object names, messages and evidence pass through
the report helpers' redaction on their way in.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from kubegap.checker.finding import Finding
from kubegap.checker.reports._common import count_label, evidence_text, object_text, one_line
from kubegap.checker.scan_report import COUNT_KEYS, CheckSummary, ScanReport, finding_sort_key, worst_first
from kubegap.text import Lang
from kubegap.web import urls
from kubegap.web.cluster_status import check_anchor
from kubegap.web.labels import t
from kubegap.web.site import Site

MAX_FINDINGS_PER_CHECK = 25


@dataclass(frozen=True, slots=True)
class Count:
    key: str
    label: str
    count: int


@dataclass(frozen=True, slots=True)
class FindingView:
    status: str
    status_label: str
    severity: str
    severity_label: str
    object: str
    message: str
    evidence: str
    reason: str
    exempted_by: str


@dataclass(frozen=True, slots=True)
class CitedCase:
    id: str
    title: str
    url: str  # "" when the incident is not in this library


@dataclass(frozen=True, slots=True)
class CheckResult:
    id: str
    anchor: str
    title: str
    url: str
    severity: str
    severity_label: str
    status: str
    status_label: str
    counts: tuple[Count, ...]
    remediation: str
    findings: tuple[FindingView, ...]
    more_findings: int
    incidents: tuple[CitedCase, ...]


def check_results(site: Site, report: ScanReport, lang: Lang) -> tuple[CheckResult, ...]:
    by_check: dict[str, list[Finding]] = {}
    for finding in sorted(report.findings, key=finding_sort_key):
        by_check.setdefault(finding.check_id, []).append(finding)
    summaries = worst_first(report.checks)
    titles = _incident_titles(
        site, {incident for summary in summaries for incident in summary.meta.incidents}, lang
    )
    return tuple(
        _check_result(summary, by_check.get(summary.check_id, []), titles, lang) for summary in summaries
    )


def _check_result(
    summary: CheckSummary, findings: list[Finding], titles: dict[str, str], lang: Lang
) -> CheckResult:
    meta = summary.meta
    status = summary.status.value
    shown = findings[:MAX_FINDINGS_PER_CHECK]
    return CheckResult(
        id=meta.id,
        anchor=check_anchor(meta.id),
        title=meta.title.get(lang),
        url=urls.check_url(lang, meta.id),
        severity=meta.severity.value,
        severity_label=t(f"severity.{meta.severity.value}", lang),
        status=status,
        status_label=t(f"status.{status}", lang),
        counts=tuple(
            Count(key, count_label(key, lang), summary.counts[key])
            for key in COUNT_KEYS
            if summary.counts.get(key)
        ),
        remediation=meta.remediation.get(lang),
        findings=tuple(_finding_view(finding, lang) for finding in shown),
        more_findings=len(findings) - len(shown),
        incidents=tuple(
            CitedCase(incident, titles[incident], urls.incident_url(lang, incident))
            if incident in titles
            else CitedCase(incident, incident, "")
            for incident in meta.incidents
        ),
    )


def _finding_view(finding: Finding, lang: Lang) -> FindingView:
    status = finding.status.value
    severity = finding.severity.value
    return FindingView(
        status=status,
        status_label=t(f"status.{status}", lang),
        severity=severity,
        severity_label=t(f"severity.{severity}", lang),
        object=object_text(finding.object, 300),
        message=one_line(finding.message_in(lang)),
        evidence=evidence_text(finding),
        reason=finding.reason,
        exempted_by=one_line(finding.exempted_by, 200),
    )


def _incident_titles(site: Site, wanted: Iterable[str], lang: Lang) -> dict[str, str]:
    """id -> title of the cited incidents this library holds, in one pass over the knowledge base."""
    wanted = set(wanted)
    return {
        incident.id: incident.title.get(lang)
        for incident in site.knowledge.incidents
        if incident.id in wanted
    }
