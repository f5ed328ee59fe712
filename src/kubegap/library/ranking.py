"""Ranked retrieval: BM25F weights computed when the index is built, summed per query with numpy.

Why not FTS5's bm25: a question ORs every content word, and FTS5 scores every matching row before
it can sort, which on 10,000 incidents costs 10-20 ms for one common word. Here each index term owns
one row of `postings`: the incidents it occurs in (uint32) and its finished BM25F weight in each
(float32). A search reads the rows of its few terms and adds them into one array of scores, a few
microseconds per term, whatever the number of matches.

BM25F: a term's frequency in an incident is the sum over fields of the field's boost times its count
(a title word counts 3, a signature 2.5, the summary 2, a tag label 1.5, the rest 1); the length
normalisation uses the same weighted length. Pairs of words standing together (`analysis.pair_term`)
are terms too, so a query whose words stand together in an incident adds their pair's weight.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

FIELD_BOOSTS = {"title": 3.0, "signatures": 2.5, "summary": 2.0, "tags": 1.5, "body": 1.0}
K1 = 1.2
B = 0.5  # incidents are of similar length; a long one should not be punished much


@dataclass
class PostingsBuilder:
    """Collects weighted term frequencies per incident, then yields finished postings rows."""

    _frequencies: dict[str, tuple[array[int], array[float]]] = field(default_factory=dict)
    _lengths: dict[int, float] = field(default_factory=dict)

    def add(self, rowid: int, terms_by_field: Mapping[str, Iterable[str]], length: float) -> None:
        weighted: dict[str, float] = {}
        for field_name, terms in terms_by_field.items():
            boost = FIELD_BOOSTS[field_name]
            for term in terms:
                weighted[term] = weighted.get(term, 0.0) + boost
        for term, frequency in weighted.items():
            rows = self._frequencies.get(term)
            if rows is None:
                rows = self._frequencies[term] = (array("I"), array("f"))
            rows[0].append(rowid)
            rows[1].append(frequency)
        self._lengths[rowid] = length

    def rows(self) -> Iterable[tuple[str, bytes, bytes]]:
        """(term, rowids as uint32 bytes, BM25F weights as float32 bytes) for every term."""
        count = len(self._lengths) or 1
        average = (sum(self._lengths.values()) / count) or 1.0
        for term, (rowids, frequencies) in self._frequencies.items():
            frequency_of_docs = len(rowids)
            idf = math.log(1.0 + (count - frequency_of_docs + 0.5) / (frequency_of_docs + 0.5))
            weights = array(
                "f",
                (
                    idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * self._lengths[rowid] / average))
                    for rowid, tf in zip(rowids, frequencies, strict=True)
                ),
            )
            yield term, rowids.tobytes(), weights.tobytes()


@dataclass(frozen=True)
class Alternative:
    """One way a query word may be found: all of `terms` (a phrase), worth `factor` of their weight."""

    terms: tuple[str, ...]
    factor: float = 1.0


@dataclass(frozen=True)
class Group:
    """One word (or glossary phrase) of the reader's text and every way it may be found."""

    word: str
    alternatives: tuple[Alternative, ...]

    def terms(self) -> set[str]:
        return {term for alternative in self.alternatives for term in alternative.terms}


PAIR_BOOST = 0.6  # how much two query words standing together add, relative to a word
COVERAGE_POWER = 1.5  # score × (share of query words matched) ** this


@dataclass
class Scored:
    scores: Any  # numpy float32 array indexed by rowid; 0 = no match
    matched: Any  # numpy int array: how many groups matched per rowid
    group_count: int
    sparse: dict[str, tuple[Any, Any]]  # term -> (sorted rowids, weights) of the terms found

    def matched_terms(self, rowid: int) -> list[str]:
        """The (single-word) terms of the query this incident has."""
        import numpy as np

        found = []
        for term, (rowids, _) in self.sparse.items():
            if "~" in term:
                continue
            index = int(np.searchsorted(rowids, rowid))
            if index < len(rowids) and rowids[index] == rowid:
                found.append(term)
        return found


def score(
    groups: list[Group], pairs: list[str], postings: Mapping[str, tuple[bytes, bytes]], size: int
) -> Scored:
    """Scores of every incident for these groups and pairs; `postings` holds the rows of their terms.

    Work grows with the postings read, not with the library: a group with one way to be found (most
    words) adds its term's weights straight into the scores; only a group with alternatives (a
    compound, a glossary translation) builds a dense array to take the best of them per incident.
    """
    import numpy as np

    sparse: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for term, (rowid_bytes, weight_bytes) in postings.items():
        sparse[term] = (
            np.frombuffer(rowid_bytes, dtype=np.uint32),
            np.frombuffer(weight_bytes, dtype=np.float32),
        )

    def dense(term: str) -> np.ndarray:
        rowids, weights = sparse[term]  # only called for terms that have postings
        found = np.zeros(size + 1, dtype=np.float32)
        found[rowids] = weights
        return found

    total = np.zeros(size + 1, dtype=np.float32)
    matched = np.zeros(size + 1, dtype=np.int32)
    for group in groups:
        present = [
            alternative
            for alternative in group.alternatives
            if all(term in sparse for term in alternative.terms)
        ]
        if not present:
            continue
        if len(present) == 1 and len(present[0].terms) == 1:
            rowids, weights = sparse[present[0].terms[0]]
            total[rowids] += weights * present[0].factor
            matched[rowids] += 1
            continue
        best = np.zeros(size + 1, dtype=np.float32)
        for alternative in present:
            arrays = [dense(term) for term in alternative.terms]
            combined = arrays[0] if len(arrays) == 1 else np.minimum.reduce(arrays) * len(arrays)
            np.maximum(best, combined * alternative.factor, out=best)
        total += best
        matched += best > 0
    for pair in pairs:
        row = sparse.get(pair)
        if row is not None:
            total[row[0]] += PAIR_BOOST * row[1]
    if groups:
        share = matched.astype(np.float32) / len(groups)
        total *= share**COVERAGE_POWER
    return Scored(total, matched, len(groups), sparse)
