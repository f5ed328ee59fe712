"""Every content word is a signal: a text no incident matches word for word still finds the incidents
sharing some of its words, best first, and says it is a partial match."""

from __future__ import annotations

from library_helpers import CHARLIE, search

from kubegap.library import Library


def test_long_text_without_a_full_match_is_relaxed_and_ranked(library: Library) -> None:
    text = "overnight the nodes lost their routes after an os update quokka zebra"
    result = search(library, q=text)
    assert result.relaxed is True and result.partial
    assert result.query.sort == "relevance"
    assert result.hits and result.hits[0].incident.id == CHARLIE
    assert all(hit.partial for hit in result.hits)


def test_a_short_question_with_an_unknown_word_is_a_partial_match(library: Library) -> None:
    result = search(library, q="routes quokka")
    assert [hit.incident.id for hit in result.hits] == [CHARLIE]
    assert result.relaxed is True and result.full_matches == 0


def test_a_full_match_is_never_relaxed(library: Library) -> None:
    result = search(library, q="routes")
    assert result.total >= 1 and result.relaxed is False


def test_relaxed_matches_still_obey_facet_filters(library: Library) -> None:
    text = "overnight the nodes lost their routes after an os update quokka zebra"
    result = search(library, q=text, cause="gpu-fault")
    assert CHARLIE not in {hit.incident.id for hit in result.hits}
