"""How text becomes index terms: Korean lemmas, compounds, Latin words whole and stemmed, pairs."""

from __future__ import annotations

import pytest

from kubegap.library.analysis import clean_text, pair_terms, text_tokens
from kubegap.library.glossary import AnalysedGlossary
from kubegap.library.highlight import segments
from kubegap.library.question import plan_query


def terms(text: str) -> list[str]:
    return [token.term for token in text_tokens(text)]


@pytest.mark.parametrize(
    ("written", "lemma"),
    [
        ("끊김", "끊기다"),
        ("끊겨", "끊기다"),
        ("끊긴", "끊기다"),
        ("않음", "않다"),
        ("않고", "않다"),
        ("노드가", "노드"),
    ],
)
def test_korean_inflections_share_one_lemma(written: str, lemma: str) -> None:
    assert lemma in terms(f"작업이 {written}")


def test_compound_is_kept_whole_and_split() -> None:
    found = terms("메모리오류가 났다")
    assert {"메모리오류", "메모리", "오류"} <= set(found)
    assert "재시작" in terms("노드를 재시작했다")


def test_latin_words_are_whole_stemmed_and_casefolded() -> None:
    found = terms("Restarted systemd-networkd on GPU를")
    assert found[:4] == ["restart", "systemd-networkd", "systemd", "networkd"]
    assert "gpu" in found and "on" not in found


def test_pairs_join_near_words_in_either_order() -> None:
    assert pair_terms(text_tokens("network lost")) == pair_terms(text_tokens("lost network"))


def test_clean_text_normalises_what_keyboards_send() -> None:
    assert clean_text("ＧＰＵ\x00  노드") == "GPU 노드"


def test_a_plan_merges_repeated_words() -> None:
    plan = plan_query("NCCL NCCL nccl timeout", AnalysedGlossary(), None)
    assert [group.word for group in plan.groups] == ["NCCL", "timeout"]


def test_segments_rebuild_the_text_and_mark_matches() -> None:
    pieces = segments("Routes were wiped; ROUTES gone", ["routes", "wiped"])
    assert "".join(piece for piece, _ in pieces) == "Routes were wiped; ROUTES gone"
    assert [piece for piece, matched in pieces if matched] == ["Routes", "wiped", "ROUTES"]
    assert segments("", ["x"]) == [] and segments("abc", []) == [("abc", False)]


@pytest.mark.parametrize(
    "text", ["DNS 가 갑자기 다 죽었어요", "GPU 가 자꾸 unhealthy 로 떠요", "NCCL 이 안 붙어요"]
)
def test_a_particle_written_apart_from_its_word_is_no_word(text: str) -> None:
    # Chat lines often space the particle after a Latin word; Kiwi then reads 가 as a noun or as 가다,
    # which would rank reports on a syllable the reader never meant.
    def knows_nothing(words: list[str]) -> dict[str, tuple[tuple[str, int, int, bool], ...]]:
        return {}

    for found in (terms(text), [token.term for token in text_tokens(text, knows_nothing)]):
        assert not {"가", "가다", "로", "이"} & set(found)
    assert "죽다" in terms("DNS 가 갑자기 다 죽었어요")
