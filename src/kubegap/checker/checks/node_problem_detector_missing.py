"""Kernel deadlocks, read-only file systems and broken runtimes stay invisible without a detector."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import failed, not_applicable, passed, text
from kubegap.checker.extract import daemonsets, nodes
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot

EQUIVALENTS = frozenset({"node-problem-detector", "eks-node-monitoring-agent", "nvsentinel", "gpud"})
# Managed node images that run node-problem-detector outside Kubernetes.
BUILT_IN_LABELS = ("cloud.google.com/gke-nodepool", "kubernetes.azure.com/cluster")

CHECK = CheckMeta(
    id="node-problem-detector-missing",
    area="gpu-health",
    severity=Severity.medium,
    title=text("노드 문제 감지", "Node problem detection"),
    why=text(
        "커널 교착, 읽기 전용 파일 시스템, 망가진 컨테이너 런타임은 kubelet이 Ready를 보고하는 동안에도 "
        "일어납니다. 이를 노드 condition으로 올리는 감지기가 없으면 자동 복구도 스케줄러도 반응하지 "
        "않습니다. OpenAI는 7,500 노드 클러스터를 운영하며 노드 상태 점검을 직접 만들어야 했습니다.",
        "Kernel deadlocks, read-only file systems and broken container runtimes happen while the kubelet "
        "still reports Ready. Without a detector raising them as node conditions, neither auto-repair nor "
        "the scheduler reacts. Running 7,500 nodes, OpenAI had to build its own node health checks.",
    ),
    remediation=text(
        "node-problem-detector DaemonSet(GPU 노드에는 GPU 규칙 포함)이나 EKS Node Monitoring Agent, "
        "NVSentinel 같은 동등한 에이전트를 배포하세요.",
        "Deploy the node-problem-detector DaemonSet (with GPU rules on GPU nodes) or an equivalent such as "
        "the EKS Node Monitoring Agent or NVSentinel.",
    ),
    decides=text(
        "node-problem-detector나 동등한 DaemonSet이 없고, 노드가 NPD를 기본 탑재한 관리형 이미지(GKE, "
        "AKS)도 아니면 실패입니다.",
        "Fails when no node-problem-detector or equivalent DaemonSet exists and the nodes are not on a "
        "managed image that runs NPD itself (GKE, AKS).",
    ),
    incidents=("openai-2021-k8s-7500-nodes-scaling-limits", "opt-2021-11-175b-early-hardware-restarts"),
    needs=("Node", "apps/DaemonSet"),
    components=("node-agent", "host-os"),
    references=("https://github.com/kubernetes/node-problem-detector",),
    manifests=False,
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    all_nodes = nodes(snapshot)
    if not all_nodes:
        yield not_applicable(CHECK, message("이 입력에는 노드가 없습니다", "no nodes in this snapshot"))
        return
    agents = [ds.ref.display() for ds in daemonsets(snapshot) if ds.role in EQUIVALENTS]
    if agents:
        said = message("노드 문제를 감지하는 에이전트가 있습니다", "node problems are detected")
        yield passed(CHECK, None, said, {"agents": agents})
        return
    managed = [node.name for node in all_nodes if any(label in node.labels for label in BUILT_IN_LABELS)]
    if len(managed) == len(all_nodes):
        said = message(
            "노드가 node-problem-detector를 내장한 관리형 이미지로 돕니다",
            "nodes run a managed image with node-problem-detector built in",
        )
        yield passed(CHECK, None, said)
    else:
        said = message(
            "노드 {count}대에서 노드 문제를 감지하는 것이 없습니다",
            "nothing detects node problems on {count} nodes",
            count=len(all_nodes) - len(managed),
        )
        yield failed(CHECK, None, said)
