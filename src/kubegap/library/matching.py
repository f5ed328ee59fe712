"""Which incidents a search text matches, best first: ranked words, error signatures, the error catalog.

Three kinds of evidence are united:

1. ranked words (question.py, ranking.py): any content word matches; BM25F with field boosts, word
   pairs and the share of the reader's words an incident has decide the order;
2. an error signature an incident quotes, found inside the pasted text (knowledge/error_text.py):
   ranks first, since it is the strongest evidence a reader can give;
3. an error-catalog entry whose pattern the text contains (`Xid 79`, `NCCL WARN ... timeout`): the
   incidents the entry links rank right after exact signatures.

Which incidents count as results: every one with a signature or catalog match, every one with all
of the reader's content words, and those with some of them that score at least `PARTIAL_FLOOR` of
the best word score. A question ranks every incident that shares a word with it, but "how many
results" and the facet and recurring-component panels describe the incidents that answer it, not
the hundreds that share one common word (`GPU`, `training`).

Facet filters are applied afterwards on bit sets, so one scoring serves every filter combination.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from kubegap.knowledge.error_model import ErrorEntry
from kubegap.knowledge.error_text import match_errors, occurs_in
from kubegap.knowledge.error_text import words as error_words
from kubegap.library import bitsets, ranking, sql
from kubegap.library.analysis import Lookup
from kubegap.library.glossary import AnalysedGlossary
from kubegap.library.question import QueryPlan, plan_query

Runner = Callable[[sql.Statement], list[tuple]]

SIGNATURE_BONUS = 1_000_000.0
CATALOG_BONUS = 100_000.0
# An incident with only some of the reader's words is a result when its score is at least this share
# of the best word score (bench/eval_search.py: keeps every relevant incident of the judged top fives).
PARTIAL_FLOOR = 0.1


@dataclass(frozen=True)
class TextMatches:
    mask: int  # bit set of matching rowids
    signatures: dict[int, list[str]]  # rowid -> the signatures the text contains
    full_mask: int = 0  # incidents that have every word of the text (or a signature / catalog match)
    relaxed: bool = False  # no incident has every word: these have some of them, best first
    errors: tuple[str, ...] = ()  # catalog entry ids whose patterns the text contains
    words: tuple[str, ...] = ()  # the reader's content words, as typed
    scored: Any = None  # ranking.Scored, for per-hit scores, shares and matched terms
    final: Any = None  # numpy array of final scores by rowid

    def best(self, allowed: int, offset: int, limit: int) -> list[int]:
        """Rowids `offset` to `offset + limit` of the matches in `allowed` (a bit set), best first,
        ties newest first. Only the top `offset + limit` are ever sorted, whatever the match count."""
        import numpy as np

        if self.final is None or limit <= 0:
            return []
        size = len(self.final) - 1
        members = np.frombuffer(allowed.to_bytes(size // 8 + 1, "little"), dtype=np.uint8)
        flags = np.unpackbits(members, bitorder="little")[: size + 1].astype(bool)
        candidates = np.flatnonzero(flags & (self.final > 0))
        wanted = offset + limit
        if len(candidates) > wanted:
            scores = self.final[candidates]
            # Everything scoring at least the wanted-th best score, so ties at the edge sort by rowid.
            edge = np.partition(scores, len(scores) - wanted)[len(scores) - wanted]
            candidates = candidates[scores >= edge]
        order = np.lexsort((-candidates.astype(np.int64), -self.final[candidates]))
        return [int(rowid) for rowid in candidates[order][offset:wanted]]

    def score(self, rowid: int) -> float:
        return float(self.final[rowid]) if self.final is not None else 0.0

    def share(self, rowid: int) -> float:
        """The share of the reader's words this incident has (1.0 for a signature or catalog match)."""
        if self.scored is None or not self.scored.group_count:
            return 1.0 if rowid in self.signatures else 0.0
        return float(self.scored.matched[rowid]) / self.scored.group_count

    def terms_of(self, rowid: int) -> list[str]:
        """The query's single-word index terms this incident has."""
        return self.scored.matched_terms(rowid) if self.scored is not None else []

    @staticmethod
    def written(terms: list[str], forms: dict[str, list[str]]) -> tuple[str, ...]:
        """The written forms of these terms, longest first, for highlighting."""
        found: dict[str, None] = {}
        for term in terms:
            found.update(dict.fromkeys(forms.get(term, ())))
        return tuple(sorted(found, key=lambda text: (-len(text), text)))


EMPTY = TextMatches(0, {})


def match_text(
    run: Runner,
    text: str,
    glossary: AnalysedGlossary,
    lookup: Lookup,
    *,
    size: int,
    catalog: Iterable[ErrorEntry],
    error_incidents: Callable[[list[str]], list[int]],
) -> TextMatches:
    """Incidents matching the text, best first; `size` is the highest rowid."""

    plan = plan_query(text, glossary, lookup)
    postings = _postings(run, plan)
    scored = ranking.score(list(plan.groups), list(plan.pairs), postings, size)
    final = scored.scores.copy()
    found: dict[int, list[str]] = {}
    pasted = error_words(text)
    if pasted:
        for rowid, signature_text, pattern in run(sql.signature_candidates(pasted)):
            if occurs_in(pattern.split(" "), pasted):
                found.setdefault(rowid, []).append(signature_text)
    errors = tuple(match.entry.id for match in match_errors(text, catalog))
    for rowid in found:
        final[rowid] += SIGNATURE_BONUS
    for rowid in error_incidents(list(errors)):
        final[rowid] += CATALOG_BONUS
    complete = (scored.matched >= max(1, scored.group_count)) & (final > 0)
    strong = final >= CATALOG_BONUS
    floor = PARTIAL_FLOOR * float(scored.scores.max()) if len(scored.scores) else 0.0
    matching = (final > 0) & (complete | strong | (scored.scores >= floor))
    if not matching.any():
        return TextMatches(0, {}, words=plan.words, scored=scored, final=final)
    final = final * matching  # a rowid below the floor is no result: `best` never lists it
    mask = _mask(matching, size)
    full_mask = _mask(complete | strong, size)
    relaxed = scored.group_count > 1 and not full_mask
    return TextMatches(mask, found, full_mask, relaxed, errors, plan.words, scored, final)


def _postings(run: Runner, plan: QueryPlan) -> dict[str, tuple[bytes, bytes]]:
    terms = plan.terms()
    if not terms:
        return {}
    rows = run(sql.postings(terms))
    return {term: (rowids, weights) for term, rowids, weights in rows}


def _mask(flags: Any, size: int) -> int:
    """A numpy bool array by rowid as the library's bit-set integer."""
    import numpy as np

    packed = np.packbits(flags.astype(np.uint8), bitorder="little").tobytes()
    return int.from_bytes(packed, "little") & ((1 << (size + 1)) - 1)


def decode_forms(rows: list[tuple[str, str]]) -> dict[str, list[str]]:
    return {term: json.loads(forms) for term, forms in rows}


__all__ = ["EMPTY", "TextMatches", "bitsets", "match_text"]
