"""SARIF 2.1.0 for code scanning: one rule per check, one result per fail.

Rules come from check metadata; results carry the manifest file and line when the finding is about a
manifest object (`kubegap scan --manifests`), else a logical location naming the object. Exempted
fails become results with an external suppression, so code scanning shows them as dismissed.
Unknown, pass and not-applicable findings are not results.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from kubegap.bilingual import render_any
from kubegap.checker.check import CheckMeta
from kubegap.checker.finding import Finding, Severity, Status
from kubegap.checker.reports import words
from kubegap.checker.reports._common import cited_incidents, link_base, object_text, report_lang, role_text
from kubegap.checker.reports.escaping import sarif_text
from kubegap.checker.reports.json_text import dumps, fits
from kubegap.checker.reports.symptoms_view import symptoms_data
from kubegap.checker.reports.view import failed_checks
from kubegap.checker.scan_report import ScanReport
from kubegap.redaction import redact_value
from kubegap.text import label

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"

_LEVELS = {
    Severity.critical: "error",
    Severity.high: "error",
    Severity.medium: "warning",
    Severity.low: "note",
    Severity.info: "note",
}
_SECURITY_SEVERITY = {
    Severity.critical: "9.5",
    Severity.high: "8.0",
    Severity.medium: "5.5",
    Severity.low: "3.0",
    Severity.info: "1.0",
}


def _rule(meta: CheckMeta, lang: str, base_url: str) -> dict[str, Any]:
    incidents = cited_incidents(meta, lang, base_url)
    incident_lines = "".join(f"\n- [{cited.title}]({cited.url})" for cited in incidents)
    markdown = f"{meta.why.get(lang)}\n\n**{label('report.fix', lang)}:** {meta.remediation.get(lang)}"
    if incident_lines:
        markdown += f"\n\n**Incidents:**{incident_lines}"
    rule: dict[str, Any] = {
        "id": meta.id,
        "name": "".join(part.capitalize() for part in meta.id.split("-")),
        "shortDescription": {"text": meta.title.get(lang)},
        "fullDescription": {"text": meta.why.get(lang)},
        "help": {"text": meta.remediation.get(lang), "markdown": markdown},
        "defaultConfiguration": {"level": _LEVELS[meta.severity]},
        "properties": {
            "tags": ["kubernetes", meta.area],
            "security-severity": _SECURITY_SEVERITY[meta.severity],
            "kubegap-severity": meta.severity.value,
        },
    }
    help_uri = incidents[0].url if incidents else (meta.references[0] if meta.references else "")
    if help_uri:
        rule["helpUri"] = help_uri
    return rule


def _artifact_uri(file: str) -> str:
    path = Path(file)
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.resolve().as_uri() if path.is_absolute() or path.exists() else path.as_posix()


def _location(finding: Finding) -> dict[str, Any]:
    ref = finding.object
    shown = object_text(ref)
    logical = {"name": shown, "kind": "resource", "fullyQualifiedName": shown}
    location: dict[str, Any] = {"logicalLocations": [logical]}
    if ref.source_file:
        physical: dict[str, Any] = {"artifactLocation": {"uri": _artifact_uri(ref.source_file)}}
        if ref.source_line > 0:
            physical["region"] = {"startLine": ref.source_line}
        location["physicalLocation"] = physical
    return location


def _fingerprints(finding: Finding) -> dict[str, str]:
    """The object, and for a manifest object its file and document: two files that define the same
    kind, namespace and name give two results, not one result seen twice."""
    ref = finding.object
    prints = {"kubegapObject/v1": f"{finding.check_id}:{object_text(ref)}"}
    if ref.source_file:
        prints["kubegapPlace/v1"] = f"{_artifact_uri(ref.source_file)}#{ref.source_document}"
    return prints


def _result(finding: Finding, rule_index: int, lang: str) -> dict[str, Any]:
    role = role_text(finding)
    said = finding.message_in(lang) + (f" {words.role_label(role, lang)}" if role else "")
    result: dict[str, Any] = {
        "ruleId": finding.check_id,
        "ruleIndex": rule_index,
        "level": _LEVELS[finding.severity],
        "message": {"text": sarif_text(f"{object_text(finding.object)}: {said}")},
        "locations": [_location(finding)],
        "partialFingerprints": _fingerprints(finding),
        "properties": {"severity": finding.severity.value, "evidence": finding.evidence},
    }
    if finding.exempted_by:
        result["suppressions"] = [{"kind": "external", "justification": finding.exempted_by}]
    return result


def _invocation(report: ScanReport, lang: str) -> dict[str, Any]:
    """The notes as the run's notifications; a run that skipped input files did not succeed."""
    skipped = sorted(set(report.skipped_files))
    notifications = []
    for note in report.notes:
        text = render_any(note, lang)
        notification: dict[str, Any] = {"level": "note", "message": {"text": text}}
        named = [path for path in skipped if path in str(note)]
        if named:
            notification["level"] = "warning"
            notification["locations"] = [{"physicalLocation": {"artifactLocation": {"uri": named[0]}}}]
        notifications.append(notification)
    return {"executionSuccessful": not skipped, "toolExecutionNotifications": notifications}


def _properties(report: ScanReport, lang: str) -> dict[str, Any]:
    """The run's source and mode, and the symptoms the cluster showed (not results: no rule failed)."""
    properties: dict[str, Any] = {"source": report.source, "mode": report.mode}
    if report.symptoms is not None:
        properties["symptoms"] = symptoms_data(report.symptoms, lang, failed_checks(report))
    return properties


def sarif_document(
    report: ScanReport, lang: str | None = "en", base_url: str | None = None
) -> dict[str, Any]:
    lang = report_lang(lang)
    base = link_base(base_url)
    rules = [_rule(summary.meta, lang, base) for summary in report.checks]
    index = {rule["id"]: position for position, rule in enumerate(rules)}
    results: list[dict[str, Any]] = []
    seen: set[bytes] = set()
    for finding in report.findings:
        if finding.status is not Status.failed or finding.check_id not in index:
            continue
        result = _result(finding, index[finding.check_id], lang)
        key = orjson.dumps(fits(result), option=orjson.OPT_SORT_KEYS, default=str)
        if key not in seen:  # the same fail said twice is one result
            seen.add(key)
            results.append(result)
    document = {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "kubegap",
                        "version": report.kubegap_version,
                        "rules": rules,
                    }
                },
                "results": results,
                "columnKind": "unicodeCodePoints",
                "properties": _properties(report, lang),
                "invocations": [_invocation(report, lang)],
            }
        ],
    }
    redacted: dict[str, Any] = redact_value(document)
    return redacted


def render_sarif(report: ScanReport, lang: str | None = "en", base_url: str | None = None) -> str:
    return dumps(sarif_document(report, lang, base_url))
