"""A GPU node class following the newest OS image rolls a new NVIDIA driver and toolkit onto GPU nodes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from kubegap.bilingual import Message, message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import crd_state, failed, not_applicable, passed, sample, text, unknown
from kubegap.checker.extract import dig, items, mapping, ref
from kubegap.checker.extract.karpenter import EC2_NODE_CLASS, NODEPOOL, node_class_name, selects_gpus
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.workload.unrendered import is_placeholder

CHECK = CheckMeta(
    id="gpu-node-image-unpinned",
    area="fleet-change",
    severity=Severity.medium,
    title=text("GPU 노드 클래스의 OS 이미지 버전", "OS image version of GPU node classes"),
    why=text(
        "GPU 노드의 OS 이미지에는 NVIDIA 드라이버, Container Toolkit, libnvidia-container가 함께 들어 "
        "있습니다. Karpenter가 al2023@latest 같은 별칭으로 최신 이미지를 따라가면, 새 AMI가 나오는 순간 "
        "아무도 고르지 않은 드라이버와 툴킷이 새로 뜨는 GPU 노드마다 깔립니다. EKS GPU AMI v20250224는 "
        "툴킷을 1.16.1로 거꾸로 내려 실어 GPU 파드가 컨테이너 생성 단계에서 실패했고, 2026년의 AL2023 "
        "NVIDIA AMI 새 판에서는 device plugin이 CrashLoopBackOff에 빠졌는데 이미 뜬 용량 블록 노드는 "
        "되돌릴 수도 없었습니다.",
        "A GPU node's OS image carries the NVIDIA driver, the Container Toolkit and libnvidia-container. "
        "When Karpenter follows the newest image through an alias such as al2023@latest, each new AMI "
        "puts a driver and toolkit nobody chose onto every GPU node it launches. The EKS GPU AMI "
        "v20250224 shipped an older toolkit (1.16.1) and GPU pods failed at container creation; on a 2026 "
        "AL2023 NVIDIA AMI the device plugin crash-looped, and capacity-block nodes already on it could "
        "not be rolled back.",
    ),
    remediation=text(
        "GPU NodePool이 쓰는 EC2NodeClass의 amiSelectorTerms를 검증한 판에 고정하세요(alias: "
        "al2023@v20250101처럼 날짜 판, id: ami-..., 또는 와일드카드 없는 name). 새 AMI는 GPU 파드 하나가 "
        "실제로 뜨는지 확인한 노드 몇 대에서 먼저 돌린 뒤 판 번호를 올리세요.",
        "Pin the amiSelectorTerms of the EC2NodeClass your GPU NodePools use to a validated release (a "
        "dated alias such as al2023@v20250101, an id: ami-..., or a name without wildcards). Try a new AMI "
        "on a few nodes where a GPU pod actually starts, then move the version forward.",
    ),
    decides=text(
        "Karpenter EC2NodeClass의 amiSelectorTerms 중 하나라도 움직이는 이미지를 고르면(별칭의 판이 "
        "latest이거나 없음, name에 와일드카드, SSM 파라미터의 recommended·latest 경로, v1beta1에서 "
        "amiSelectorTerms 없이 amiFamily만 둠) 그 클래스는 고정되지 않은 것으로 봅니다. 입력의 "
        "NodePool 중 GPU를 고르는 것(GPU 인스턴스 패밀리·종류, GPU 수 요구, GPU 한도, GPU taint)이 그 "
        "클래스를 쓰면 실패입니다. 클래스를 쓰는 NodePool이 입력에 없으면 클래스 이름이나 AMI 이름의 "
        "낱말(gpu, nvidia, neuron 등)로 GPU용인지 판단하고, 그래도 알 수 없으면 unknown입니다. "
        "클래스를 쓰는 NodePool이 모두 GPU를 고르지 않으면 대상이 아닙니다.",
        "An EC2NodeClass is unpinned when any of its amiSelectorTerms picks a moving image: an alias whose "
        "version is latest or missing, a name with wildcards, an SSM parameter on a recommended or latest "
        "path, or (v1beta1) an amiFamily with no amiSelectorTerms. Fails when a NodePool in the input that "
        "selects GPUs (GPU instance families or types, GPU count requirements, GPU limits, GPU taints) uses "
        "the class. With no NodePool in the input using it, the words of the class name or AMI name (gpu, "
        "nvidia, neuron and the like) decide whether it serves GPU nodes, else the verdict is unknown. A "
        "class whose NodePools all select no GPUs is not judged.",
    ),
    incidents=(
        "aws-2025-02-eks-al2-gpu-ami-container-toolkit-downgrade-nvidia-smi-exists",
        "aws-2025-02-eks-al2-gpu-ami-libnvidia-container-regression",
        "aws-2026-05-eks-al2023-ami-nvsandboxutils-device-plugin-crashloop",
    ),
    needs=(),
    optional=(EC2_NODE_CLASS, NODEPOOL),
    components=("gpu-driver", "container-toolkit", "cluster-autoscaler"),
    references=(
        "https://karpenter.sh/docs/concepts/nodeclasses/#specamiselectorterms",
        "https://karpenter.sh/docs/tasks/managing-amis/",
    ),
)

_GPU_WORDS = frozenset(
    {"gpu", "gpus", "nvidia", "cuda", "accelerated", "accelerator", "neuron", "trainium", "inferentia"}
)
_NOT_GPU = frozenset({"non", "no", "without", "cpu"})
_TOKEN = re.compile(r"[a-z]+")
_MOVING_SSM = re.compile(r"/(?:recommended|latest)(?:/|$)")


def _words(value: str) -> set[str]:
    return set(_TOKEN.findall(value.lower()))


def _moving_terms(node_class: dict[str, Any]) -> tuple[list[str], list[str]]:
    """(terms that follow a moving image, fields left to a template engine) of one EC2NodeClass."""
    spec = mapping(node_class.get("spec"))
    terms = items(spec.get("amiSelectorTerms"))
    if not terms:
        family = str(spec.get("amiFamily") or "")
        # v1beta1: no terms means the newest EKS-optimized AMI of the family
        if family and family != "Custom":
            return [f"amiFamily: {family}"], []
        return [], []
    moving: list[str] = []
    templated: list[str] = []
    for term in terms:
        for field in ("alias", "name", "ssmParameter", "id"):
            value = term.get(field)
            if isinstance(value, str) and is_placeholder(value):
                templated.append(f"amiSelectorTerms.{field}")
        alias, name, ssm = (str(term.get(field) or "") for field in ("alias", "name", "ssmParameter"))
        if alias and not is_placeholder(alias):
            version = alias.partition("@")[2].strip().lower()
            if version in ("", "latest"):
                moving.append(f"alias: {alias}")
        if name and not is_placeholder(name) and not term.get("id") and any(mark in name for mark in "*?"):
            moving.append(f"name: {name}")
        if ssm and not is_placeholder(ssm) and _MOVING_SSM.search(ssm):
            moving.append(f"ssmParameter: {ssm}")
    return moving, templated


def _own_gpu_words(node_class: dict[str, Any]) -> list[str]:
    """Words in the class name or its AMI names that say the class is for accelerator nodes."""
    terms = items(dig(node_class, "spec", "amiSelectorTerms"))
    names = [ref(node_class).name]
    names += [str(term.get(field) or "") for term in terms for field in ("name", "ssmParameter")]
    found: set[str] = set()
    for name in names:
        words = _words(name)
        if not words & _NOT_GPU:  # "non-gpu", "cpu-no-gpu"
            found |= words & _GPU_WORDS
    return sorted(found)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    if crd_state(snapshot, EC2_NODE_CLASS) == "unread":
        said = message(
            "Karpenter EC2NodeClass를 읽지 못했습니다", "Karpenter EC2NodeClasses could not be read"
        )
        yield unknown(CHECK, None, said)
        return
    classes = [node_class for node_class in snapshot.of(EC2_NODE_CLASS) if isinstance(node_class, dict)]
    if not classes:
        said = message("Karpenter EC2NodeClass가 없습니다", "no Karpenter EC2NodeClass")
        yield not_applicable(CHECK, said)
        return
    pools_read = crd_state(snapshot, NODEPOOL) == "read"
    users: dict[str, list[tuple[str, bool]]] = {}
    for pool in snapshot.of(NODEPOOL):
        if isinstance(pool, dict) and (name := node_class_name(pool)):
            users.setdefault(name, []).append((ref(pool).name, selects_gpus(pool)))
    gpu_classes = failures = 0
    undecided: list[str] = []
    templated: list[str] = []
    for node_class in classes:
        name = ref(node_class).name
        moving, placeholders = _moving_terms(node_class)
        pools = users.get(name, [])
        gpu_pools = [pool for pool, gpus in pools if gpus]
        own_words = _own_gpu_words(node_class)
        if pools and not gpu_pools:
            continue  # every NodePool using it selects CPU nodes only
        if not gpu_pools and not own_words:
            if moving or placeholders:
                undecided.append(name)
            continue
        gpu_classes += 1
        evidence: dict[str, object] = (
            {"gpu_nodepools": gpu_pools} if gpu_pools else {"gpu_words_in_names": own_words}
        )
        if moving:
            evidence["moving_terms"] = moving
            failures += 1
            yield failed(CHECK, ref(node_class), _failure(name, moving, gpu_pools), evidence)
        elif placeholders:
            templated.append(f"{name} ({', '.join(placeholders)})")
    if templated:
        said = message(
            "GPU 노드 클래스의 AMI 선택 값이 템플릿으로 남아 판을 알 수 없습니다: {classes}",
            "unrendered template value in the AMI selection of GPU node classes: {classes}",
            classes=", ".join(sample(templated)),
        )
        yield unknown(CHECK, None, said)
    if undecided:
        reason = (
            message(
                "최신 이미지를 따라가는 EC2NodeClass를 쓰는 NodePool이 입력에 없어 GPU 노드용인지 알 수 "
                "없습니다: {classes}. NodePool과 함께 스캔하세요",
                "no NodePool in the input uses these EC2NodeClasses, which follow the newest image, so "
                "whether they serve GPU nodes is unknown: {classes}; scan them together with their NodePools",
                classes=", ".join(sample(undecided)),
            )
            if not pools_read or not users
            else message(
                "최신 이미지를 따라가는 EC2NodeClass를 입력의 어느 NodePool도 쓰지 않아 GPU 노드용인지 알 "
                "수 없습니다: {classes}",
                "no NodePool in the input uses these EC2NodeClasses, which follow the newest image, so "
                "whether they serve GPU nodes is unknown: {classes}",
                classes=", ".join(sample(undecided)),
            )
        )
        yield unknown(CHECK, None, reason)
    if gpu_classes == 0 and not undecided:
        said = message(
            "GPU 노드를 만드는 EC2NodeClass가 없습니다", "no EC2NodeClass in the input builds GPU nodes"
        )
        yield not_applicable(CHECK, said)
    elif gpu_classes and not failures and not templated:
        said = message(
            "GPU 노드 클래스 {count}개 모두 AMI를 고정된 판으로 고릅니다",
            "all {count} GPU node classes select a pinned AMI release",
            count=gpu_classes,
        )
        yield passed(CHECK, None, said)


def _failure(name: str, moving: list[str], gpu_pools: list[str]) -> Message:
    terms = "; ".join(moving)
    if gpu_pools:
        return message(
            "GPU NodePool {pools:이} 쓰는 EC2NodeClass {name:이} 최신 이미지를 따라갑니다({terms}). 새 AMI가 "
            "나오면 그 드라이버와 툴킷이 아무도 고르지 않은 채 새 GPU 노드에 깔립니다",
            "EC2NodeClass {name}, used by GPU NodePool {pools}, follows the newest image ({terms}): each new "
            "AMI puts its driver and toolkit onto new GPU nodes without anyone choosing it",
            name=name,
            pools=", ".join(gpu_pools),
            terms=terms,
        )
    return message(
        "GPU용으로 보이는 EC2NodeClass {name:이} 최신 이미지를 따라갑니다({terms}). 새 AMI가 나오면 그 "
        "드라이버와 툴킷이 아무도 고르지 않은 채 새 GPU 노드에 깔립니다",
        "EC2NodeClass {name}, named for GPU nodes, follows the newest image ({terms}): each new AMI puts "
        "its driver and toolkit onto new GPU nodes without anyone choosing it",
        name=name,
        terms=terms,
    )
