"""Which incidents a search text matches: FTS5 on the words, plus any error signature the text contains.

The two are united: a pasted log line rarely matches as words (every word must occur), but it does
contain a signature. Signature matches rank above every bm25 score, since they are the strongest
evidence a reader can give.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

from kubegap.library import bitsets, signatures, sql
from kubegap.library.fts import group_count, match_expression
from kubegap.library.glossary import Glossary

Runner = Callable[[sql.Statement], list[tuple]]

# A text of at least this many words that matches no incident word for word is retried with any word
# matching, ranked by bm25; shorter texts keep their strict meaning (two words mean both words).
RELAXED_FROM_WORDS = 5
RELAXED_MAX_RANKED = 2_000


@dataclass(frozen=True)
class TextMatches:
    mask: int  # bit set of matching rowids
    ranked: list[int]  # when scored: matching rowids, signature matches first, then best bm25 first
    scores: dict[int, float]  # bm25 (lower is better) or SIGNATURE_SCORE; empty when not scored
    signatures: dict[int, list[str]]  # rowid -> the signatures the text contains
    relaxed: bool = False  # no incident had every word: these match some of them, best first


def match_text(
    run: Runner,
    text: str,
    glossary: Glossary,
    *,
    scored: bool,
    size: int,
    facet_clause: str | None = None,
    allowed: int = -1,
) -> TextMatches:
    """Incidents matching the text, best first when `scored`; `size` is the highest rowid.

    `facet_clause` (facet tokens, see index.facet_token) and `allowed` (the same filters as a bit set)
    narrow the matches inside FTS5 itself, so bm25 is computed, and rows are handed to Python, only
    for incidents that pass them.
    """
    rows = _fts_rows(run, match_expression(text, glossary), facet_clause, scored=scored)
    found: dict[int, list[str]] = {}
    pasted = signatures.words(text)
    if pasted:
        for rowid, signature_text, pattern in run(sql.signature_candidates(pasted)):
            if allowed >> rowid & 1 and signatures.occurs_in(pattern.split(" "), pasted):
                found.setdefault(rowid, []).append(signature_text)
    relaxed = False
    if not rows and not found and group_count(text) >= RELAXED_FROM_WORDS:
        relaxed_match = match_expression(text, glossary, any_group=True)
        rows, relaxed = _relaxed_rows(run, relaxed_match, facet_clause)
        scored = scored or relaxed
    mask = bitsets.mask_of([*found, *(row[0] for row in rows)], size)
    if not scored:
        return TextMatches(mask, [], {}, found)  # newest/oldest pages walk the bit set instead
    scores: dict[int, float] = dict(rows)
    scores.update(dict.fromkeys(found, sql.SIGNATURE_SCORE))
    ranked = [*sorted(found, reverse=True), *(row[0] for row in rows if row[0] not in found)]
    return TextMatches(mask, ranked, scores, found, relaxed)


class TextSets:
    """What a text matches over the whole library, to answer "how many results with these filters?"
    for any filter set without another query: the facet counts that say what a click would give.

    It replays match_text's rule with bit sets: the strict matches (every word, or a signature) inside
    the filters, else, for a long text, the relaxed matches inside them when there are 1 to
    RELAXED_MAX_RANKED of them. The relaxed set is read only when some filter set needs it.
    """

    def __init__(
        self, run: Runner, text: str, glossary: Glossary, size: int, unfiltered: TextMatches | None = None
    ) -> None:
        """`unfiltered`: the matches of a search without filters, when there was one; they already are
        the strict set (or the relaxed one), so no query runs again."""
        self._run, self._text, self._glossary, self._size = run, text, glossary, size
        self._may_relax = group_count(text) >= RELAXED_FROM_WORDS
        self._relaxed: int | None = None
        if unfiltered is not None:
            self.strict = 0 if unfiltered.relaxed else unfiltered.mask
            if unfiltered.relaxed:
                self._relaxed = unfiltered.mask
            return
        rows = _fts_rows(run, match_expression(text, glossary), None, scored=False)
        pasted = signatures.words(text)
        found = []
        if pasted:
            for rowid, _, pattern in run(sql.signature_candidates(pasted)):
                if signatures.occurs_in(pattern.split(" "), pasted):
                    found.append(rowid)
        self.strict = bitsets.mask_of([*found, *(row[0] for row in rows)], size)

    def within(self, allowed: int) -> int:
        """The incidents a search for this text gives when the filters allow exactly `allowed`."""
        strict = self.strict & allowed
        if strict or not self._may_relax:
            return strict
        if self._relaxed is None:
            match = match_expression(self._text, self._glossary, any_group=True)
            rows = _fts_rows(self._run, match, None, scored=False)
            self._relaxed = bitsets.mask_of((row[0] for row in rows), self._size)
        relaxed = self._relaxed & allowed
        return relaxed if relaxed.bit_count() <= RELAXED_MAX_RANKED else 0


def _relaxed_rows(run: Runner, match: str | None, facet_clause: str | None) -> tuple[list[tuple], bool]:
    """Incidents sharing any word, best first; none when more than RELAXED_MAX_RANKED share one (such a
    broad match says little about the text, and ranking thousands of rows is what makes a search slow)."""
    unranked = _fts_rows(run, match, facet_clause, scored=False)
    if not unranked or len(unranked) > RELAXED_MAX_RANKED:
        return [], False
    return _fts_rows(run, match, facet_clause, scored=True), True


def _fts_rows(run: Runner, match: str | None, facet_clause: str | None, *, scored: bool) -> list[tuple]:
    if match is None:
        return []
    if facet_clause:
        # No column filter on the text part: it costs a position-list check per row, and the only
        # words in the `facets` column are tokens like `kgf1t12` that no reader types by chance.
        match = f"({match}) AND {facet_clause}"
    try:
        return run(sql.text_matches(match, scored=scored))
    except sqlite3.OperationalError:
        # fts.py quotes every word, so FTS5 should never reject an expression; if it still does,
        # the text matches nothing rather than failing the page.
        return []
