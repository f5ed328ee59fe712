"""Every GPU node needs an agent that turns XID/ECC faults into a signal someone acts on."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import GPU_NODE_NOTE, failed, not_applicable, passed, sample, text
from kubegap.checker.extract import GPU_HEALTH_ROLES, gpu_nodes, pod_index
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot

CHECK = CheckMeta(
    id="gpu-health-agent",
    area="gpu-health",
    severity=Severity.high,
    title=text("GPU 노드의 GPU 상태 감시 에이전트", "GPU health agent on GPU nodes"),
    why=text(
        "GPU 장애는 흔합니다. Llama 3 학습에서는 54일 동안 예기치 않은 중단 419건 중 절반가량이 GPU와 HBM "
        "고장이었습니다. 노드에서 XID·ECC 오류를 읽는 에이전트가 없으면 고장 난 GPU가 작업을 계속 받고, "
        "원인을 찾는 데 몇 시간이 걸립니다.",
        "GPU faults are routine: about half of the 419 unexpected interruptions in Llama 3's 54-day run "
        "were GPU and HBM failures. Without an agent reading XID and ECC errors on the node, a broken GPU "
        "keeps taking work and the cause takes hours to find.",
    ),
    remediation=text(
        "모든 GPU 노드에 dcgm-exporter(또는 DCGM), NVSentinel, GPUd, EKS Node Monitoring Agent, IBM "
        "Autopilot 중 하나를 DaemonSet으로 배포하고, GPU 노드의 taint를 허용(toleration)하는지 확인하세요.",
        "Run one of dcgm-exporter (or DCGM), NVSentinel, GPUd, the EKS Node Monitoring Agent or IBM "
        "Autopilot as a DaemonSet on every GPU node, and make sure it tolerates the GPU nodes' taints.",
    ),
    decides=text(
        "GPU 노드마다 알려진 GPU 상태 에이전트의 Running 파드가 있는지 봅니다. 없으면 그 노드를 실패로 "
        "보고합니다.",
        "For each GPU node, looks for a Running pod of a known GPU health agent; a node without one fails.",
    ),
    incidents=(
        "llama3-2024-54-day-interruptions",
        "opt-2021-11-175b-early-hardware-restarts",
        "bloom-2022-03-21-gpu-crash-lost-7h",
    ),
    needs=("Node", "Pod"),
    components=("gpu-health-monitoring", "gpu"),
    references=(
        "https://github.com/NVIDIA/dcgm-exporter",
        "https://github.com/IBM/autopilot",
        "https://learn.microsoft.com/en-us/azure/aks/node-problem-detector",
    ),
    manifests=False,
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    nodes = gpu_nodes(snapshot)
    if not nodes:
        yield not_applicable(CHECK, GPU_NODE_NOTE)
        return
    roles_by_node = pod_index(snapshot).roles_by_node
    covered = []
    for node in nodes:
        agents = sorted(roles_by_node.get(node.name, set()) & GPU_HEALTH_ROLES)
        if agents:
            covered.append(node.name)
        else:
            yield failed(
                CHECK,
                node.ref,
                message(
                    "GPU 노드 {name}에 GPU 상태 에이전트가 돌지 않습니다",
                    "GPU node {name} runs no GPU health agent",
                    name=node.name,
                ),
            )
    if len(covered) == len(nodes):
        yield passed(
            CHECK,
            None,
            message(
                "GPU 노드 {count}대 모두 GPU 상태 에이전트가 돕니다",
                "all {count} GPU nodes run a GPU health agent",
                count=len(nodes),
            ),
            {"nodes": sample(covered)},
        )
