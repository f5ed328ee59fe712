"""Markdown for pull-request comments: counts first, then open fails with the fix and the incidents behind it.

Long reports are cut (GitHub comments have a size limit) with a line saying how many were left out.
Text from the cluster or the files (names, messages, evidence, kinds, notes) goes through
`escaping.py`: names and evidence as code spans nothing can close, prose escaped, so a hostile
object name cannot add HTML, an image or a link to a posted comment.
"""

from __future__ import annotations

from kubegap.bilingual import render_any
from kubegap.checker.coverage_text import detail_text, status_label
from kubegap.checker.finding import Finding, Status
from kubegap.checker.reports._common import (
    cited_incidents,
    count_label,
    evidence_text,
    link_base,
    one_line,
    report_lang,
)
from kubegap.checker.reports.escaping import markdown_code, markdown_text
from kubegap.checker.scan_report import COUNT_KEYS, ScanReport, is_open_fail, worst_first
from kubegap.redaction import redact_text
from kubegap.text import label, report_phrase

MAX_ROWS = 100


def _cell(text: str, limit: int = 300) -> str:
    return markdown_text(one_line(text, limit))


def _prose(text: str, limit: int = 500) -> str:
    return markdown_text(one_line(text, limit), in_table=False)


def _code(text: str, limit: int = 300) -> str:
    return markdown_code(one_line(text, limit))


def _finding_rows(findings: list[Finding], lang: str) -> list[str]:
    header = " | ".join(label(f"report.{key}", lang) for key in ("severity", "check", "object", "message"))
    rows = [f"| {header} |", "| --- | --- | --- | --- |"]
    for finding in findings[:MAX_ROWS]:
        message = finding.message_in(lang)
        if finding.exempted_by:
            message += " " + report_phrase("exempted-by", lang, by=finding.exempted_by)
        cell = _cell(message, 800)
        evidence = evidence_text(finding, 160)
        if evidence:
            cell += f" — {markdown_code(evidence)}"
        rows.append(
            f"| {label('severity.' + finding.severity.value, lang)} | {_code(finding.check_id)} "
            f"| {_code(finding.object.display())} | {cell} |"
        )
    if len(findings) > MAX_ROWS:
        rows.append("\n" + report_phrase("more-rows-files", lang, count=len(findings) - MAX_ROWS))
    return rows


def render_markdown(report: ScanReport, lang: str | None = "en", base_url: str | None = None) -> str:
    lang = report_lang(lang)
    base = link_base(base_url)
    counts = report.counts
    lines = [
        "## kubegap scan",
        "",
        f"{label('report.source', lang)}: {_prose(render_any(report.source, lang))} "
        f"({label('mode.' + report.mode, lang)}) · {report.finished_at}",
        "",
        " · ".join(f"**{counts[key]}** {count_label(key, lang)}" for key in COUNT_KEYS),
        "",
    ]
    unreadable = report.unreadable.sentence(lang)
    if unreadable:
        lines += [one_line(unreadable, 1000), ""]
    open_fails = [finding for finding in report.findings if is_open_fail(finding)]
    exempted = [
        finding for finding in report.findings if finding.status is Status.failed and finding.exempted_by
    ]
    if open_fails:
        lines += [f"### {label('report.gaps', lang)}", "", *_finding_rows(open_fails, lang), ""]
    failing_checks = [summary for summary in worst_first(report.checks) if summary.status is Status.failed]
    if failing_checks:
        lines += [f"### {label('report.how-to-fix', lang)}", ""]
        for summary in failing_checks:
            meta = summary.meta
            lines.append(f"**`{meta.id}`: {one_line(meta.title.get(lang))}**  ")
            lines.append(one_line(meta.remediation.get(lang), 1500))
            for cited in cited_incidents(meta, lang, base):
                lines.append(f"- {label('report.incident', lang)}: [{one_line(cited.title)}]({cited.url})")
            lines.append("")
    unknown = [finding for finding in report.findings if finding.status is Status.unknown]
    if unknown:
        header = " | ".join(label(f"report.{key}", lang) for key in ("check", "reason", "message"))
        lines += [f"### {label('report.undecided', lang)}", "", f"| {header} |", "| --- | --- | --- |"]
        for finding in unknown[:MAX_ROWS]:
            lines.append(
                f"| {_code(finding.check_id)} | {_cell(finding.reason)} | {_cell(finding.message_in(lang))} |"
            )
        lines.append("")
    if exempted:
        lines += [
            f"<details><summary>{label('report.exempted-fails', lang)}</summary>",
            "",
            *_finding_rows(exempted, lang),
            "",
            "</details>",
            "",
        ]
    unread = [row for row in report.coverage if row.status != "read"]
    if unread:
        header = " | ".join(label(f"report.{key}", lang) for key in ("kind", "status", "detail"))
        lines += [f"<details><summary>{label('report.unread', lang)}</summary>", ""]
        lines += [f"| {header} |", "| --- | --- | --- |"]
        lines += [
            f"| {_code(row.kind)} | {_cell(status_label(row.status, lang))} "
            f"| {_cell(detail_text(row.detail, lang))} |"
            for row in unread
        ]
        lines += ["", "</details>", ""]
    if report.notes:
        lines += [f"<details><summary>{label('report.note', lang)}</summary>", ""]
        lines += [f"- {_prose(render_any(note, lang))}" for note in report.notes]
        lines += ["", "</details>", ""]
    return redact_text("\n".join(lines) + "\n", limit=60_000)
