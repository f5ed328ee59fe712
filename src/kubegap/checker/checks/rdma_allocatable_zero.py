"""RDMA devices advertised but none allocatable: multi-node jobs fall back to TCP or never start."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import failed, not_applicable, passed, text
from kubegap.checker.extract import integer, nodes
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot

CHECK = CheckMeta(
    id="rdma-allocatable-zero",
    area="networking",
    severity=Severity.high,
    title=text(
        "RDMA 장치를 알리는 노드의 할당 가능 수", "Allocatable RDMA devices on nodes that advertise them"
    ),
    why=text(
        "RDMA 디바이스 플러그인이 InfiniBand/RoCE 장치를 unhealthy로 보면 capacity는 남고 allocatable은 "
        "0이 됩니다. 그러면 RDMA를 요청한 학습 파드는 그 노드에 배치되지 않거나, 설정에 따라 훨씬 느린 "
        "TCP로 통신합니다. 대형 학습에서 네트워크 카드와 링크 고장은 흔한 중단 원인입니다.",
        "When the RDMA device plugin considers InfiniBand/RoCE devices unhealthy, capacity stays and "
        "allocatable drops to 0. Training pods that request RDMA then cannot land there or, depending on "
        "setup, fall back to much slower TCP. NIC and link faults are a routine cause of interruptions in "
        "large training runs.",
    ),
    remediation=text(
        "노드에서 ibstat/ibv_devinfo로 링크 상태를 보고, rdma-shared-dev-plugin이나 SR-IOV 디바이스 "
        "플러그인 로그(EFA는 aws-efa-k8s-device-plugin)를 확인하세요. 고칠 때까지 노드를 cordon하세요.",
        "Check link state on the node with ibstat/ibv_devinfo and read the rdma-shared-dev-plugin or "
        "SR-IOV device plugin logs (for EFA, aws-efa-k8s-device-plugin). Cordon the node until fixed.",
    ),
    decides=text(
        "노드의 rdma/*, nvidia.com/hostdev, AWS EFA(vpc.amazonaws.com/efa), *hca*, *ib* 확장 리소스 중 "
        "capacity가 0보다 큰데 allocatable이 0인 것이 있으면 실패입니다.",
        "Fails when a node's rdma/*, nvidia.com/hostdev, AWS EFA (vpc.amazonaws.com/efa), *hca* or *ib* "
        "extended resource has capacity above 0 and allocatable 0.",
    ),
    incidents=(
        "llama3-2024-54-day-interruptions",
        "imbue-2024-70b-cluster-bringup",
        "opt-2021-11-thanksgiving-restarts-buffer-nodes",
    ),
    needs=("Node",),
    components=("infiniband-rdma", "device-plugin"),
    references=(
        "https://github.com/Mellanox/k8s-rdma-shared-dev-plugin",
        "https://github.com/Mellanox/network-operator",
        "https://docs.aws.amazon.com/eks/latest/userguide/node-efa.html",
    ),
    manifests=False,
)


def is_rdma_resource(name: str) -> bool:
    if "/" not in name:
        return False
    group, resource = name.split("/", 1)
    return (
        group == "rdma"
        or name in ("nvidia.com/hostdev", "vpc.amazonaws.com/efa")
        or "hca" in resource
        or resource.startswith(("ib", "rdma"))
    )


def run(snapshot: Snapshot) -> Iterator[Finding]:
    examined = 0
    failing = 0
    for node in nodes(snapshot):
        resources = {str(k): integer(v) for k, v in node.capacity.items() if is_rdma_resource(str(k))}
        if not any(resources.values()):
            continue
        examined += 1
        dead = [
            name
            for name, count in resources.items()
            if count > 0 and integer(node.allocatable.get(name)) == 0
        ]
        if dead:
            failing += 1
            yield failed(
                CHECK,
                node.ref,
                message(
                    "{name:이} {resources:을} 내세우지만 할당할 수 있는 것이 하나도 없습니다",
                    "{name} advertises {resources} but none is allocatable",
                    name=node.name,
                    resources=", ".join(dead),
                ),
                {"resources": dead},
            )
    if not examined:
        yield not_applicable(
            CHECK, message("RDMA 리소스를 내세우는 노드가 없습니다", "no node advertises RDMA resources")
        )
    elif not failing:
        said = message(
            "RDMA 노드 {count}대 모두 RDMA 리소스를 할당할 수 있습니다",
            "RDMA resources allocatable on all {count} RDMA nodes",
            count=examined,
        )
        yield passed(CHECK, None, said)
