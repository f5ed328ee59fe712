"""Every URL the pages link to, built in one place so templates never assemble a path or query string.

The list page keeps its whole state in the query string (text, filters, sort, page, size, tab) in one
canonical order, with defaults left out, so equal views have equal URLs and every view can be shared.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from urllib.parse import quote, urlencode

from kubegap.knowledge.organizations import LIBRARY_FACETS
from kubegap.library.query import DEFAULT_PER_PAGE, SearchQuery

TABS: tuple[str, ...] = (*LIBRARY_FACETS, "incidents")
DEFAULT_TAB = "cause"


@lru_cache(maxsize=8192)
def path(*parts: str) -> str:
    """'/' + the parts, each percent-quoted, so an id or term can never break out of its segment.

    Cached: a list page links the same few hundred terms and incidents over and over.
    """
    return "/" + "/".join(quote(part, safe="") for part in parts)


def incidents_url(lang: str) -> str:
    return path(lang, "incidents")


def incident_url(lang: str, incident_id: str) -> str:
    return path(lang, "incidents", incident_id)


def facets_url(lang: str) -> str:
    return path(lang, "facets")


def term_url(lang: str, facet: str, term_id: str) -> str:
    return path(lang, "facets", facet, term_id)


def studies_url(lang: str) -> str:
    return path(lang, "studies")


def study_url(lang: str, study_id: str) -> str:
    return path(lang, "studies", study_id)


def checks_url(lang: str) -> str:
    return path(lang, "checks")


def check_url(lang: str, check_id: str) -> str:
    return path(lang, "checks", check_id)


def cluster_url(lang: str) -> str:
    return path(lang, "cluster")


# One-shot actions in a query string (a rescan); links built from the current URL leave them out.
ACTION_PARAMS = frozenset({"rescan"})


def without_actions(query_string: str) -> str:
    """The query string without ACTION_PARAMS, every other pair kept byte for byte and in order."""
    if not any(name in query_string for name in ACTION_PARAMS):
        return query_string
    pairs = [pair for pair in query_string.split("&") if pair.partition("=")[0] not in ACTION_PARAMS]
    return "&".join(pairs)


def with_json(url: str) -> str:
    """The JSON twin of a page URL: '.json' on the path, the query string kept."""
    base, separator, query = url.partition("?")
    return base.rstrip("/") + ".json" + separator + query


def query_params(query: SearchQuery, tab: str = DEFAULT_TAB) -> list[tuple[str, str]]:
    """The canonical query string pairs of a list view; defaults are left out."""
    pairs: list[tuple[str, str]] = []
    if query.text:
        pairs.append(("q", query.text))
    for facet in LIBRARY_FACETS:
        pairs.extend((facet, term) for term in query.filters.get(facet, ()))
    if query.since is not None:
        pairs.append(("since", query.since.isoformat()))
    if query.until is not None:
        pairs.append(("until", query.until.isoformat()))
    if query.sort != default_sort(query):
        pairs.append(("sort", query.sort))
    if query.per_page != DEFAULT_PER_PAGE:
        pairs.append(("per_page", str(query.per_page)))
    if query.page != 1:
        pairs.append(("page", str(query.page)))
    if tab != DEFAULT_TAB:
        pairs.append(("tab", tab))
    return pairs


def default_sort(query: SearchQuery) -> str:
    """The order a query gets when it names none: relevance with text, newest without (as from_params)."""
    return "relevance" if query.text else "newest"


def list_url(query: SearchQuery, tab: str = DEFAULT_TAB) -> str:
    encoded = urlencode(query_params(query, tab), quote_via=quote)
    return incidents_url(query.lang) + ("?" + encoded if encoded else "")


def toggle_url(query: SearchQuery, tab: str, facet: str, term_id: str) -> str:
    """The view with this facet value added, or removed when it is already selected."""
    return list_url(query.toggled(facet, term_id), tab)


def without_dates_url(query: SearchQuery, tab: str, key: str) -> str:
    """The view with one end of the date range ('since' or 'until') opened again."""
    opened = replace(query, since=None) if key == "since" else replace(query, until=None)
    return list_url(replace(opened, page=1), tab)


def without_text_url(query: SearchQuery, tab: str) -> str:
    sort = "newest" if query.sort == "relevance" else query.sort
    return list_url(replace(query, text="", page=1, sort=sort), tab)


def clear_url(query: SearchQuery, tab: str) -> str:
    return list_url(SearchQuery(lang=query.lang, sort=query.sort, per_page=query.per_page), tab)


def page_url(query: SearchQuery, tab: str, page: int) -> str:
    return list_url(replace(query, page=page), tab)


def sort_url(query: SearchQuery, tab: str, sort: str) -> str:
    return list_url(replace(query, sort=sort, page=1), tab)  # type: ignore[arg-type]


def tab_url(query: SearchQuery, tab: str) -> str:
    return list_url(query, tab)


def switch_language(path_now: str, query_string: str, lang: str) -> str:
    """The same view in another language: the first path segment swapped, the query string kept as is."""
    segments = path_now.split("/")
    if len(segments) > 1 and segments[1] in ("ko", "en"):
        segments[1] = lang
        target = "/".join(quote(segment, safe="") for segment in segments)
    else:
        target = path(lang, "incidents")
    return target + ("?" + query_string if query_string else "")
