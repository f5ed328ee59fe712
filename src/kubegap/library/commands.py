"""`kubegap incidents list|show|similar|index` and `kubegap facets`: the library in a terminal, or as JSON.

The knowledge folder is $KUBEGAP_KNOWLEDGE (default: the bundled one) and the index lives where
`Library.open` puts it ($KUBEGAP_DB or the user cache). Facet values are checked strictly: an unknown
one is an error that names the known ones, not an empty result.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from kubegap.bilingual import message
from kubegap.cli_support import lang_option
from kubegap.errors import UsageError
from kubegap.knowledge.model import Scope
from kubegap.library import export, render
from kubegap.library.library import Library
from kubegap.library.query import DEFAULT_PER_PAGE, SORTS, SearchQuery
from kubegap.text import label

_lang_option = lang_option
_json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")


def _print_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


@click.group()
def incidents() -> None:
    """Browse and search the incident library."""


@incidents.command("list")
@click.option("-q", "--query", "text", default="", help="Search text: Korean, English or a pasted log line.")
@click.option("--cause", multiple=True, help="Cause term id (repeatable; OR within a facet).")
@click.option("--component", multiple=True, help="Component term id (repeatable).")
@click.option("--symptom", multiple=True, help="Symptom term id (repeatable).")
@click.option("--factor", multiple=True, help="Contributing-factor term id (repeatable).")
@click.option(
    "--org",
    "organization",
    multiple=True,
    help="Organisation id, name or alias (repeatable); a parent finds its parts too (microsoft: GitHub).",
)
@click.option(
    "--scope",
    multiple=True,
    type=click.Choice([scope.value for scope in Scope]),
    help="ai-infra (AI infrastructure) or platform (Kubernetes and cloud); see docs/knowledge.md.",
)
@click.option(
    "--since", default=None, metavar="DATE", help="Incidents that began on or after YYYY[-MM[-DD]]."
)
@click.option(
    "--until", default=None, metavar="DATE", help="Incidents that began on or before YYYY[-MM[-DD]]."
)
@click.option("--page", default="1", metavar="N", help="Page number (1-based).")
@click.option(
    "--per-page",
    default=str(DEFAULT_PER_PAGE),
    metavar="N",
    show_default=True,
    help="Incidents per page (1-100).",
)
@click.option(
    "--sort", type=click.Choice(SORTS), default=None, help="Order (default: relevance with -q, else newest)."
)
@click.option(
    "--width",
    type=click.IntRange(40, 1000),
    default=None,
    help="Table width (default: the terminal's; in a pipe, one line per incident instead of a table).",
)
@_lang_option
@_json_option
def list_incidents(
    width: int | None,
    text: str,
    cause: tuple[str, ...],
    component: tuple[str, ...],
    symptom: tuple[str, ...],
    factor: tuple[str, ...],
    organization: tuple[str, ...],
    scope: tuple[str, ...],
    since: str | None,
    until: str | None,
    page: str,
    per_page: str,
    sort: str | None,
    lang: str,
    as_json: bool,
) -> None:
    """List incidents filtered by facets, organisation, scope (AND across them) and date; search by text."""
    library = Library.open()
    params = {
        "q": text,
        "cause": list(cause),
        "component": list(component),
        "symptom": list(symptom),
        "contributing-factor": list(factor),
        "organization": list(organization),
        "scope": list(scope),
        "since": since,
        "until": until,
        "page": page,
        "per_page": per_page,
        "sort": sort,
        "lang": lang,
    }
    query = SearchQuery.from_params(params, taxonomy=library.taxonomy, strict=True)
    result = library.search(query)
    if query.page > result.page_count:
        raise UsageError(
            message(
                "{page}쪽은 없습니다: 사례 {total}건은 한 쪽에 {per_page}건씩 {pages}쪽까지 있습니다",
                "page {page} is past the end: {total} incidents make {pages} page(s) of {per_page}",
                page=query.page,
                total=result.total,
                pages=result.page_count,
                per_page=query.per_page,
            )
        )
    if as_json:
        _print_json(export.search_result(result, library.taxonomy))
    elif width is None and not sys.stdout.isatty():
        click.echo(render.search_lines(result, library))
    else:
        output = render.console(width)
        output.print(render.search_result(result, library, output.width))


@incidents.command("show")
@click.argument("incident_id")
@_lang_option
@_json_option
def show(incident_id: str, lang: str, as_json: bool) -> None:
    """Show one incident: its nine sections, tags, impact, error signatures and sources."""
    library = Library.open()
    incident = library.incident(incident_id)
    if as_json:
        _print_json(export.incident_detail(incident))
    else:
        render.console().print(render.incident_detail(incident, library, lang.lower()))


@incidents.command("similar")
@click.argument("incident_id")
@click.option("--limit", default=5, show_default=True, type=click.IntRange(1, 50))
@_lang_option
@_json_option
def similar(incident_id: str, limit: int, lang: str, as_json: bool) -> None:
    """Incidents that share tags or error signatures with this one, and which ones they share."""
    library = Library.open()
    found = library.similar(incident_id, limit, lang.lower())
    if as_json:
        _print_json(export.similar_incidents(found, lang.lower(), library.taxonomy))
    else:
        if sys.stdout.isatty():
            render.console().print(render.similar_list(found, lang.lower()))
        else:
            click.echo(render.similar_lines(found, lang.lower()))


@incidents.command("index")
@_lang_option
def build_index(lang: str) -> None:
    """Build the search index now and keep it (`make run` does this once; any search would too)."""
    library = Library.open()
    where = library.location
    if where == ":memory:":
        shown = message("메모리(저장할 곳에 쓸 수 없음)", "memory (the cache folder cannot be written)")
        where = shown.render(lang.lower())
    click.echo(
        message(
            "검색 색인 준비 완료: 사례 {count}건, {where}",
            "search index ready: {count} incidents, {where}",
            count=library.incident_count,
            where=where,
        ).render(lang.lower())
    )


@click.command()
@_lang_option
@_json_option
def facets(lang: str, as_json: bool) -> None:
    """Every facet with its terms (children under parents) and how many incidents each has."""
    library = Library.open()
    lang = lang.lower()
    overview = library.facet_overview(lang)
    if as_json:
        _print_json(
            {
                facet: {
                    "label": library.taxonomy.facets[facet].label.get(lang)
                    if facet in library.taxonomy.facets
                    else label(f"facet.{facet}", lang),
                    "terms": [export.facet_value(value) for value in values],
                }
                for facet, values in overview.items()
            }
        )
    else:
        render.console().print(render.facet_trees(overview, lang))
