"""Passive counters miss slow or degraded GPUs; something must run active diagnostics now and then."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import GPU_NODE_NOTE, failed, not_applicable, passed, text
from kubegap.checker.extract import containers, daemonsets, gpu_nodes, strings
from kubegap.checker.extract.conditions import HEALTH_LABELS
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.workload import templates

MARKERS = (
    "dcgmi diag",
    "dcgmi",
    "dcgm-diag",
    "dcgmproftester",
    "gpu-burn",
    "gpu_burn",
    "all_reduce_perf",
    "nccl-tests",
)
ACTIVE_ROLES = frozenset({"autopilot", "nvsentinel", "gpud"})
DIAGNOSTIC_LABELS = (*HEALTH_LABELS, "sagemaker.amazonaws.com/deep-health-check-status")

CHECK = CheckMeta(
    id="gpu-active-diagnostics",
    area="gpu-health",
    severity=Severity.low,
    title=text("주기적인 GPU 능동 진단", "Periodic active GPU diagnostics"),
    why=text(
        "카운터만으로는 느린 GPU나 간헐적으로 고장 나는 GPU를 찾지 못합니다. BLOOM 팀은 2.5%만 느린 GPU "
        "하나 때문에 전체 처리량이 5% 떨어졌고, 모든 GPU를 벤치마크할 도구가 없어 노드를 나눠 빼 보며 "
        "범인을 찾아야 했습니다.",
        "Counters alone miss slow or intermittently failing GPUs. BLOOM lost 5% of whole-job throughput to "
        "one GPU that was only 2.5% slower, and with no tool to benchmark every GPU the team had to bisect "
        "nodes by hand.",
    ),
    remediation=text(
        "유휴 노드나 작업 시작 전에 dcgmi diag(레벨 2~3), NCCL all-reduce 테스트를 돌리는 CronJob이나 IBM "
        "Autopilot, NVSentinel, SageMaker HyperPod 심층 상태 확인 같은 도구를 두고, 결과를 노드 "
        "레이블이나 condition으로 남기세요.",
        "Run dcgmi diag (level 2-3) and an NCCL all-reduce test on idle nodes or before jobs, through a "
        "CronJob or a tool such as IBM Autopilot, NVSentinel or SageMaker HyperPod deep health checks, and "
        "record the result as a node label or condition.",
    ),
    decides=text(
        "GPU 노드가 있을 때, dcgmi diag·gpu-burn·NCCL 테스트를 실행하는 CronJob/Job/DaemonSet, 능동 진단 "
        "에이전트, 또는 노드의 진단 결과 레이블 중 하나라도 있으면 통과, 없으면 실패입니다.",
        "With GPU nodes present, passes if any CronJob, Job or DaemonSet runs dcgmi diag, gpu-burn or NCCL "
        "tests, an active-diagnostics agent runs, or nodes carry diagnostic result labels; fails otherwise.",
    ),
    incidents=(
        "bloom-2022-04-28-slow-gpu-straggler",
        "opt-2021-11-thanksgiving-restarts-buffer-nodes",
        "imbue-2024-70b-cluster-bringup",
    ),
    needs=("Node", "apps/DaemonSet", "batch/CronJob"),
    optional=("batch/Job",),
    components=("gpu-health-monitoring", "gpu"),
    references=(
        "https://docs.nvidia.com/datacenter/dcgm/latest/user-guide/dcgm-diagnostics.html",
        "https://github.com/IBM/autopilot/blob/main/HEALTH_CHECKS.md",
    ),
    manifests=False,
)


def _diagnostic_runners(snapshot: Snapshot) -> list[str]:
    found = [ds.ref.display() for ds in daemonsets(snapshot) if ds.role in ACTIVE_ROLES]
    for template in templates(snapshot, frozenset({"batch/CronJob", "batch/Job", "apps/DaemonSet"})):
        for container in containers(template.spec):
            words = " ".join(
                strings(container.get("command"))
                + strings(container.get("args"))
                + [str(container.get("image") or "")]
            )
            if any(marker in words.lower() for marker in MARKERS):
                found.append(template.owner.display())
                break
    return found


def run(snapshot: Snapshot) -> Iterator[Finding]:
    nodes = gpu_nodes(snapshot)
    if not nodes:
        yield not_applicable(CHECK, GPU_NODE_NOTE)
        return
    runners = _diagnostic_runners(snapshot)
    labelled = [node.name for node in nodes if any(label in node.labels for label in DIAGNOSTIC_LABELS)]
    if runners or labelled:
        evidence: dict[str, object] = {
            "runners": sorted(set(runners))[:10],
            "nodes_with_results": len(labelled),
        }
        said = message("능동 GPU 진단이 돌고 있습니다", "active GPU diagnostics are in place")
        yield passed(CHECK, None, said, evidence)
    else:
        yield failed(
            CHECK,
            None,
            message(
                "GPU 노드 {count}대에서 능동 진단을 돌리는 것이 없습니다",
                "nothing runs active diagnostics on {count} GPU nodes",
                count=len(nodes),
            ),
            {"gpu_nodes": len(nodes)},
        )
