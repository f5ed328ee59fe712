"""Pick a fleet renderer by name, like `kubegap.checker.reports.render` does for one cluster."""

from __future__ import annotations

from collections.abc import Callable

from kubegap.checker.fleet.documents import render_fleet_json, render_fleet_sarif
from kubegap.checker.fleet.pipe_reports import render_fleet_plain, render_fleet_tsv
from kubegap.checker.fleet.report import FleetReport
from kubegap.checker.fleet.text_reports import render_fleet_markdown, render_fleet_table
from kubegap.checker.reports._common import warm_citations
from kubegap.errors import UsageError

# Formats whose cluster reports cite incidents by title (loaded once from the knowledge base).
_CITING = frozenset({"json", "markdown", "sarif"})


def shared_work(fmt: str) -> tuple[Callable[[], object], ...]:
    """What rendering `fmt` needs that is the same for every cluster, to prepare during the scan."""
    return (warm_citations,) if fmt in _CITING else ()


def render_fleet(
    fleet: FleetReport,
    fmt: str = "table",
    lang: str | None = "en",
    base_url: str | None = None,
    *,
    color: bool = False,
) -> str:
    if fmt == "table":
        return render_fleet_table(fleet, lang, color=color)
    if fmt == "plain":
        return render_fleet_plain(fleet, lang, base_url)
    if fmt == "tsv":
        return render_fleet_tsv(fleet, lang, base_url)
    if fmt == "json":
        return render_fleet_json(fleet, lang, base_url)
    if fmt == "markdown":
        return render_fleet_markdown(fleet, lang, base_url)
    if fmt == "sarif":
        return render_fleet_sarif(fleet, lang, base_url)
    raise UsageError(f"unknown report format {fmt!r}; choose one of table, plain, tsv, json, markdown, sarif")
