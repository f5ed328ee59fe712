"""Privileged GPU pods and host /dev mounts reach every GPU of the node, around the device plugin."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kubegap.bilingual import Message, message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import judge_user_templates, text
from kubegap.checker.extract import containers, dig, items, mapping
from kubegap.checker.extract.podspec import container_requests_gpu, mounts, tpu_only, volumes
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.workload import USER_ROLES, WORKLOAD_KINDS, PodTemplate, Workload

# Node labels and taints that only GPU nodes carry: a pod that selects or tolerates them means to run there.
GPU_NODE_LABELS = frozenset(
    {
        "nvidia.com/gpu.present",
        "nvidia.com/gpu.product",
        "nvidia.com/gpu.count",
        "nvidia.com/gpu.deploy.device-plugin",
        "cloud.google.com/gke-accelerator",
        "k8s.amazonaws.com/accelerator",
        "karpenter.k8s.aws/instance-gpu-count",
        "karpenter.k8s.aws/instance-gpu-name",
        "feature.node.kubernetes.io/pci-10de.present",
    }
)
GPU_TAINT_KEYS = frozenset({"nvidia.com/gpu", "amd.com/gpu"})

CHECK = CheckMeta(
    id="gpu-privileged-device-access",
    area="gpu-stack",
    severity=Severity.medium,
    title=text(
        "GPU 파드의 장치 접근(특권 모드, 호스트 /dev/* 마운트)",
        "Device access of GPU pods (privilege, host /dev mounts)",
    ),
    why=text(
        "privileged 컨테이너는 호스트의 장치 노드를 모두 받으므로 디바이스 플러그인이 몇 장을 할당했든 "
        "노드의 GPU를 모두 보고 쓸 수 있습니다. hostPath로 /dev나 /dev/nvidia*를 마운트해도 같습니다. "
        "GPUStack에서는 8×H100 노드에서 MIG 한 조각을 받은 privileged 파드가 카드 여덟 장과 다른 파드의 "
        "MIG 장치까지 보았고, 쿠버네티스 배포기가 GPU 요청 없는 privileged 파드를 만들었을 때는 "
        "오퍼레이터가 그 파드가 쓰는 카드를 비어 있다고 보고했습니다.",
        "A privileged container receives every device node of the host, so it sees and can use every GPU "
        "of the node however many the device plugin allocated; a hostPath mount of /dev or /dev/nvidia* "
        "does the same. At GPUStack, a privileged pod holding one MIG slice of an 8×H100 node saw all "
        "eight cards and another pod's MIG device, and when the Kubernetes deployer created privileged "
        "pods with no GPU request, the operator reported the card such a pod used as free.",
    ),
    remediation=text(
        "GPU 파드에서 privileged를 빼고 필요한 권한만 capabilities로 주세요. /dev나 /dev/nvidia* hostPath "
        "마운트를 지우고 GPU는 nvidia.com/gpu 같은 자원으로 요청하세요. 장치 노드가 꼭 필요한 도구라면 "
        "GPU 노드 전체를 맡는 DaemonSet으로 분리해 스케줄러가 그 노드에 작업 GPU를 나눠 주지 않게 하세요.",
        "Drop privileged from GPU pods and grant only the capabilities they need; remove hostPath mounts of "
        "/dev or /dev/nvidia* and request GPUs as a resource such as nvidia.com/gpu. A tool that truly "
        "needs device nodes belongs in a DaemonSet that owns whole GPU nodes, so the scheduler does not "
        "hand those nodes' GPUs to jobs.",
    ),
    decides=text(
        "워크로드의 앱·init 컨테이너마다 봅니다. GPU를 요청하면서 privileged이거나 /dev·/dev/nvidia* "
        "hostPath를 마운트하면 실패, GPU를 요청하지 않으면서 /dev/nvidia*를 마운트하면 실패, GPU를 "
        "요청하지 않고 privileged인데 파드가 GPU 노드 레이블을 고르거나 "
        "nvidia.com/gpu taint를 견디면(DaemonSet "
        "제외) 실패입니다. GPU 스택 자신과 GPU 상태 에이전트는 건너뜁니다.",
        "Looks at each app and init container of every workload. Fails one that requests a GPU and is "
        "privileged or mounts /dev or /dev/nvidia* from the host; one that requests no GPU and mounts "
        "/dev/nvidia*; and one that requests no GPU and is privileged in a pod that selects GPU-node labels "
        "or tolerates the nvidia.com/gpu taint (DaemonSets excepted). The GPU stack itself and GPU health "
        "agents are skipped.",
    ),
    incidents=("gpustack-2026-08-k8s-deployer-bypassed-device-plugin",),
    needs=(),
    optional=WORKLOAD_KINDS,
    components=("device-plugin", "gpu"),
    references=(
        "https://github.com/gpustack/runtime/pull/15",
        "https://github.com/NVIDIA/k8s-device-plugin/issues/336",
    ),
    roles=USER_ROLES,
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    yield from judge_user_templates(CHECK, snapshot, _judge)


def _judge(workload: Workload, template: PodTemplate) -> tuple[Message, dict[str, Any]] | None:
    targets_gpu_nodes = workload.kind_key != "apps/DaemonSet" and _targets_gpu_nodes(template.spec)
    said = _problem(template.spec, targets_gpu_nodes, template.group)
    if tpu_only(template.spec):  # TPU pods are driven by libtpu and were run privileged on GKE
        return None
    return None if said is None else (said, {"group": template.group})


def _problem(spec: dict[str, Any], targets_gpu_nodes: bool, role: str) -> Message | None:
    host_paths = _host_device_paths(spec)
    where = f" ({role})" if role else ""
    for container in containers(spec):
        name = str(container.get("name") or "")
        privileged = dig(container, "securityContext", "privileged") is True
        mounted = sorted(host_paths[volume] for volume in mounts(container).values() if volume in host_paths)
        gpu = container_requests_gpu(container)
        if gpu and (privileged or mounted):
            how = "privileged" if privileged else f"hostPath {mounted[0]}"
            return message(
                "컨테이너 {container}{where}: GPU를 요청하지만 "
                "{how} 설정 때문에 할당받은 GPU가 아니라 노드의 "
                "모든 GPU를 봅니다",
                "container {container}{where} requests GPUs but, through {how}, sees every GPU of the node "
                "rather than the ones allocated",
                container=name,
                where=where,
                how=how,
            )
        nvidia_paths = [path for path in mounted if path.startswith("/dev/nvidia")]
        if not gpu and nvidia_paths:
            return message(
                "컨테이너 {container}{where}: GPU 요청 없이 hostPath "
                "{path:를} 마운트해 스케줄러가 모르는 GPU를 "
                "씁니다",
                "container {container}{where} requests no GPU but mounts hostPath {path}, using GPUs the "
                "scheduler never counted",
                container=name,
                where=where,
                path=nvidia_paths[0],
            )
        if not gpu and privileged and targets_gpu_nodes:
            return message(
                "컨테이너 {container}{where}: GPU 요청 없이 특권 컨테이너로 GPU 노드에 가도록 되어 있어 "
                "노드의 GPU를 장부 밖에서 모두 볼 수 있습니다",
                "container {container}{where} requests no GPU but runs privileged on GPU nodes, where it "
                "sees every GPU outside the scheduler's accounting",
                container=name,
                where=where,
            )
    return None


def _host_device_paths(spec: dict[str, Any]) -> dict[str, str]:
    """Volume name -> host path for hostPath volumes of /dev or a /dev/nvidia* device."""
    found = {}
    for name, volume in volumes(spec).items():
        path = str(dig(volume, "hostPath", "path") or "").rstrip("/") or ""
        if path == "/dev" or path.startswith("/dev/nvidia"):
            found[name] = path
    return found


def _targets_gpu_nodes(spec: dict[str, Any]) -> bool:
    """The pod selects a GPU-node label (nodeSelector or required affinity) or tolerates a GPU taint."""
    if any(str(key) in GPU_NODE_LABELS for key in mapping(spec.get("nodeSelector"))):
        return True
    required = dig(spec, "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution")
    for term in items(dig(required, "nodeSelectorTerms")):
        keys = {str(expression.get("key")) for expression in items(term.get("matchExpressions"))}
        if keys & GPU_NODE_LABELS:
            return True
    return any(str(toleration.get("key")) in GPU_TAINT_KEYS for toleration in items(spec.get("tolerations")))
