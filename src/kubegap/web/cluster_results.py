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
from kubegap.checker.reports._common import (
    ROLE_KEYS,
    count_label,
    evidence_text,
    location_text,
    name_text,
    object_text,
    one_line,
    role_text,
)
from kubegap.checker.scan_report import COUNT_KEYS, CheckSummary, ScanReport, finding_sort_key, worst_first
from kubegap.redaction import redact_value
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
class EvidenceItem:
    """One evidence key with its values, one per entry of a list or a mapping (`blockers`)."""

    key: str
    values: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class FindingView:
    status: str
    status_label: str
    severity: str
    severity_label: str
    object: str
    location: str  # `file:line` of a manifest object, else ''
    message: str
    evidence: str  # the evidence on one line, as the text reports print it
    evidence_items: tuple[EvidenceItem, ...]  # the same as a list the page shows key by key
    role: str  # the workload role the check assumed, '' when it said none
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


def _shown(value: object) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{key}: {_shown(item)}" for key, item in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_shown(item) for item in value)
    return str(value)


def evidence_items(finding: Finding, limit: int = 12) -> tuple[EvidenceItem, ...]:
    """The evidence key by key, redacted, a mapping or list one value per line (never a raw dict)."""
    shown = {key: value for key, value in finding.evidence.items() if key not in ROLE_KEYS}
    items = []
    for key, value in list(redact_value(shown).items())[:limit]:
        if isinstance(value, dict):
            values = [f"{inner}: {_shown(item)}" for inner, item in value.items()]
        elif isinstance(value, list | tuple):
            values = [_shown(item) for item in value]
        else:
            values = [_shown(value)]
        kept = [one_line(text, 300) for text in values[:limit]]
        if len(values) > limit:
            kept.append(f"… +{len(values) - limit}")
        items.append(EvidenceItem(name_text(str(key), 100), tuple(kept)))
    return tuple(items)


def _finding_view(finding: Finding, lang: Lang) -> FindingView:
    status = finding.status.value
    severity = finding.severity.value
    return FindingView(
        status=status,
        status_label=t(f"status.{status}", lang),
        severity=severity,
        severity_label=t(f"severity.{severity}", lang),
        object=object_text(finding.object, 300),
        location=location_text(finding),
        message=one_line(finding.message_in(lang)),
        evidence=evidence_text(finding),
        evidence_items=evidence_items(finding),
        role=role_text(finding),
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
