"""Karpenter may consolidate an 'underutilized' GPU node out from under a running training job."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from kubegap.bilingual import Message, message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import (
    crd_state,
    failed,
    not_applicable,
    passed,
    role_workloads,
    text,
    unknown,
)
from kubegap.checker.extract import dig, items, mapping, ref, strings
from kubegap.checker.extract.podspec import gpus_requested, is_gpu_resource
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.workload import TRAINING, WORKLOAD_KINDS

NODEPOOL = "karpenter.sh/NodePool"
UNDERUTILIZED = frozenset({"WhenEmptyOrUnderutilized", "WhenUnderutilized"})  # v1, v1beta1
DO_NOT_DISRUPT = "karpenter.sh/do-not-disrupt"
# GPU instance families: EC2 p/g/gr and Trainium, GCP a2/a3/a4/g2, Azure N-series.
_GPU_INSTANCE = re.compile(r"^(?:p\d|g\d|gr\d|trn\d|a[234]-|g2-|standard_n)", re.IGNORECASE)
_GPU_KEY_WORDS = ("gpu", "accelerator")
_INSTANCE_KEYS = (
    "karpenter.k8s.aws/instance-family",
    "eks.amazonaws.com/instance-family",  # EKS Auto Mode
    "node.kubernetes.io/instance-type",
    "karpenter.azure.com/sku-family",
)
# EC2 instance categories: g (graphics) and p (accelerated computing) are the GPU ones.
_CATEGORY_KEYS = ("karpenter.k8s.aws/instance-category", "eks.amazonaws.com/instance-category")

CHECK = CheckMeta(
    id="karpenter-gpu-consolidation",
    area="fleet-change",
    severity=Severity.medium,
    title=text("GPU NodePool의 노드 통합 제한", "Consolidation guard of GPU NodePools"),
    why=text(
        "consolidationPolicy가 WhenEmptyOrUnderutilized이면 Karpenter는 덜 찬 노드의 파드를 퇴거하고 노드를 "
        "없애거나 바꿉니다. 학습 작업의 파드가 쫓겨나면 마지막 체크포인트 이후 진행이 사라지고, 여러 노드 "
        "작업은 통째로 다시 시작합니다. 한 백필 작업에서는 퇴거 21건 중 19건이 이 통합 때문이었고, 한 워커는 "
        "다섯 번 쫓겨나 매번 처음부터 다시 시작했습니다.",
        "With consolidationPolicy WhenEmptyOrUnderutilized, Karpenter evicts the pods of partly used nodes "
        "and removes or replaces the nodes. An evicted training pod loses everything since the last "
        "checkpoint, and a multi-node job restarts as a whole. In one backfill, 19 of 21 evictions came from "
        "this consolidation, and one worker was evicted five times, restarting from scratch each time.",
    ),
    remediation=text(
        'GPU NodePool은 consolidationPolicy: WhenEmpty로 두거나, reasons: [Underutilized]에 nodes: "0"인 '
        "spec.disruption.budgets 항목(필요하면 일정을 걸어 허용 시간대에만 열기)을 두세요. "
        '학습 파드 템플릿에는 karpenter.sh/do-not-disrupt: "true" 어노테이션을 붙이세요.',
        'Set GPU NodePools to consolidationPolicy: WhenEmpty, or add a disruption budget with nodes: "0" '
        "for reasons: [Underutilized] (opened only in a maintenance window with schedule if needed). "
        'Annotate training pod templates with karpenter.sh/do-not-disrupt: "true".',
    ),
    decides=text(
        "요구 조건(GPU 수·이름·제조사, GPU 인스턴스 패밀리나 타입), 한도(nvidia.com/gpu 등), taint로 GPU를 "
        "고르는 NodePool이 consolidationPolicy WhenEmptyOrUnderutilized(v1beta1의 WhenUnderutilized)이고, "
        'Underutilized 사유에 nodes "0"을 거는 예산 항목이 하나도 없으면 실패입니다(항목이 없으면 기본 10%, '
        "100%면 제한이 없습니다). 입력에 GPU 학습 워크로드가 있고 모두 파드에 karpenter.sh/do-not-disrupt를 "
        "달았으면 통과입니다.",
        "Fails a NodePool that selects GPUs (GPU count, name or manufacturer requirements, GPU instance "
        "families or types, GPU limits, GPU taints) with consolidationPolicy WhenEmptyOrUnderutilized "
        '(WhenUnderutilized in v1beta1) when no budget sets nodes "0" for the Underutilized reason (no '
        "budget means the 10% default; 100% means no limit). Passes if the input has GPU training workloads "
        "and all of them annotate their pods karpenter.sh/do-not-disrupt.",
    ),
    incidents=("dynamical-2026-08-karpenter-consolidation-evicts-backfill",),
    needs=(),
    optional=(NODEPOOL, *WORKLOAD_KINDS),
    components=("cluster-autoscaler", "job-scheduler"),
    references=(
        "https://karpenter.sh/docs/concepts/disruption/",
        "https://docs.aws.amazon.com/eks/latest/best-practices/aiml-compute.html",
    ),
    roles=TRAINING,
)


def _selects_gpus(pool: dict[str, Any]) -> bool:
    """Structure only: requirements, limits and taints of the pool's node template."""
    spec = mapping(dig(pool, "spec", "template", "spec"))
    for requirement in items(spec.get("requirements")):
        key = str(requirement.get("key") or "")
        operator = str(requirement.get("operator") or "")
        values = strings(requirement.get("values"))
        if operator in ("NotIn", "DoesNotExist", "Lt"):
            continue
        gpu_key = any(word in key.lower() for word in _GPU_KEY_WORDS)
        # 'instance-gpu-count Gt 0' and 'Exists' mean some GPU; 'In [0]' means none.
        if gpu_key and (operator in ("Gt", "Exists") or any(value not in ("0", "") for value in values)):
            return True
        if key in _INSTANCE_KEYS and any(_GPU_INSTANCE.match(value) for value in values):
            return True
        if key in _CATEGORY_KEYS and any(value in ("g", "p") for value in values):
            return True
    limits = mapping(dig(pool, "spec", "limits"))
    if any(is_gpu_resource(str(name)) for name in limits):
        return True
    return any(is_gpu_resource(str(taint.get("key") or "")) for taint in items(spec.get("taints")))


def _blocks_underutilized(budget: dict[str, Any]) -> bool:
    reasons = strings(budget.get("reasons"))
    return str(budget.get("nodes", "")).strip() in ("0", "0%") and (not reasons or "Underutilized" in reasons)


def _gap(pool: dict[str, Any]) -> Message | None:
    disruption = mapping(dig(pool, "spec", "disruption"))
    policy = str(disruption.get("consolidationPolicy") or "WhenEmptyOrUnderutilized")  # v1's default
    if policy not in UNDERUTILIZED:
        return None
    budgets = items(disruption.get("budgets"))
    if any(_blocks_underutilized(budget) for budget in budgets):
        return None
    name = ref(pool).name
    if not budgets:
        return message(
            "GPU NodePool {name:이} {policy}인데 spec.disruption.budgets가 없어 "
            "기본값(노드 10%)까지 한꺼번에 통합합니다",
            "GPU NodePool {name} uses {policy} with no disruption budget, so up to 10% of its nodes "
            "(the default) may be consolidated at once",
            name=name,
            policy=policy,
        )
    limits = ", ".join(str(budget.get("nodes", "")) for budget in budgets)
    return message(
        "GPU NodePool {name:이} {policy}이고 spec.disruption.budgets({limits}) 중 "
        "저활용 통합을 막는 것이 없습니다",
        "GPU NodePool {name} uses {policy} and none of its budgets ({limits}) stops underutilized "
        "consolidation",
        name=name,
        policy=policy,
        limits=limits,
    )


def _all_training_opted_out(snapshot: Snapshot) -> int:
    """How many GPU training workloads there are, when every one annotates its pods do-not-disrupt; else 0."""
    training = role_workloads(CHECK, snapshot).chosen
    if all(_opted_out(workload.obj) for workload in training):
        return len(training)
    return 0


def _opted_out(obj: dict[str, Any]) -> bool:
    """Every GPU pod template in the object (any nesting: JobSet, PyTorchJob, ...) says do-not-disrupt."""
    gpu_templates = 0
    annotated = 0
    pending: list[Any] = [obj]
    while pending:
        node = pending.pop()
        if isinstance(node, list):
            pending.extend(node)
            continue
        if not isinstance(node, dict):
            continue
        spec = node.get("spec")
        if isinstance(spec, dict) and isinstance(spec.get("containers"), list) and gpus_requested(spec):
            gpu_templates += 1
            annotations = mapping(dig(node, "metadata", "annotations"))
            annotated += str(annotations.get(DO_NOT_DISRUPT, "")).lower() == "true"
        pending.extend(node.values())
    return gpu_templates > 0 and annotated == gpu_templates


def run(snapshot: Snapshot) -> Iterator[Finding]:
    state = crd_state(snapshot, NODEPOOL)
    if state == "unread":
        said = message("Karpenter NodePool을 읽지 못했습니다", "Karpenter NodePools could not be read")
        yield unknown(CHECK, None, said)
        return
    pools = [pool for pool in snapshot.of(NODEPOOL) if isinstance(pool, dict)]
    gpu_pools = [pool for pool in pools if _selects_gpus(pool)]
    if not gpu_pools:
        said = message("GPU를 고르는 Karpenter NodePool이 없습니다", "no Karpenter NodePool selects GPUs")
        yield not_applicable(CHECK, said)
        return
    gaps = [(pool, gap) for pool in gpu_pools if (gap := _gap(pool)) is not None]
    if not gaps:
        said = message(
            "GPU NodePool {count}개 모두 저활용 통합을 막습니다",
            "all {count} GPU NodePools hold back underutilized consolidation",
            count=len(gpu_pools),
        )
        yield passed(CHECK, None, said)
        return
    opted_out = _all_training_opted_out(snapshot)
    if opted_out:  # the runner turns this pass into unknown when a workload kind went unread
        said = message(
            "GPU 학습 워크로드 {count}개 모두 karpenter.sh/do-not-disrupt로 통합에서 빠져 있습니다",
            "all {count} GPU training workloads opt out of consolidation with karpenter.sh/do-not-disrupt",
            count=opted_out,
        )
        yield passed(CHECK, None, said, {"nodepools": [ref(pool).name for pool, _ in gaps]})
        return
    for pool, gap in gaps:
        yield failed(CHECK, ref(pool), gap)
