"""Read the list page's state from a query string, which is hostile input: clamp, clean, never raise.

`SearchQuery.from_params` does the cleaning; this module adds what only the web has (the tab, the
language from the path) and turns what was dropped into notices in the reader's language (an unknown
facet value, text cut to length), so a shared URL that no longer fits the data still opens.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from starlette.datastructures import ImmutableMultiDict

from kubegap.knowledge.loader import Taxonomy
from kubegap.library.query import DATE_KEYS, MAX_QUERY_CHARS, TEXT_KEYS, SearchQuery
from kubegap.text import Lang
from kubegap.web.labels import t
from kubegap.web.urls import DEFAULT_TAB, DEFAULT_VIEW, TABS, VIEWS

MAX_KEYS = 50
MAX_NOTED_VALUES = 5


@dataclass(frozen=True, slots=True)
class ListState:
    query: SearchQuery
    tab: str
    notices: tuple[str, ...]
    view: str = DEFAULT_VIEW


def parse_list_state(params: ImmutableMultiDict[str, str], lang: Lang, taxonomy: Taxonomy) -> ListState:
    """The query, tab, view and notices for a list view; every input maps to some valid view."""
    lists = {key: params.getlist(key) for key in list(params.keys())[:MAX_KEYS] if key != "lang"}
    query = replace(SearchQuery.from_params(lists, taxonomy=taxonomy), lang=lang)
    notices: list[str] = []
    if sum(len(value) for key in TEXT_KEYS for value in lists.get(key, [])) > MAX_QUERY_CHARS:
        notices.append(t("notice.text-cut", lang))
    unknown = [value for key, value in query.ignored_filters if key not in DATE_KEYS]
    if unknown:
        values = ", ".join(value[:60] for value in unknown[:MAX_NOTED_VALUES])
        notices.append(t("notice.unknown-values", lang, values=values))
    for key, value in query.ignored_filters:
        if key in DATE_KEYS:
            notices.append(t("notice.bad-date", lang, name=t(f"filters.{key}", lang), value=value[:40]))
    tab = params.get("tab", "")
    view = params.get("view", "")
    return ListState(
        query=query,
        tab=tab if tab in TABS else DEFAULT_TAB,
        notices=tuple(notices),
        view=view if view in VIEWS else DEFAULT_VIEW,
    )


def last_page_notice(requested: int, lang: Lang) -> str:
    return t("notice.last-page", lang, page=f"{requested:,}")
