"""Korean query words outside the corpus: analysed by Kiwi once, then remembered across processes."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubegap.library import analysis, korean, word_cache


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "words.sqlite3"
    monkeypatch.setenv(word_cache.ENV, str(path))
    word_cache.reset()
    yield path
    word_cache.reset()


def _knows_nothing(words: list[str]) -> dict[str, analysis.ChunkAnalysis]:
    return {}


def test_an_unseen_word_is_remembered_and_then_needs_no_kiwi(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = [token.term for token in analysis.text_tokens("먹통이 됐어요", _knows_nothing)]
    assert "먹통" in first
    assert "먹통이" in word_cache.find(["먹통이"])

    def no_kiwi(text: str) -> tuple[korean.Morph, ...]:
        raise AssertionError("Kiwi was asked again")

    monkeypatch.setattr(korean, "analyse", no_kiwi)
    word_cache.reset()  # as a new process would
    again = [token.term for token in analysis.text_tokens("먹통이 됐어요", _knows_nothing)]
    assert again == first


def test_a_cache_that_cannot_be_written_is_simply_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(word_cache.ENV, str(blocker / "words.sqlite3"))
    word_cache.reset()
    try:
        assert "먹통" in [token.term for token in analysis.text_tokens("먹통", _knows_nothing)]
        assert word_cache.find(["먹통"]) == {}
    finally:
        word_cache.reset()


def test_off_turns_it_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(word_cache.ENV, "off")
    word_cache.reset()
    try:
        assert word_cache.location() is None and word_cache.find(["노드"]) == {}
    finally:
        word_cache.reset()


def test_changed_analysis_rules_start_a_fresh_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # A word is kept after the function lemmas are dropped, so a release with another list must not
    # read what an older one remembered (it would bring back, or lose, a lemma).
    monkeypatch.delenv(word_cache.ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("KUBEGAP_DB", raising=False)
    before = word_cache.location()
    monkeypatch.setattr(korean, "KOREAN_STOP_LEMMAS", korean.KOREAN_STOP_LEMMAS | {"새로운규칙"})
    after = word_cache.location()
    assert before is not None and after is not None
    assert before.parent == after.parent == tmp_path / "kubegap" and before != after
