"""The list page as a typed context: facet tabs with counts, chips, search, sort, paging, cards, check box.

Every value carries its own URL (toggle, remove, page, sort), built from the current query, so the
template only prints and the JSON twin (`/ko/incidents.json?...`) carries the same links.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kubegap.knowledge.organizations import LIBRARY_FACETS
from kubegap.library.query import SORTS, SearchQuery, SearchResult
from kubegap.text import count_label, label, result_range
from kubegap.web import urls
from kubegap.web.cards import IncidentCard, build_card
from kubegap.web.checkbox import CheckBox, build_check_box
from kubegap.web.labels import t
from kubegap.web.site import Site
from kubegap.web.state import ListState, last_page_notice

PAGE_WINDOW = 2


@dataclass(frozen=True, slots=True)
class FacetValueView:
    facet: str
    id: str
    label: str
    count: int
    selected: bool
    url: str
    parent: str | None


@dataclass(frozen=True, slots=True)
class Tab:
    key: str
    label: str
    url: str
    current: bool
    count: str


@dataclass(frozen=True, slots=True)
class Chip:
    facet: str
    id: str
    label: str
    remove_url: str
    remove_label: str


@dataclass(frozen=True, slots=True)
class Choice:
    key: str
    label: str
    url: str
    current: bool


@dataclass(frozen=True, slots=True)
class PageLink:
    """A page number, or a gap (number 0, no URL) where pages are skipped."""

    number: int
    label: str
    url: str
    current: bool


@dataclass(frozen=True, slots=True)
class Paging:
    previous_url: str
    next_url: str
    pages: tuple[PageLink, ...]


@dataclass(frozen=True, slots=True)
class HiddenField:
    name: str
    value: str


@dataclass(frozen=True, slots=True)
class ListPage:
    kind: str
    lang: str
    title: str
    url: str
    text: str
    filters: dict[str, tuple[str, ...]]
    since: str  # YYYY-MM-DD or "" (open), as the search form shows it
    until: str
    sort: str
    page: int
    per_page: int
    total: int
    total_label: str
    start: int
    end: int
    range_text: str
    page_count: int
    tab: str
    tabs: tuple[Tab, ...]
    facet_title: str
    facet_values: tuple[FacetValueView, ...]
    facets: dict[str, tuple[FacetValueView, ...]]
    chips: tuple[Chip, ...]
    clear_url: str
    sorts: tuple[Choice, ...]
    hidden_fields: tuple[HiddenField, ...]
    notices: tuple[str, ...]
    incidents: tuple[IncidentCard, ...]
    paging: Paging
    check_box: CheckBox


def search_with_notices(site: Site, state: ListState) -> tuple[SearchResult, tuple[str, ...]]:
    """Run the search; the library shows the last page for a page past the end, and we say so."""
    result = site.library.search(state.query)
    notices = state.notices
    if result.total > 0 and result.query.page != state.query.page:
        notices = (*notices, last_page_notice(state.query.page, state.query.lang))
    if result.relaxed:
        notices = (*notices, label("relaxed-search", state.query.lang))
    return result, notices


def build_list_page(site: Site, state: ListState) -> ListPage:
    result, notices = search_with_notices(site, state)
    query, tab, lang = result.query, state.tab, state.query.lang
    taxonomy = site.knowledge.taxonomy
    facets = {
        facet: tuple(
            FacetValueView(
                facet,
                value.term_id,
                value.label,
                value.count,
                value.selected,
                urls.toggle_url(query, tab, facet, value.term_id),
                value.parent,
            )
            for value in result.facets.get(facet, ())
        )
        for facet in LIBRARY_FACETS
    }
    hits = tuple(build_card(hit.incident, taxonomy, lang, hit.matched_signatures) for hit in result.hits)
    return ListPage(
        kind="incidents",
        lang=lang,
        title=t("site.title", lang),
        url=urls.list_url(query, tab),
        text=query.text,
        filters=dict(query.filters),
        since=query.since.isoformat() if query.since else "",
        until=query.until.isoformat() if query.until else "",
        sort=query.sort,
        page=query.page,
        per_page=query.per_page,
        total=result.total,
        total_label=count_label(result.total, lang),
        start=result.start,
        end=result.end,
        range_text=result_range(result.total, result.start, result.end, lang),
        page_count=result.page_count,
        tab=tab,
        tabs=_tabs(query, tab, result.total),
        facet_title=t("facet.by", lang, facet=t(f"facet.{tab}", lang)) if tab in LIBRARY_FACETS else "",
        facet_values=facets.get(tab, ()),
        facets=facets,
        chips=_chips(site, query, tab),
        clear_url=urls.clear_url(query, tab),
        sorts=tuple(
            Choice(sort, t(f"sort.{sort}", lang), urls.sort_url(query, tab, sort), sort == query.sort)
            for sort in SORTS
        ),
        hidden_fields=_hidden_fields(query, tab),
        notices=notices,
        incidents=hits,
        paging=_paging(query, tab, result.page_count),
        check_box=build_check_box(site, result.recurring_components, result.total, lang),
    )


def _tabs(query: SearchQuery, current: str, total: int) -> tuple[Tab, ...]:
    lang = query.lang
    tabs = [
        Tab(facet, t(f"facet.{facet}", lang), urls.tab_url(query, facet), facet == current, "")
        for facet in LIBRARY_FACETS
    ]
    tabs.append(
        Tab(
            "incidents",
            t("tab.incidents", lang),
            urls.tab_url(query, "incidents"),
            current == "incidents",
            count_label(total, lang),
        )
    )
    return tuple(tabs)


def _chips(site: Site, query: SearchQuery, tab: str) -> tuple[Chip, ...]:
    lang = query.lang
    chips: list[Chip] = []
    if query.text:
        name = f"{t('filters.text', lang)}: {query.text}"
        chips.append(
            Chip(
                "q", query.text, name, urls.without_text_url(query, tab), t("filters.remove", lang, name=name)
            )
        )
    for key in ("since", "until"):
        day = getattr(query, key)
        if day is not None:
            name = f"{t(f'filters.{key}', lang)}: {day.isoformat()}"
            remove = t("filters.remove", lang, name=name)
            chips.append(Chip(key, day.isoformat(), name, urls.without_dates_url(query, tab, key), remove))
    taxonomy = site.knowledge.taxonomy
    for facet in LIBRARY_FACETS:
        for term_id in query.filters.get(facet, ()):
            term = taxonomy.term(facet, term_id)
            name = f"{t(f'facet.{facet}', lang)}: {term.label.get(lang) if term else term_id}"
            remove = t("filters.remove", lang, name=name)
            chips.append(Chip(facet, term_id, name, urls.toggle_url(query, tab, facet, term_id), remove))
    return tuple(chips)


def _hidden_fields(query: SearchQuery, tab: str) -> tuple[HiddenField, ...]:
    """The state a new search keeps: filters, sort, size and tab, but not the text, the dates (the form
    has fields of its own for them) or the page."""
    pairs = urls.query_params(replace(query, text="", since=None, until=None, page=1), tab)
    return tuple(HiddenField(name, value) for name, value in pairs)


def _paging(query: SearchQuery, tab: str, page_count: int) -> Paging:
    current = query.page
    if page_count <= 1:
        return Paging("", "", ())
    numbers = sorted(
        {1, page_count}
        | set(range(max(1, current - PAGE_WINDOW), min(page_count, current + PAGE_WINDOW) + 1))
    )
    pages: list[PageLink] = []
    previous = 0
    for number in numbers:
        if previous and number - previous > 1:
            pages.append(PageLink(0, "…", "", False))
        pages.append(PageLink(number, str(number), urls.page_url(query, tab, number), number == current))
        previous = number
    return Paging(
        previous_url=urls.page_url(query, tab, current - 1) if current > 1 else "",
        next_url=urls.page_url(query, tab, current + 1) if current < page_count else "",
        pages=tuple(pages),
    )
