"""Turn what a reader typed into an FTS5 MATCH expression. Their text never reaches FTS5 as syntax.

Each query word becomes a quoted term (see `analysis.word_term`), so `"`, `*`, `-`, `:`, `NEAR(`,
`AND`, `OR` and SQL fragments are just characters of a word, or dropped when they are not letters or
digits. Words are combined with AND. Where a word or phrase is in the glossary, that spot becomes
(the reader's own words) OR (each glossary form of it), so `재시작 NCCL` means
(재시작 OR restart) AND NCCL.
"""

from __future__ import annotations

from kubegap.library.analysis import query_words, word_term
from kubegap.library.glossary import Glossary

RELAXED_MAX_GROUPS = 8  # a relaxed retry ORs at most this many words, in the order they were typed


def _conjunction(words: list[str]) -> str | None:
    """Every word must match; words with nothing searchable in them (emoji, punctuation) are skipped."""
    terms: list[str] = []
    for word in words:
        term = word_term(word)
        if term is not None and term.fts() not in terms:
            terms.append(term.fts())
    if not terms:
        return None
    return terms[0] if len(terms) == 1 else "(" + " AND ".join(terms) + ")"


def match_expression(text: str, glossary: Glossary | None = None, *, any_group: bool = False) -> str | None:
    """The MATCH expression for a query, or None when nothing in it can be searched.

    `any_group` joins the word groups with OR instead of AND: the relaxed second try for a long pasted
    text (a log excerpt, a paragraph) that no incident matches word for word.
    """
    words = query_words(text)
    if any_group:
        # Ids, timestamps, counters and tiny words carry no meaning a report could share.
        words = [word for word in words if len(word) >= 3 and not any(char.isdigit() for char in word)]
    glossary = glossary or Glossary()
    groups: list[str] = []
    position = 0
    while position < len(words):
        length, forms = glossary.match(words, position)
        own_words = words[position : position + max(length, 1)]
        alternatives: list[str] = []
        for candidate in [own_words, *(form.split() for form in forms)]:
            expression = _conjunction(candidate)
            if expression is not None and expression not in alternatives:
                alternatives.append(expression)
        if alternatives:
            group = alternatives[0] if len(alternatives) == 1 else "(" + " OR ".join(alternatives) + ")"
            if group not in groups:
                groups.append(group)
        position += max(length, 1)
    if not groups:
        return None
    if any_group:
        return " OR ".join(groups[:RELAXED_MAX_GROUPS])
    return " AND ".join(groups)


def group_count(text: str) -> int:
    """How many separately searched words a text has (glossary phrases count once): long texts get a
    relaxed retry when nothing matches them all."""
    return len({term.fts() for word in query_words(text) if (term := word_term(word)) is not None})
