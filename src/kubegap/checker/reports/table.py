"""The terminal report (rich): checks at a glance, then each gap with its fix and incidents, then coverage.

Passing findings are counted, not listed, so a 5,000-node scan stays readable. Every string is
redacted and markup-escaped before rich sees it.
"""

from __future__ import annotations

import io
from collections import defaultdict

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from kubegap.checker.finding import Finding, Status
from kubegap.checker.reports._common import (
    cited_incidents,
    count_label,
    evidence_text,
    library_url,
    one_line,
    report_lang,
)
from kubegap.checker.scan_report import COUNT_KEYS, CheckSummary, ScanReport, worst_first
from kubegap.text import label

MAX_ROWS_PER_CHECK = 50
_STATUS_STYLE = {
    "fail": "bold red",
    "unknown": "yellow",
    "pass": "green",
    "not-applicable": "dim",
    "exempted": "cyan",
}
_SEVERITY_STYLE = {"critical": "bold red", "high": "red", "medium": "yellow", "low": "blue", "info": "dim"}


def _safe(text: str, limit: int = 500) -> str:
    return escape(one_line(text, limit))


def _status_cell(status: str, lang: str) -> str:
    shown = count_label(status, lang)
    return f"[{_STATUS_STYLE.get(status, '')}]{escape(shown)}[/]"


def _severity_cell(severity: str, lang: str) -> str:
    return f"[{_SEVERITY_STYLE.get(severity, '')}]{escape(label('severity.' + severity, lang))}[/]"


def _summary_table(report: ScanReport, lang: str) -> Table:
    table = Table(title="Checks", title_justify="left", show_lines=False, expand=False)
    for column in ("Status", "Severity", "Check", "Title", "fail", "unknown", "pass"):
        table.add_column(column, overflow="fold")
    for summary in worst_first(report.checks):
        counts = summary.counts
        table.add_row(
            _status_cell(summary.status.value, lang),
            _severity_cell(summary.meta.severity.value, lang),
            escape(summary.meta.id),
            _safe(summary.meta.title.get(lang), 120),
            str(counts["fail"]) + (f" (+{counts['exempted']} exempted)" if counts["exempted"] else ""),
            str(counts["unknown"]),
            str(counts["pass"]),
        )
    return table


def _findings_table(findings: list[Finding], lang: str) -> Table:
    table = Table(show_header=True, expand=False, box=None, pad_edge=False)
    for column in ("Status", "Object", "Message", "Evidence"):
        table.add_column(column, overflow="fold")
    for finding in findings[:MAX_ROWS_PER_CHECK]:
        status = "exempted" if finding.exempted_by else finding.status.value
        message = finding.message + (f" [{finding.reason}]" if finding.reason else "")
        if finding.exempted_by:
            message += f" (exempted by {finding.exempted_by})"
        table.add_row(
            _status_cell(status, lang),
            _safe(finding.object.display(), 200),
            _safe(message, 400),
            escape(evidence_text(finding, 200)),
        )
    if len(findings) > MAX_ROWS_PER_CHECK:
        table.add_row("", f"…and {len(findings) - MAX_ROWS_PER_CHECK} more", "", "")
    return table


def _print_check(
    console: Console, summary: CheckSummary, findings: list[Finding], lang: str, base: str
) -> None:
    meta = summary.meta
    console.print()
    console.print(
        f"{_status_cell(summary.status.value, lang)} {_severity_cell(meta.severity.value, lang)} "
        f"[bold]{escape(meta.id)}[/]: {_safe(meta.title.get(lang), 200)}"
    )
    console.print(_findings_table(findings, lang))
    if summary.status is Status.failed:
        console.print(f"  [bold]Fix:[/] {_safe(meta.remediation.get(lang), 1500)}")
    for cited in cited_incidents(meta, lang, base):
        console.print(f"  [bold]Incident:[/] {_safe(cited.title, 200)} {escape(cited.url)}")


def _print_coverage(console: Console, report: ScanReport) -> None:
    """Kinds a check needed but could not read are listed; absent optional kinds are one line."""
    unread = [row for row in report.coverage if row.status != "read"]
    read = [row for row in report.coverage if row.status == "read"]
    listed = [row for row in unread if row.needed_by or row.status in ("forbidden", "failed")]
    quiet = [row for row in unread if row not in listed and row.kind != "Secret"]
    console.print()
    console.print(
        f"[bold]Coverage:[/] {len(read)} kind(s) read, {sum(row.objects for row in read):,} object(s); "
        f"{len(unread)} not read"
    )
    if listed:
        table = Table(show_header=True, box=None, pad_edge=False)
        table.add_column("Kind", no_wrap=True)
        for column in ("Status", "Detail", "Needed by"):
            table.add_column(column, overflow="fold")
        for row in listed:
            table.add_row(
                escape(row.kind), escape(row.status), _safe(row.detail, 200), escape(", ".join(row.needed_by))
            )
        console.print(table)
    if quiet:
        kinds = ", ".join(row.kind for row in quiet)
        console.print(f"Optional kinds not read: {escape(kinds)}", overflow="fold")
    console.print("Secrets: never read by kubegap.")


def render_table(
    report: ScanReport,
    lang: str | None = "en",
    base_url: str | None = None,
    *,
    color: bool = False,
    width: int = 120,
) -> str:
    lang = report_lang(lang)
    base = library_url(base_url)
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=width,
        force_terminal=color,
        color_system="auto" if color else None,
        highlight=False,
    )
    where = f" · context {one_line(report.context, 200)}" if report.context else ""
    console.print(
        f"[bold]kubegap scan[/] · {_safe(report.source, 300)} ({escape(report.mode)}){escape(where)}"
    )
    if report.namespaces:
        console.print(
            f"Namespaces: {escape(', '.join(report.namespaces))} (cluster-scoped findings always shown)"
        )
    console.print(_summary_table(report, lang))
    by_check: dict[str, list[Finding]] = defaultdict(list)
    for finding in report.findings:
        if finding.status in (Status.failed, Status.unknown):
            by_check[finding.check_id].append(finding)
    for summary in worst_first(report.checks):
        if summary.check_id in by_check:
            _print_check(console, summary, by_check[summary.check_id], lang, base)
    _print_coverage(console, report)
    for note in report.notes:
        console.print(f"[dim]Note: {_safe(note, 300)}[/]")
    counts = report.counts
    console.print()
    console.print(
        "[bold]Summary:[/] "
        + ", ".join(f"{counts[key]} {escape(count_label(key, lang))}" for key in COUNT_KEYS)
    )
    return buffer.getvalue()
