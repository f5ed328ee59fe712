"""How text becomes searchable: Hangul as overlapping bigrams, everything else as FTS5 words.

SQLite's FTS5 has no Korean tokenizer. Its `unicode61` tokenizer would keep `노드가` (node + subject
particle) as one token, so a search for `노드` would miss it. Korean glues particles and verb endings to
the word, so we index every run of Hangul syllables as its overlapping two-syllable pieces plus the run's
last syllable on its own:

    노드가      ->  노드 드가 가
    재시작했다  ->  재시 시작 작했 했다 다
    큰          ->  큰

A query run becomes the *phrase* of its bigrams, which must appear next to each other in the index:
`노드` -> "노드" matches `노드가` and `노드를`; `재시작` -> "재시 시작" matches `재시작했다`. The lone last
syllable marks where a run ends, so "재시 시작" never matches the two words `재시 작업` (indexed
`재시 시 작업 업`). A single-syllable query `망` becomes the prefix query "망"*, which finds the syllable
anywhere: as the first half of a bigram or as a run's last syllable. We also drop common particles and
endings from the end of a query run (`노드가` -> `노드`, `재시작했다` -> `재시작`); this only ever widens a
search, because the shorter phrase is contained in the longer one.

Everything that is not Hangul (English, NCCL, Xid 79, systemd-networkd) is left to FTS5's
`porter unicode61` tokenizer, so English is case-insensitive and `restart` finds `restarted`. The same
transform is applied to Korean and English text alike, so a Korean query naming `NCCL` finds it in
either language's text.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

HANGUL_RUN = re.compile(r"[\uac00-\ud7a3]+")
# A query word splits into Hangul runs and other letter/digit runs, the way unicode61 would split it.
_PIECE = re.compile(r"(?P<hangul>[\uac00-\ud7a3]+)|(?P<other>[^\W_\uac00-\ud7a3]+)")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")

# Particles and endings that may close a Korean query word, longest first.
_KOREAN_ENDINGS = (
    "에서는", "으로는", "이었다", "했는데", "되었다", "하였다",
    "었다", "였다", "졌다", "지만", "면서", "에서", "에게", "으로", "까지", "부터", "처럼", "보다",
    "이나", "하고", "했다", "한다", "하는", "해서", "하면", "됐다", "된다", "되는", "되어", "이다",
    "이고", "에는", "에도", "로는", "와는",
    "가", "이", "을", "를", "은", "는", "에", "의", "로", "와", "과", "도", "만", "된", "한", "들",
    "다", "고", "며",
)  # fmt: skip
_STOPWORD_TEXT = """
a an the of in on at to for from by and or not no is are was were be been it its this that with as
why how what when where which who did does do after during into
"""
ENGLISH_STOPWORDS = frozenset(_STOPWORD_TEXT.split())
MAX_TERMS = 24


# Full-width Latin letters and digits (what a Korean keyboard in full-width mode types) as plain ASCII.
_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}
_FULL_WIDTH_CHARACTER = re.compile("[\uff01-\uff5e]")


def clean_text(text: str) -> str:
    """NFC (macOS sends Hangul decomposed), ASCII for full-width Latin, no control characters or lone
    surrogates, single spaces."""
    text = _CONTROL.sub(" ", text)
    if _FULL_WIDTH_CHARACTER.search(text):
        text = text.translate(_FULL_WIDTH)
    return " ".join(unicodedata.normalize("NFC", text).split())


def hangul_index_tokens(run: str) -> list[str]:
    """The index tokens of one Hangul run: its bigrams, then its last syllable alone."""
    if len(run) == 1:
        return [run]
    return [run[index : index + 2] for index in range(len(run) - 1)] + [run[-1]]


def index_text(text: str) -> str:
    """Text as stored in the FTS table: Hangul runs replaced by their tokens, the rest untouched."""
    return HANGUL_RUN.sub(_indexed_run, clean_text(text))


def _indexed_run(match: re.Match[str]) -> str:
    return _run_tokens(match.group())


@lru_cache(maxsize=65536)
def _run_tokens(run: str) -> str:
    """Korean words repeat a lot across incidents, so building their tokens once pays off on big builds."""
    return " " + " ".join(hangul_index_tokens(run)) + " "


def strip_korean_ending(run: str) -> str:
    """`노드가` -> `노드`, `재시작했다` -> `재시작`; keeps at least two syllables."""
    for ending in _KOREAN_ENDINGS:
        if run.endswith(ending) and len(run) - len(ending) >= 2:
            return run[: -len(ending)]
    return run


@dataclass(frozen=True)
class Term:
    """One word of a query as FTS5 will see it: adjacent tokens (a phrase), maybe a prefix."""

    tokens: tuple[str, ...]
    prefix: bool = False

    def fts(self) -> str:
        """The quoted FTS5 form; tokens come from `_PIECE`, so they hold no quotes, but we escape anyway."""
        quoted = '"' + " ".join(token.replace('"', '""') for token in self.tokens) + '"'
        return quoted + "*" if self.prefix else quoted


def word_term(word: str) -> Term | None:
    """Turn one whitespace-separated query word into a Term, or None when nothing in it is searchable."""
    pieces = [(match.lastgroup, match.group()) for match in _PIECE.finditer(word)]
    if not pieces:
        return None
    last_kind, last_text = pieces[-1]
    # `NCCL에서`, `GPU가`: a Hangul tail glued to a Latin word is almost always a particle.
    glued_particle = len(last_text) == 1 or last_text in _KOREAN_ENDINGS
    if len(pieces) > 1 and last_kind == "hangul" and glued_particle:
        pieces = pieces[:-1]
    tokens: list[str] = []
    for position, (kind, text) in enumerate(pieces):
        final = position == len(pieces) - 1
        if kind == "other":
            tokens.append(text.casefold())
        elif not final:
            tokens.extend(hangul_index_tokens(text))
        else:
            run = strip_korean_ending(text)
            if len(run) == 1 and len(pieces) == 1:
                return Term((run,), prefix=True)
            tokens.extend(hangul_index_tokens(run)[:-1] if len(run) > 1 else [run])
    return Term(tuple(tokens)) if tokens else None


def query_words(text: str) -> list[str]:
    """The words of a cleaned query, English stop words dropped unless nothing else is left."""
    words = clean_text(text).split()
    kept = [word for word in words if word.casefold() not in ENGLISH_STOPWORDS]
    return (kept or words)[:MAX_TERMS]
