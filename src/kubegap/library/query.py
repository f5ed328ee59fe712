"""What a reader asks the library and what comes back: plain types shared by CLI, web and MCP.

`SearchQuery.from_params` is the one place untrusted input (a query string, CLI flags, MCP arguments)
becomes a query: it clamps and cleans and never raises, except `UsageError` for an unknown facet value
or a date that is not one when `strict` is set.
"""

from __future__ import annotations

import datetime as dt
import difflib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from kubegap.bilingual import message
from kubegap.errors import UsageError
from kubegap.knowledge.error_model import ErrorEntry
from kubegap.knowledge.model import FACETS, Incident
from kubegap.knowledge.organizations import LIBRARY_FACETS, ORGANIZATION_FACET
from kubegap.library.analysis import clean_text
from kubegap.library.dates import parse_day
from kubegap.text import Lang, label, normalize_lang

if TYPE_CHECKING:
    from kubegap.knowledge.loader import Taxonomy

Sort = Literal["newest", "oldest", "relevance"]
SORTS: tuple[Sort, ...] = ("newest", "oldest", "relevance")
MAX_PER_PAGE = 100
DEFAULT_PER_PAGE = 20
MAX_QUERY_CHARS = 500
MAX_PAGE = 100_000
MAX_VALUES_PER_FACET = 20
# Parameter names accepted by from_params, besides the facet names themselves.
TEXT_KEYS = ("q", "query", "text")
FACET_ALIASES = {
    "factor": "contributing-factor",
    "contributing_factor": "contributing-factor",
    "org": ORGANIZATION_FACET,
    "organisation": ORGANIZATION_FACET,
}
DATE_KEYS = ("since", "until")


@dataclass(frozen=True)
class SearchQuery:
    """A search: free text (ko or en, or a pasted error line), facet filters, language, order, page.

    filters: facet name (the four tag facets and `organization`) -> term ids. AND across facets, OR
    within one facet. A term also matches incidents tagged with any of its descendants
    (gpu-memory-error is a gpu-fault; an organisation's parent matches its parts).
    since / until: incidents that began on or after / on or before these days (either may be open).
    """

    text: str = ""
    filters: dict[str, tuple[str, ...]] = field(default_factory=dict)
    since: dt.date | None = None
    until: dt.date | None = None
    lang: Lang = "ko"
    sort: Sort = "newest"
    page: int = 1
    per_page: int = DEFAULT_PER_PAGE
    # (facet, value) pairs from_params dropped because the taxonomy does not know them (non-strict mode).
    ignored_filters: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    @classmethod
    def from_params(
        cls,
        params: Mapping[str, object],
        *,
        taxonomy: Taxonomy | None = None,
        strict: bool = False,
    ) -> SearchQuery:
        """Build a query from untrusted input: a dict of query-string lists, CLI values or MCP arguments.

        Never raises, except UsageError for a facet value the taxonomy does not know when `strict`.
        Unknown keys are ignored; numbers are clamped; text is cleaned and cut to MAX_QUERY_CHARS;
        facet values may repeat or be comma-separated; an organisation may be given by id, name or
        alias. since / until take YYYY, YYYY-MM or YYYY-MM-DD (a year or month means its first day for
        since and its last for until). Without an explicit sort, a query with text sorts by relevance
        and one without by newest.
        """
        text = clean_text(" ".join(_values(params, *TEXT_KEYS)))[:MAX_QUERY_CHARS].strip()
        filters: dict[str, tuple[str, ...]] = {}
        ignored: list[tuple[str, str]] = []
        for facet in LIBRARY_FACETS:
            keys = [facet, *(alias for alias, target in FACET_ALIASES.items() if target == facet)]
            chosen: list[str] = []
            for raw in _values(params, *keys):
                for part in raw.split(","):
                    value = clean_text(part)[:100]
                    if facet == ORGANIZATION_FACET and taxonomy is not None:
                        value = taxonomy.organization_id(value) or value.lower()
                    value = value.lower()
                    if not value or value in chosen:
                        continue
                    if taxonomy is not None and taxonomy.term(facet, value) is None:
                        if strict:
                            raise UsageError(_unknown_value_message(facet, value, taxonomy))
                        ignored.append((facet, value))
                        continue
                    chosen.append(value)
            if chosen:
                filters[facet] = tuple(chosen[:MAX_VALUES_PER_FACET])
        since, until = (_date_param(params, key, strict=strict, ignored=ignored) for key in DATE_KEYS)
        if strict and since is not None and until is not None and since > until:
            raise UsageError(f"since ({since}) is after until ({until}); no incident can match")
        sort_values = [value.strip().lower() for value in _values(params, "sort")]
        sort: Sort = next(
            (value for value in SORTS if value in sort_values), "relevance" if text else "newest"
        )
        return cls(
            text=text,
            filters=filters,
            since=since,
            until=until,
            lang=normalize_lang(next(iter(_values(params, "lang")), None)),
            sort=sort,
            page=_clamped_int(_values(params, "page"), default=1, low=1, high=MAX_PAGE),
            per_page=_clamped_int(
                _values(params, "per_page", "per-page"), default=DEFAULT_PER_PAGE, low=1, high=MAX_PER_PAGE
            ),
            ignored_filters=tuple(ignored),
        )

    def to_params(self) -> dict[str, list[str]]:
        """The query as query-string lists (defaults left out), the inverse of from_params."""
        params: dict[str, list[str]] = {}
        if self.text:
            params["q"] = [self.text]
        for facet in LIBRARY_FACETS:
            if self.filters.get(facet):
                params[facet] = list(self.filters[facet])
        if self.since is not None:
            params["since"] = [self.since.isoformat()]
        if self.until is not None:
            params["until"] = [self.until.isoformat()]
        params["lang"] = [self.lang]
        if self.sort != ("relevance" if self.text else "newest"):
            params["sort"] = [self.sort]
        if self.page != 1:
            params["page"] = [str(self.page)]
        if self.per_page != DEFAULT_PER_PAGE:
            params["per_page"] = [str(self.per_page)]
        return params

    def toggled(self, facet: str, term_id: str, taxonomy: Taxonomy | None = None) -> SearchQuery:
        """The same query with one facet value switched on or off, back on page 1 (for facet links).

        With the taxonomy, a click on a value under a selected one narrows to it, and a click on a
        value above selected ones widens to it (see `toggled_values`)."""
        current = self.filters.get(facet, ())
        lineage = (lambda term: taxonomy.ancestors(facet, term)) if taxonomy is not None else None
        chosen = toggled_values(current, term_id, lineage)
        filters = {name: values for name, values in self.filters.items() if name != facet}
        if chosen:
            filters[facet] = chosen
        return replace(self, filters=filters, page=1)

    def with_page(self, page: int) -> SearchQuery:
        return replace(self, page=max(1, min(int(page), MAX_PAGE)))

    def selected(self, facet: str, term_id: str) -> bool:
        return term_id in self.filters.get(facet, ())


def toggled_values(
    current: tuple[str, ...], term_id: str, ancestors: Callable[[str], list[str]] | None = None
) -> tuple[str, ...]:
    """One facet's selected values after a click on `term_id`: removed when selected, else added.

    Values of one facet are OR-ed, and a value matches its descendants too, so adding a value that
    is under a selected one (GPU fault under hardware fault) would change nothing: it replaces its
    selected ancestors instead, and the click narrows. Likewise a value above selected ones replaces
    them. `ancestors(term)` gives a term's parents; without it values are only added or removed.
    """
    if term_id in current:
        return tuple(value for value in current if value != term_id)
    if ancestors is None:
        return (*current, term_id)
    above = set(ancestors(term_id))
    kept = tuple(value for value in current if value not in above and term_id not in ancestors(value))
    return (*kept, term_id)


@dataclass(frozen=True)
class FacetValue:
    """One value of a facet with its count in the current result set, ready for any renderer.

    `toggle_count` is how many results the search has once this value is clicked: added to its facet
    (OR within a facet, AND across; replacing a selected value above or below it, see
    `toggled_values`) or, when selected, removed. Links show it; `count` is the share of the current
    results.
    """

    facet: str
    term_id: str
    label: str
    count: int
    selected: bool
    parent: str | None = None
    toggle_count: int = 0


@dataclass(frozen=True)
class SearchHit:
    incident: Incident
    score: float = 0.0  # higher is better; 0 when not sorted by relevance
    matched_signatures: tuple[str, ...] = ()
    # The words as written in this incident that matched the reader's text, longest first: wrap each
    # occurrence (case-insensitively) in <mark> to highlight a card or a case page.
    matched_terms: tuple[str, ...] = ()
    matched_share: float = 1.0  # share of the reader's content words this incident has
    catalog_errors: tuple[str, ...] = ()  # ids of matched catalog entries that link this incident

    @property
    def partial(self) -> bool:
        """Some of the reader's words are missing from this incident."""
        return self.matched_share < 1.0 and not self.matched_signatures and not self.catalog_errors


@dataclass(frozen=True)
class SearchResult:
    query: SearchQuery
    total: int
    start: int  # 1-based index of the first hit shown; 0 when there are none
    end: int  # 1-based index of the last hit shown; 0 when there are none
    hits: tuple[SearchHit, ...]
    facets: dict[
        str, tuple[FacetValue, ...]
    ]  # every facet in LIBRARY_FACETS, values with count > 0 or selected
    recurring_components: tuple[FacetValue, ...]  # components most often tagged in the whole result set
    page_count: int
    relaxed: bool = False  # no incident has every word of the text; hits have some of them, best first
    full_matches: int = 0  # results with every word (or a signature or catalog match); the rest are partial
    words: tuple[str, ...] = ()  # the reader's content words as the search understood them
    errors: tuple[ErrorEntry, ...] = ()  # error-catalog entries whose patterns the text contains
    suggestions: tuple[str, ...] = ()  # nearby index terms, offered when nothing matched
    # every facet value a click changes something for (see FacetValue.toggle_count), selected ones too
    facet_choices: dict[str, tuple[FacetValue, ...]] = field(default_factory=dict)

    @property
    def partial(self) -> bool:
        """Some results lack some of the reader's words (they come after the full matches)."""
        return bool(self.query.text) and self.full_matches < self.total

    @property
    def incidents(self) -> list[Incident]:
        return [hit.incident for hit in self.hits]


@dataclass(frozen=True)
class SimilarIncident:
    """An incident like another one, with the reasons in plain words rather than a score."""

    incident: Incident
    shared_terms: tuple[FacetValue, ...]  # tags both incidents name themselves
    shared_signatures: tuple[str, ...]  # error signatures both incidents quote

    def reasons(self, lang: str) -> list[str]:
        """One line per facet with shared terms, and one for shared signatures."""
        lines = []
        for facet in FACETS:
            labels = [value.label for value in self.shared_terms if value.facet == facet]
            if labels:
                lines.append(f"{label(f'facet.{facet}', lang)}: {', '.join(labels)}")
        if self.shared_signatures:
            heading = "같은 오류 메시지" if normalize_lang(lang) == "ko" else "Same error signature"
            lines.append(f"{heading}: {', '.join(self.shared_signatures)}")
        return lines


def _values(params: Mapping[str, object], *keys: str) -> list[str]:
    """Every value under any of the keys as strings; lists, tuples, scalars, None and multi-dicts accepted."""
    found: list[str] = []
    getlist = getattr(params, "getlist", None)  # starlette QueryParams, werkzeug MultiDict
    for key in keys:
        try:
            value = getlist(key) if callable(getlist) else params.get(key)
        except Exception:
            continue
        items = value if isinstance(value, list | tuple) else [value]
        for item in items[:100]:
            if item is None or isinstance(item, dict | list | tuple | set):
                continue
            found.append(item.decode("utf-8", "replace") if isinstance(item, bytes) else str(item))
    return found


def _date_param(
    params: Mapping[str, object], key: str, *, strict: bool, ignored: list[tuple[str, str]]
) -> dt.date | None:
    """The first value under `key` as a day; a year or a month stands for its first or last day."""
    for raw in _values(params, key):
        value = clean_text(raw)[:40]
        if not value:
            continue
        parsed = parse_day(value, last=key == "until")
        if parsed is not None:
            return parsed
        if strict:
            raise UsageError(f"{key} {value!r} is not a date; use YYYY, YYYY-MM or YYYY-MM-DD")
        ignored.append((key, value))
    return None


def _clamped_int(values: list[str], *, default: int, low: int, high: int) -> int:
    for value in values:
        try:
            number = int(value.strip()[:12])
        except ValueError:
            continue
        return max(low, min(number, high))
    return default


def _unknown_value_message(facet: str, value: str, taxonomy: Taxonomy) -> str:
    known = [term.id for term in taxonomy.terms(facet)]
    close = difflib.get_close_matches(value, known, n=3)
    hint_en = f"did you mean {', '.join(close)}?" if close else "`kubegap facets` lists the values"
    hint_ko = "`kubegap facets`로 값을 볼 수 있습니다"
    if close:  # no particle after a value whose reading cannot be known
        hint_ko = "혹시 " + ", ".join(close) + ("인가요?" if len(close) == 1 else " 중 하나인가요?")
    return message(
        "{facet_ko}에 없는 값입니다: {value}. {hint_ko}",
        "unknown {facet} value {value}; {hint_en}",
        facet=facet,
        facet_ko=label(f"facet.{facet}", "ko"),
        value=repr(value[:60]),
        hint_ko=hint_ko,
        hint_en=hint_en,
    )


__all__ = [
    "DEFAULT_PER_PAGE",
    "FACETS",
    "LIBRARY_FACETS",
    "MAX_PER_PAGE",
    "MAX_QUERY_CHARS",
    "SORTS",
    "FacetValue",
    "SearchHit",
    "SearchQuery",
    "SearchResult",
    "SimilarIncident",
    "Sort",
]
