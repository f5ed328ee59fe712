"""A check's title reads right whatever its verdict: it names what is checked, never asserts the gap.

Reports print the title beside `pass` as well as beside `fail`. "GPU nodes without a GPU health
agent" beside `pass` tells a reader the gap is there; "GPU health agent on GPU nodes" reads right
either way. The words below assert a gap (or its absence) in English and Korean; a title holding one
reads wrong under one of the verdicts.
"""

from __future__ import annotations

import re

import pytest

from kubegap.checker.registry import all_checks

_GAP_WORDS_EN = re.compile(
    r"\b(without|no|not|never|nothing|missing|disabled|too|fails?(?!-closed)|failed|cannot|can't|does|differ|"
    r"bypass(es)?|pile|drift|exhausted|stuck|broken|pinned|may|takes)\b",
    re.IGNORECASE,
)
_GAP_WORDS_KO = re.compile(
    r"(없음|없는|없이|없어|않음|않는|않아|꺼져|꺼졌|너무|못함|못하|아님|실패함|쌓임|제각각|다름|단일 장애점)"
)


def test_the_word_lists_catch_the_titles_this_rule_replaced() -> None:
    for english in (
        "GPU nodes without a GPU health agent",
        "Device-plugin GPU health checks disabled",
        "Finished Jobs pile up without ttlSecondsAfterFinished",
        "Cluster DNS is a single point of failure",
    ):
        assert _GAP_WORDS_EN.search(english) or "single point" in english, english
    for korean in (
        "GPU 상태 감시 에이전트가 없는 GPU 노드",
        "NCCL 비동기 오류 처리가 꺼져 있음",
        "클러스터 DNS가 단일 장애점임",
    ):
        assert _GAP_WORDS_KO.search(korean), korean


@pytest.mark.parametrize("check", all_checks(), ids=lambda check: check.id)
def test_titles_name_what_is_checked_not_the_gap(check: object) -> None:
    meta = check.meta  # type: ignore[attr-defined]
    assert not _GAP_WORDS_EN.search(meta.title.en), meta.title.en
    assert "single point" not in meta.title.en.lower(), meta.title.en
    assert not _GAP_WORDS_KO.search(meta.title.ko), meta.title.ko
