"""system-upgrade-controller Plans must not take a large slice of the GPU pool at once."""

from __future__ import annotations

import math
from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import crd_state, failed, not_applicable, passed, text
from kubegap.checker.extract import dig, gpu_nodes, integer, ref, selector_matches
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Coverage, KubeObject, Snapshot

PLAN = "upgrade.cattle.io/Plan"
MAX_POOL_FRACTION = 0.1

CHECK = CheckMeta(
    id="suc-plan-gpu-pool",
    area="fleet-change",
    severity=Severity.high,
    title=text(
        "OS 업그레이드 Plan이 GPU 풀에서 동시에 올리는 비율",
        "OS upgrade Plan concurrency across a GPU pool",
    ),
    why=text(
        "호스트 OS·커널 업데이트가 수천 대 노드의 네트워크를 한 번에 끊은 일이 있습니다. OpenAI(2025년 "
        "6월)에서는 GPU 서버 다수가, Datadog(2023년 3월)에서는 여러 리전의 쿠버네티스 노드가 함께 "
        "빠졌습니다. OpenAI의 쿠버네티스 업그레이드에서는 순환된 GPU 노드가 부팅 진단 시간 초과로 돌아오지 "
        "못해, 옮길 여유가 없던 DALL·E가 대부분의 요청에 실패했습니다. Plan의 concurrency가 GPU 풀에 비해 "
        "크거나 cordon·drain 없이 실행되면, 한 번의 잘못된 업데이트가 학습과 서빙 용량을 통째로 앗아갑니다.",
        "Host OS and kernel updates have cut the network of thousands of nodes at once: a large share of "
        "GPU servers at OpenAI (June 2025), Kubernetes nodes across several regions at Datadog (March "
        "2023). In an OpenAI Kubernetes upgrade, cycled GPU nodes never rejoined because a boot-time GPU "
        "diagnostic timed out, and DALL-E, with no spare capacity to move to, failed most requests. If a "
        "Plan's concurrency is large for the GPU pool, or it runs without cordon or drain, one bad update "
        "takes out training and serving capacity in a single sweep.",
    ),
    remediation=text(
        "GPU 노드를 덮는 Plan은 concurrency를 1이나 풀의 10% 이하로 두고, drain(또는 최소한 cordon: "
        "true)을 켜세요. 먼저 카나리아 노드만 고르는 Plan으로 시작하세요.",
        "Give Plans that cover GPU nodes a concurrency of 1 or at most 10% of the pool, and enable drain "
        "(or at least cordon: true). Start with a Plan that selects only canary nodes.",
    ),
    decides=text(
        "Plan의 nodeSelector에 걸리는 GPU 노드 수를 세어, concurrency가 그 10%(최소 1)를 넘으면 "
        "실패입니다. drain도 cordon도 없으면 노드 정보와 상관없이 실패입니다.",
        "Counts the GPU nodes a Plan's nodeSelector covers and fails when concurrency exceeds 10% of them "
        "(at least 1). A Plan with neither drain nor cordon fails regardless of node data.",
    ),
    incidents=(
        "openai-2025-06-gpu-host-os-update-network-loss",
        "datadog-2023-03-systemd-networkd-unattended-upgrade",
        "github-copilot-2023-10-model-node-auto-upgrade",
        "openai-2023-03-node-rejoin-gpu-diagnostic-timeout",
    ),
    needs=(),
    optional=(PLAN, "Node"),
    components=("host-os", "deployment-pipeline"),
    references=("https://github.com/rancher/system-upgrade-controller",),
)


def _judge(plan: KubeObject, snapshot: Snapshot, nodes_read: bool) -> Finding:
    spec = dig(plan, "spec") or {}
    concurrency = max(integer(dig(spec, "concurrency"), 1), 1)
    protects = dig(spec, "drain") is not None or dig(spec, "cordon") is True
    evidence: dict[str, object] = {
        "concurrency": concurrency,
        "drain": dig(spec, "drain") is not None,
        "cordon": dig(spec, "cordon") is True,
    }
    if nodes_read:
        selector = dig(spec, "nodeSelector")  # like the controller: no selector selects no node
        covered = [
            node.name
            for node in gpu_nodes(snapshot)
            if selector is not None and selector_matches(node.labels, selector)
        ]
        evidence["gpu_nodes_covered"] = len(covered)
        if not covered:
            return passed(
                CHECK,
                ref(plan),
                message("이 Plan은 GPU 노드를 고르지 않습니다", "the Plan selects no GPU node"),
                evidence,
            )
        allowed = max(1, math.floor(len(covered) * MAX_POOL_FRACTION))
        if concurrency > allowed:
            return failed(
                CHECK,
                ref(plan),
                message(
                    "GPU 노드 {total}대 중 {count}대를 한 번에 업그레이드합니다",
                    "upgrades {count} of {total} GPU nodes at once",
                    count=concurrency,
                    total=len(covered),
                ),
                evidence,
            )
    if not protects:
        said = message(
            "cordon이나 drain 없이 노드를 업그레이드합니다", "upgrades nodes without cordon or drain"
        )
        return failed(CHECK, ref(plan), said, evidence)
    said = message(
        "cordon/drain을 거쳐 한 번에 최대 {count}대씩 업그레이드합니다",
        "upgrades at most {count} node(s) at a time with cordon/drain",
        count=concurrency,
    )
    return passed(CHECK, ref(plan), said, evidence)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    if crd_state(snapshot, PLAN) != "read" or not snapshot.of(PLAN):
        yield not_applicable(
            CHECK, message("system-upgrade-controller Plan이 없습니다", "no system-upgrade-controller Plan")
        )
        return
    nodes_read = snapshot.status_of("Node").status is Coverage.read and bool(snapshot.of("Node"))
    for plan in snapshot.of(PLAN):
        yield _judge(plan, snapshot, nodes_read)
