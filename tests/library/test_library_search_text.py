"""Searching the fixture library in Korean, English, across languages and with pasted log lines."""

from __future__ import annotations

import pytest
from library_helpers import ALPHA, BRAVO, CHARLIE, DELTA, FOXTROT, ids, search

from kubegap.library import Library
from kubegap.library.glossary import Glossary


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("노드", {CHARLIE, DELTA}),  # 노드가 / 노드를 (and delta's tag label 노드 이탈)
        ("노드가", {CHARLIE, DELTA}),
        ("노드를", {CHARLIE, DELTA}),
        ("재시작", {ALPHA, CHARLIE}),  # 재시작했다 / 재시작해
        ("재시작했다", {ALPHA, CHARLIE}),
        ("링크", {BRAVO}),  # two syllables
        ("체크포인트", {"echo-2025-02-checkpoint-volume-full"}),
    ],
)
def test_korean_as_written(library: Library, text: str, expected: set[str]) -> None:
    assert ids(search(library, q=text)) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("restart", {ALPHA, CHARLIE}),  # charlie says "restarted"; alpha only via 재시작
        ("Restarted", {ALPHA, CHARLIE}),
        ("KILLING", {ALPHA}),  # case and word form: "killing"
        ("flap", {BRAVO}),  # "flapping"
        ("routes wiped", {CHARLIE}),
        ("routes wiped quokka", {CHARLIE}),
    ],
)
def test_english_word_forms(library: Library, text: str, expected: set[str]) -> None:
    assert ids(search(library, q=text)) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ECC 오류", {ALPHA}),
        ("NCCL에서", {BRAVO, FOXTROT}),
        ("InfiniBand 링크", {BRAVO}),
        ("systemd-networkd 를", {CHARLIE}),
        ("all-reduce 가", {BRAVO}),
        ("Xid 79가", {FOXTROT}),
        ("xid", {FOXTROT}),
    ],
)
def test_korean_query_naming_a_technical_term(library: Library, text: str, expected: set[str]) -> None:
    assert ids(search(library, q=text)) == expected


def test_glossary_carries_korean_to_english_and_back(library: Library) -> None:
    # 멈춤 is written only in foxtrot's Korean; bravo says "hanging" in English.
    assert ids(search(library, q="멈춤")) == {BRAVO, FOXTROT}
    # alpha's English says "relaunched"; only its Korean says 재시작.
    assert ids(search(library, q="restart")) == {ALPHA, CHARLIE}
    without = Library.from_knowledge(library.knowledge)
    without.glossary = Glossary()
    assert ids(search(without, q="멈춤")) == {BRAVO, FOXTROT}  # 멈춤 and bravo's 멈췄다 are one lemma
    assert ids(search(without, q="restart")) == {CHARLIE}


LOG_LINE = (
    "2024-03-05T10:22:01.123456Z [rank12]:[E ProcessGroupNCCL.cpp:607] [Rank 12] Watchdog caught collective "
    "operation timeout: WorkNCCL(SeqNum=98765, OpType=ALLREDUCE, NumelIn=1) ran for 600412 milliseconds"
)


def test_pasted_log_line_finds_its_signature(library: Library) -> None:
    result = search(library, q=LOG_LINE)
    assert result.hits[0].incident.id == BRAVO
    assert result.hits[0].matched_signatures == ("Watchdog caught collective operation timeout",)
    assert result.query.sort == "relevance"


def test_pasted_line_with_a_different_address(library: Library) -> None:
    line = "[  812.113] NVRM: Uncorrectable ECC error at address 0x55aa10000000 on GPU 3 (pid 44121)"
    assert search(library, q=line).hits[0].incident.id == ALPHA


def test_signature_shared_by_two_incidents_ranks_them_first(library: Library) -> None:
    result = search(
        library, q="kernel: [Tue May 4 01:02:03 2021] gpu 0000:3b:00.0: GPU has fallen off the bus."
    )
    assert {hit.incident.id for hit in result.hits[:2]} == {DELTA, FOXTROT}
    assert all(hit.matched_signatures == ("GPU has fallen off the bus",) for hit in result.hits[:2])


def test_relevance_puts_title_hits_first(library: Library) -> None:
    result = search(library, q="GPU")
    assert result.query.sort == "relevance"
    scores = [hit.score for hit in result.hits]
    assert scores == sorted(scores, reverse=True)  # higher is better
    newest = search(library, q="GPU", sort="newest")
    assert [hit.incident.date for hit in newest.hits] == sorted(
        (hit.incident.date for hit in newest.hits), reverse=True
    )
    assert ids(newest) == ids(result)


def test_remembered_text_matches_give_the_same_answers(library: Library) -> None:
    fresh = Library.from_knowledge(library.knowledge)
    fresh.text_cache_size = 0
    for text in ["노드", "restart", LOG_LINE, "네트워크 끊김"]:
        for params in ({}, {"cause": "hardware-fault"}, {"sort": "newest", "per_page": 2, "page": 2}):
            cached = search(library, params, q=text)
            again = search(library, params, q=text)
            uncached = search(fresh, params, q=text)
            assert cached == again == uncached, (text, params)
    assert len(fresh._text_cache) == 0


@pytest.mark.parametrize("text", ["멈췄다", "멈췄고", "멈췄지만"])
def test_past_tense_reaches_the_stem_written_in_the_text(library: Library, text: str) -> None:
    assert ids(search(library, q=text)) == {BRAVO, FOXTROT}  # bravo: "멈췄다", foxtrot: "멈춤"
