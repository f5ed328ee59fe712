"""GPU serving replicas without a PodDisruptionBudget all go down together when their nodes are upgraded."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import role_workloads, text, unknown, workload_failed, workload_verdicts
from kubegap.checker.coverage_text import status_label
from kubegap.checker.extract import dig, integer, mapping, selector_matches
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Coverage, Snapshot
from kubegap.checker.workload import Role, Workload

PDB = "policy/PodDisruptionBudget"
HPA = "autoscaling/HorizontalPodAutoscaler"
SERVING_KINDS = ("apps/Deployment", "apps/StatefulSet")

CHECK = CheckMeta(
    id="gpu-serving-pdb-missing",
    area="fleet-change",
    severity=Severity.medium,
    title=text("GPU 서빙 워크로드의 PodDisruptionBudget", "PodDisruptionBudgets of GPU serving workloads"),
    why=text(
        "노드 업그레이드와 drain은 PodDisruptionBudget만 보고 속도를 조절합니다. PDB가 없으면 자동 "
        "업그레이드가 한 풀의 모델 서빙 노드를 한꺼번에 비울 수 있습니다. GitHub Copilot은 자동화된 노드 "
        "업그레이드가 리전마다 모델 서빙 노드를 교체하는 동안 그 리전이 약 12분씩 서비스를 못 하는 부분 "
        "장애를 차례로 겪었습니다.",
        "Node upgrades and drains pace themselves only by PodDisruptionBudgets. Without one, an automated "
        "upgrade can empty a pool's model-serving nodes at once. GitHub Copilot had a string of partial "
        "outages, about 12 minutes per region, while an automated process upgraded each region's "
        "model-serving nodes.",
    ),
    remediation=text(
        "GPU를 쓰는 Deployment·StatefulSet마다 maxUnavailable: 1(또는 minAvailable로 최소 용량)을 둔 PDB를 "
        "만들고, GPU 노드 풀 업그레이드가 PDB를 지키는 방식(surge, drain)인지 확인하세요.",
        "Give every GPU Deployment and StatefulSet a PDB with maxUnavailable: 1 (or a minAvailable that "
        "keeps minimum capacity), and make sure GPU pool upgrades honour PDBs (surge, drain).",
    ),
    decides=text(
        "역할이 서빙이고 GPU를 요청하며 replicas가 2 이상인(또는 HPA의 maxReplicas가 2 이상인) "
        "Deployment·StatefulSet마다, 같은 네임스페이스에 그 파드 레이블을 고르는 PDB가 없으면 "
        "실패입니다. PDB를 읽을 수 없거나 replicas가 렌더링되지 않은 템플릿 값이면 알 수 없음입니다.",
        "Fails each serving Deployment or StatefulSet that requests GPUs with 2 or more replicas (or an HPA "
        "whose maxReplicas is 2 or more) when no PDB in its namespace selects its pod labels. If PDBs could "
        "not be read, or replicas is an unrendered template value, the result is unknown.",
    ),
    incidents=("github-copilot-2023-10-model-node-auto-upgrade",),
    needs=(),
    optional=(*SERVING_KINDS, PDB, HPA),
    components=("inference-serving", "deployment-pipeline"),
    references=(
        "https://kubernetes.io/docs/tasks/run-application/configure-pdb/",
        "https://github.com/zegl/kube-score/blob/master/README_CHECKS.md",
    ),
    roles=(Role.serving,),
)


def _hpa_ceilings(snapshot: Snapshot) -> dict[tuple[str, str, str], int]:
    """(namespace, kind, name) -> the maxReplicas of the HPA that scales it."""
    found = {}
    for hpa in snapshot.of(HPA):
        target = mapping(dig(hpa, "spec", "scaleTargetRef"))
        key = (str(dig(hpa, "metadata", "namespace") or ""), str(target.get("kind")), str(target.get("name")))
        found[key] = integer(dig(hpa, "spec", "maxReplicas"), 0)
    return found


def _replicas(workload: Workload, ceilings: dict[tuple[str, str, str], int]) -> int:
    """spec.replicas, or the HPA's maxReplicas when an HPA may scale it higher."""
    key = (workload.owner.namespace, workload.kind_key.rsplit("/", 1)[-1], workload.owner.name)
    return max(integer(dig(workload.obj, "spec", "replicas"), 1), ceilings.get(key, 0))


def run(snapshot: Snapshot) -> Iterator[Finding]:
    selection = role_workloads(CHECK, snapshot, kinds=SERVING_KINDS, fields=("replicas",))
    ceilings = _hpa_ceilings(snapshot)
    chosen = [w for w in selection.chosen if _replicas(w, ceilings) >= 2]
    coverage = snapshot.status_of(PDB).status
    if chosen and coverage not in (Coverage.read, Coverage.absent):
        yield unknown(
            CHECK,
            None,
            message(
                "PodDisruptionBudget을 읽지 못했습니다({ko_status})",
                "PodDisruptionBudgets could not be read ({status})",
                status=coverage.value,
                ko_status=status_label(coverage.value, "ko"),
            ),
        )
        return
    budgets = [
        (str(dig(pdb, "metadata", "namespace") or ""), dig(pdb, "spec", "selector"))
        for pdb in snapshot.of(PDB)
        if dig(pdb, "spec", "selector")
    ]
    problems = []
    for workload in chosen:
        labels = {
            str(k): str(v)
            for k, v in mapping(dig(workload.obj, "spec", "template", "metadata", "labels")).items()
        }
        namespace = workload.owner.namespace
        if not any(ns == namespace and selector_matches(labels, selector) for ns, selector in budgets):
            replicas = _replicas(workload, ceilings)
            problems.append(
                workload_failed(
                    CHECK,
                    workload,
                    message(
                        "GPU 복제본 {replicas}개에 PodDisruptionBudget이 없습니다",
                        "{replicas} GPU replicas with no PodDisruptionBudget",
                        replicas=replicas,
                    ),
                )
            )
    subject = text("복제본이 여럿인 GPU 서빙 워크로드", "multi-replica GPU serving workloads")
    yield from workload_verdicts(
        CHECK, snapshot, problems, len(chosen), subject, SERVING_KINDS, selection.undecided
    )
