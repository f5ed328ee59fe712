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

from kubegap.bilingual import render_any
from kubegap.checker.coverage_text import SECRETS_LINE, detail_text, status_label
from kubegap.checker.finding import Finding, Status
from kubegap.checker.reports._common import (
    cited_incidents,
    count_label,
    evidence_text,
    link_base,
    one_line,
    report_lang,
)
from kubegap.checker.scan_report import COUNT_KEYS, CheckSummary, ScanReport, worst_first
from kubegap.text import label, report_phrase

MAX_ROWS_PER_CHECK = 50
_STATUS_STYLE = {
    "fail": "bold red",
    "unknown": "yellow",
    "pass": "green",
    "not-applicable": "dim",
    "exempted": "cyan",
}
# Unread kinds listed in the coverage table even when only optional: each keeps checks from passing.
_LISTED_STATUSES = ("forbidden", "failed", "malformed", "partial")
_SEVERITY_STYLE = {"critical": "bold red", "high": "red", "medium": "yellow", "low": "blue", "info": "dim"}


def _safe(text: str, limit: int = 500) -> str:
    return escape(one_line(text, limit))


def _status_cell(status: str, lang: str) -> str:
    shown = count_label(status, lang)
    return f"[{_STATUS_STYLE.get(status, '')}]{escape(shown)}[/]"


def _severity_cell(severity: str, lang: str) -> str:
    return f"[{_SEVERITY_STYLE.get(severity, '')}]{escape(label('severity.' + severity, lang))}[/]"


def _summary_table(report: ScanReport, lang: str) -> Table:
    table = Table(title=label("report.checks", lang), title_justify="left", show_lines=False, expand=False)
    for key in ("status", "severity"):
        table.add_column(label(f"report.{key}", lang), no_wrap=True)
    table.add_column(label("report.check", lang), no_wrap=True)  # an id is copied whole, never wrapped
    table.add_column(label("report.title", lang), overflow="fold")
    for key in ("fail", "unknown", "pass"):
        table.add_column(count_label(key, lang), no_wrap=True)
    for summary in worst_first(report.checks):
        counts = summary.counts
        exempted = ""
        if counts["exempted"]:
            exempted = report_phrase("plus-exempted", lang, count=counts["exempted"])
        table.add_row(
            _status_cell(summary.status.value, lang),
            _severity_cell(summary.meta.severity.value, lang),
            escape(summary.meta.id),
            _safe(summary.meta.title.get(lang), 120),
            str(counts["fail"]) + exempted,
            str(counts["unknown"]),
            str(counts["pass"]),
        )
    return table


def _findings_table(findings: list[Finding], lang: str) -> Table:
    table = Table(show_header=True, expand=False, box=None, pad_edge=False)
    table.add_column(label("report.status", lang), no_wrap=True)
    for key in ("object", "message", "evidence"):
        table.add_column(label(f"report.{key}", lang), overflow="fold")
    for finding in findings[:MAX_ROWS_PER_CHECK]:
        status = "exempted" if finding.exempted_by else finding.status.value
        table.add_row(
            _status_cell(status, lang),
            _safe(finding.object.display(), 200),
            _safe(finding_text(finding, lang), 400),
            escape(evidence_text(finding, 200)),
        )
    if len(findings) > MAX_ROWS_PER_CHECK:
        more = report_phrase("more-rows", lang, count=len(findings) - MAX_ROWS_PER_CHECK)
        table.add_row("", escape(more), "", "")
    return table


def finding_text(finding: Finding, lang: str) -> str:
    """The message in the reader's language, with the unknown reason and who exempted a fail."""
    text = finding.message_in(lang) + (f" [{finding.reason}]" if finding.reason else "")
    if finding.exempted_by:
        text += " " + report_phrase("exempted-by", lang, by=finding.exempted_by)
    return text


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
        console.print(f"  [bold]{label('report.fix', lang)}:[/] {_safe(meta.remediation.get(lang), 1500)}")
    for cited in cited_incidents(meta, lang, base):
        console.print(f"  [bold]{label('report.incident', lang)}:[/] {_safe(cited.title, 200)}")
        console.print(f"    {escape(cited.url)}", soft_wrap=True)  # a link is never broken across lines


def _print_coverage(console: Console, report: ScanReport, lang: str) -> None:
    """Kinds a check needed but could not read are listed; absent optional kinds are one line."""
    unread = [row for row in report.coverage if row.status != "read"]
    read = [row for row in report.coverage if row.status == "read"]
    listed = [row for row in unread if row.needed_by or row.status in _LISTED_STATUSES]
    quiet = [row for row in unread if row not in listed and row.kind != "Secret"]
    console.print()
    phrase = report_phrase(
        "coverage", lang, read=len(read), objects=sum(row.objects for row in read), unread=len(unread)
    )
    console.print(f"[bold]{label('report.coverage', lang)}:[/] {escape(phrase)}")
    if listed:
        table = Table(show_header=True, box=None, pad_edge=False)
        table.add_column(label("report.kind", lang), no_wrap=True)
        table.add_column(label("report.status", lang), no_wrap=True)
        table.add_column(label("report.detail", lang), overflow="fold")
        table.add_column(label("report.needed-by", lang), overflow="fold")
        for row in listed:
            optional = label("report.optional", lang)
            users = ", ".join(row.needed_by) or (
                f"({optional}) {', '.join(row.optional_for)}" if row.optional_for else ""
            )
            table.add_row(
                escape(row.kind),
                escape(status_label(row.status, lang)),
                _safe(detail_text(row.detail, lang), 200),
                escape(users),
            )
        console.print(table)
    if quiet:
        kinds = ", ".join(f"{row.kind} ({status_label(row.status, lang)})" for row in quiet)
        console.print(escape(report_phrase("optional-unread", lang, kinds=kinds)), overflow="fold")
    console.print(escape(SECRETS_LINE.render(lang)))


def render_table(
    report: ScanReport,
    lang: str | None = "en",
    base_url: str | None = None,
    *,
    color: bool = False,
    width: int = 120,
) -> str:
    """The boxed terminal report at `width` columns; ids and links are never wrapped."""
    lang = report_lang(lang)
    base = link_base(base_url)
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=width,
        force_terminal=color,
        color_system="auto" if color else None,
        highlight=False,
    )
    where = f" · {label('report.context', lang)} {one_line(report.context, 200)}" if report.context else ""
    console.print(
        f"[bold]kubegap scan[/] · {_safe(render_any(report.source, lang), 300)} "
        f"({escape(label('mode.' + report.mode, lang))}){escape(where)}"
    )
    if report.namespaces:
        console.print(escape(report_phrase("namespaces", lang, names=", ".join(report.namespaces))))
    console.print(_summary_table(report, lang))
    by_check: dict[str, list[Finding]] = defaultdict(list)
    for finding in report.findings:
        if finding.status in (Status.failed, Status.unknown):
            by_check[finding.check_id].append(finding)
    for summary in worst_first(report.checks):
        if summary.check_id in by_check:
            _print_check(console, summary, by_check[summary.check_id], lang, base)
    _print_coverage(console, report, lang)
    for note in report.notes:
        console.print(f"[dim]{label('report.note', lang)}: {_safe(render_any(note, lang), 300)}[/]")
    console.print()
    console.print(f"[bold]{label('report.summary', lang)}:[/] {escape(summary_line(report, lang))}")
    unreadable = report.unreadable.sentence(lang)
    if unreadable:
        console.print(f"[yellow]{_safe(unreadable, 1000)}[/]")
    return buffer.getvalue()


def summary_line(report: ScanReport, lang: str) -> str:
    """'27 fail, 0 exempted, ...' / '틈 발견 27, 예외 처리 0, ...' (Korean puts the count after the label)."""
    counts = report.counts
    if lang == "ko":
        return ", ".join(f"{count_label(key, lang)} {counts[key]}" for key in COUNT_KEYS)
    return ", ".join(f"{counts[key]} {count_label(key, lang)}" for key in COUNT_KEYS)
