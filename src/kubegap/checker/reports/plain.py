"""Reports for pipes: a plain layout (one finding per line, nothing wrapped) and tab-separated values.

A boxed table folds long ids and links to fit the terminal, which breaks `grep` and copy-paste; when
stdout is not a terminal the scan prints this layout instead. Each finding is one line that starts
with its verdict and severity as tokens (`fail`, `unknown`, `pass`, `not-applicable`, `exempted`;
`high` ...), the same in both languages so scripts keep working, then the check id, the object, the
message in the reader's language, the evidence, the role the check assumed and the file. No other
line holds the word "fail", so `kubegap scan | grep fail` finds the fails and nothing else.

Both read only the view (`view.py`), so every field is already redacted and shows its control
characters as escapes.
"""

from __future__ import annotations

from kubegap.checker.reports._common import one_line, report_lang, role_text
from kubegap.checker.reports.symptoms_view import text_lines
from kubegap.checker.reports.view import ReportView, Row, build_view, row_of
from kubegap.checker.scan_report import ScanReport
from kubegap.text import label

TSV_COLUMNS = (
    "check",
    "status",
    "severity",
    "object",
    "message",
    "reason",
    "evidence",
    "exempted-by",
    "location",
    "role",
)


def finding_line(row: Row) -> str:
    """`fail  high  check-id  Kind/ns/name  message  (evidence)  [role: x]  file.yaml:12`."""
    parts = [row.status, row.severity, row.check_id, row.object, row.said]
    if row.evidence:
        parts.append(f"({row.evidence})")
    parts += [part for part in (row.role, row.location) if part]
    return "  ".join(parts)


def render_plain(
    report: ScanReport, lang: str | None = "en", base_url: str | None = None, *, full: bool = False
) -> str:
    """The fails one per line, the summary in checks and in findings, one line per group of unknowns."""
    view = build_view(report, lang, base_url, full=full)
    lines = [view.heading]
    if view.namespaces:
        lines.append(view.namespaces)
    lines += full_lines(view) if full else [finding_line(row) for row in view.rows]
    if view.symptoms is not None:
        lines += ["", *text_lines(view.symptoms, view.lang, full=full)]
    lines += ["", view.checks_line, view.findings_line, *view.groups]
    if view.read_not_checked:
        lines.append(view.read_not_checked)
    if not full:
        lines += [f"{label('report.note', view.lang)}: {note}" for note in view.skipped]
        lines += [view.notes_line] if view.notes_line else []
    return "\n".join(lines) + "\n"


def full_lines(view: ReportView) -> list[str]:
    """Every check worst first: its findings one per line, then its fix and incidents; the coverage."""
    lang = view.lang
    lines: list[str] = []
    for block in view.blocks:
        lines += ["", f"# {block.check_id}: {block.title}"]
        lines += [finding_line(row) for row in block.rows]
        if block.more:
            lines.append(f"# {block.more}")
        if block.remediation:
            lines.append(f"#   {label('report.fix', lang)}: {block.remediation}")
        lines += [
            f"#   {label('report.incident', lang)}: {cited.title} {cited.url}" for cited in block.incidents
        ]
    lines += ["", f"{label('report.coverage', lang)}: {view.coverage_phrase}"]
    for row in view.coverage:
        needed = f"  ({label('report.needed-by', lang)}: {row.users})" if row.users else ""
        detail = f"  {row.detail}" if row.detail else ""
        lines.append(f"  {row.kind}  {row.status_label}{detail}{needed}")
    if view.optional_unread:
        lines.append(view.optional_unread)
    lines.append(view.secrets_line)
    lines += [f"{label('report.note', lang)}: {note}" for note in view.notes]
    return lines


def render_tsv(report: ScanReport, lang: str | None = "en", base_url: str | None = None) -> str:
    """Every finding shown (passes too) as one tab-separated row under a header row of column names.

    Each value passed the same chokepoint as the other formats, which also shows a tab as `\\t`, so
    a value never splits a row.
    """
    lang = report_lang(lang)
    rows = ["\t".join(TSV_COLUMNS)]
    for finding in report.findings:
        row = row_of(finding, lang, evidence_limit=1000)
        values = (
            row.check_id,
            row.status,
            row.severity,
            row.object,
            one_line(finding.message_in(lang), 2000),
            one_line(finding.reason, 200),
            row.evidence,
            one_line(finding.exempted_by, 300),
            row.location,
            role_text(finding),
        )
        rows.append("\t".join(value.replace("\t", " ") for value in values))
    return "\n".join(rows) + "\n"
