"""What a reader's text asks for, in index terms: one group per content word, plus word pairs.

Every content word is a signal: an incident that has any of them matches, and ranking decides the
order (see ranking.py). A group holds every way its word may be found, each with how much it counts:

- the word's own term (`끊기다`, `restart`): 1.0;
- the whole compound or joined word it is part of (`재시작`, `systemd-networkd`): 1.0;
- the forms of a glossary entry the word or phrase names (`network` for 네트워크, `fallen off the bus`
  for 버스 이탈): 0.8, since a translation is weaker evidence than the reader's own word.

Pairs of query words standing close together become pair terms, rewarding incidents where the same
words stand together too. A query never reaches SQL as syntax: terms are looked up as values.
"""

from __future__ import annotations

from dataclasses import dataclass

from kubegap.library.analysis import MAX_QUERY_TOKENS, Lookup, Token, pair_terms, text_tokens
from kubegap.library.glossary import MAX_PHRASE_WORDS, AnalysedGlossary
from kubegap.library.ranking import Alternative, Group

GLOSSARY_FACTOR = 0.8


@dataclass(frozen=True)
class QueryPlan:
    groups: tuple[Group, ...]
    pairs: tuple[str, ...]

    def terms(self) -> list[str]:
        """Every term the plan reads, each once (pairs included)."""
        found: dict[str, None] = {}
        for group in self.groups:
            found.update(dict.fromkeys(sorted(group.terms())))
        found.update(dict.fromkeys(self.pairs))
        return list(found)

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(group.word for group in self.groups)


def plan_query(text: str, glossary: AnalysedGlossary, lookup: Lookup | None) -> QueryPlan:
    """The groups and pairs of a text; empty when nothing in it is searchable (emoji, punctuation)."""
    tokens = text_tokens(text, lookup) or text_tokens(text, lookup, keep_stopwords=True)
    parts = [token for token in tokens if not token.whole][:MAX_QUERY_TOKENS]
    if not parts:
        return QueryPlan((), ())
    last_position = parts[-1].position
    wholes = [token for token in tokens if token.whole and token.position <= last_position]
    alternatives: list[dict[tuple[str, ...], float]] = [{(token.term,): 1.0} for token in parts]
    words = [token.surface for token in parts]
    index_of = {token.position: index for index, token in enumerate(parts)}
    for whole in wholes:
        index = index_of.get(whole.position)
        if index is not None:
            alternatives[index][(whole.term,)] = 1.0
            _add_glossary(alternatives[index], glossary.entry_forms((whole.term,)), (whole.term,))
    _expand_phrases(parts, alternatives, glossary)
    merged = _merge_duplicates(words, alternatives)
    groups = tuple(
        Group(word, tuple(Alternative(terms, factor) for terms, factor in options.items()))
        for word, options in merged
    )
    return QueryPlan(groups, tuple(dict.fromkeys(pair_terms(parts))))


def _expand_phrases(
    parts: list[Token], alternatives: list[dict[tuple[str, ...], float]], glossary: AnalysedGlossary
) -> None:
    """Longest glossary phrase first at each word; its forms join the groups of every word it spans."""
    index = 0
    while index < len(parts):
        for length in range(min(MAX_PHRASE_WORDS, len(parts) - index), 0, -1):
            key = tuple(token.term for token in parts[index : index + length])
            forms = glossary.entry_forms(key)
            if forms:
                for spanned in range(index, index + length):
                    _add_glossary(alternatives[spanned], forms, key)
                index += length
                break
        else:
            index += 1


def _add_glossary(
    options: dict[tuple[str, ...], float], forms: tuple[tuple[str, ...], ...], own: tuple[str, ...]
) -> None:
    for form in forms:
        if form != own and form not in options:
            options[form] = GLOSSARY_FACTOR


def _merge_duplicates(
    words: list[str], alternatives: list[dict[tuple[str, ...], float]]
) -> list[tuple[str, dict[tuple[str, ...], float]]]:
    """A word typed twice is one signal, not two (a pasted log repeats `NCCL` ten times)."""
    merged: dict[tuple[str, ...], tuple[str, dict[tuple[str, ...], float]]] = {}
    for word, options in zip(words, alternatives, strict=True):
        own = next(iter(options))
        if own in merged:
            merged[own][1].update({key: value for key, value in options.items() if key not in merged[own][1]})
        else:
            merged[own] = (word, dict(options))
    return list(merged.values())
