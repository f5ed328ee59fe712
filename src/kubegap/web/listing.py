"""The list page as a typed context: facet groups with counts, chips, search, sort, view, paging, cards.

Every value carries its own URL (toggle, remove, page, sort, view), built from the current query, so
the template only prints and the JSON twin (`/ko/incidents.json?...`) carries the same links. Facet
counts say what a click gives (see facet_tree); card chips add their value as a filter in place.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kubegap.knowledge.organizations import LIBRARY_FACETS
from kubegap.library.query import SORTS, SearchQuery, SearchResult
from kubegap.text import count_label, label, result_range
from kubegap.web import urls
from kubegap.web.cards import IncidentCard, build_card
from kubegap.web.checkbox import CheckBox, build_check_box
from kubegap.web.error_pages import ErrorSummary, error_summary
from kubegap.web.facet_tree import Branch, FacetGroup, FacetValueView, build_groups, facet_title
from kubegap.web.highlight import hit_marks
from kubegap.web.labels import t
from kubegap.web.paging import Paging, build_paging
from kubegap.web.site import Site
from kubegap.web.state import ListState, last_page_notice
from kubegap.web.suggestions import Suggestion, suggest


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
    view: str
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
    facet_branches: tuple[Branch, ...]
    facets: dict[str, tuple[FacetValueView, ...]]
    facet_groups: tuple[FacetGroup, ...]
    chips: tuple[Chip, ...]
    clear_url: str
    sorts: tuple[Choice, ...]
    views: tuple[Choice, ...]
    hidden_fields: tuple[HiddenField, ...]
    notices: tuple[str, ...]
    incidents: tuple[IncidentCard, ...]
    suggestions: tuple[Suggestion, ...]
    paging: Paging
    check_box: CheckBox
    catalog: tuple[
        ErrorSummary, ...
    ] = ()  # error-catalog entries the search text names (`XID79`, a log line)


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
    query, tab, view, lang = result.query, state.tab, state.view, state.query.lang
    taxonomy = site.knowledge.taxonomy
    toggles: dict[tuple[str, str], str] = {}
    toggler = urls.Toggler(query, tab, view, taxonomy)

    def toggle(facet: str, term: str) -> str:
        """One URL per value and page: the same term sits on many cards and in the facet tree."""
        key = (facet, term)
        if key not in toggles:
            toggles[key] = toggler.url(facet, term)
        return toggles[key]

    groups = build_groups(result.facet_choices or result.facets, toggle, lang)
    current = next((group for group in groups if group.key == tab), None)

    def chip_link(facet: str, term: str) -> tuple[str, bool]:
        return toggle(facet, term), query.selected(facet, term)

    hits = tuple(
        build_card(hit.incident, taxonomy, lang, hit.matched_signatures, link=chip_link, marks=hit_marks(hit))
        for hit in result.hits
    )
    return ListPage(
        kind="incidents",
        lang=lang,
        title=t("site.title", lang),
        url=urls.list_url(query, tab, view),
        text=query.text,
        filters=dict(query.filters),
        since=query.since.isoformat() if query.since else "",
        until=query.until.isoformat() if query.until else "",
        sort=query.sort,
        view=view,
        page=query.page,
        per_page=query.per_page,
        total=result.total,
        total_label=count_label(result.total, lang),
        start=result.start,
        end=result.end,
        range_text=result_range(result.total, result.start, result.end, lang),
        page_count=result.page_count,
        tab=tab,
        tabs=_tabs(query, tab, view, groups, result.total),
        facet_title=t("facet.by", lang, facet=current.title) if current else "",
        facet_values=current.values if current else (),
        facet_branches=current.branches if current else (),
        facets={group.key: group.values for group in groups},
        facet_groups=groups,
        chips=_chips(site, query, tab, view),
        clear_url=urls.clear_url(query, tab, view),
        sorts=tuple(
            Choice(sort, t(f"sort.{sort}", lang), urls.sort_url(query, tab, sort, view), sort == query.sort)
            for sort in SORTS
        ),
        views=tuple(
            Choice(name, t(f"view.{name}", lang), urls.list_url(query, tab, name), name == view)
            for name in urls.VIEWS
        ),
        hidden_fields=_hidden_fields(query, tab, view),
        notices=notices,
        incidents=hits,
        suggestions=suggest(site, result, tab, view),
        paging=build_paging(
            query.page, result.page_count, lambda number: urls.page_url(query, tab, number, view)
        ),
        check_box=build_check_box(site, result.recurring_components, result.total, lang),
        catalog=tuple(error_summary(entry, lang) for entry in result.errors),
    )


def _tabs(
    query: SearchQuery, current: str, view: str, groups: tuple[FacetGroup, ...], total: int
) -> tuple[Tab, ...]:
    """A tab per facet group (with how many of its values are chosen), then the incidents tab."""
    lang = query.lang
    tabs = [
        Tab(
            group.key,
            group.title,
            urls.tab_url(query, group.key, view),
            group.key == current,
            str(group.selected_count) if group.selected_count else "",
        )
        for group in groups
        if group.key in urls.TABS
    ]
    incidents = Tab(
        "incidents",
        t("tab.incidents", lang),
        urls.tab_url(query, "incidents", view),
        current == "incidents",
        count_label(total, lang),
    )
    return (*tabs, incidents)


def _chips(site: Site, query: SearchQuery, tab: str, view: str) -> tuple[Chip, ...]:
    lang = query.lang
    chips: list[Chip] = []
    if query.text:
        name = f"{t('filters.text', lang)}: {query.text}"
        remove = t("filters.remove", lang, name=name)
        chips.append(Chip("q", query.text, name, urls.without_text_url(query, tab, view), remove))
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
            name = f"{facet_title(facet, lang)}: {term.label.get(lang) if term else term_id}"
            remove = t("filters.remove", lang, name=name)
            chips.append(
                Chip(facet, term_id, name, urls.toggle_url(query, tab, facet, term_id, view), remove)
            )
    return tuple(chips)


def _hidden_fields(query: SearchQuery, tab: str, view: str) -> tuple[HiddenField, ...]:
    """The state a new search keeps: filters, sort, size, tab and view, but not the text, the dates (the
    form has fields of its own for them) or the page."""
    pairs = urls.query_params(replace(query, text="", since=None, until=None, page=1), tab, view)
    return tuple(HiddenField(name, value) for name, value in pairs)
