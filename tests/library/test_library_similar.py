"""Similar incidents come with the shared terms and signatures that make them similar."""

from __future__ import annotations

import pytest
from library_helpers import ALPHA, BRAVO, DELTA, ECHO, FOXTROT

from kubegap.errors import NotFoundError
from kubegap.library import Library


def test_similar_ranks_shared_signature_then_shared_terms_then_newest(library: Library) -> None:
    similar = library.similar(FOXTROT, limit=10, lang="en")
    assert [item.incident.id for item in similar] == [DELTA, BRAVO, ECHO, ALPHA]
    delta, bravo = similar[0], similar[1]
    assert delta.shared_signatures == ("GPU has fallen off the bus",)
    assert [(value.facet, value.term_id) for value in delta.shared_terms] == [("component", "gpu")]
    assert sorted((value.facet, value.term_id) for value in bravo.shared_terms) == [
        ("component", "nccl"),
        ("contributing-factor", "hang-instead-of-fail"),
        ("symptom", "training-hang"),
    ]
    assert bravo.reasons("en") == [
        "Component: NCCL",
        "Symptom: Training stall",
        "Contributing factor: Hangs instead of failing",
    ]
    assert delta.reasons("ko") == ["구성 요소: GPU", "같은 오류 메시지: GPU has fallen off the bus"]


def test_similar_limit_and_unknown_id(library: Library) -> None:
    assert len(library.similar(FOXTROT, limit=2)) == 2
    with pytest.raises(NotFoundError):
        library.similar("no-such-incident")
    with pytest.raises(NotFoundError, match="no incident with id 'nope'"):
        library.incident("nope")
