"""Renderers of a ScanReport: table (terminal), JSON, Markdown (PR comments) and SARIF (code scanning).

Every renderer redacts what it emits; `render()` picks one by name.
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
) -> str:
    """The report as text in the named format (`width` columns for the boxed table)."""
    if fmt == "table":
        return render_table(report, lang, base_url, color=color, width=width)
    if fmt == "plain":
        return render_plain(report, lang, base_url)
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
