"""Allocatable below capacity means the device plugin has written GPUs off; the count rarely comes back."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import Message, message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import GPU_NODE_NOTE, failed, not_applicable, passed, text
from kubegap.checker.extract import gpu_nodes, integer
from kubegap.checker.extract.nodes import NodeView
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot

CHECK = CheckMeta(
    id="gpu-allocatable-below-capacity",
    area="gpu-health",
    severity=Severity.medium,
    title=text("설치된 GPU 대비 할당 가능한 GPU", "Allocatable GPUs against installed GPUs"),
    why=text(
        "디바이스 플러그인은 XID 오류가 난 GPU를 unhealthy로 표시하고, 오류가 사라진 뒤에도 플러그인을 "
        "재시작하기 전까지 되돌리지 않습니다. 8-GPU 노드가 7개로 남으면 8-GPU 파드는 영영 그 노드에 "
        "들어가지 못하고 용량이 조용히 사라집니다.",
        "The device plugin marks a GPU unhealthy after an XID and does not restore it, even once the error "
        "clears, until the plugin restarts. An 8-GPU node stuck at 7 never fits an 8-GPU pod again, and "
        "capacity quietly vanishes.",
    ),
    remediation=text(
        "원인 XID를 확인하고(nvidia-smi, 커널 로그), 일시적인 오류면 디바이스 플러그인 파드를 재시작하고, "
        "하드웨어 오류면 노드를 cordon하고 교체하세요. allocatable < capacity에 경보를 거세요.",
        "Find the XID behind it (nvidia-smi, kernel log). For a transient error restart the device-plugin "
        "pod; for a hardware error cordon and replace the node. Alert on allocatable < capacity.",
    ),
    decides=text(
        "GPU 노드마다 GPU 리소스의 allocatable이 capacity보다 작거나, MIG를 쓰지 않는데 capacity가 GFD "
        "레이블 nvidia.com/gpu.count보다 작으면 실패입니다.",
        "For each GPU node, fails when a GPU resource's allocatable is below its capacity, or (without "
        "MIG) when capacity is below the GFD label nvidia.com/gpu.count.",
    ),
    incidents=(
        "k8s-device-plugin-2024-xid94-allocatable-not-recovered",
        "k8s-device-plugin-2021-gpu-unhealthy-forever",
        "opt-2021-11-175b-early-hardware-restarts",
    ),
    needs=("Node",),
    components=("device-plugin", "gpu"),
    references=(
        "https://github.com/NVIDIA/k8s-device-plugin/blob/main/internal/rm/health.go",
        "https://github.com/aws/eks-node-monitoring-agent/blob/main/docs/node-health-issues.adoc",
    ),
    manifests=False,
)


def _problems(node: NodeView) -> list[Message]:
    problems = []
    for resource, capacity in node.gpu_capacity.items():
        allocatable = node.gpu_allocatable.get(resource, 0)
        if allocatable < capacity:
            problems.append(
                message(
                    "{resource}: 할당 가능 {allocatable}개 < 용량 {capacity}개",
                    "{resource}: allocatable {allocatable} < capacity {capacity}",
                    resource=resource,
                    allocatable=allocatable,
                    capacity=capacity,
                )
            )
    uses_mig = node.labels.get("nvidia.com/mig.strategy", "none") != "none" or any(
        resource.startswith("nvidia.com/mig-") for resource in node.gpu_capacity
    )
    counted = integer(node.labels.get("nvidia.com/gpu.count"), -1)
    installed = node.gpu_capacity.get("nvidia.com/gpu", 0)
    if not uses_mig and counted > 0 and installed < counted:
        problems.append(
            message(
                "nvidia.com/gpu capacity {installed}개가 "
                "GPU Feature Discovery 레이블의 GPU {counted}개보다 적습니다",
                "nvidia.com/gpu capacity {installed} < {counted} GPUs labelled by GPU Feature Discovery",
                installed=installed,
                counted=counted,
            )
        )
    return problems


def run(snapshot: Snapshot) -> Iterator[Finding]:
    nodes = gpu_nodes(snapshot)
    if not nodes:
        yield not_applicable(CHECK, GPU_NODE_NOTE)
        return
    failing = 0
    for node in nodes:
        problems = _problems(node)
        if problems:
            failing += 1
            said = message("{name}:", "{name}:", name=node.name) + problems[0]
            yield failed(CHECK, node.ref, said, {"problems": [str(problem) for problem in problems]})
    if not failing:
        yield passed(
            CHECK,
            None,
            message(
                "GPU 노드 {count}대 모두 설치된 GPU를 전부 내놓습니다",
                "all {count} GPU nodes offer every installed GPU",
                count=len(nodes),
            ),
        )
