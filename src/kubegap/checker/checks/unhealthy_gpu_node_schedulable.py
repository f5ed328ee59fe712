"""A node whose GPU health signal says 'broken' must stop receiving work."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import GPU_NODE_NOTE, failed, not_applicable, passed, text, unknown
from kubegap.checker.extract import gpu_nodes
from kubegap.checker.extract.conditions import (
    HEALTH_LABELS,
    VALIDITY_SUFFIX,
    bad_gpu_signals,
    expired_health_results,
    gpu_conditions,
)
from kubegap.checker.finding import Finding, ObjectRef, Severity
from kubegap.checker.snapshot import Snapshot

CHECK = CheckMeta(
    id="unhealthy-gpu-node-schedulable",
    area="gpu-health",
    severity=Severity.high,
    title=text("고장 신호가 있는 GPU 노드의 스케줄링", "Scheduling onto GPU nodes with fault signals"),
    why=text(
        "GPU·NVLink 고장 신호가 뜬 노드가 cordon되지 않으면 재시작한 작업이 다시 같은 노드에 배치됩니다. "
        "OPT-175B 팀은 교체한 노드가 같은 ECC 오류를 안고 돌아와 재시작을 반복했습니다.",
        "If a node flagged with a GPU or NVLink fault is not cordoned, the restarted job lands on it "
        "again. The OPT-175B team kept restarting because replacement nodes came back with the same ECC "
        "errors.",
    ),
    remediation=text(
        "GPU 고장 condition이나 Autopilot EVICT 레이블이 붙으면 노드를 cordon하거나 NoSchedule taint를 거는 "
        "자동화(NVSentinel, Autopilot, 클라우드 자동 복구, 간단한 컨트롤러)를 두고, 고친 뒤에만 풀어 "
        "주세요.",
        "Automate a cordon or NoSchedule taint when a GPU fault condition or an Autopilot EVICT label "
        "appears (NVSentinel, Autopilot, cloud auto-repair, or a small controller) and lift it only after "
        "repair.",
    ),
    decides=text(
        "GPU 노드의 GPU 관련 condition(문제형은 True, Ready형은 False)과 능동 점검 레이블(IBM Autopilot의 "
        "EVICT·ERR, cluster-health-scanner의 fail·reboot-required, HyperPod의 교체·재부팅 대기)을 보고, "
        "나쁜 신호가 있는데 cordon도 GPU 전용이 아닌 NoSchedule/NoExecute taint도 없으면 실패입니다. "
        "cluster-health-scanner의 유효 기한(valid-till) 레이블이 읽은 시각보다 지났는데 격리되지 않은 노드는 "
        "점검이 멈춘 것이므로 한 단계 낮은 심각도로 실패입니다.",
        "Reads GPU conditions (problem types True, readiness types False) and active health-check labels "
        "(IBM Autopilot EVICT/ERR, cluster-health-scanner fail and reboot-required, HyperPod pending "
        "replacement or reboot); a node with a bad signal that is neither cordoned nor tainted "
        "NoSchedule/NoExecute (beyond GPU-dedication taints) fails. A node whose cluster-health-scanner "
        "valid-till stamp lies before the time the cluster was read, and that is not fenced, fails one "
        "severity lower: its checks stopped running.",
    ),
    incidents=("opt-2021-11-thanksgiving-restarts-buffer-nodes", "opt-2021-11-175b-early-hardware-restarts"),
    needs=("Node",),
    components=("gpu-health-monitoring", "gpu", "nvlink-nvswitch"),
    references=(
        "https://github.com/IBM/autopilot/blob/main/HEALTH_CHECKS.md",
        "https://github.com/aws/eks-node-monitoring-agent/blob/main/docs/node-health-issues.adoc",
        "https://github.com/GoogleCloudPlatform/cluster-health-scanner",
    ),
    manifests=False,
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    nodes = gpu_nodes(snapshot)
    if not nodes:
        yield not_applicable(CHECK, GPU_NODE_NOTE)
        return
    observed = 0
    bad = 0
    for node in nodes:
        if gpu_conditions(node) or any(_is_health_label(label) for label in node.labels):
            observed += 1
        signals = bad_gpu_signals(node)
        if not signals:
            expired = expired_health_results(node, snapshot.created_at)
            if expired and not node.fenced:
                bad += 1
                yield _expired(node.name, node.ref, expired)
            continue
        bad += 1
        evidence: dict[str, object] = {"signals": signals, "unschedulable": node.unschedulable}
        if node.fenced:
            said = message(
                "{name:이} GPU 고장을 알리고 격리되어 있습니다",
                "{name} reports a GPU fault and is fenced off",
                name=node.name,
            )
            yield passed(CHECK, node.ref, said, evidence)
        else:
            said = message(
                "{name:이} GPU 고장을 알리는데도 아직 파드를 받습니다",
                "{name} reports a GPU fault but still accepts pods",
                name=node.name,
            )
            yield failed(CHECK, node.ref, said, evidence)
    if bad == 0 and observed == 0:
        said = message(
            "GPU 상태 컨디션을 내는 GPU 노드가 없어 고장을 볼 수 없습니다",
            "no GPU node publishes GPU health conditions, so faults cannot be seen",
        )
        yield unknown(CHECK, None, said)
    elif bad == 0:
        said = message(
            "상태 신호를 내는 GPU 노드 {count}대에서 알려진 GPU 고장이 없습니다",
            "no GPU fault reported on {count} GPU nodes with health signals",
            count=observed,
        )
        yield passed(CHECK, None, said)


def _is_health_label(label: str) -> bool:
    return label in HEALTH_LABELS or label.endswith(VALIDITY_SUFFIX)


def _expired(name: str, ref: ObjectRef, expired: list[str]) -> Finding:
    """An expired pass is no verdict: the node is unvetted, not known broken, so one severity lower."""
    said = message(
        "{name}의 능동 상태 점검 결과가 유효 기한을 넘겼는데도 아직 파드를 받습니다",
        "{name} still accepts pods although its active health-check result has expired",
        name=name,
    )
    return failed(CHECK, ref, said, {"signals": expired}, severity=Severity.medium)
