"""A per-node agent that LISTs pods or endpoints cluster-wide multiplies API load by the node count."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import failed, not_applicable, passed, text
from kubegap.checker.extract import cluster_wide_reads, daemonsets
from kubegap.checker.extract.agents import NODE_SCOPED_ROLES, DaemonSetView, is_cluster_network
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot

RBAC_KINDS = ("rbac.authorization.k8s.io/ClusterRole", "rbac.authorization.k8s.io/ClusterRoleBinding")
# Reads whose cost grows with the cluster: pods/endpoints of every namespace from every node.
FAN_OUT = frozenset({"pods", "endpoints", "endpointslices", "secrets", "configmaps", "events"})

CHECK = CheckMeta(
    id="node-agent-cluster-wide-reads",
    area="control-plane",
    severity=Severity.medium,
    title=text("노드별 에이전트의 클러스터 전체 LIST/WATCH", "Cluster-wide LIST/WATCH by per-node agents"),
    why=text(
        "DaemonSet 파드 하나하나가 모든 네임스페이스의 pods·endpoints를 LIST하면, API 서버 부하가 노드 "
        "수에 비례해 커집니다. OpenAI에서는 2024년 12월 새 텔레메트리 서비스가 바로 이렇게 동작해, 대형 "
        "클러스터 대부분의 컨트롤 플레인이 쓰러졌습니다.",
        "When every DaemonSet pod LISTs pods or endpoints across all namespaces, API server load grows "
        "with the node count. In December 2024 a new OpenAI telemetry service did exactly this and took "
        "down the control planes of most of its large clusters.",
    ),
    remediation=text(
        "에이전트가 자기 노드의 파드만 보도록 fieldSelector spec.nodeName을 쓰거나 kubelet API를 읽게 "
        "하고, RBAC를 필요한 리소스로 줄이세요. 꼭 필요하면 전용 FlowSchema와 작은 priority level로 "
        "묶으세요(node-agent-apf-guard 참고).",
        "Make the agent watch only its own node's pods (fieldSelector spec.nodeName, or the kubelet API) "
        "and trim its RBAC to what it needs. If it must read cluster-wide, fence it with a dedicated "
        "FlowSchema and a small priority level (see node-agent-apf-guard).",
    ),
    decides=text(
        "DaemonSet의 ServiceAccount가 ClusterRoleBinding으로 "
        "pods·endpoints·endpointslices·secrets·configmaps·events를 list/watch할 수 있으면 실패입니다. "
        "네임스페이스 하나에 묶인 RoleBinding, 자기 노드의 파드만 읽는 업스트림 GPU 에이전트(드라이버 "
        "매니저, 디바이스 플러그인, dcgm-exporter, DRA kubelet 플러그인), 그리고 설계상 클러스터 전체를 "
        "watch해야 하는 파드 네트워크(CNI 에이전트, kube-proxy)는 세지 않습니다.",
        "Fails when a DaemonSet's ServiceAccount may list/watch pods, endpoints, endpointslices, secrets, "
        "configmaps or events through a ClusterRoleBinding. Not counted: RoleBindings confined to one "
        "namespace, upstream GPU agents that scope pod reads to their own node (driver manager, device "
        "plugin, dcgm-exporter, DRA kubelet plugins), and the pod network (CNI agents, kube-proxy), which "
        "must watch the whole cluster by design.",
    ),
    incidents=(
        "openai-2024-12-telemetry-kube-apiserver-overload",
        "openai-2021-k8s-7500-nodes-scaling-limits",
        "openai-2018-k8s-etcd-disk-latency",
    ),
    needs=("apps/DaemonSet", *RBAC_KINDS),
    components=("kube-apiserver", "node-agent", "monitoring"),
    references=(
        "https://status.openai.com/incidents/ctrsv3lwd797",
        "https://kubernetes.io/docs/reference/using-api/api-concepts/#efficient-detection-of-changes",
    ),
)


def heavy_agents(snapshot: Snapshot) -> list[tuple[DaemonSetView, list[str]]]:
    """DaemonSets whose ServiceAccount may LIST/WATCH fan-out resources in every namespace."""
    grants = cluster_wide_reads(snapshot)
    found = []
    for ds in daemonsets(snapshot):
        if ds.role in NODE_SCOPED_ROLES or "kubelet-plugin" in ds.ref.name or is_cluster_network(ds.ref.name):
            continue
        resources = sorted(grants.get((ds.namespace, ds.service_account), set()) & FAN_OUT)
        if resources:
            found.append((ds, resources))
    return found


def run(snapshot: Snapshot) -> Iterator[Finding]:
    views = daemonsets(snapshot)
    if not views:
        yield not_applicable(CHECK, message("DaemonSet이 없습니다", "no DaemonSets"))
        return
    heavy = heavy_agents(snapshot)
    for ds, resources in heavy:
        evidence: dict[str, object] = {
            "serviceAccount": f"{ds.namespace}/{ds.service_account}",
            "resources": resources,
        }
        yield failed(
            CHECK,
            ds.ref,
            message(
                "{name}의 파드 하나하나가 클러스터 전체의 {resources:을} list/watch할 수 있습니다",
                "every pod of {name} may list/watch {resources} cluster-wide",
                name=ds.ref.name,
                resources=", ".join(resources),
            ),
            evidence,
        )
    if not heavy:
        yield passed(
            CHECK,
            None,
            message(
                "DaemonSet {count}개 중 클러스터 전체의 파드나 엔드포인트를 나열할 수 있는 것은 없습니다",
                "none of {count} DaemonSets may list pods or endpoints cluster-wide",
                count=len(views),
            ),
        )
