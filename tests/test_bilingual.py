"""Bilingual messages: Korean particles fit the word before them, and a Message is its English string."""

from __future__ import annotations

import json

import orjson
import pytest

from kubegap.bilingual import Message, joined, message, render_any, with_particle


@pytest.mark.parametrize(
    ("word", "particle", "expected"),
    [
        ("GPU", "을", "GPU를"),
        ("NCCL", "를", "NCCL을"),
        ("DCGM", "이", "DCGM이"),
        ("PVC", "이", "PVC가"),
        ("노드", "이", "노드가"),
        ("파드", "은", "파드는"),
        ("Job", "을", "Job을"),
        ("JobSet", "가", "JobSet이"),
        ("DaemonSet", "는", "DaemonSet은"),
        ("Pod", "을", "Pod를"),
        ("Kueue", "이", "Kueue가"),
        ("60%", "이", "60%가"),
        ("3", "이", "3이"),
        ("2", "이", "2가"),
        ("10", "를", "10을"),
        ("1", "으로", "1로"),
        ("3", "로", "3으로"),
        ("NCCL", "으로", "NCCL로"),
        ("GPU", "으로", "GPU로"),
        ("plan", "으로", "plan으로"),
        ("'nope'", "이", "'nope'가"),
        ("라벨", "과", "라벨과"),
        ("노드", "과", "노드와"),
    ],
)
def test_particles_fit_the_word(word: str, particle: str, expected: str) -> None:
    assert with_particle(word, particle) == expected


def test_a_word_whose_sound_cannot_be_known_gets_both_forms() -> None:
    assert with_particle("a/", "을") == "a/을(를)"


def test_a_message_renders_each_language_with_its_values() -> None:
    said = message(
        "노드 {count}대가 {kind:을} 읽지 못했습니다",
        "{count} nodes could not read {kind}",
        count=3,
        kind="GPU",
    )
    assert said.render("ko") == "노드 3대가 GPU를 읽지 못했습니다"
    assert said.render("en") == "3 nodes could not read GPU"
    assert str(said) == "3 nodes could not read GPU" and said == "3 nodes could not read GPU"
    assert (
        render_any(said, "ko") == "노드 3대가 GPU를 읽지 못했습니다" and render_any("plain", "ko") == "plain"
    )


def test_a_message_is_serialised_as_its_english_sentence() -> None:
    said = message("{count}개", "{count} items", count=5000)
    assert orjson.loads(orjson.dumps({"m": said})) == {"m": "5,000 items"}
    assert json.loads(json.dumps([said])) == ["5,000 items"]
    assert said.render("ko") == "5,000개"


def test_values_are_never_read_as_templates_and_a_missing_value_stays_visible() -> None:
    said = message("{name}: {other}", "{name}: {other}", name="{other}")
    assert said.render("en") == "{other}: {other}"
    assert Message("{gone}", "{gone}").render("ko") == "{gone}"


def test_joined_and_added_messages_keep_both_languages() -> None:
    first = message("하나 {n}", "one {n}", n=1)
    second = message("둘 {m}", "two {m}", m=2)
    assert joined([first, second]).render("ko") == "하나 1; 둘 2"
    assert (first + second).render("en") == "one 1 two 2"
