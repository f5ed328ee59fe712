"""The JSON report: a documented, versioned document (docs/report-schema.md, docs/report.schema.json).

`report_document()` builds the plain dict (the MCP server and the web reuse it); `render_json()`
serializes it. The whole document passes through `redact_value` before it leaves.
"""

from __future__ import annotations

from typing import Any

from kubegap.checker.finding import Finding
from kubegap.checker.report_summary import read_not_checked, tally, unknown_groups
from kubegap.checker.reports import words
from kubegap.checker.reports._common import cited_incidents, link_base, report_lang
from kubegap.checker.reports.json_text import dumps
from kubegap.checker.reports.symptoms_view import symptoms_data
from kubegap.checker.reports.view import failed_checks
from kubegap.checker.scan_report import CheckSummary, ScanReport
from kubegap.redaction import redact_value


def finding_document(finding: Finding, lang: str = "en") -> dict[str, Any]:
    """A finding as JSON: `message` is the English sentence, `messageText` it in the report's language."""
    ref = finding.object
    return {
        "checkId": finding.check_id,
        "status": finding.status.value,
        "severity": finding.severity.value,
        "object": {
            "kind": ref.kind,
            "name": ref.name,
            "namespace": ref.namespace,
            "apiVersion": ref.api_version,
            "file": ref.source_file,
            "line": ref.source_line,
            "document": ref.source_document,
        },
        "message": finding.message,
        "messageText": finding.message_in(lang),
        "evidence": finding.evidence,
        "reason": finding.reason,
        "exemptedBy": finding.exempted_by,
    }


def check_document(summary: CheckSummary, lang: str, base_url: str) -> dict[str, Any]:
    meta = summary.meta
    return {
        "id": meta.id,
        "title": meta.title.get(lang),
        "area": meta.area,
        "severity": meta.severity.value,
        "status": summary.status.value,
        "counts": dict(summary.counts),
        "why": meta.why.get(lang),
        "remediation": meta.remediation.get(lang),
        "decides": meta.decides.get(lang),
        "needs": list(meta.needs),
        "optional": list(meta.optional),
        "incidents": [
            {"id": cited.id, "title": cited.title, "url": cited.url}
            for cited in cited_incidents(meta, lang, base_url)
        ],
        "references": list(meta.references),
    }


def _unreadable(report: ScanReport, lang: str) -> dict[str, Any]:
    unreadable = report.unreadable
    return {
        "checks": unreadable.checks,
        "forbiddenChecks": unreadable.forbidden_checks,
        "kinds": dict(unreadable.kinds),
        "fix": unreadable.fix,
        "message": unreadable.sentence(lang),
    }


def _groups(report: ScanReport, lang: str) -> list[dict[str, Any]]:
    return [
        {
            "cause": group.cause,
            "checks": list(group.checks),
            "kinds": list(group.kinds),
            "message": words.group_line(group, report.mode, lang),
        }
        for group in unknown_groups(report)
    ]


def report_document(
    report: ScanReport, lang: str | None = "en", base_url: str | None = None
) -> dict[str, Any]:
    """The report as a redacted plain dict, ready for JSON."""
    lang = report_lang(lang)
    base = link_base(base_url)
    document = {
        "schemaVersion": report.schema_version,
        "kubegapVersion": report.kubegap_version,
        "lang": lang,
        "scan": {
            "source": report.source,
            "mode": report.mode,
            "startedAt": report.started_at,
            "finishedAt": report.finished_at,
            "requests": report.requests,
            "kubeconfig": report.kubeconfig,
            "context": report.context,
            "snapshotCreatedAt": report.snapshot_created_at,
            "namespaces": list(report.namespaces),
        },
        "summary": {
            "counts": report.counts,
            "failBySeverity": report.severity_counts,
            "checks": len(report.checks),
            "unreadable": _unreadable(report, lang),
            "skippedFiles": list(report.skipped_files),
            "checkCounts": tally(report),
            "unknownGroups": _groups(report, lang),
            "readNotChecked": [
                {"kind": row.kind, "objects": row.objects} for row in read_not_checked(report)
            ],
        },
        "checks": [check_document(summary, lang, base) for summary in report.checks],
        "findings": [finding_document(finding, lang) for finding in report.findings],
        "coverage": [
            {
                "kind": row.kind,
                "status": row.status,
                "detail": row.detail,
                "objects": row.objects,
                "neededBy": list(row.needed_by),
                "optionalFor": list(row.optional_for),
                "checked": row.checked,
            }
            for row in report.coverage
        ],
        "notes": list(report.notes),
    }
    if report.symptoms is not None:
        document["symptoms"] = symptoms_data(report.symptoms, lang, failed_checks(report))
    redacted: dict[str, Any] = redact_value(document)
    return redacted


def render_json(report: ScanReport, lang: str | None = "en", base_url: str | None = None) -> str:
    return dumps(report_document(report, lang, base_url))
