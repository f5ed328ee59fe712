"""GPU node agents that do not tolerate the taints GPU nodes carry never run where they matter."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kubegap.bilingual import Message, message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import (
    failed,
    not_applicable,
    passed,
    sample,
    text,
    unknown,
    unread_kinds,
    unread_message,
    unrendered_unknown,
)
from kubegap.checker.extract import classify, containers, gpu_nodes, items, mapping
from kubegap.checker.extract._fields import dig, labels_of, name_of
from kubegap.checker.extract.nodes import NodeView
from kubegap.checker.extract.scheduling import (
    blocking_taints,
    node_selector_matches,
    required_affinity_matches,
    tolerates,
)
from kubegap.checker.extract.words import image_name, image_path, tokens
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Coverage, Snapshot
from kubegap.checker.workload import Role, Workload, is_unrendered, workloads

# The taints managed GPU pools and operators put on accelerator nodes (EKS, GKE, AKS `sku=gpu`, the GPU
# Operator's docs, Karpenter GPU NodePools, Neuron, Gaudi and TPU pools).
COMMON_GPU_TAINTS = (
    "nvidia.com/gpu",
    "amd.com/gpu",
    "aws.amazon.com/neuron",
    "habana.ai/gaudi",
    "google.com/tpu",
    "gpu.intel.com/i915",
    "sku",
    "gpu",
)
# Agents of the GPU stack by role (extract.agents): each must run on every GPU node.
_GPU_AGENT_ROLES = frozenset(
    {
        "dcgm-exporter",
        "dcgm",
        "device-plugin",
        "gpu-feature-discovery",
        "driver",
        "container-toolkit",
        "mig-manager",
        "operator-validator",
        "autopilot",
        "nvsentinel",
        "eks-node-monitoring-agent",
        "gpud",
    }
)
_DEVICE_PLUGIN_DIR = "/var/lib/kubelet/device-plugins"
_ACCELERATOR_DEVICES = ("/dev/kfd", "/dev/dri", "/dev/nvidia", "/dev/neuron", "/dev/infiniband", "/dev/accel")
# Node labels only accelerator nodes carry: selecting on one means the agent is meant for GPU nodes.
_GPU_LABEL_WORDS = ("nvidia.com/gpu", "amd.com/gpu", "pci-10de", "pci-1002", "neuron", "gaudi", "tpu")
_GPU_LABEL_KEYS = ("cloud.google.com/gke-accelerator", "karpenter.k8s.aws/instance-gpu", "accelerator")
# Whole words in a name, app label, service account or image path that name accelerator hardware.
_VENDOR_WORDS = frozenset({"gpu", "amdgpu", "nvidia", "rocm", "neuron", "gaudi", "habana", "tpu", "rdma"})

CHECK = CheckMeta(
    id="gpu-node-agent-tolerations",
    area="gpu-stack",
    severity=Severity.high,
    title=text(
        "GPU 노드 taint에 대한 노드 에이전트의 허용(toleration)",
        "Node agents' tolerations for GPU node taints",
    ),
    why=text(
        "GPU 노드는 보통 nvidia.com/gpu:NoSchedule 같은 taint를 달고 있어, 그 taint를 허용하지 않는 "
        "DaemonSet은 GPU 노드에 파드를 하나도 띄우지 않습니다. 배포는 성공한 것처럼 보이지만 드라이버 "
        "설치기, 디바이스 플러그인, DCGM 익스포터, NFD 워커, RDMA 플러그인이 정작 GPU 노드에는 없어 GPU가 "
        "할당 가능 자원으로 나오지 않거나 GPU 메트릭과 레이블이 비게 됩니다. Nebari는 스케일 투 제로를 위해 "
        "노드 그룹에 taint를 붙인 뒤 AWS의 NVIDIA 드라이버 설치 DaemonSet이 GPU 노드에 뜨지 않아 GPU를 전혀 "
        "쓸 수 없게 됐습니다.",
        "GPU nodes usually carry a taint such as nvidia.com/gpu:NoSchedule, and a DaemonSet that does not "
        "tolerate it puts no pod on them. The rollout looks fine, yet the driver installer, device plugin, "
        "DCGM exporter, NFD worker or RDMA plugin is missing exactly on the GPU nodes, so GPUs never show "
        "as allocatable or their metrics and labels stay empty. After Nebari tainted its node groups to "
        "scale them to zero, the AWS NVIDIA driver installer DaemonSet no longer landed on GPU nodes and "
        "the GPUs could not be used at all.",
    ),
    remediation=text(
        "에이전트에 GPU 노드의 taint를 허용하는 toleration을 더하세요(예: `key: nvidia.com/gpu`, "
        "`operator: Exists`, `effect: NoSchedule`). 노드마다 하나씩 돌아야 하는 에이전트라면 "
        "`operator: Exists` 하나로 모든 taint를 허용하는 것이 흔한 방식입니다. "
        "Helm 차트의 `tolerations` 값은 기본값을 대체하므로 기본 항목도 함께 적으세요.",
        "Add a toleration for the GPU nodes' taint to the agent (for example key nvidia.com/gpu, operator "
        "Exists, effect NoSchedule). For an agent that must run once per node, a single operator: Exists "
        "toleration that accepts every taint is the usual choice. A Helm chart's tolerations value replaces "
        "its defaults, so list the default entries too.",
    ),
    decides=text(
        "GPU 노드용 DaemonSet(GPU 스택 에이전트, 디바이스 플러그인 소켓이나 가속기 장치를 마운트하는 것, GPU "
        "노드 레이블로 노드를 고르는 것, NFD 워커, 이름·이미지가 가속기를 가리키는 것)을 봅니다. 노드를 읽은 "
        "경우에는 에이전트가 고르는 GPU 노드의 실제 NoSchedule·NoExecute taint 가운데 허용하지 않는 것이 "
        "있으면 실패입니다. 매니페스트만 있으면 흔한 GPU taint(nvidia.com/gpu, amd.com/gpu, "
        "aws.amazon.com/neuron, habana.ai/gaudi, google.com/tpu, sku=gpu 등)를 하나도 허용하지 않을 때 "
        "실패로 보고, 그 기준으로 판단했다고 밝힙니다.",
        "Looks at DaemonSets meant for GPU nodes (GPU stack agents, those mounting the device-plugin socket "
        "or accelerator devices, those selecting nodes by GPU labels, NFD workers, and those whose name or "
        "image names accelerator hardware). With nodes read, it fails when a GPU node the agent selects "
        "carries a NoSchedule or NoExecute taint the agent does not tolerate. From manifests alone it fails "
        "when the agent tolerates none of the common GPU taints (nvidia.com/gpu, amd.com/gpu, "
        "aws.amazon.com/neuron, habana.ai/gaudi, google.com/tpu, sku=gpu and the like), and says that this "
        "is what it judged against.",
    ),
    incidents=("nebari-2025-06-gpu-node-taints-driver-installer-unscheduled",),
    needs=(),
    optional=("apps/DaemonSet", "Node"),
    components=("device-plugin", "gpu-health-monitoring", "gpu-driver"),
    references=(
        "https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/",
        "https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/getting-started.html",
    ),
    roles=(Role.node_agent,),
)


def _host_paths(spec: dict[str, Any]) -> list[str]:
    return [str(dig(volume, "hostPath", "path") or "") for volume in items(spec.get("volumes"))]


def _selects_gpu_nodes(spec: dict[str, Any]) -> bool:
    keys = [str(key) for key in mapping(spec.get("nodeSelector"))]
    required = dig(spec, "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution")
    for term in items(dig(required, "nodeSelectorTerms")):
        keys += [str(expr.get("key") or "") for expr in items(term.get("matchExpressions"))]
    return any(
        any(word in key for word in _GPU_LABEL_WORDS) or key.startswith(_GPU_LABEL_KEYS) for key in keys
    )


def gpu_agent_reason(workload: Workload) -> Message | None:
    """Why this DaemonSet is meant for GPU nodes, in both languages (None when nothing says so)."""
    spec = workload.templates[0].spec if workload.templates else {}
    labels = labels_of(workload.obj)
    template_labels = mapping(dig(workload.obj, "spec", "template", "metadata", "labels"))
    labels.update({str(key): str(value) for key, value in template_labels.items()})
    role = classify(name_of(workload.obj), spec, labels)
    if role in _GPU_AGENT_ROLES:
        return message("GPU 스택 에이전트 {role}", "GPU stack agent {role}", role=role)
    paths = _host_paths(spec)
    if any(path.rstrip("/") == _DEVICE_PLUGIN_DIR for path in paths):
        return message("디바이스 플러그인 소켓을 마운트함", "mounts the kubelet device-plugin socket")
    if any(path.startswith(_ACCELERATOR_DEVICES) for path in paths):
        return message("가속기 장치를 마운트함", "mounts accelerator devices")
    if _selects_gpu_nodes(spec):
        return message("GPU 노드 레이블로 노드를 고름", "selects nodes by a GPU label")
    images = [str(container.get("image") or "") for container in containers(spec)]
    programs = [program for commands in workload.commands for program in commands.programs()]
    if "nfd-worker" in programs or "node-feature-discovery" in {image_name(image) for image in images}:
        return message("NFD 워커", "node-feature-discovery worker")
    account = str(spec.get("serviceAccountName") or "")
    app = " ".join(labels.get(key, "") for key in ("app", "app.kubernetes.io/name", "k8s-app", "name"))
    words = set(tokens(" ".join([name_of(workload.obj), app, account, *map(image_path, images)])))
    if found := sorted(words & _VENDOR_WORDS):
        return message("이름이나 이미지가 {word:를} 가리킴", "name or image says {word}", word=found[0])
    return None


def is_patch(workload: Workload) -> bool:
    """A kustomize patch, not a whole DaemonSet: no selector and no container image. A field it leaves
    out (tolerations) is left as the base has it, so its absence says nothing."""
    spec = workload.templates[0].spec if workload.templates else {}
    has_image = any(container.get("image") for container in containers(spec))
    return not has_image and dig(workload.obj, "spec", "selector") is None


def _tolerates_a_gpu_taint(tolerations: list[dict[str, Any]]) -> bool:
    return any(
        tolerates(tolerations, {"key": key, "value": value, "effect": "NoSchedule"})
        or any(toleration.get("key") == key for toleration in tolerations)
        for key, value in ((key, "gpu" if key == "sku" else "true") for key in COMMON_GPU_TAINTS)
    )


def _selected(spec: dict[str, Any], node: NodeView) -> bool:
    return node_selector_matches(node.labels, spec.get("nodeSelector")) and required_affinity_matches(
        node.labels, spec
    )


def run(snapshot: Snapshot) -> Iterator[Finding]:
    agents = [
        (workload, reason)
        for workload in workloads(snapshot)
        if workload.kind_key == "apps/DaemonSet"
        and workload.templates
        and not is_patch(workload)
        and (reason := gpu_agent_reason(workload))
    ]
    live_nodes = snapshot.status_of("Node").status is Coverage.read and bool(snapshot.of("Node"))
    nodes = gpu_nodes(snapshot) if live_nodes else []
    if live_nodes and not nodes:
        yield not_applicable(
            CHECK, message("이 입력에는 GPU 노드가 없습니다", "no GPU nodes in this snapshot")
        )
        return
    examined = 0
    problems: list[Finding] = []
    for workload, reason in agents:
        spec = workload.templates[0].spec
        raw = spec.get("tolerations")
        if (raw is not None and not isinstance(raw, list)) or is_unrendered(raw):
            problems.append(unrendered_unknown(CHECK, workload, ["spec.template.spec.tolerations"]))
            continue
        examined += 1
        evidence = {**workload.evidence, "why_gpu_agent": str(reason)}
        why = {"ko_reason": reason.render("ko"), "en_reason": str(reason)}
        if nodes:
            blocked = {
                node.name: taints
                for node in nodes
                if _selected(spec, node) and (taints := blocking_taints(spec, node.taints, daemonset=True))
            }
            if blocked:
                taints = sorted({taint for found in blocked.values() for taint in found})
                said = message(
                    "GPU 노드용 에이전트({ko_reason})가 GPU 노드 {count}대의 테인트 {taints:를} 허용하지 "
                    "않아 그 노드에 뜨지 않습니다",
                    "this GPU node agent ({en_reason}) does not tolerate {taints} on {count} GPU node(s), so "
                    "it never runs there",
                    **why,
                    taints=", ".join(taints),
                    count=len(blocked),
                )
                evidence.update({"untolerated_taints": taints, "nodes": sample(list(blocked))})
                problems.append(failed(CHECK, workload.owner, said, evidence))
            continue
        if not _tolerates_a_gpu_taint(items(raw)):
            said = message(
                "GPU 노드용 에이전트({ko_reason})가 흔한 GPU 테인트(nvidia.com/gpu 등)를 하나도 허용하지 "
                "않아, 테인트를 단 GPU 노드에는 뜨지 않습니다(노드를 읽지 않아 흔한 테인트로 판단)",
                "this GPU node agent ({en_reason}) tolerates none of the common GPU taints (nvidia.com/gpu "
                "and the like), so it never runs on tainted GPU nodes (judged against common taints: nodes "
                "not read)",
                **why,
            )
            evidence["judged_against"] = list(COMMON_GPU_TAINTS)
            problems.append(failed(CHECK, workload.owner, said, evidence))
    yield from problems
    if any(finding.status.value == "fail" for finding in problems):
        return
    missing = unread_kinds(snapshot, ("apps/DaemonSet",))
    if missing:
        yield unknown(CHECK, None, unread_message(missing))
    elif examined == 0 and not problems:
        yield not_applicable(
            CHECK, message("이 입력에는 GPU 노드용 에이전트가 없습니다", "no GPU node agents in this input")
        )
    elif examined:
        yield passed(
            CHECK,
            None,
            message(
                "GPU 노드용 에이전트 {count}개 모두 GPU 노드의 테인트를 허용합니다",
                "all {count} GPU node agents tolerate the GPU nodes' taints",
                count=examined,
            ),
        )
