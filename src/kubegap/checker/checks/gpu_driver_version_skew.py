"""One pool, one driver: a multi-node job spread over mixed drivers fails in ways no single node shows."""

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
from kubegap.checker.extract.nodes import NodeView
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot

CHECK = CheckMeta(
    id="gpu-driver-version-skew",
    area="gpu-stack",
    severity=Severity.medium,
    title=text("노드 풀 안의 GPU 드라이버 버전 일치", "One GPU driver version per node pool"),
    why=text(
        "한 풀의 노드가 서로 다른 드라이버·CUDA 버전을 쓰면, 여러 노드에 걸친 학습 작업은 어느 노드에 "
        "배치되느냐에 따라 동작이 달라집니다. Azure HPC 이미지에서는 패키지 업그레이드 한 번으로 "
        "드라이버와 Fabric Manager 버전이 어긋나 NVSwitch 노드에서 CUDA가 초기화되지 않았고, OPT 팀은 실행 "
        "중 의존성이 실수로 업그레이드되어 학습 양상이 달라졌으며, Imbue는 펌웨어·VBIOS 버전 차이를 "
        "노드마다 점검해야 했습니다.",
        "When nodes of one pool run different driver or CUDA versions, a multi-node job behaves "
        "differently depending on where it lands. On Azure HPC images one package upgrade put the driver "
        "and Fabric Manager out of step and CUDA failed to initialise on NVSwitch nodes; OPT saw training "
        "dynamics change after a dependency was upgraded by accident mid-run; Imbue had to police firmware "
        "and VBIOS drift host by host.",
    ),
    remediation=text(
        "드라이버 업그레이드를 풀 단위로 끝까지 마치고(GPU Operator upgradePolicy), 끝나지 않은 노드는 "
        "cordon하세요. 학습 작업은 nvidia.com/cuda.driver 레이블로 버전을 고정해 배치하세요.",
        "Finish driver upgrades pool by pool (GPU Operator upgradePolicy) and cordon nodes left behind. "
        "Pin training jobs to one version with the nvidia.com/cuda.driver labels.",
    ),
    decides=text(
        "GPU Feature Discovery 레이블(nvidia.com/cuda.driver.major/minor/rev 또는 "
        "cuda.driver-version.full)로 노드 풀마다 드라이버 버전을 모아, 한 풀에 두 버전 이상이면 "
        "실패입니다. 레이블이 없으면 판단할 수 없습니다.",
        "Groups GPU nodes by pool and reads the GPU Feature Discovery labels "
        "(nvidia.com/cuda.driver.major/minor/rev or cuda.driver-version.full); more than one version in a "
        "pool fails. Without the labels it cannot decide.",
    ),
    incidents=(
        "azure-hpc-2021-07-fabricmanager-driver-version-skew",
        "opt-2021-12-accidental-megatron-upgrade",
        "imbue-2024-70b-cluster-bringup",
    ),
    needs=("Node",),
    components=("gpu-driver", "gpu-operator"),
    references=("https://github.com/NVIDIA/k8s-device-plugin#gpu-feature-discovery",),
    manifests=False,
)


def driver_version(node: NodeView) -> str:
    labels = node.labels
    full = labels.get("nvidia.com/cuda.driver-version.full")
    if full:
        return full
    parts = [labels.get(f"nvidia.com/cuda.driver.{part}", "") for part in ("major", "minor", "rev")]
    return ".".join(parts) if parts[0] else ""


def run(snapshot: Snapshot) -> Iterator[Finding]:
    nodes = gpu_nodes(snapshot)
    if not nodes:
        yield not_applicable(CHECK, GPU_NODE_NOTE)
        return
    pools: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for node in nodes:
        version = driver_version(node)
        if version:
            pool = node.pool or f"nvidia.com/gpu.product={node.labels.get('nvidia.com/gpu.product', '?')}"
            pools[pool][version].append(node.name)
    if not pools:
        yield unknown(
            CHECK,
            None,
            message(
                "GPU Feature Discovery 드라이버 레이블이 붙은 GPU 노드가 없습니다",
                "no GPU node has GPU Feature Discovery driver labels",
            ),
        )
        return
    for pool, versions in sorted(pools.items()):
        if len(versions) > 1:
            evidence: dict[str, object] = {
                "pool": pool,
                "versions": {v: sample(n, 5) for v, n in versions.items()},
            }
            yield failed(
                CHECK,
                None,
                message(
                    "풀 {pool}에서 드라이버 버전 {count}개가 섞여 돕니다: {versions}",
                    "pool {pool} runs {count} driver versions: {versions}",
                    pool=pool,
                    count=len(versions),
                    versions=", ".join(sorted(versions)),
                ),
                evidence,
            )
        else:
            said = message(
                "풀 {pool:은} 드라이버 버전 {version} 하나로 돕니다",
                "pool {pool} runs one driver version {version}",
                pool=pool,
                version=next(iter(versions)),
            )
            yield passed(CHECK, None, said)
