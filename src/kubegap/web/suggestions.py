"""What to try when a search finds nothing: each suggestion a link with the number of results it gives.

Sources, in order: dropping one filter (the facet counts already say what each removal gives), the
nearby words the library offers on the result (`SearchResult.nearby_terms`, when it has them), then
words of our own: taxonomy labels and glossary forms spelled like a word of the query, and the same
filters without the text. A suggestion that would also find nothing is never shown.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, replace

from kubegap.library.analysis import ENGLISH_STOPWORDS, clean_text
from kubegap.library.query import SearchQuery, SearchResult
from kubegap.text import Lang, count_label
from kubegap.web import urls
from kubegap.web.labels import t
from kubegap.web.site import Site

MAX_SUGGESTIONS = 6
MAX_WORDS = 4
MAX_QUERY_WORDS = 6
CLOSENESS = 0.72
_WORD = re.compile(r"\w+")


@dataclass(frozen=True, slots=True)
class Suggestion:
    kind: str  # remove-filter, nearby, term, word, without-text
    label: str
    url: str
    count: int
    count_label: str


def suggest(site: Site, result: SearchResult, tab: str, view: str) -> tuple[Suggestion, ...]:
    """Ways out of an empty result; none for a result that has hits."""
    if result.total:
        return ()
    query, lang = result.query, result.query.lang
    found: list[Suggestion] = []
    for facet, values in result.facet_choices.items():
        for value in values:
            if value.selected and value.toggle_count:
                label = t("suggest.remove", lang, name=value.label)
                url = urls.toggle_url(query, tab, facet, value.term_id, view)
                found.append(_suggestion("remove-filter", label, url, value.toggle_count, lang))
    if query.text:
        words = [str(word) for word in getattr(result, "nearby_terms", ()) or ()]
        found.extend(_word_suggestions(site, query, words, "nearby", tab, view))
        found.extend(_term_suggestions(site, query, tab, view))
        found.extend(_word_suggestions(site, query, _glossary_words(site, query.text), "word", tab, view))
        without = replace(query, text="", page=1, sort="newest" if query.sort == "relevance" else query.sort)
        count = site.library.search(replace(without, per_page=1)).total
        if count and query.filters:
            label = t("suggest.without-text", lang)
            found.append(
                _suggestion("without-text", label, urls.without_text_url(query, tab, view), count, lang)
            )
    unique: dict[str, Suggestion] = {}
    for suggestion in found:
        unique.setdefault(suggestion.url, suggestion)
    return tuple(unique.values())[:MAX_SUGGESTIONS]


def _suggestion(kind: str, label: str, url: str, count: int, lang: Lang) -> Suggestion:
    return Suggestion(kind, label, url, count, count_label(count, lang))


def _word_suggestions(
    site: Site, query: SearchQuery, words: list[str], kind: str, tab: str, view: str
) -> list[Suggestion]:
    found = []
    for word in dict.fromkeys(words):
        if not word or word.lower() == query.text.lower():
            continue
        count = site.library.search(replace(query, text=word, page=1, per_page=1)).total
        if count:
            label = t("suggest.word", query.lang, word=word)
            found.append(_suggestion(kind, label, urls.search_url(query, word, tab, view), count, query.lang))
        if len(found) >= MAX_WORDS:
            break
    return found


def _term_suggestions(site: Site, query: SearchQuery, tab: str, view: str) -> list[Suggestion]:
    """Taxonomy terms whose label (in either language) has a word spelled like a word of the query."""
    index = _term_words(site)
    found: list[Suggestion] = []
    seen: set[tuple[str, str]] = set()
    for word in _content_words(query.text):
        for close in difflib.get_close_matches(word, list(index), n=3, cutoff=CLOSENESS):
            for facet, term_id in index[close]:
                if (facet, term_id) in seen or term_id in query.filters.get(facet, ()):
                    continue
                seen.add((facet, term_id))
                term = site.knowledge.taxonomy.term(facet, term_id)
                filtered = replace(query.toggled(facet, term_id), text="", sort="newest")
                count = site.library.search(replace(filtered, per_page=1)).total
                if count and term is not None:
                    name = term.label.get(query.lang)
                    label = t("suggest.term", query.lang, facet=t(f"facet.{facet}", query.lang), name=name)
                    url = urls.list_url(filtered, tab, view)
                    found.append(_suggestion("term", label, url, count, query.lang))
                if len(found) >= MAX_WORDS:
                    return found
    return found


def _term_words(site: Site) -> dict[str, list[tuple[str, str]]]:
    """Every word of every term label (both languages) and id -> the terms it names; built once."""
    if site.suggestion_words is not None:
        return site.suggestion_words
    index: dict[str, list[tuple[str, str]]] = {}
    for facet, definition in site.knowledge.taxonomy.facets.items():
        for term in definition.terms:
            names = f"{term.label.ko} {term.label.en} {term.id.replace('-', ' ')}".lower()
            for word in set(_WORD.findall(names)):
                if len(word) >= 3:
                    index.setdefault(word, []).append((facet, term.id))
    site.suggestion_words = index
    return index


def _glossary_words(site: Site, text: str) -> list[str]:
    """Glossary forms spelled like a word of the query (a typo, or the other language's spelling)."""
    forms = [form for entry in site.glossary.entries for form in (*entry.ko, *entry.en)]
    lowered = {form.lower(): form for form in forms}
    close: list[str] = []
    for word in _content_words(text):
        for match in difflib.get_close_matches(word, list(lowered), n=2, cutoff=CLOSENESS):
            close.append(lowered[match])
    return close


def _content_words(text: str) -> list[str]:
    """Words worth respelling: three letters or more, no digits (ids, timestamps and counters are not
    typos), at most MAX_QUERY_WORDS of them."""
    words = [word.lower() for word in clean_text(text).split() if word.casefold() not in ENGLISH_STOPWORDS]
    return [word for word in words if len(word) >= 3 and not any(char.isdigit() for char in word)][
        :MAX_QUERY_WORDS
    ]
