"""A smoke test over the bundled knowledge base; it assumes nothing about how many incidents there are."""

from __future__ import annotations

from functools import cache

import pytest

from kubegap.knowledge import FACETS, load_knowledge
from kubegap.library import Library, SearchQuery
from kubegap.library.analysis import ENGLISH_STOPWORDS
from kubegap.library.glossary import Glossary


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


# (typed name, a case it must find, whether only the glossary finds it: some names are already written
# in Hangul in the records, 쿠버네티스 and 엔비디아 among them)
HANGUL_NAMES = [
    ("프로메테우스", "moj-2023-07-25-prometheus-oom-outgrew-node", True),
    ("슬럼", "bigscience-2021-08-08-tr1-13b-slurm-queue-gaps", True),
    ("카펜터", "dynamical-2026-08-karpenter-consolidation-evicts-backfill", True),
    ("이스티오", "nccl-2025-03-istio-sidecar-multinode-hang", True),
    ("파이토치", "pytorch-2023-nccl-watchdog-fails-to-crash", True),
    ("딥스피드", "bloom-2022-04-30-eval-hang-deepspeed-deadlock", True),
    ("쿠버네티스 API 서버", "openai-2024-12-telemetry-kube-apiserver-overload", False),
    ("엔비디아", "nvsentinel-2026-02-fabric-manager-down-20-days-undetected", False),
    ("패브릭 매니저", "gpud-2025-11-h100-fabric-manager-down-reported-healthy", False),
]


@cache
def _bundled(with_glossary: bool) -> Library:
    library = Library.from_knowledge(load_knowledge())
    if not with_glossary:
        library.glossary = Glossary()
    return library


def _found(library: Library, text: str) -> list[str]:
    return [
        hit.incident.id
        for hit in library.search(SearchQuery.from_params({"q": text, "per_page": "100"})).hits
    ]


@pytest.mark.parametrize(("text", "expected", "glossary_only"), HANGUL_NAMES)
def test_product_names_typed_in_hangul_find_their_cases(
    text: str, expected: str, glossary_only: bool
) -> None:
    """Korean readers type 프로메테우스 for Prometheus; the glossary carries the name to the case's text."""
    assert expected in _found(_bundled(True), text)
    if glossary_only:
        assert expected not in _found(_bundled(False), text)
