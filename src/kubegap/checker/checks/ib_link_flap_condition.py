"""InfiniBand link flaps slow or hang every collective that crosses the bad port."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import failed, not_applicable, passed, text, unknown
from kubegap.checker.checks.rdma_allocatable_zero import is_rdma_resource
from kubegap.checker.extract import integer, nodes
from kubegap.checker.extract.conditions import is_bad, network_conditions
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot

CHECK = CheckMeta(
    id="ib-link-flap-condition",
    area="networking",
    severity=Severity.high,
    title=text("InfiniBand 링크 안정성", "InfiniBand link stability"),
    why=text(
        "IB 포트 하나가 오르내리면 그 포트를 지나는 모든 collective가 느려지거나 멈추고, 여러 노드에 걸친 "
        "작업 전체가 그 속도에 묶입니다. Imbue는 1만 2천 개가 넘는 링크 중 어느 하나라도 불안정하면 학습 "
        "전체가 느려질 수 있다고 보고 포트를 골라 끄는 도구까지 만들었습니다.",
        "One flapping IB port slows or stalls every collective that crosses it, and the whole multi-node "
        "job runs at that pace. Imbue, with over 12,000 links where any flaky one could slow the run, "
        "built tooling just to pick ports to disable.",
    ),
    remediation=text(
        "AKS NPD의 IBLinkFlapping 같은 IB 상태 condition을 올리는 에이전트를 두고, condition이 뜬 노드는 "
        "cordon한 뒤 케이블·트랜시버를 점검하세요.",
        "Run an agent that raises IB health conditions such as AKS NPD's IBLinkFlapping; cordon nodes that "
        "raise it and check cables and transceivers.",
    ),
    decides=text(
        "RDMA 리소스가 있는 노드에서 IB/RDMA 관련 condition이 나쁜 상태이면 실패, 그런 condition이 하나도 "
        "없으면 알 수 없음입니다.",
        "On nodes with RDMA resources, a bad IB/RDMA condition fails; if no such condition exists at all, "
        "the result is unknown.",
    ),
    incidents=("imbue-2024-70b-cluster-bringup", "llama3-2024-54-day-interruptions"),
    needs=("Node",),
    components=("infiniband-rdma", "datacenter-network"),
    references=("https://learn.microsoft.com/en-us/azure/aks/node-problem-detector",),
    manifests=False,
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    fabric_nodes = [
        node
        for node in nodes(snapshot)
        if network_conditions(node)
        or any(is_rdma_resource(str(k)) and integer(v) > 0 for k, v in node.capacity.items())
    ]
    if not fabric_nodes:
        yield not_applicable(
            CHECK,
            message(
                "InfiniBand/RDMA 리소스나 컨디션이 있는 노드가 없습니다",
                "no node with InfiniBand/RDMA resources or conditions",
            ),
        )
        return
    observed = 0
    failing = 0
    for node in fabric_nodes:
        conditions = network_conditions(node)
        observed += bool(conditions)
        bad = [f"{key}={value.get('status')}" for key, value in conditions.items() if is_bad(key, value)]
        if bad:
            failing += 1
            yield failed(
                CHECK,
                node.ref,
                message(
                    "{name:이} {conditions:을} 알립니다",
                    "{name} reports {conditions}",
                    name=node.name,
                    conditions=", ".join(bad),
                ),
                {"conditions": bad, "fenced": node.fenced},
            )
    if failing:
        return
    if observed:
        said = message(
            "링크 상태를 알리는 노드 {count}대에 InfiniBand 링크 문제가 없습니다",
            "no InfiniBand link problem on {count} nodes that report link health",
            count=observed,
        )
        yield passed(CHECK, None, said)
    else:
        said = message(
            "RDMA 노드 {count}대가 InfiniBand 링크 컨디션을 내지 않습니다",
            "{count} RDMA nodes publish no InfiniBand link condition",
            count=len(fabric_nodes),
        )
        yield unknown(CHECK, None, said)
