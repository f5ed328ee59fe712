"""A smoke test over the bundled knowledge base; it assumes nothing about how many incidents there are."""

from __future__ import annotations

from kubegap.knowledge import FACETS, load_knowledge
from kubegap.library import Library, SearchQuery
from kubegap.library.analysis import ENGLISH_STOPWORDS


def test_bundled_corpus_indexes_and_searches() -> None:
    knowledge = load_knowledge()
    library = Library.from_knowledge(knowledge)
    assert library.incident_count == len(knowledge.incidents) >= 1
    everything = library.search(SearchQuery(per_page=100))
    assert everything.total == library.incident_count
    for facet in FACETS:
        for value in everything.facets[facet]:
            assert 0 < value.count <= everything.total
    for incident in knowledge.incidents:
        assert library.incident(incident.id) == incident
        # The first content word: stop words ("A", "The") are not index terms.
        title_word = next(
            word for word in incident.title.en.split() if word.casefold() not in ENGLISH_STOPWORDS
        )
        assert library.search(SearchQuery(text=title_word, per_page=100)).total >= 1
    for text in ("GPU", "노드", "재시작", "network", "NCCL 타임아웃"):
        result = library.search(SearchQuery.from_params({"q": text}))
        assert result.total >= 0
