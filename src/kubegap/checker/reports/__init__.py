"""Renderers of a ScanReport: table (terminal), plain and TSV (pipes), JSON, Markdown (PR comments), SARIF.

Every renderer redacts what it emits and shows control characters as escapes: the text formats print
only the view (`view.py`), the JSON ones serialize through `json_text`. `render()` picks one by name.
"""

from __future__ import annotations

from kubegap.checker.reports.json_report import render_json, report_document
from kubegap.checker.reports.markdown import render_markdown
from kubegap.checker.reports.plain import render_plain, render_tsv
from kubegap.checker.reports.sarif import render_sarif, sarif_document
from kubegap.checker.reports.table import render_table
from kubegap.checker.scan_report import ScanReport
from kubegap.errors import UsageError

FORMATS = ("table", "plain", "tsv", "json", "markdown", "sarif")


def render(
    report: ScanReport,
    fmt: str = "table",
    lang: str | None = "en",
    base_url: str | None = None,
    *,
    color: bool = False,
    width: int = 120,
    full: bool = False,
) -> str:
    """The report as text in the named format (`width` columns for the table).

    `full` (`--all`) makes the table and plain layouts show every check and finding, fixes, incidents
    and coverage; by default they show the open fails, the summary and the groups of unknowns. The
    other formats are complete either way.
    """
    if fmt == "table":
        return render_table(report, lang, base_url, color=color, width=width, full=full)
    if fmt == "plain":
        return render_plain(report, lang, base_url, full=full)
    if fmt == "tsv":
        return render_tsv(report, lang, base_url)
    if fmt == "json":
        return render_json(report, lang, base_url)
    if fmt == "markdown":
        return render_markdown(report, lang, base_url)
    if fmt == "sarif":
        return render_sarif(report, lang, base_url)
    raise UsageError(f"unknown report format {fmt!r}; choose one of {', '.join(FORMATS)}")


__all__ = [
    "FORMATS",
    "render",
    "render_json",
    "render_markdown",
    "render_sarif",
    "render_table",
    "report_document",
    "sarif_document",
]
