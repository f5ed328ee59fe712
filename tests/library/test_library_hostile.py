"""Hostile and strange input never raises: it is cleaned, quoted, and at worst matches nothing."""

from __future__ import annotations

import pytest

from kubegap.library import Library, SearchQuery
from kubegap.library.glossary import AnalysedGlossary
from kubegap.library.question import plan_query

HOSTILE = [
    '"',
    '""',
    '"노드',
    '노드"가',
    "*",
    "노드*",
    "-",
    "-restart",
    ":",
    "title:restart",
    "{title body}: gpu",
    "NEAR(",
    "NEAR(gpu nccl, 2)",
    "AND",
    "OR",
    "NOT",
    "gpu AND OR NOT",
    "(((",
    ")",
    "^gpu",
    "'; DROP TABLE incidents; --",
    "1' OR '1'='1",
    "SELECT * FROM meta",
    "x" * 10_000,
    "노드 " * 3_000,
    "🔥🔥🔥",
    "GPU 🔥 재시작",
    "\x00",
    "gpu\x00nccl",
    "\ud800",
    "a\udfffb",
    "\u200b\u200b",
    "\u0301",
    "ㅋㅋㅋ",
    "ＧＰＵ",
    "%_%",
    "\\",
    "\n\t\r",
    "0x7f3a 0x0 0000",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_text_never_raises(library: Library, text: str) -> None:
    query = SearchQuery.from_params({"q": [text], "sort": ["relevance"]}, taxonomy=library.taxonomy)
    result = library.search(query)
    assert 0 <= result.total <= library.incident_count
    assert len(result.hits) <= query.per_page
    assert "\x00" not in query.text and len(query.text) <= 500


@pytest.mark.parametrize("text", HOSTILE)
def test_plan_holds_only_words(text: str) -> None:
    """Terms are looked up as values; still, none may carry SQL or quoting characters into a plan."""
    plan = plan_query(text, AnalysedGlossary(), None)
    for term in plan.terms():
        assert term and not set(term) & set("\"';()*"), term


@pytest.mark.parametrize(
    "params",
    [
        {"page": ["99999999999999999999"], "per_page": ["-1"]},
        {"page": [None], "lang": [None], "sort": [None]},
        {"cause": [["nested"]], "q": [{"a": 1}]},
        {"cause": ["x" * 5000], "component": ["gpu"] * 500},
        {"q": [b"\xff\xfe bytes"]},
        {"q": 12345, "page": 2.5},
    ],
)
def test_strange_params_never_raise(library: Library, params: dict[str, object]) -> None:
    query = SearchQuery.from_params(params, taxonomy=library.taxonomy)
    library.search(query)
    assert 1 <= query.per_page <= 100 and query.page >= 1


def test_filters_built_by_hand_with_unknown_names_match_nothing_without_raising(library: Library) -> None:
    result = library.search(SearchQuery(filters={"cause": ("no-such-term",), "bogus": ("x",)}))
    assert result.total == 0
