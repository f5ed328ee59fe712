"""XID and ECC faults only stop new work when something turns them into node conditions or taints."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import GPU_NODE_NOTE, failed, not_applicable, passed, sample, text
from kubegap.checker.extract import gpu_nodes
from kubegap.checker.extract.conditions import HEALTH_LABELS, gpu_conditions
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot

CHECK = CheckMeta(
    id="gpu-fault-conditions",
    area="gpu-health",
    severity=Severity.medium,
    title=text("GPU 고장의 노드 condition 반영", "GPU faults as node conditions"),
    why=text(
        "지표만 있고 노드 condition이 없으면 스케줄러와 자동 복구는 GPU가 고장 났다는 사실을 모릅니다. "
        "디바이스 플러그인은 XID 한 번으로 GPU를 영구히 unhealthy로 두기도 하지만, 노드 자체는 Ready로 "
        "남아 작업을 계속 받습니다.",
        "With metrics but no node condition, the scheduler and auto-repair never learn that a GPU broke. "
        "The device plugin may mark one GPU unhealthy forever after a single XID, yet the node stays Ready "
        "and keeps taking jobs.",
    ),
    remediation=text(
        "NVSentinel, EKS Node Monitoring Agent, AKS의 Node Problem Detector GPU 규칙, GPUd처럼 "
        "XID·ECC·NVLink 오류를 노드 condition(예: XIDErrors, AcceleratedHardwareReady)으로 올리는 "
        "에이전트를 배포하고, 그 condition에 따라 cordon·taint·교체가 일어나게 하세요.",
        "Deploy an agent that raises XID, ECC and NVLink errors as node conditions (e.g. XIDErrors, "
        "AcceleratedHardwareReady): NVSentinel, the EKS Node Monitoring Agent, NPD GPU rules as on AKS, or "
        "GPUd. Then make those conditions drive cordon, taint or replacement.",
    ),
    decides=text(
        "어느 GPU 노드에도 GPU·XID·NVLink·가속기 관련 condition 유형이나 상태 점검 레이블이 없으면 "
        "실패입니다.",
        "Fails when no GPU node carries any GPU, XID, NVLink or accelerator condition type or health-check "
        "label.",
    ),
    incidents=(
        "k8s-device-plugin-2021-gpu-unhealthy-forever",
        "k8s-device-plugin-2024-xid94-allocatable-not-recovered",
    ),
    needs=("Node",),
    components=("gpu-health-monitoring", "node-agent"),
    references=(
        "https://docs.nvidia.com/deploy/xid-errors/index.html",
        "https://github.com/aws/eks-node-monitoring-agent/blob/main/docs/node-health-issues.adoc",
        "https://learn.microsoft.com/en-us/azure/aks/node-problem-detector",
    ),
    manifests=False,
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    nodes = gpu_nodes(snapshot)
    if not nodes:
        yield not_applicable(CHECK, GPU_NODE_NOTE)
        return
    types: set[str] = set()
    signalled = []
    for node in nodes:
        found = set(gpu_conditions(node)) | {label for label in HEALTH_LABELS if label in node.labels}
        if found:
            signalled.append(node.name)
            types |= found
    if not signalled:
        yield failed(
            CHECK,
            None,
            message(
                "GPU 노드 {count}대 중 GPU 상태 컨디션을 단 노드가 없습니다",
                "none of {count} GPU nodes carries a GPU health condition",
                count=len(nodes),
            ),
            {"gpu_nodes": len(nodes)},
        )
        return
    evidence: dict[str, object] = {"condition_types": sorted(types), "nodes_with_signal": len(signalled)}
    yield passed(
        CHECK,
        None,
        message(
            "GPU 노드 {total}대 중 {count}대가 GPU 상태 컨디션을 냅니다",
            "{count} of {total} GPU nodes publish GPU health conditions",
            count=len(signalled),
            total=len(nodes),
        ),
        evidence,
    )
    unsignalled = [node.name for node in nodes if node.name not in set(signalled)]
    if unsignalled:
        yield failed(
            CHECK,
            None,
            message(
                "다른 노드와 달리 GPU 노드 {count}대는 GPU 상태 컨디션을 내지 않습니다",
                "{count} GPU nodes publish no GPU health condition while others do",
                count=len(unsignalled),
            ),
            {"nodes": sample(unsignalled)},
            severity=Severity.low,
        )
