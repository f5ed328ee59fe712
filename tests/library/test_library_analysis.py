"""Text analysis: Hangul bigrams, query words, the FTS5 expression, and the glossary."""

from __future__ import annotations

import sqlite3

import pytest

from kubegap.library.analysis import clean_text, hangul_index_tokens, index_text, word_term
from kubegap.library.fts import match_expression
from kubegap.library.glossary import BUNDLED_GLOSSARY, Glossary, GlossaryEntry, load_glossary


def test_hangul_runs_become_bigrams_and_a_closing_syllable() -> None:
    assert hangul_index_tokens("노드가") == ["노드", "드가", "가"]
    assert hangul_index_tokens("큰") == ["큰"]
    assert index_text("GPU노드가 restarted") == "GPU 노드 드가 가  restarted"


def test_clean_text_composes_decomposed_hangul_and_drops_control_characters() -> None:
    decomposed = "\u1102\u1169\u1103\u1173"  # 노드 as macOS sends it
    assert clean_text(decomposed + "\x00 \ud800 x\n\ty") == "노드 x y"
    assert clean_text("ＧＰＵ　０") == "GPU 0"


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("노드", '"노드"'),
        ("노드가", '"노드"'),  # particle dropped
        ("재시작했다", '"재시 시작"'),  # ending dropped
        ("망", '"망"*'),  # one syllable: prefix of any bigram
        ("NCCL에서", '"nccl"'),  # particle glued to a Latin word
        ("GPU메모리", '"gpu 메모 모리"'),
        ("systemd-networkd", '"systemd networkd"'),
        ('"*:-', None),
    ],
)
def test_word_term(word: str, expected: str | None) -> None:
    term = word_term(word)
    assert (term.fts() if term else None) == expected


def test_bigram_phrase_respects_word_boundaries_in_a_real_fts5_table() -> None:
    connection = sqlite3.connect(":memory:")
    connection.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize = 'porter unicode61')")
    rows = [(1, "재시작했다"), (2, "재시 작업"), (3, "노드를 봤다"), (4, "관리망이")]
    connection.executemany("INSERT INTO t (rowid, body) VALUES (?, ?)", [(r, index_text(b)) for r, b in rows])

    def found(query: str) -> list[int]:
        expression = match_expression(query)
        assert expression is not None
        return [
            row[0]
            for row in connection.execute("SELECT rowid FROM t WHERE t MATCH ? ORDER BY rowid", (expression,))
        ]

    assert found("재시작") == [1]  # not the two words 재시 / 작업
    assert found("노드가") == [3]
    assert found("망") == [4]
    assert found("작업") == [2]


def test_words_are_anded_and_glossary_spots_become_alternatives() -> None:
    glossary = Glossary.of(
        [GlossaryEntry(ko=["재시작"], en=["restart"]), GlossaryEntry(ko=["메모리 오류"], en=["memory error"])]
    )
    assert match_expression("재시작했다 NCCL에서", glossary) == '("재시 시작" OR "restart") AND "nccl"'
    assert (
        match_expression("메모리 오류가", glossary) == '(("메모 모리" AND "오류") OR ("memory" AND "error"))'
    )
    assert match_expression("restarted", glossary) == '("restarted" OR "재시 시작" OR "restart")'
    assert match_expression("the", glossary) == '"the"'  # only stop words: keep them
    assert match_expression("why the restart", glossary) == '("restart" OR "재시 시작")'


def test_glossary_spellings() -> None:
    glossary = Glossary.of([GlossaryEntry(ko=["메모리 오류"], en=["memory error"])])
    for spelling in ("메모리 오류", "메모리오류", "메모리 오류가", "Memory Errors", "memory error"):
        assert glossary.forms(spelling) == ["메모리 오류", "memory error"], spelling
    assert glossary.forms("memory") == []


def test_bundled_glossary_loads_with_about_sixty_distinct_pairs() -> None:
    glossary = load_glossary(BUNDLED_GLOSSARY)
    assert len(glossary.entries) >= 60
    forms = [form.casefold() for entry in glossary.entries for form in [*entry.ko, *entry.en]]
    assert len(forms) == len(set(forms)), "a form appears in two entries"
    for korean, english in [
        ("메모리 오류", "memory error"),
        ("재시작", "restart"),
        ("네트워크", "network"),
        ("멈춤", "hang"),
        ("드라이버", "driver"),
        ("스토리지", "storage"),
    ]:
        assert english in glossary.forms(korean)
        assert korean in glossary.forms(english)


def test_broken_glossary_is_empty_not_an_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "glossary.yaml"
    path.write_text("entries: [ {ko: 1", encoding="utf-8")
    assert load_glossary(path).entries == ()
    path.write_text("entries:\n  - {ko: [], en: [x]}\n", encoding="utf-8")
    assert load_glossary(tmp_path / "glossary.yaml").entries == ()
    assert load_glossary(tmp_path / "missing.yaml").entries == ()


def test_search_text_reaches_sqlite_only_as_a_parameter() -> None:
    from kubegap.library import sql

    expression = match_expression("'; DROP TABLE incidents; --")
    assert expression == '"drop" AND "table" AND "incidents"'
    statement = sql.text_matches(expression, scored=True)
    assert statement.sql.count("?") == 1 and "DROP" not in statement.sql
    assert statement.params == (expression,)
    assert "ORDER BY score ASC, rowid DESC" in statement.sql
