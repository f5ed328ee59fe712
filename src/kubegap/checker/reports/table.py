"""The terminal report (rich), signal first: the fails grouped by check, the summary, the unknowns.

By default a failing check is one heading line with its objects under it, then one summary line in
checks and one in findings, then one line per group of unknowns saying why and what resolves it.
`full` (`--all`) adds the boxed table of every check, every finding with its fix and incidents, and
the coverage. It reads only the view (`view.py`): every string is redacted and its control
characters shown before it gets here, and each is markup-escaped before rich sees it. Check ids and
links are never wrapped.
"""

from __future__ import annotations

import io

from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.table import Table

from kubegap.checker.reports.symptoms_view import SymptomsView, text_lines
from kubegap.checker.reports.view import CheckBlock, ReportView, build_view
from kubegap.checker.scan_report import ScanReport
from kubegap.text import label

_STATUS_STYLE = {
    "fail": "bold red",
    "unknown": "yellow",
    "pass": "green",
    "not-applicable": "dim",
    "exempted": "cyan",
}
_SEVERITY_STYLE = {"critical": "bold red", "high": "red", "medium": "yellow", "low": "blue", "info": "dim"}


def _status(status: str, shown: str) -> str:
    return f"[{_STATUS_STYLE.get(status, '')}]{escape(shown)}[/]"


def _severity(severity: str, shown: str) -> str:
    return f"[{_SEVERITY_STYLE.get(severity, '')}]{escape(shown)}[/]"


def _summary_table(view: ReportView) -> Table:
    """Every check at a glance (full layout); the id column is as wide as the longest id, never folded."""
    lang = view.lang
    table = Table(title=label("report.checks", lang), title_justify="left", show_lines=False, expand=False)
    for key in ("status", "severity"):
        table.add_column(label(f"report.{key}", lang), no_wrap=True)
    widest = max((len(block.check_id) for block in view.blocks), default=10)
    table.add_column(label("report.check", lang), no_wrap=True, min_width=widest)
    table.add_column(label("report.title", lang), overflow="fold", ratio=1)
    for block in view.blocks:
        table.add_row(
            _status(block.status, block.status_label),
            _severity(block.severity, block.severity_label),
            escape(block.check_id),
            escape(block.title),
        )
    return table


def _rows_table(block: CheckBlock, full: bool) -> Table:
    """The objects under a check heading: object, message (with role and file), evidence in full."""
    table = Table.grid(padding=(0, 2, 0, 0))
    if full:
        table.add_column(no_wrap=True)
    table.add_column(overflow="fold", max_width=60)
    table.add_column(overflow="fold")
    if full:
        table.add_column(overflow="fold", max_width=50)
    for row in block.rows:
        said = " ".join(part for part in (row.said, row.role, row.place) if part)
        cells = [escape(row.object), escape(said)]
        if full:
            cells = [_status(row.status, row.status_label), *cells, escape(row.evidence)]
        table.add_row(*cells)
    if block.more:
        table.add_row(*([""] if full else []), escape(block.more), "", *([""] if full else []))
    return table


def _print_block(console: Console, block: CheckBlock, view: ReportView) -> None:
    lang = view.lang
    if view.full:
        console.print()
    console.print(
        f"{_status(block.status, block.status_label)} {_severity(block.severity, block.severity_label)} "
        f"[bold]{escape(block.check_id)}[/]  {escape(block.title)}"
    )
    console.print(Padding(_rows_table(block, view.full), (0, 0, 0, 2), expand=False))
    if not view.full:
        return
    if block.remediation:
        console.print(f"  [bold]{label('report.fix', lang)}:[/] {escape(block.remediation)}")
    for cited in block.incidents:
        console.print(f"  [bold]{label('report.incident', lang)}:[/] {escape(cited.title)}")
        console.print(f"    {escape(cited.url)}", soft_wrap=True)  # a link is never broken across lines


def _print_coverage(console: Console, view: ReportView) -> None:
    lang = view.lang
    console.print()
    console.print(f"[bold]{label('report.coverage', lang)}:[/] {escape(view.coverage_phrase)}")
    if view.coverage:
        table = Table(show_header=True, box=None, pad_edge=False)
        table.add_column(label("report.kind", lang), no_wrap=True)
        table.add_column(label("report.status", lang), no_wrap=True)
        table.add_column(label("report.detail", lang), overflow="fold")
        table.add_column(label("report.needed-by", lang), overflow="fold")
        for row in view.coverage:
            table.add_row(escape(row.kind), escape(row.status_label), escape(row.detail), escape(row.users))
        console.print(table)
    if view.optional_unread:
        console.print(escape(view.optional_unread), overflow="fold")
    console.print(escape(view.secrets_line))
    for note in view.notes:
        console.print(f"[dim]{label('report.note', lang)}: {escape(note)}[/]")


def _print_symptoms(console: Console, symptoms: SymptomsView, lang: str, full: bool) -> None:
    """After the fails: what the cluster already shows, one group per line with what links it."""
    style = "yellow" if symptoms.status != "read" else "bold"
    lines = text_lines(symptoms, lang, full=full)
    console.print()
    console.print(f"[{style}]{escape(lines[0])}[/]")
    for line in lines[1:]:
        console.print(escape(line))


def render_table(
    report: ScanReport,
    lang: str | None = "en",
    base_url: str | None = None,
    *,
    color: bool = False,
    width: int = 120,
    full: bool = False,
) -> str:
    """The terminal report at `width` columns: fails, summary and unknown groups; `full` shows all."""
    view = build_view(report, lang, base_url, full=full)
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=width,
        force_terminal=color,
        color_system="auto" if color else None,
        highlight=False,
    )
    console.print(f"[bold]{escape(view.heading)}[/]")
    if view.namespaces:
        console.print(escape(view.namespaces))
    if full:
        console.print(_summary_table(view))
    for block in view.blocks:
        _print_block(console, block, view)
    if view.symptoms is not None:
        _print_symptoms(console, view.symptoms, view.lang, view.full)
    if full:
        _print_coverage(console, view)
    if full or not view.blocks:
        console.print()  # the default layout goes straight from the fails to the bold summary line
    console.print(f"[bold]{escape(view.checks_line)}[/]")
    console.print(escape(view.findings_line))
    for line in view.groups:
        console.print(f"[yellow]{escape(line)}[/]")
    if view.read_not_checked:
        console.print(escape(view.read_not_checked))
    if not full:
        for note in view.skipped:
            console.print(f"[yellow]{label('report.note', view.lang)}: {escape(note)}[/]")
        if view.notes_line:
            console.print(f"[dim]{escape(view.notes_line)}[/]")
    if not full and view.hint:
        console.print(f"[dim]{escape(view.hint)}[/]")
    return buffer.getvalue()
