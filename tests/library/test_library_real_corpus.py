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
    ("쿠다", "dstack-2025-02-fabric-manager-pin-driver-drift-cuda-802", True),
    ("엔브이링크", "marin-2026-09-05-gb200-nvlink-contained-fault-stalls-hero-run", True),
    ("엔비링크", "marin-2026-09-05-gb200-nvlink-contained-fault-stalls-hero-run", True),
    ("엔브이스위치", "gpu-operator-2026-08-b200-fabric-manager-wrong-path-reports-ready", True),
    ("인피니밴드", "databricks-2026-07-ib-port-down-outlasts-nccl-ib-timeout", True),
    ("메가트론", "opt-2021-12-accidental-megatron-upgrade", True),
    ("큐브레이", "kuberay-2024-04-old-crd-numofhosts-zero-deletes-workers", True),
    ("레이", "oligo-2024-03-shadowray-exposed-ray-dashboards", True),
    ("그라파나", "mybinder-2018-03-26-node-no-space-left-launch-failures", True),
    ("헬름", "scale-ai-2026-04-kubectl-set-image-skipped-migration", True),
    ("테라폼", "moj-2021-07-12-pipeline-applied-default-cert-to-wrong-cluster", True),
    ("도커", "berkeley-2017-10-10-docker-hung-azure-nodes-terminating-pods", True),
    ("칼리코", "reddit-2023-03-k8s-upgrade-calico-route-reflectors", True),
    ("실리움", "datadog-2023-03-systemd-networkd-unattended-upgrade", True),
    ("게이트키퍼", "heureka-2022-03-gatekeeper-webhook-blocked-kube-system", True),
    ("코어디엔에스", "zalando-2019-01-coredns-oom-dns-outage", True),
    ("레디스", "vapi-2025-08-04-karpenter-consolidation-evicted-redis-despite-pdb", True),
    ("오픈시프트", "rocm-2025-10-mi300x-partitions-sysfs-path-mismatch-8-not-64", True),
    ("깃허브", "github-copilot-2023-10-model-node-auto-upgrade", True),
    ("애저", "azure-2019-03-aks-azure-kernel-regression-one-gpu-visible", True),
    ("슬랙", "oslo-2022-04-20-loki-pvc-full-no-retention", True),
    ("제미나이", "gemini-2023-sdc-every-week-or-two", True),
    ("라마", "llama3-2024-54-day-interruptions", True),
    ("클로드", "anthropic-2025-08-context-window-routing", True),
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
