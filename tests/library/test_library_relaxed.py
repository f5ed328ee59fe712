"""A long text that no incident matches word for word is retried with any word, best first, and says so."""

from __future__ import annotations

from library_helpers import CHARLIE, search

from kubegap.library import Library


def test_long_text_without_a_full_match_is_relaxed_and_ranked(library: Library) -> None:
    text = "overnight the nodes lost their routes after an os update quokka zebra"
    result = search(library, q=text, sort="newest")
    assert result.relaxed is True
    assert result.query.sort == "relevance"
    assert result.hits and result.hits[0].incident.id == CHARLIE


def test_short_text_keeps_its_strict_meaning(library: Library) -> None:
    result = search(library, q="routes quokka")
    assert result.total == 0 and result.relaxed is False


def test_a_full_match_is_never_relaxed(library: Library) -> None:
    result = search(library, q="routes")
    assert result.total >= 1 and result.relaxed is False


def test_relaxed_matches_still_obey_facet_filters(library: Library) -> None:
    text = "overnight the nodes lost their routes after an os update quokka zebra"
    result = search(library, q=text, cause="gpu-fault")
    assert CHARLIE not in {hit.incident.id for hit in result.hits}
