"""The `scope` facet: whether a record is about AI infrastructure or about the platform under it.

Every incident carries one value (`Incident.scope`), and the library filters and counts by it like a
taxonomy facet, so a reader can ask for AI-infrastructure incidents only. The values and where the line
runs between them are written down in docs/knowledge.md; the labels below are what readers see.
"""

from __future__ import annotations

from kubegap.knowledge.model import Bilingual, Scope, Term

SCOPE_FACET = "scope"

SCOPE_TERMS: tuple[Term, ...] = (
    Term(
        id=Scope.ai_infra.value,
        label=Bilingual(ko="AI 인프라", en="AI infrastructure"),
        description=Bilingual(
            ko="모델을 학습하거나 서빙하는 인프라의 장애: 가속기, 인터커넥트, 학습 데이터·체크포인트 저장소, "
            "AI 작업의 스케줄링, 서빙 용량과 라우팅, 드라이버와 펌웨어.",
            en="Failures of the infrastructure that trains or serves models: accelerators, interconnect, "
            "training data and checkpoint storage, scheduling of AI jobs, serving capacity and routing, "
            "drivers and firmware.",
        ),
    ),
    Term(
        id=Scope.platform.value,
        label=Bilingual(ko="플랫폼", en="Platform"),
        description=Bilingual(
            ko="AI 워크로드 밖에서 일어났지만 클러스터 점검이 배울 것이 있는 쿠버네티스·클라우드 장애.",
            en="Kubernetes and cloud incidents outside AI workloads that a cluster check learns from.",
        ),
    ),
)
