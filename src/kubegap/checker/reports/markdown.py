"""Markdown for pull-request comments: the summary first, then open fails with the fix and the incidents.

Long reports are cut (GitHub comments have a size limit) with a line saying how many were left out.
It reads only the view (`view.py`), whose strings are redacted and show their control characters;
on top, `escaping.py` makes names and evidence code spans nothing can close and escapes prose, so a
hostile object name cannot add HTML, an image or a link to a posted comment.
"""

from __future__ import annotations

from kubegap.checker.reports.escaping import markdown_code, markdown_sentence, markdown_text
from kubegap.checker.reports.symptoms_view import SymptomsView
from kubegap.checker.reports.view import CheckBlock, ReportView, Row, build_view
from kubegap.checker.scan_report import ScanReport
from kubegap.redaction import redact_text
from kubegap.text import label, report_phrase

MAX_ROWS = 100


def _cell(text: str) -> str:
    return markdown_text(text)


def _prose(text: str) -> str:
    return markdown_text(text, in_table=False)


def _object_cell(row: Row) -> str:
    cell = markdown_code(row.object)
    return f"{cell} ({markdown_code(row.location)})" if row.location else cell


def _finding_rows(rows: list[Row], lang: str) -> list[str]:
    header = " | ".join(label(f"report.{key}", lang) for key in ("severity", "check", "object", "message"))
    lines = [f"| {header} |", "| --- | --- | --- | --- |"]
    for row in rows[:MAX_ROWS]:
        cell = _cell(row.message)
        if row.role:
            cell += f" {_cell(row.role)}"
        if row.evidence:
            cell += f" — {markdown_code(row.evidence)}"
        lines.append(
            f"| {row.severity_label} | {markdown_code(row.check_id)} | {_object_cell(row)} | {cell} |"
        )
    if len(rows) > MAX_ROWS:
        lines.append("\n" + report_phrase("more-rows-files", lang, count=len(rows) - MAX_ROWS))
    return lines


def _fixes(blocks: list[CheckBlock], lang: str) -> list[str]:
    lines = [f"### {label('report.how-to-fix', lang)}", ""]
    for block in blocks:
        lines.append(f"**{markdown_code(block.check_id, in_table=False)}: {_prose(block.title)}**  ")
        lines.append(_prose(block.remediation))
        for cited in block.incidents:
            lines.append(f"- {label('report.incident', lang)}: [{_cell(cited.title)}]({cited.url})")
        lines.append("")
    return lines


def _details(summary: str, body: list[str]) -> list[str]:
    return [f"<details><summary>{summary}</summary>", "", *body, "", "</details>", ""]


def _tail(view: ReportView, unknown: list[Row], exempted: list[Row]) -> list[str]:
    """The collapsed sections: each unknown finding, exempted fails, coverage, notes."""
    lang = view.lang
    lines: list[str] = []
    if unknown:
        header = " | ".join(label(f"report.{key}", lang) for key in ("check", "reason", "message"))
        table = [f"| {header} |", "| --- | --- | --- |"]
        table += [
            f"| {markdown_code(row.check_id)} | {_cell(row.reason)} | {_cell(row.message)} |"
            for row in unknown[:MAX_ROWS]
        ]
        lines += _details(label("report.undecided", lang), table)
    if exempted:
        lines += _details(label("report.exempted-fails", lang), _finding_rows(exempted, lang))
    if view.coverage or view.optional_unread:
        header = " | ".join(label(f"report.{key}", lang) for key in ("kind", "status", "detail"))
        table = [_prose(view.coverage_phrase), "", f"| {header} |", "| --- | --- | --- |"]
        table += [
            f"| {markdown_code(row.kind)} | {_cell(row.status_label)} | {_cell(row.detail)} |"
            for row in view.coverage
        ]
        if view.optional_unread:
            table += ["", _prose(view.optional_unread)]
        lines += _details(label("report.unread", lang), table)
    if view.notes:
        lines += _details(label("report.note", lang), [f"- {_prose(note)}" for note in view.notes])
    return lines


def _symptoms(symptoms: SymptomsView, lang: str) -> list[str]:
    """After the fails: one table row per symptom group, with its catalog entry, incidents and checks."""
    ko = lang == "ko"
    lines = [f"### {_prose(symptoms.heading)}", "", _prose(symptoms.window), ""]
    if symptoms.rows:
        header = " | ".join(
            ("증상", "자리", "횟수", "사례", "점검", "예")
            if ko
            else ("Symptom", "Place", "Count", "Incidents", "Checks", "Example")
        )
        lines += [f"| {header} |", "| --- | --- | --- | --- | --- | --- |"]
        for row in symptoms.rows:
            cells = (
                f"{markdown_code(row.signature)} {_cell(row.title)}",
                markdown_code(row.place),
                _cell(f"{row.count} {row.seen}".strip()),
                ", ".join(markdown_code(incident) for incident in row.incidents),
                ", ".join(markdown_code(check) for check in row.checks),
                markdown_code(row.example) if row.example else "",
            )
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    lines += [_prose(line) for line in (symptoms.more, symptoms.unread) if line]
    return [*lines, ""] if lines[-1] else lines


def render_markdown(report: ScanReport, lang: str | None = "en", base_url: str | None = None) -> str:
    view = build_view(report, lang, base_url, full=True)
    lang = view.lang
    source = view.heading.removeprefix("kubegap scan · ")
    lines = [
        "## kubegap scan",
        "",
        f"{label('report.source', lang)}: {_prose(source)} · {report.finished_at}",
        "",
        f"**{_prose(view.checks_line)}**  ",
        _prose(view.findings_line),
        "",
    ]
    extra = [*view.groups, *([view.read_not_checked] if view.read_not_checked else [])]
    if extra:
        lines += [*(f"- {markdown_sentence(line)}" for line in extra), ""]
    rows = view.rows
    open_fails = [row for row in rows if row.status == "fail"]
    if open_fails:
        lines += [f"### {label('report.gaps', lang)}", "", *_finding_rows(open_fails, lang), ""]
    failing = [block for block in view.blocks if block.status == "fail"]
    if failing:
        lines += _fixes(failing, lang)
    if view.symptoms is not None:
        lines += _symptoms(view.symptoms, lang)
    unknown = [row for row in rows if row.status == "unknown" and row.check_id not in view.out_of_reach]
    exempted = [row for row in rows if row.status == "exempted"]
    lines += _tail(view, unknown, exempted)
    return redact_text("\n".join(lines) + "\n", limit=60_000)  # a GitHub comment holds 65,536
