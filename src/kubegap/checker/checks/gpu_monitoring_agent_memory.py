"""A GPU monitoring agent that runs out of memory switches GPU monitoring off on its node, silently.

DCGM-based agents hold native libdcgm memory per GPU plus per-scrape buffers, so a limit that is
enough on a 1- or 4-GPU node can be OOM-killed over and over on an 8-GPU node (PyTorch's CI fleet,
2026). While the agent restarts, that node's XID and ECC signals go nowhere. The pod status already
says so: the agent container's memory limit, the node's GPU count and the last termination reason.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import GPU_NODE_NOTE, failed, not_applicable, passed, sample, text
from kubegap.checker.extract import classify, dig, gpu_nodes, items, mapping, quantity
from kubegap.checker.extract._fields import controller_owner, labels_of, name_of, namespace_of
from kubegap.checker.finding import Finding, ObjectRef, Severity
from kubegap.checker.snapshot import KubeObject, Snapshot

# Agents whose loss blinds GPU fault detection on the node.
MONITORING_ROLES = frozenset(
    {"dcgm-exporter", "dcgm", "nvsentinel", "gpud", "autopilot", "eks-node-monitoring-agent"}
    | {"node-problem-detector"}
)
# Agents whose memory grows with the GPUs they watch (native DCGM memory): the limit rule applies to them.
DCGM_ROLES = frozenset({"dcgm-exporter", "dcgm"})
SMALL_LIMIT_BYTES = 512 * 1024**2
DENSE_NODE_GPUS = 8

CHECK = CheckMeta(
    id="gpu-monitoring-agent-memory",
    area="gpu-health",
    severity=Severity.medium,
    title=text("GPU 감시 에이전트의 메모리", "Memory of GPU monitoring agents"),
    why=text(
        "감시 에이전트가 메모리 한도에 걸려 죽으면 그 노드의 GPU 감시가 아무 경보 없이 끊깁니다. PyTorch CI "
        "클러스터에서는 512Mi 한도의 dcgm-exporter가 GPU 8장짜리 노드에서만 거듭 OOMKilled로 재시작했고, "
        "1장·4장 노드에서는 한 번도 죽지 않았습니다. 재시작하는 동안 그 노드의 XID·ECC 오류는 아무도 보지 "
        "못합니다.",
        "A monitoring agent that hits its memory limit turns GPU monitoring off on its node without any "
        "alert. In PyTorch's CI clusters a dcgm-exporter limited to 512Mi kept restarting as OOMKilled on "
        "8-GPU nodes only, never on 1- or 4-GPU nodes. While it restarts, nobody sees that node's XID "
        "and ECC errors.",
    ),
    remediation=text(
        "dcgm-exporter와 DCGM의 메모리 한도를 가장 큰 GPU 노드 기준으로 잡으세요(8장 노드라면 512Mi보다 "
        "넉넉하게). Go로 만든 에이전트는 GOMAXPROCS를 CPU 한도에 맞추고, 마지막 종료 사유가 OOMKilled인 "
        "감시 파드에는 지표 공백으로 경보를 거세요.",
        "Size dcgm-exporter and DCGM memory limits for the largest GPU node (well above 512Mi on 8-GPU "
        "nodes). For agents written in Go, set GOMAXPROCS to match the CPU limit, and alert on any "
        "monitoring pod whose last termination was OOMKilled as a telemetry gap.",
    ),
    decides=text(
        "GPU 노드에서 도는 감시 에이전트 파드(dcgm-exporter, DCGM, NVSentinel, GPUd, Autopilot, EKS Node "
        "Monitoring Agent, node-problem-detector)의 에이전트 컨테이너를 봅니다. 마지막 종료 사유나 현재 "
        "종료 사유가 OOMKilled이면 실패입니다. DCGM 계열 에이전트는 GPU가 8장 이상인 노드에서 메모리 "
        "한도가 512Mi 이하여도 실패입니다. 사이드카는 보지 않고, 결과는 DaemonSet마다 하나로 묶습니다.",
        "Looks at the agent container of monitoring pods on GPU nodes (dcgm-exporter, DCGM, NVSentinel, "
        "GPUd, Autopilot, the EKS Node Monitoring Agent, node-problem-detector). A last or current "
        "termination reason of OOMKilled fails. For DCGM-based agents, a memory limit of 512Mi or less on "
        "a node with 8 or more GPUs fails too. Sidecars are ignored; findings are grouped per DaemonSet.",
    ),
    incidents=("pytorch-2026-05-dcgm-exporter-oomkill-8-gpu-nodes",),
    needs=("Node", "Pod"),
    components=("gpu-health-monitoring", "monitoring"),
    references=(
        "https://github.com/NVIDIA/dcgm-exporter",
        "https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/",
    ),
    manifests=False,
)


@dataclass
class _Agent:
    """One DaemonSet (or static pod) of a monitoring agent, with what its pods on GPU nodes show."""

    ref: ObjectRef
    role: str
    pods: int = 0
    oom_nodes: list[str] = field(default_factory=list)
    small_limit_nodes: list[str] = field(default_factory=list)
    limit: str = ""


def run(snapshot: Snapshot) -> Iterator[Finding]:
    nodes = {node.name: node for node in gpu_nodes(snapshot)}
    if not nodes:
        yield not_applicable(CHECK, GPU_NODE_NOTE)
        return
    agents: dict[tuple[str, str, str], _Agent] = {}
    roles: dict[tuple[str, str, str], str] = {}
    for pod in snapshot.of("Pod"):
        node = nodes.get(str(dig(pod, "spec", "nodeName") or ""))
        if node is None or dig(pod, "status", "phase") in ("Succeeded", "Failed"):
            continue
        owner = _owner_key(pod)
        if owner is None:
            continue
        if owner not in roles:
            roles[owner] = classify(owner[2], mapping(pod.get("spec")), labels_of(pod))
        role = roles[owner]
        if role not in MONITORING_ROLES:
            continue
        agent = agents.setdefault(owner, _Agent(_owner_ref(pod, owner), role))
        _read_pod(agent, pod, max(node.gpu_capacity.values(), default=0))
    if not agents:
        yield not_applicable(
            CHECK,
            message(
                "GPU 노드에서 도는 GPU 감시 에이전트 파드가 없습니다"
                "(있어야 하는지는 gpu-health-agent가 판단합니다)",
                "no GPU monitoring agent pods run on GPU nodes (gpu-health-agent judges whether they should)",
            ),
        )
        return
    problems = 0
    for agent in sorted(agents.values(), key=lambda found: found.ref.display()):
        for finding in _verdicts(agent):
            problems += 1
            yield finding
    if not problems:
        pods = sum(agent.pods for agent in agents.values())
        yield passed(
            CHECK,
            None,
            message(
                "GPU 노드의 감시 에이전트 파드 {pods}개 모두 OOMKilled 흔적이 없고 "
                "메모리 한도도 노드에 맞습니다",
                "all {pods} monitoring agent pods on GPU nodes: no OOM kill, memory limits fit the node",
                pods=pods,
            ),
            {"agents": sample([agent.ref.display() for agent in agents.values()])},
        )


def _owner_key(pod: KubeObject) -> tuple[str, str, str] | None:
    """(kind, namespace, name) of the DaemonSet that owns the pod, or of a static pod itself."""
    owner = controller_owner(pod) or {}
    if owner.get("kind") == "DaemonSet":
        return ("DaemonSet", namespace_of(pod), str(owner.get("name") or ""))
    if owner.get("kind") == "Node":
        return ("Pod", namespace_of(pod), name_of(pod))
    return None


def _owner_ref(pod: KubeObject, owner: tuple[str, str, str]) -> ObjectRef:
    kind, namespace, name = owner
    version = "v1" if kind == "Pod" else "apps/v1"
    return ObjectRef(kind=kind, name=name, namespace=namespace, api_version=version)


def _is_agent_container(container: dict[str, Any], role: str) -> bool:
    """The container that is the agent itself, not a kube-rbac-proxy or log sidecar next to it."""
    return classify(str(container.get("name") or ""), {"containers": [container]}, {}) == role


def _read_pod(agent: _Agent, pod: KubeObject, node_gpus: int) -> None:
    agent.pods += 1
    node = str(dig(pod, "spec", "nodeName"))
    statuses = {str(status.get("name")): status for status in items(dig(pod, "status", "containerStatuses"))}
    for container in items(dig(pod, "spec", "containers")):
        if not _is_agent_container(container, agent.role):
            continue
        status = statuses.get(str(container.get("name")), {})
        reasons = {
            dig(status, "lastState", "terminated", "reason"),
            dig(status, "state", "terminated", "reason"),
        }
        if "OOMKilled" in reasons:
            agent.oom_nodes.append(node)
        limit = dig(container, "resources", "limits", "memory")
        size = quantity(limit)
        dense = agent.role in DCGM_ROLES and node_gpus >= DENSE_NODE_GPUS
        if dense and size is not None and size <= SMALL_LIMIT_BYTES:
            agent.small_limit_nodes.append(node)
            agent.limit = str(limit)


def _verdicts(agent: _Agent) -> Iterator[Finding]:
    name = agent.ref.display()
    if agent.oom_nodes:
        yield failed(
            CHECK,
            agent.ref,
            message(
                "{name}의 파드 {pods}개 중 {count}개가 메모리 부족(OOMKilled)으로 죽었습니다",
                "{name}: {count} of its {pods} pods last ended OOMKilled",
                name=name,
                pods=agent.pods,
                count=len(agent.oom_nodes),
            ),
            {"role": agent.role, "nodes": sample(agent.oom_nodes), "oom_killed": len(agent.oom_nodes)},
        )
    elif agent.small_limit_nodes:
        yield failed(
            CHECK,
            agent.ref,
            message(
                "{name}의 메모리 한도 {limit:은} GPU {gpus}장 이상인 노드"
                "(이런 노드 {count}대)에서 모자랄 수 있습니다",
                "{name}: a memory limit of {limit} can run short on nodes with {gpus}+ GPUs "
                "({count} such nodes)",
                name=name,
                limit=agent.limit,
                gpus=DENSE_NODE_GPUS,
                count=len(agent.small_limit_nodes),
            ),
            {"role": agent.role, "limit": agent.limit, "nodes": sample(agent.small_limit_nodes)},
        )
