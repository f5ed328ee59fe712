"""The facet pages: an overview of the four facets, and one page per value (term).

A term page explains the value, lists its incidents, links its parent and sub-terms, and shows the
share the fleet studies give it where one of their rows is tagged with it, so a reader sees both the
stories and the numbers for, say, GPU memory errors.
"""

from __future__ import annotations

from dataclasses import dataclass

from kubegap.knowledge.model import FACETS, Study
from kubegap.library.query import SearchQuery
from kubegap.text import Lang, count_label
from kubegap.web import urls
from kubegap.web.cards import TermLink, term_link
from kubegap.web.chart import row_figure
from kubegap.web.checkbox import CheckLink, check_link
from kubegap.web.labels import t
from kubegap.web.site import Site

TERM_PAGE_INCIDENTS = 10


@dataclass(frozen=True, slots=True)
class TermEntry:
    id: str
    label: str
    description: str
    count: int
    count_label: str
    depth: int
    url: str


@dataclass(frozen=True, slots=True)
class FacetSummary:
    facet: str
    label: str
    description: str
    terms: tuple[TermEntry, ...]


@dataclass(frozen=True, slots=True)
class FacetsPage:
    kind: str
    lang: str
    title: str
    facets: tuple[FacetSummary, ...]


@dataclass(frozen=True, slots=True)
class IncidentLine:
    id: str
    title: str
    summary: str
    date: str
    url: str


@dataclass(frozen=True, slots=True)
class StudyShare:
    study_id: str
    study_title: str
    study_url: str
    category: str
    figure: str
    measure: str


@dataclass(frozen=True, slots=True)
class TermPage:
    kind: str
    lang: str
    title: str
    facet: str
    facet_label: str
    term: str
    description: str
    parent: TermLink | None
    children: tuple[TermEntry, ...]
    total: int
    total_label: str
    incidents: tuple[IncidentLine, ...]
    see_all_url: str
    studies: tuple[StudyShare, ...]
    checks: tuple[CheckLink, ...]


def build_facets_page(site: Site, lang: Lang) -> FacetsPage:
    overview = site.library.facet_overview(lang)
    taxonomy = site.knowledge.taxonomy
    summaries = []
    for facet in FACETS:
        definition = taxonomy.facets.get(facet)
        counts = {value.term_id: value.count for value in overview.get(facet, ())}
        terms = tuple(
            TermEntry(
                term.id,
                term.label.get(lang),
                term.description.get(lang),
                counts.get(term.id, 0),
                count_label(counts.get(term.id, 0), lang),
                len(taxonomy.ancestors(facet, term.id)),
                urls.term_url(lang, facet, term.id),
            )
            for term in taxonomy.terms(facet)
        )
        summaries.append(
            FacetSummary(
                facet,
                definition.label.get(lang) if definition else t(f"facet.{facet}", lang),
                definition.description.get(lang) if definition else "",
                terms,
            )
        )
    return FacetsPage("facets", lang, t("facets.title", lang), tuple(summaries))


def build_term_page(site: Site, facet: str, term_id: str, lang: Lang) -> TermPage | None:
    taxonomy = site.knowledge.taxonomy
    term = taxonomy.term(facet, term_id) if facet in FACETS else None
    if term is None:
        return None
    query = SearchQuery(filters={facet: (term_id,)}, lang=lang, per_page=TERM_PAGE_INCIDENTS)
    result = site.library.search(query)
    overview = {value.term_id: value.count for value in site.library.facet_overview(lang).get(facet, ())}
    children = tuple(
        TermEntry(
            child.id,
            child.label.get(lang),
            child.description.get(lang),
            overview.get(child.id, 0),
            count_label(overview.get(child.id, 0), lang),
            1,
            urls.term_url(lang, facet, child.id),
        )
        for child in taxonomy.children(facet, term_id)
    )
    guarding = site.checks_guarding([term_id]) if facet == "component" else []
    return TermPage(
        kind="term",
        lang=lang,
        title=term.label.get(lang),
        facet=facet,
        facet_label=t(f"facet.{facet}", lang),
        term=term_id,
        description=term.description.get(lang),
        parent=term_link(taxonomy, lang, facet, term.parent) if term.parent else None,
        children=children,
        total=result.total,
        total_label=count_label(result.total, lang),
        incidents=tuple(
            IncidentLine(
                hit.incident.id,
                hit.incident.title.get(lang),
                hit.incident.summary.get(lang),
                hit.incident.date.isoformat(),
                urls.incident_url(lang, hit.incident.id),
            )
            for hit in result.hits
        ),
        see_all_url=urls.list_url(SearchQuery(filters={facet: (term_id,)}, lang=lang)),
        studies=_study_shares(
            site.knowledge.studies, facet, {term_id, *_descendants(site, facet, term_id)}, lang
        ),
        checks=tuple(link for check in guarding if (link := check_link(site, check.id, lang))),
    )


def _descendants(site: Site, facet: str, term_id: str) -> set[str]:
    taxonomy = site.knowledge.taxonomy
    found: set[str] = set()
    frontier = [term_id]
    while frontier:
        current = frontier.pop()
        for child in taxonomy.children(facet, current):
            if child.id not in found and child.id != term_id:
                found.add(child.id)
                frontier.append(child.id)
    return found


def _study_shares(studies: list[Study], facet: str, term_ids: set[str], lang: Lang) -> tuple[StudyShare, ...]:
    shares: list[StudyShare] = []
    for study in studies:
        for row in study.rows:
            if term_ids.intersection(row.tags.by_facet()[facet]):
                figure = row_figure(row.count, row.share_percent, study.total)
                shares.append(
                    StudyShare(
                        study.id,
                        study.title.get(lang),
                        urls.study_url(lang, study.id),
                        row.category.get(lang),
                        figure,
                        study.measure.get(lang),
                    )
                )
    return tuple(shares)
