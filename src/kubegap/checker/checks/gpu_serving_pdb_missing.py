"""GPU serving replicas without a PodDisruptionBudget all go down together when their nodes are upgraded."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import role_workloads, text, unknown, workload_failed, workload_verdicts
from kubegap.checker.coverage_text import status_label
from kubegap.checker.extract import dig, integer, mapping, selector_matches
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Coverage, KubeObject, Snapshot
from kubegap.checker.workload import WORKLOAD_KINDS, PodTemplate, Role, Workload
from kubegap.checker.workload.operators import DISRUPTION_BUDGET
from kubegap.checker.workload.serving import worker_group

PDB = "policy/PodDisruptionBudget"
HPA = "autoscaling/HorizontalPodAutoscaler"
# Bare Pods have no replicas to spread; runtimes and configs are templates other objects deploy.
SKIPPED_KINDS = frozenset(
    {
        "Pod",
        "serving.kserve.io/ServingRuntime",
        "serving.kserve.io/ClusterServingRuntime",
        "serving.kserve.io/LLMInferenceServiceConfig",
    }
)

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
        "여러 복제본으로 서빙하는 GPU 워크로드마다(분리 서빙이면 prefill·decode 역할마다) maxUnavailable: "
        "1(또는 minAvailable로 최소 용량)을 둔 PDB를 만들고, GPU 노드 풀 업그레이드가 PDB를 지키는 "
        "방식(surge, drain)인지 확인하세요.",
        "Give every multi-replica GPU serving workload (each prefill and decode role, when disaggregated) a "
        "PDB with maxUnavailable: 1 (or a minAvailable that keeps minimum capacity), and make sure GPU pool "
        "upgrades honour PDBs (surge, drain).",
    ),
    decides=text(
        "역할이 서빙인 GPU 워크로드(Deployment, StatefulSet, LeaderWorkerSet, StormService, NIMService, "
        "LLMInferenceService 등)의 템플릿 묶음마다 서빙 사본 수를 셉니다. replicas, LeaderWorkerSet 그룹 수, "
        "그리고 HPA나 객체 자체의 자동 확장 상한(NIM scale.hpa, KServe maxReplicas) 가운데 큰 값입니다. "
        "2 이상인데 같은 네임스페이스에 그 파드 레이블(또는 객체 이름)을 고르는 PDB가 없으면 실패입니다. "
        "오퍼레이터가 PDB를 직접 만들면(OME) 통과이고, 한 호스트에 묶인 복제본은 PDB가 지킬 수 "
        "없으므로 보지 않고, 오퍼레이터가 파드 레이블을 붙여 "
        "네임스페이스의 PDB가 그 파드를 고르는지 알 수 없으면 알 수 없음입니다. 런타임·설정 템플릿과 패치 "
        "조각은 보지 않습니다. PDB를 읽을 수 없거나 replicas가 렌더링되지 않은 템플릿 값이면 "
        "알 수 없음입니다.",
        "Counts the serving copies of each template group of a GPU workload whose role is serving "
        "(Deployment, StatefulSet, LeaderWorkerSet, StormService, NIMService, LLMInferenceService and more): "
        "its replicas or LeaderWorkerSet groups, or the ceiling of an HPA or of the object's own autoscaler "
        "(NIM scale.hpa, KServe maxReplicas), whichever is larger. With 2 or more it fails when no PDB in "
        "its "
        "namespace selects its pod labels (or names the object); where the operator creates the PDB itself "
        "(OME) it passes. Replicas pinned to one host are left out, "
        "since a PDB cannot keep them up; where the operator labels the pods and a PDB in the namespace may "
        "or may not select them, the result is unknown. Runtime and config templates and patch fragments are "
        "not judged. If PDBs could not be read, or replicas is an unrendered template value, it is unknown.",
    ),
    incidents=("github-copilot-2023-10-model-node-auto-upgrade",),
    needs=(),
    optional=(*WORKLOAD_KINDS, PDB, HPA),
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


def _own_ceiling(workload: Workload) -> int:
    """A ceiling the serving object sets for its own autoscaler (NIM scale.hpa, KServe maxReplicas)."""
    spec = mapping(workload.obj.get("spec"))
    nim = integer(dig(spec, "scale", "hpa", "maxReplicas"), 0) if dig(spec, "scale", "enabled") else 0
    kserve = integer(dig(spec, "predictor", "maxReplicas"), 0)
    return max(nim, kserve)


def _instances(workload: Workload, template: PodTemplate) -> int:
    """Serving copies made from one template: a leader/worker group counts once, through its leader."""
    if template.gpus == 0 or worker_group(workload, template):
        return 0
    if workload.kind_key == "apps.nvidia.com/NIMService" and dig(workload.obj, "spec", "multiNode"):
        return integer(dig(workload.obj, "spec", "replicas"), 1)
    if workload.kind_key == "leaderworkerset.x-k8s.io/LeaderWorkerSet" and template.group == "worker":
        return integer(dig(workload.obj, "spec", "replicas"), 1)  # no leader template: one per group
    return template.replicas


def _copies(workload: Workload, ceilings: dict[tuple[str, str, str], int]) -> dict[str, int]:
    """Template group -> the most serving copies it may run (its replicas, or an autoscaler's ceiling)."""
    key = (workload.owner.namespace, workload.kind_key.rsplit("/", 1)[-1], workload.owner.name)
    ceiling = max(ceilings.get(key, 0), _own_ceiling(workload))
    found: dict[str, int] = {}
    for template in workload.templates:
        copies = _instances(workload, template)
        # Pinned to one node, a PDB cannot keep a copy up through that node's drain: it only blocks it.
        if copies and not template.pinned_host:
            found[template.group] = max(found.get(template.group, 0), copies, ceiling)
    return found


def _labels(workload: Workload, template: PodTemplate) -> dict[str, str]:
    if template.labels:
        return template.labels
    spec_labels = mapping(dig(workload.obj, "spec", "template", "metadata", "labels"))
    return {str(k): str(v) for k, v in spec_labels.items()}


def _names_it(selector: object, name: str) -> bool:
    """A selector whose labels name the object: how PDBs select pods an operator labels by its owner."""
    return name in {str(value) for value in mapping(mapping(selector).get("matchLabels")).values()}


def _coverage(
    workload: Workload, group: str, budgets: list[tuple[str, KubeObject]]
) -> tuple[bool, list[str]]:
    """(covered, PDBs in the namespace that may select the operator's pods but cannot be matched)."""
    template = next(t for t in workload.templates if t.group == group)
    labels = _labels(workload, template)
    namespace = workload.owner.namespace
    maybe = []
    for where, pdb in budgets:
        if namespace and where and where != namespace:
            continue
        selector = dig(pdb, "spec", "selector")
        if labels and selector_matches(labels, selector):
            return True, []
        if _names_it(selector, workload.owner.name):
            return True, []
        if not labels:
            maybe.append(str(dig(pdb, "metadata", "name") or ""))
    return False, maybe


def run(snapshot: Snapshot) -> Iterator[Finding]:
    selection = role_workloads(CHECK, snapshot, fields=("replicas",))
    ceilings = _hpa_ceilings(snapshot)
    chosen = []
    for workload in selection.chosen:
        if workload.kind_key in SKIPPED_KINDS or workload.fragment:
            continue
        copies = {group: count for group, count in _copies(workload, ceilings).items() if count >= 2}
        if copies:
            chosen.append((workload, copies))
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
        (str(dig(pdb, "metadata", "namespace") or ""), pdb)
        for pdb in snapshot.of(PDB)
        if dig(pdb, "spec", "selector")
    ]
    problems = []
    for workload, copies in chosen:
        for group, count in sorted(copies.items()):
            if workload.managed_for(DISRUPTION_BUDGET, group) is not None:
                continue  # the operator creates this group's PDB itself
            covered, maybe = _coverage(workload, group, budgets)
            if covered:
                continue
            if maybe:
                said = message(
                    "오퍼레이터가 붙이는 파드 레이블을 알 수 없어, PodDisruptionBudget {names:이} 이 GPU "
                    "복제본을 고르는지 판단할 수 없습니다",
                    "the operator labels these pods, so whether PodDisruptionBudget {names} selects these "
                    "GPU replicas cannot be told",
                    names=", ".join(maybe[:3]),
                )
                problems.append(unknown(CHECK, workload.owner, said, workload.evidence))
                break
            where = f" ({group})" if group and len(workload.templates) > 1 else ""
            problems.append(
                workload_failed(
                    CHECK,
                    workload,
                    message(
                        "GPU 복제본 {replicas}개{where}에 PodDisruptionBudget이 없습니다",
                        "{replicas} GPU replicas{where} with no PodDisruptionBudget",
                        replicas=count,
                        where=where,
                    ),
                    {"group": group, "replicas": count},
                )
            )
            break
    subject = text("복제본이 여럿인 GPU 서빙 워크로드", "multi-replica GPU serving workloads")
    yield from workload_verdicts(
        CHECK, snapshot, problems, len(chosen), subject, WORKLOAD_KINDS, selection.undecided
    )
