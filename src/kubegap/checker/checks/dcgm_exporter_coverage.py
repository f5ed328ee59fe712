"""dcgm-exporter must reach every GPU node: a missing toleration silently leaves nodes unwatched."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import GPU_NODE_NOTE, failed, not_applicable, passed, sample, text
from kubegap.checker.extract import daemonsets, gpu_nodes, integer, placement_blockers
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot

CHECK = CheckMeta(
    id="dcgm-exporter-coverage",
    area="gpu-health",
    severity=Severity.high,
    title=text("dcgm-exporter가 닿는 GPU 노드 범위", "dcgm-exporter coverage of GPU nodes"),
    why=text(
        "dcgm-exporter가 GPU 노드의 taint를 허용하지 않거나 nodeSelector가 맞지 않으면 그 노드에는 파드가 "
        "뜨지 않습니다. 대시보드는 정상으로 보이지만, 바로 그 노드의 ECC·XID 오류는 아무도 보지 못합니다.",
        "If dcgm-exporter does not tolerate a GPU node's taint or its nodeSelector does not match, no pod "
        "lands there. Dashboards look fine while that node's ECC and XID errors go unseen.",
    ),
    remediation=text(
        "DaemonSet에 GPU 노드의 taint(예: nvidia.com/gpu:NoSchedule)에 대한 toleration을 추가하고, "
        "nodeSelector가 모든 GPU 노드의 레이블과 맞는지 확인하세요. desiredNumberScheduled와 numberReady를 "
        "GPU 노드 수와 비교해 경보를 거세요.",
        "Add tolerations for the GPU nodes' taints (e.g. nvidia.com/gpu:NoSchedule) and make sure the "
        "nodeSelector matches every GPU node's labels. Alert when desiredNumberScheduled or numberReady "
        "falls below the GPU node count.",
    ),
    decides=text(
        "dcgm-exporter DaemonSet마다 각 GPU 노드에 스케줄될 수 있는지(nodeSelector, 필수 node affinity, "
        "taint)와 numberReady가 desiredNumberScheduled보다 작은지 봅니다.",
        "For each dcgm-exporter DaemonSet, tests whether its pods can land on every GPU node "
        "(nodeSelector, required node affinity, taints) and whether numberReady is below "
        "desiredNumberScheduled.",
    ),
    incidents=("opt-2021-11-175b-early-hardware-restarts", "llama3-2024-54-day-interruptions"),
    needs=("Node", "apps/DaemonSet"),
    components=("gpu-health-monitoring", "monitoring"),
    references=(
        "https://github.com/NVIDIA/dcgm-exporter",
        "https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/",
    ),
    manifests=False,
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    nodes = gpu_nodes(snapshot)
    if not nodes:
        yield not_applicable(CHECK, GPU_NODE_NOTE)
        return
    exporters = [ds for ds in daemonsets(snapshot) if ds.role == "dcgm-exporter"]
    if not exporters:
        yield not_applicable(
            CHECK,
            message(
                "dcgm-exporter DaemonSet이 없습니다"
                "(다른 에이전트가 노드를 맡는지는 gpu-health-agent가 판단합니다)",
                "no dcgm-exporter DaemonSet (gpu-health-agent judges whether another agent covers the nodes)",
            ),
        )
        return
    reachable: dict[str, list[str]] = {}
    for exporter in exporters:
        for node in nodes:
            if not placement_blockers(exporter.spec, node.labels, node.taints, daemonset=True):
                reachable.setdefault(node.name, []).append(exporter.ref.display())
    missed = {node.name: node for node in nodes if node.name not in reachable}
    for name, node in sorted(missed.items()):
        reasons = {
            ds.ref.display(): placement_blockers(ds.spec, node.labels, node.taints, daemonset=True)
            for ds in exporters
        }
        yield failed(
            CHECK,
            node.ref,
            message(
                "GPU 노드 {name}에 dcgm-exporter 파드가 하나도 스케줄될 수 없습니다",
                "no dcgm-exporter pod can be scheduled on GPU node {name}",
                name=name,
            ),
            {"blockers": reasons},
        )
    not_ready = False
    for exporter in exporters:
        desired = integer(exporter.status.get("desiredNumberScheduled"), -1)
        ready = integer(exporter.status.get("numberReady"), -1)
        if desired >= 0 and 0 <= ready < desired:
            yield failed(
                CHECK,
                exporter.ref,
                message(
                    "{name}의 파드 {desired}개 중 {ready}개만 준비되었습니다",
                    "{name} has {ready} of {desired} pods ready",
                    name=exporter.ref.display(),
                    ready=ready,
                    desired=desired,
                ),
                {"desired": desired, "ready": ready},
                severity=Severity.medium,
            )
            not_ready = True
    if not missed and not not_ready:
        yield passed(
            CHECK,
            None,
            message(
                "dcgm-exporter가 GPU 노드 {count}대 모두에 닿습니다",
                "dcgm-exporter can reach all {count} GPU nodes",
                count=len(nodes),
            ),
            {"nodes": sample(list(reachable))},
        )
