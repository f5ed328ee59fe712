"""GPU nodes of one pool on different kernels or OS images: updates are landing outside any rollout."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import (
    GPU_NODE_NOTE,
    failed,
    not_applicable,
    passed,
    sample,
    text,
    unknown,
)
from kubegap.checker.extract import gpu_nodes
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot

CHECK = CheckMeta(
    id="gpu-pool-os-drift",
    area="fleet-change",
    severity=Severity.low,
    title=text("GPU 풀 안의 커널·OS 이미지 일치", "One kernel and OS image per GPU pool"),
    why=text(
        "한 풀 안에서 커널이나 OS 이미지가 다르면, 노드가 관리된 롤아웃이 아닌 무인 업데이트로 바뀌고 "
        "있다는 신호입니다. Datadog에서는 무인 보안 업데이트가 전 노드의 systemd-networkd를 한꺼번에 "
        "재시작해 네트워크가 끊겼고, OpenAI에서는 예정된 호스트 OS 업데이트가 GPU 노드 다수의 네트워크를 "
        "끊었습니다.",
        "Different kernels or OS images within one pool mean nodes are changing through unattended updates "
        "rather than a managed rollout. At Datadog an unattended security update restarted "
        "systemd-networkd on every node at once and cut networking; at OpenAI a scheduled host OS update "
        "took a large share of GPU nodes off the network.",
    ),
    remediation=text(
        "GPU 노드의 무인 업그레이드(unattended-upgrades)를 끄고, 커널·OS 변경은 새 노드 이미지나 "
        "system-upgrade-controller Plan으로 카나리아부터 단계적으로 굴리세요.",
        "Turn off unattended upgrades on GPU nodes and ship kernel and OS changes as new node images or "
        "system-upgrade-controller Plans, canary first, in stages.",
    ),
    decides=text(
        "GPU 노드를 노드 풀별로 묶어 status.nodeInfo의 kernelVersion과 osImage 값이 두 가지 이상이면 "
        "실패입니다.",
        "Groups GPU nodes by pool; more than one kernelVersion or osImage in status.nodeInfo within a pool "
        "fails.",
    ),
    incidents=(
        "datadog-2023-03-systemd-networkd-unattended-upgrade",
        "openai-2025-06-gpu-host-os-update-network-loss",
    ),
    needs=("Node",),
    components=("host-os", "deployment-pipeline"),
    references=(
        "https://www.datadoghq.com/blog/engineering/2023-03-08-deep-dive-into-platform-level-impact/",
        "https://kubernetes.io/docs/reference/node/node-status/#info",
    ),
    manifests=False,
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    nodes = gpu_nodes(snapshot)
    if not nodes:
        yield not_applicable(CHECK, GPU_NODE_NOTE)
        return
    pools: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for node in nodes:
        kernel, image = node.info.get("kernelVersion"), node.info.get("osImage")
        if kernel or image:
            pools[node.pool or "(no pool label)"][f"{image} / {kernel}"].append(node.name)
    if not pools:
        yield unknown(
            CHECK,
            None,
            message(
                "GPU 노드가 nodeInfo에 커널도 OS 이미지도 알리지 않습니다",
                "GPU nodes report no nodeInfo kernel or OS image",
            ),
        )
        return
    for pool, builds in sorted(pools.items()):
        if len(builds) > 1:
            evidence: dict[str, object] = {
                "pool": pool,
                "builds": {b: sample(n, 5) for b, n in builds.items()},
            }
            said = message(
                "풀 {pool}에서 OS/커널 빌드 {count}개가 섞여 돕니다",
                "pool {pool} runs {count} OS/kernel builds",
                pool=pool,
                count=len(builds),
            )
            yield failed(CHECK, None, said, evidence)
        else:
            said = message(
                "풀 {pool:은} OS/커널 빌드 하나로 돕니다", "pool {pool} runs one OS/kernel build", pool=pool
            )
            yield passed(CHECK, None, said)
