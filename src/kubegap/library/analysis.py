"""How text becomes index terms: Korean lemmas from Kiwi, Latin words kept whole and stemmed.

Both the index and every query pass through `text_tokens`, so a word is found however it is inflected:

    노드가 네트워크에서 떨어져 끊겼다  ->  노드 · 네트워크 · 떨어지다 · 끊기다
    restarted systemd-networkd        ->  restart · systemd-networkd (whole) · systemd · networkd

Korean runs go to Kiwi (see korean.py). Everything that is not Hangul (English, NCCL, Xid 79,
kube-apiserver) is split into letter/digit words, casefolded, English words stemmed with Snowball
(`restarted` -> `restart`); a hyphen-, dot- or underscore-joined word is also kept whole, so
`kube-apiserver` finds itself first and `apiserver` still finds it. English stop words and Korean
function lemmas (하다, 되다, 것...) are dropped; what is left are the content words a search ranks on.

Every token has a position; a compound or a joined word shares the position of its first part. Pairs
of content words at most two positions apart are indexed too (`pair_term`), which is how the ranking
rewards words that stand together (phrase proximity) without storing positions.

`Vocabulary` is the corpus's own record of how each Korean word was analysed in context; a query
word the corpus uses is looked up there (fast, and consistent with the index), and only the others
need Kiwi.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

from kubegap.library import korean, word_cache
from kubegap.library.word_cache import ChunkAnalysis

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")
_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}
_FULL_WIDTH_CHARACTER = re.compile("[\uff01-\uff5e]")
_CHUNK = re.compile(r"\S+")
_LETTERS = r"[^\W_\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]"
_LATIN_WORD = re.compile(_LETTERS + "+")
# A joined word starts only where a run of letters starts (the look-behind), and its runs never give
# letters back (possessive): without both, a long run with no separator is tried from every position.
_LATIN_JOINED = re.compile(f"(?<!{_LETTERS}){_LETTERS}++(?:[-_.]{_LETTERS}++)+")
_DIGIT = re.compile(r"[0-9]")
_STOPWORD_TEXT = """
a an the of in on at to for from by and or not no nor is are was were be been being it its this that these
those with as why how what when where which who whom whose did does do doing done after during into
over under about than then so if but because while can could would should will shall may might must
has have had having i me my we our us you your he she they them their there here any some such very
just also only still again keep keeps kept get gets got getting one ones
"""
ENGLISH_STOPWORDS = frozenset(_STOPWORD_TEXT.split())
MAX_QUERY_TOKENS = 40
PAIR_WINDOW = 2


def clean_text(text: str) -> str:
    """NFC (macOS sends Hangul decomposed), ASCII for full-width Latin, no control characters or lone
    surrogates, single spaces."""
    text = _CONTROL.sub(" ", text)
    if _FULL_WIDTH_CHARACTER.search(text):
        text = text.translate(_FULL_WIDTH)
    return " ".join(unicodedata.normalize("NFC", text).split())


@dataclass(frozen=True, slots=True)
class Token:
    """One index term as it occurs in a text: the term, the words as written, and its position."""

    term: str
    surface: str
    position: int
    whole: bool = False  # a compound or joined word over parts that are tokens of their own
    start: int = 0  # where the surface is written in the cleaned text


def pair_term(first: str, second: str) -> str:
    """The index term of two content words standing close together, in either order."""
    low, high = sorted((first, second))
    return f"{low}~{high}"


@lru_cache(maxsize=65536)
def latin_term(word: str) -> str | None:
    """`Restarted` -> `restart`, `NCCL` -> `nccl`, `79` -> `79`; None for a stop word."""
    folded = word.casefold()
    if folded in ENGLISH_STOPWORDS:
        return None
    if folded.isascii() and folded.isalpha() and len(folded) > 3:
        return _stem(folded)
    return folded


def _stemmer() -> Callable[[str], str]:
    from kubegap.library import stemmer

    return stemmer.english()


def _stem(word: str) -> str:
    return _stemmer()(word)


Lookup = Callable[[list[str]], dict[str, ChunkAnalysis]]


def chunk_key(chunk: str) -> str:
    return _DIGIT.sub("0", chunk)


def _korean_morphs(text: str, lookup: Lookup | None) -> list[korean.Morph]:
    """Korean morphemes of a text. On the query side (`lookup` given) each Korean word comes from the
    corpus vocabulary, else from the per-user word cache, else from Kiwi, whose answer is then kept.
    A particle written apart from its word (`DNS 가`) is no word of its own and gives nothing."""
    found = [match for match in _CHUNK.finditer(text) if korean.HANGUL.search(match.group())]
    chunks = [match for match in found if match.group() not in korean.LONE_PARTICLES]
    if not chunks:
        return []
    if lookup is None:
        lone = [match for match in found if match.group() in korean.LONE_PARTICLES]
        return [
            morph
            for morph in korean.analyse(text)
            if not any(match.start() <= morph.start < match.end() for match in lone)
        ]
    keys = [chunk_key(match.group()) for match in chunks]
    known = lookup(keys)
    unknown = [key for key in keys if key not in known]
    if unknown:
        known = {**known, **word_cache.find(unknown)}
    missing = [match for match in chunks if chunk_key(match.group()) not in known]
    if missing:
        analysed = korean.analyse(text)
        learned: dict[str, ChunkAnalysis] = {}
        for match in missing:
            learned[chunk_key(match.group())] = tuple(
                (morph.lemma, morph.start - match.start(), morph.end - match.start(), morph.compound)
                for morph in analysed
                if match.start() <= morph.start < match.end()
            )
        if korean.is_loaded():  # never remember what the rule-based fallback guessed
            word_cache.remember(learned)
        known = {**known, **learned}
    return [
        korean.Morph(lemma, match.start() + start, match.start() + end, compound)
        for match in chunks
        for lemma, start, end, compound in known[chunk_key(match.group())]
    ]


def text_tokens(text: str, lookup: Lookup | None = None, *, keep_stopwords: bool = False) -> list[Token]:
    """The tokens of a text in order (see the module docstring); `lookup` is the query-side vocabulary.
    `keep_stopwords` is for a query made of nothing else (`A`, `the who`)."""
    text = clean_text(text)
    found: list[tuple[int, bool, str, str]] = []  # (start, not whole, term, surface)
    for morph in _korean_morphs(text, lookup):
        found.append((morph.start, not morph.compound, morph.lemma, text[morph.start : morph.end]))
    for match in _LATIN_JOINED.finditer(text):
        found.append((match.start(), False, match.group().casefold(), match.group()))
    for match in _LATIN_WORD.finditer(text):
        term = latin_term(match.group()) or (match.group().casefold() if keep_stopwords else None)
        if term is not None:
            found.append((match.start(), True, term, match.group()))
    found.sort(key=lambda item: (item[0], item[1]))
    tokens: list[Token] = []
    position = 0
    for start, is_part, term, surface in found:
        if is_part:
            tokens.append(Token(term, surface, position, start=start))
            position += 1
        else:
            tokens.append(Token(term, surface, position, whole=True, start=start))
    return tokens


def pair_terms(tokens: Iterable[Token]) -> list[str]:
    """Pairs of content words at most PAIR_WINDOW positions apart (parts only, not wholes)."""
    parts = [token for token in tokens if not token.whole]
    pairs = []
    for index, token in enumerate(parts):
        for other in parts[index + 1 : index + 1 + PAIR_WINDOW]:
            if other.term != token.term:
                pairs.append(pair_term(token.term, other.term))
    return pairs


class VocabularyCollector:
    """While indexing: how each Korean word of the corpus was analysed, most frequent analysis kept."""

    def __init__(self) -> None:
        self._seen: dict[str, dict[ChunkAnalysis, int]] = {}
        self._texts: set[str] = set()
        self._words: dict[tuple[str, str], str] = {}  # (stem, tag) -> lemma, single-morpheme words

    def add(self, text: str) -> None:
        text = clean_text(text)
        key = chunk_key(text)
        if key in self._texts or not korean.HANGUL.search(text):
            return  # a text seen before (numbers aside) teaches nothing new
        self._texts.add(key)
        morphs = korean.analyse(text)
        position = 0
        for match in _CHUNK.finditer(text):
            while position < len(morphs) and morphs[position].start < match.start():
                position += 1
            chunk = match.group()
            if not korean.HANGUL.search(chunk):
                continue
            inside = position
            while inside < len(morphs) and morphs[inside].start < match.end():
                inside += 1
            analysis = tuple(
                (morph.lemma, morph.start - match.start(), morph.end - match.start(), morph.compound)
                for morph in morphs[position:inside]
            )
            counts = self._seen.setdefault(chunk_key(chunk), {})
            counts[analysis] = counts.get(analysis, 0) + 1
            for morph in morphs[position:inside]:
                if morph.tag and not morph.compound and len(morph.lemma) >= 2:
                    stem = morph.lemma[:-1] if morph.tag.startswith("V") else morph.lemma
                    self._words.setdefault((stem, morph.tag), morph.lemma)

    def add_inflections(self) -> None:
        """Common inflections of every corpus word, so a question's 끊김 or 끝나요 needs no Kiwi at
        query time. The corpus's own analysis of a written form always wins."""
        for (stem, tag), lemma in self._words.items():
            for written in korean.inflections(stem, tag):
                key = chunk_key(written)
                if key not in self._seen:
                    self._seen[key] = {((lemma, 0, len(written), False),): 1}

    def entries(self) -> Iterable[tuple[str, ChunkAnalysis]]:
        for key, counts in self._seen.items():
            yield key, max(counts, key=counts.__getitem__)
