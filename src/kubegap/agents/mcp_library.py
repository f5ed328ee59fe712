"""The Incident Library as MCP tool results and Markdown resources.

One `Library` is opened on first use and shared by the server's worker threads (it holds its own
lock). Search results are a page of short cases plus facet counts; a whole case is one more call.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from kubegap.agents.mcp_language import server_lang
from kubegap.agents.mcp_models import (
    ErrorBrief,
    ErrorExplanation,
    ErrorExplanations,
    FacetCount,
    IncidentBrief,
    IncidentDetail,
    IncidentLink,
    IncidentSearch,
    SimilarCase,
)
from kubegap.text import label, normalize_lang, result_range

if TYPE_CHECKING:
    from kubegap.knowledge.model import Incident
    from kubegap.library.library import Library
    from kubegap.library.query import FacetValue

PER_PAGE = 10
FACET_VALUES = 8
SUMMARY_CHARS = 400
SIMILAR = 3
FALLBACK_LINES = 20

_library: Library | None = None
_library_lock = threading.Lock()


def library() -> Library:
    """The bundled library, opened on first use and again when its knowledge files changed.

    A host keeps the server running for a whole session; checking staleness costs about 2 ms a call.
    """
    global _library
    with _library_lock:
        if _library is None or _library.is_stale():
            from kubegap.library.library import Library
            from kubegap.library.query import SearchQuery

            opened = Library.open()
            # One search under the lock: its lazy imports (numpy, the stemmer) happen here, once,
            # not in two tool threads at a time, and not in the caller's first real search.
            opened.search(SearchQuery(text="GPU memory", per_page=1))
            _library = opened
        return _library


def _lang(value: str | None) -> str:
    return normalize_lang(server_lang(value))


def incident_url(incident_id: str, lang: str) -> str:
    from kubegap.checker.reports._common import library_url

    return f"{library_url()}/{lang}/incidents/{incident_id}"


def _short(text: str, limit: int = SUMMARY_CHARS) -> str:
    """Redacted, then cut: an echoed line of the caller's error text may hold a token."""
    from kubegap.redaction import redact_text

    text = redact_text(" ".join(text.split()), limit=limit + 64)
    return text if len(text) <= limit else f"{text[:limit]}…"


def _facet_counts(values: tuple[FacetValue, ...], limit: int = FACET_VALUES) -> list[FacetCount]:
    ordered = sorted(values, key=lambda value: -value.count)
    return [FacetCount(term=value.term_id, label=value.label, count=value.count) for value in ordered[:limit]]


RELAXED_NOTE = "no incident contains every word of the text; these share the most words with it, best first"


def search_incidents(
    text: str,
    filters: dict[str, list[str]],
    lang: str | None,
    page: int,
    *,
    since: str | None = None,
    until: str | None = None,
) -> IncidentSearch:
    """One page of matches. A value the library cannot use (unknown term, a date that is not one) is
    reported in `ignored_filters` rather than failing the call, so an agent learns and retries."""
    from kubegap.library.query import SearchQuery

    chosen = _lang(lang)
    opened = library()
    params: dict[str, object] = {"q": text, "lang": chosen, "page": str(page), "per_page": str(PER_PAGE)}
    params.update({facet: values for facet, values in filters.items() if values})
    params.update({key: value for key, value in (("since", since), ("until", until)) if value})
    query = SearchQuery.from_params(params, taxonomy=opened.taxonomy)
    result = opened.search(query)
    more = result.query.page < result.page_count
    hits = [
        IncidentBrief(
            id=hit.incident.id,
            title=hit.incident.title.get(chosen),
            date=hit.incident.date.isoformat(),
            organization=opened.taxonomy.organization_name(hit.incident.organization, chosen),
            organization_id=hit.incident.organization,
            scope=hit.incident.scope.value,
            summary=_short(hit.incident.summary.get(chosen)),
            causes=[opened.term_label("cause", term, chosen) for term in hit.incident.tags.cause],
            matched_error_signatures=list(hit.matched_signatures),
            url=incident_url(hit.incident.id, chosen),
        )
        for hit in result.hits
    ]
    return IncidentSearch(
        query=result.query.text,
        filters={facet: list(values) for facet, values in result.query.filters.items()},
        since=result.query.since.isoformat() if result.query.since else "",
        until=result.query.until.isoformat() if result.query.until else "",
        ignored_filters=[f"{facet}={value}" for facet, value in query.ignored_filters],
        range=result_range(result.total, result.start, result.end, chosen),
        total=result.total,
        page=result.query.page,
        page_count=result.page_count,
        incidents=hits,
        facets={facet: _facet_counts(values) for facet, values in result.facets.items()},
        recurring_components=_facet_counts(result.recurring_components),
        note=RELAXED_NOTE if result.relaxed else "",
        error_catalog=[
            ErrorBrief(id=entry.id, title=entry.title.get(chosen), meaning=entry.meaning.get(chosen))
            for entry in result.errors
        ],
        nearby_terms=list(result.suggestions),
        truncated=(
            f"{result.total - result.end} more matches; call again with page={result.query.page + 1}"
            if more
            else ""
        ),
    )


def find_by_error(text: str, lang: str | None) -> IncidentSearch:
    """Search with the whole paste; when that matches nothing, with each of its first lines alone.

    A pasted log carries timestamps, ranks and host names no report quotes, and all words of a query
    must match; a single line is often exactly what a report quotes.
    """
    found = search_incidents(text, {}, lang, 1)
    if found.total and not found.note:
        return found
    lines = [line.strip() for line in text.splitlines() if len(line.strip()) >= 4][:FALLBACK_LINES]
    for line in lines if len(lines) > 1 else []:
        by_line = search_incidents(line, {}, lang, 1)
        if by_line.total:
            return by_line.model_copy(
                update={"note": f"the whole text matched nothing; matched this line: {_short(line, 200)}"}
            )
    if found.total:
        return found  # relaxed: incidents sharing the most words with the paste, best first
    return found.model_copy(
        update={
            "note": "no incident quotes this error; try search_incidents with two or three key words "
            "(a component, an error code, a symptom)"
        }
    )


def _bilingual(value: Any, lang: str) -> Any:
    """A section value (Bilingual, ReasonedText, a list of them or None) as plain text in one language."""
    if value is None:
        return ""
    if isinstance(value, list):
        return [_bilingual(item, lang) for item in value]
    text = value.get(lang)
    basis = getattr(value, "basis", None)
    return f"{text} ({basis.value})" if basis is not None else text


def incident_detail(incident_id: str, lang: str | None) -> IncidentDetail:
    from kubegap.agents.mcp_checks import check_brief
    from kubegap.checker.registry import all_checks
    from kubegap.knowledge.model import FACETS

    chosen = _lang(lang)
    opened = library()
    incident: Incident = opened.incident(incident_id.strip())
    sections = {
        name: _bilingual(getattr(incident.sections, name), chosen)
        for name in type(incident.sections).model_fields
    }
    by_facet = incident.tags.by_facet()
    impact = incident.impact.model_dump(exclude_none=True)
    if incident.impact.notes is not None:
        impact["notes"] = incident.impact.notes.get(chosen)
    similar = opened.similar(incident.id, limit=SIMILAR, lang=chosen)
    return IncidentDetail(
        id=incident.id,
        title=incident.title.get(chosen),
        date=incident.date.isoformat(),
        end_date=incident.end_date.isoformat() if incident.end_date else "",
        organization=opened.taxonomy.organization_name(incident.organization, chosen),
        organization_id=incident.organization,
        summary=incident.summary.get(chosen),
        environment=incident.environment.model_dump(mode="json", exclude_none=True),
        sections=sections,
        tags={
            facet: [
                FacetCount(term=term, label=opened.term_label(facet, term, chosen), count=1)
                for term in by_facet[facet]
            ]
            for facet in FACETS
        },
        impact=impact,
        error_signatures=[signature.text for signature in incident.error_signatures],
        sources=[
            {"title": source.title, "publisher": source.publisher, "url": source.url}
            for source in incident.sources
        ],
        guarded_by_checks=[
            check_brief(check.meta, chosen) for check in all_checks() if incident.id in check.meta.incidents
        ],
        similar=[
            SimilarCase(
                id=item.incident.id, title=item.incident.title.get(chosen), reasons=item.reasons(chosen)
            )
            for item in similar
        ],
        url=incident_url(incident.id, chosen),
    )


_MARKDOWN_HEADINGS = {
    "signatures": ("오류 시그니처", "Error signatures"),
    "checks": ("kubegap 점검", "kubegap checks"),
    "sources": ("출처", "Sources"),
}


def incident_markdown(incident_id: str, lang: str | None = None) -> str:
    """The incident resource: every section, its signatures, checks and sources, in the server's language."""
    chosen = _lang(lang)
    heading = {key: pair[0 if chosen == "ko" else 1] for key, pair in _MARKDOWN_HEADINGS.items()}
    detail = incident_detail(incident_id, chosen)
    lines = [
        f"# {detail.title}",
        "",
        f"{detail.id} · {detail.date} · {detail.organization}",
        "",
        detail.summary,
    ]
    for name, value in detail.sections.items():
        if not value:
            continue
        lines += ["", f"## {label(f'section.{name}', chosen)}"]
        lines += [f"- {item}" for item in value] if isinstance(value, list) else [str(value)]
    if detail.error_signatures:
        lines += ["", f"## {heading['signatures']}", *(f"- `{text}`" for text in detail.error_signatures)]
    if detail.guarded_by_checks:
        lines += [
            "",
            f"## {heading['checks']}",
            *(f"- `{item.id}`: {item.title}" for item in detail.guarded_by_checks),
        ]
    lines += [
        "",
        f"## {heading['sources']}",
        *(f"- [{item['title']}]({item['url']})" for item in detail.sources),
    ]
    return "\n".join(lines) + "\n"


def error_url(error_id: str, lang: str) -> str:
    from kubegap.checker.reports._common import library_url

    return f"{library_url()}/{lang}/errors/{error_id}"


def explain_error(text: str, lang: str | None) -> ErrorExplanations:
    """Catalog entries for an id (`xid-79`) or a pasted text (`NVRM: Xid (PCI:0000:3b:00): 79`)."""
    chosen = _lang(lang)
    opened = library()
    found = opened.resolve_error(text)
    entries = []
    studies = {study.id: study for study in opened.knowledge.studies}
    for entry in found[:5]:
        links = []
        for incident_id in entry.incidents:
            try:
                title = opened.incident(incident_id).title.get(chosen)
            except Exception:
                continue
            links.append(IncidentLink(id=incident_id, title=title, url=incident_url(incident_id, chosen)))
        rows = [
            f"{link.study}: {studies[link.study].rows[link.row].category.get(chosen)}"
            for link in entry.study_rows
            if link.study in studies and link.row < len(studies[link.study].rows)
        ]
        entries.append(
            ErrorExplanation(
                id=entry.id,
                family=entry.family.value,
                code=entry.code or "",
                title=entry.title.get(chosen),
                patterns=list(entry.patterns),
                meaning=entry.meaning.get(chosen),
                usual_action=entry.usual_action.get(chosen),
                incidents=links,
                study_rows=rows,
                guarded_by_checks=list(entry.checks),
                related=list(entry.related),
                sources=[{"title": source.title, "url": source.url} for source in entry.sources],
                url=error_url(entry.id, chosen),
            )
        )
    note = (
        ""
        if entries
        else "no catalog entry matches; try find_incidents_by_error, "
        "or an id such as xid-79 or nccl-watchdog-timeout"
    )
    return ErrorExplanations(text=text[:500], entries=entries, note=note)
