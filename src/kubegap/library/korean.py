"""Korean morphology with Kiwi: the dictionary words (lemmas) a run of Korean text is made of.

Korean glues particles and endings to its words, so the same verb is written 끊김, 끊겨, 끊긴 and the
same noun 노드가, 노드를. Kiwi (`kiwipiepy`, whose model ships as a PyPI package and works offline)
splits a text into morphemes with their part of speech; we keep the content ones and name each by its
lemma: nouns as written (`노드`), verbs and adjectives with the dictionary ending `다` (`끊기다`,
`않다`). A prefix or a run of nouns inside one word also yields the whole compound (`재시작` from
재 + 시작, `메모리오류` from 메모리 + 오류), so a reader who writes it either way finds it.

Why lazily: building the analyser reads a 75 MB model and costs about a second, more than a warm CLI
search may take. The index therefore stores every Korean word of the corpus with its analysis (see
`analysis.VocabularyCollector`), so a query needs Kiwi only for a word the corpus never uses, and
word_cache.py remembers what Kiwi said about such a word, so each new word costs the load at most
once per user. Digits are masked before
analysis (`123대가` is analysed as `000대가`): numbers never change the morphology, and the masked text
repeats far more often, so the cache of analysed texts hits more.

When Kiwi cannot be loaded at all, a rule-based fallback strips common particles and endings, so
search degrades instead of failing.
"""

from __future__ import annotations

import logging
import re
import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

_LOG = logging.getLogger("kubegap.library")
_NOUN_TAGS = frozenset({"NNG", "NNP", "XR", "SH"})
_VERB_TAGS = frozenset({"VV", "VA", "VX"})
_COMPOUND_TAGS = _NOUN_TAGS | {"XPN"}
# Lemmas that carry no meaning a report could share with a question.
_STOP_TEXT = """
하다 되다 있다 이다 같다 그렇다 이렇다 어떻다 어떡하다 싶다 주다 보다 말다 대하다 위하다 통하다
것 수 등 때 중 더 및 후 전 왜 뭐 무엇 어디 경우 정도 이번 어떤 이 그 저
"""
KOREAN_STOP_LEMMAS = frozenset(_STOP_TEXT.split())
# Particles a chat line writes apart from the Latin word they belong to (`DNS 가 죽었어요`, `unhealthy
# 로 떠요`). Standing alone they are no word of their own: Kiwi would read 가 as the noun (edge) or as
# the verb 가다, and the search would rank reports on it.
_LONE_TEXT = "이 가 은 는 을 를 의 에 에서 에게 로 으로 와 과 랑 이랑 하고 이나 께서 부터 까지 보다"
LONE_PARTICLES = frozenset(_LONE_TEXT.split())
HANGUL = re.compile(r"[\uac00-\ud7a3]")
_DIGIT = re.compile(r"[0-9]")


@dataclass(frozen=True, slots=True)
class Morph:
    """One content morpheme: its lemma and where it is written in the analysed text."""

    lemma: str
    start: int
    end: int
    compound: bool = False  # a whole compound over morphemes that are also given one by one
    tag: str = ""  # Kiwi's part of speech (NNG, VV...), for generating inflected forms


_analyser: Any = None
_analyser_failed = False
_analyser_lock = threading.Lock()


def analyser() -> Any:
    """The process's Kiwi instance, built on first use; None when Kiwi cannot be loaded."""
    global _analyser, _analyser_failed
    if _analyser is not None or _analyser_failed:
        return _analyser
    with _analyser_lock:
        if _analyser is None and not _analyser_failed:
            try:
                from kiwipiepy import Kiwi

                kiwi = Kiwi(num_workers=-1, load_typo_dict=False, load_multi_dict=False)
                kiwi.tokenize("준비")  # the first call loads the language model; pay for it here
                _analyser = kiwi
            except Exception as error:  # a missing or broken model must not break search
                _LOG.warning("Korean analyser unavailable, using simple ending rules: %s", error)
                _analyser_failed = True
    return _analyser


def is_loaded() -> bool:
    return _analyser is not None


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def analyse(text: str) -> tuple[Morph, ...]:
    """The content morphemes of a text, in order; texts without Hangul are never analysed.

    Sentence by sentence: morphology never reaches across a sentence end, and sentences repeat far
    more often than whole paragraphs, so the cache of analysed sentences hits more."""
    if not HANGUL.search(text):
        return ()
    masked = _DIGIT.sub("0", text)
    found: list[Morph] = []
    start = 0
    for end_match in [*_SENTENCE_END.finditer(masked), None]:
        end = end_match.start() if end_match is not None else len(masked)
        sentence = masked[start:end]
        if HANGUL.search(sentence):
            found += [
                Morph(morph.lemma, morph.start + start, morph.end + start, morph.compound, morph.tag)
                for morph in _analyse_masked(sentence)
            ]
        if end_match is not None:
            start = end_match.end()
    return tuple(found)


@lru_cache(maxsize=65536)
def _analyse_masked(text: str) -> tuple[Morph, ...]:
    kiwi = analyser()
    if kiwi is None:
        return fallback_analyse(text)
    try:
        tokens = kiwi.tokenize(text)
    except Exception:  # Kiwi rejects nothing we know of; if it ever does, degrade
        return fallback_analyse(text)
    return _content_morphs([(token.form, str(token.tag), token.start, token.len) for token in tokens], text)


def _content_morphs(tokens: list[tuple[str, str, int, int]], text: str) -> tuple[Morph, ...]:
    """Content morphemes, plus the whole compound for prefix/noun runs written without a space."""
    found: list[Morph] = []
    run: list[tuple[str, str, int, int]] = []

    def close_run() -> None:
        nouns = [item for item in run if item[1] in _NOUN_TAGS]
        if len(run) > 1 and nouns:
            start, end = run[0][2], run[-1][2] + run[-1][3]
            whole = text[start:end]
            if HANGUL.search(whole) and len(whole) >= 2:
                found.append(Morph(whole, start, end, compound=True))
        run.clear()

    for form, tag, start, length in tokens:
        tag = tag.split("-")[0]  # VV-R / VV-I (regular / irregular) are still verbs
        contiguous = bool(run) and run[-1][2] + run[-1][3] == start
        if tag in _COMPOUND_TAGS and (not run or contiguous):
            run.append((form, tag, start, length))
        else:
            close_run()
            if tag in _COMPOUND_TAGS:
                run.append((form, tag, start, length))
        if tag in _NOUN_TAGS and HANGUL.search(form):
            found.append(Morph(form, start, start + length, tag=tag))
        elif tag in _VERB_TAGS and HANGUL.search(form):
            found.append(Morph(form + "다", start, start + length, tag=tag))
    close_run()
    found.sort(key=lambda morph: (morph.start, not morph.compound))
    return tuple(morph for morph in found if morph.lemma not in KOREAN_STOP_LEMMAS)


# Endings a question or a chat line puts on a verb (끊김, 끊겨요, 멈췄는데, 끝나나요...) and particles
# on a noun: `inflections` joins them to the corpus's own words when the index is built.
_VERB_ENDINGS: tuple[tuple[tuple[str, str], ...], ...] = (
    (("ᆷ", "ETN"),), (("어", "EC"),), (("어요", "EF"),), (("었", "EP"), ("어요", "EF")),
    (("었", "EP"), ("는데", "EC")), (("는데", "EC"),), (("지", "EC"),), (("고", "EC"),),
    (("ᆫ", "ETM"),), (("는", "ETM"),), (("었", "EP"), ("다", "EF")), (("어서", "EC"),),
    (("나요", "EF"),), (("었", "EP"), ("나요", "EF")), (("음", "ETN"),), (("기", "ETN"),),
    (("어", "EC"), ("요", "JX")), (("면", "EC"),), (("었", "EP"), ("음", "ETN")),
)  # fmt: skip
_NOUN_PARTICLES: tuple[tuple[str, str], ...] = (
    ("이", "JKS"), ("을", "JKO"), ("은", "JX"), ("에", "JKB"), ("에서", "JKB"), ("도", "JX"),
    ("으로", "JKB"), ("의", "JKG"), ("이랑", "JKB"), ("만", "JX"),
)  # fmt: skip


def inflections(stem: str, tag: str) -> list[str]:
    """Written forms of a corpus word a reader may type that the corpus itself never uses: a verb stem
    with common endings, a noun with common particles. Empty without Kiwi (nothing is guessed)."""
    kiwi = analyser()
    if kiwi is None:
        return []
    endings = _VERB_ENDINGS if tag in _VERB_TAGS else tuple((particle,) for particle in _NOUN_PARTICLES)
    found = []
    for ending in endings:
        try:
            written = kiwi.join([(stem, tag), *ending])
        except Exception:  # a combination Kiwi cannot join is simply not offered
            continue
        if written and " " not in written and HANGUL.fullmatch(written[-1]):
            found.append(written)
    return found


# Particles and endings that may close a Korean word, longest first (the fallback only).
_ENDINGS = (
    "에서는", "으로는", "이었다", "했는데", "되었다", "하였다", "었다", "였다", "졌다", "지만", "면서",
    "에서", "에게", "으로", "까지", "부터", "처럼", "보다", "이나", "하고", "했다", "한다", "하는", "해서",
    "하면", "됐다", "된다", "되는", "되어", "이다", "이고", "에는", "에도", "로는", "와는",
    "가", "이", "을", "를", "은", "는", "에", "의", "로", "와", "과", "도", "만", "된", "한", "들", "다",
    "고", "며",
)  # fmt: skip
_HANGUL_RUN = re.compile(r"[\uac00-\ud7a3]+")


def strip_ending(run: str) -> str:
    """`노드가` -> `노드`, `재시작했다` -> `재시작`; keeps at least two syllables."""
    for ending in _ENDINGS:
        if run.endswith(ending) and len(run) - len(ending) >= 2:
            return run[: -len(ending)]
    return run


def fallback_analyse(text: str) -> tuple[Morph, ...]:
    """Without Kiwi: each Hangul run with a trailing particle or ending cut off."""
    found = []
    for match in _HANGUL_RUN.finditer(text):
        stem = strip_ending(match.group())
        if stem not in KOREAN_STOP_LEMMAS:
            found.append(Morph(stem, match.start(), match.start() + len(stem)))
    return tuple(found)
