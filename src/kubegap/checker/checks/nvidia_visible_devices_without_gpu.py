"""NVIDIA_VISIBLE_DEVICES in a container that requests no GPU hands it GPUs the scheduler never counted."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kubegap.bilingual import Message, message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import judge_user_templates, text
from kubegap.checker.extract import container_env, containers
from kubegap.checker.extract._fields import mapping
from kubegap.checker.extract.podspec import container_requests_gpu, gpus_requested
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.workload import USER_ROLES, WORKLOAD_KINDS, PodTemplate, Workload

VARIABLE = "NVIDIA_VISIBLE_DEVICES"
# Values that give the container no GPU at all (the NVIDIA Container Toolkit's own words).
NO_DEVICES = frozenset({"void", "none", ""})

CHECK = CheckMeta(
    id="nvidia-visible-devices-without-gpu",
    area="gpu-stack",
    severity=Severity.medium,
    title=text(
        "GPU 요청과 NVIDIA_VISIBLE_DEVICES 설정",
        "NVIDIA_VISIBLE_DEVICES against GPU requests",
    ),
    why=text(
        "NVIDIA 런타임은 NVIDIA_VISIBLE_DEVICES에 적힌 GPU를 컨테이너에 넣어 줍니다. GPU를 자원으로 "
        "요청하지 않은 컨테이너에 all이나 GPU 목록을 주면 그 컨테이너는 스케줄러와 디바이스 플러그인이 "
        "모르는 채 GPU를 씁니다. 다른 파드에 할당된 카드와 겹치고, 쓰이는 카드가 빈 것으로 보입니다. "
        "GPUStack의 쿠버네티스 배포기가 이렇게 만든 파드는 노드의 두 카드를 모두 보았고, 오퍼레이터는 "
        "그 파드가 쓰는 카드를 비어 있다고 보고했습니다.",
        "The NVIDIA runtime gives a container the GPUs named in NVIDIA_VISIBLE_DEVICES. Set to all or to a "
        "list of GPUs in a container that requests no GPU resource, it lets the container use GPUs that "
        "neither the scheduler nor the device plugin knows about: they overlap cards allocated to other "
        "pods, and an occupied card looks free. A pod built this way by GPUStack's Kubernetes deployer saw "
        "both cards of its node, and the operator reported the card it used as free.",
    ),
    remediation=text(
        "GPU가 필요하면 nvidia.com/gpu 같은 자원으로 요청하고 NVIDIA_VISIBLE_DEVICES는 지우세요(디바이스 "
        "플러그인이 채웁니다). 필요 없으면 값을 void로 두세요. 노드 쪽에서는 NVIDIA Container Toolkit의 "
        "accept-nvidia-visible-devices-envvar-when-unprivileged를 false로 두고 볼륨 마운트 방식으로 장치 "
        "목록을 넘기면 이 환경 변수만으로는 GPU를 얻지 못합니다.",
        "If the container needs GPUs, request them as a resource such as nvidia.com/gpu and drop "
        "NVIDIA_VISIBLE_DEVICES (the device plugin sets it); if not, set it to void. On the nodes, setting "
        "the NVIDIA Container Toolkit's accept-nvidia-visible-devices-envvar-when-unprivileged to false and "
        "passing the device list as volume mounts stops the variable alone from granting GPUs.",
    ),
    decides=text(
        "모든 워크로드의 앱·init 컨테이너 가운데 GPU 자원(이름에 gpu가 든 확장 자원이나 DRA claim 포함)을 "
        "요청하지 않으면서 NVIDIA_VISIBLE_DEVICES를 void, none, 빈 값이 아닌 값으로 직접 적은 것이 있으면 "
        "실패입니다. GPU 스택 자신의 구성 요소(디바이스 플러그인, dcgm-exporter, 드라이버, 툴킷, 검증기 "
        "파드 등, 이름·레이블·이미지·서비스 계정으로 식별)는 노드의 모든 GPU를 봐야 하므로 "
        "건너뛰고, valueFrom 값은 보이지 않으므로 판단하지 않습니다. "
        "GPU를 몇 개 요청하면서 NVIDIA_VISIBLE_DEVICES=all을 직접 적은 컨테이너도 실패입니다(장치 목록을 "
        "env로 넘기는 설정에서는 요청한 수보다 많은 GPU를 봅니다). "
        "이미지 안에 박힌 기본값(CUDA 이미지의 all)은 API로 보이지 않습니다.",
        "Fails when an app or init container of any workload requests no GPU resource (counting extended "
        "resources with gpu in the name and DRA claims) yet sets NVIDIA_VISIBLE_DEVICES literally to "
        "something other than void, none or empty. The GPU stack's own parts (device plugin, dcgm-exporter, "
        "driver, toolkit, validator pods and the like, known by name, labels, image or service account) "
        "must see every GPU and are skipped; "
        "valueFrom values are not visible and are not judged. A container that requests some GPUs yet sets "
        "NVIDIA_VISIBLE_DEVICES=all literally fails too (where the device list travels by env it sees more "
        "GPUs than it asked for). A default baked into the image (all, in "
        "CUDA images) does not show in the API.",
    ),
    incidents=("gpustack-2026-08-k8s-deployer-bypassed-device-plugin",),
    needs=(),
    optional=WORKLOAD_KINDS,
    components=("device-plugin", "container-toolkit"),
    references=(
        "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/docker-specialized.html#gpu-enumeration",
        "https://github.com/NVIDIA/k8s-device-plugin#readme",
    ),
    roles=USER_ROLES,
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    yield from judge_user_templates(CHECK, snapshot, _judge)


def _judge(workload: Workload, template: PodTemplate) -> tuple[Message, dict[str, Any]] | None:
    widened = _all_beside_count(template.spec)
    if widened is not None:
        name, count = widened
        group = f" ({template.group})" if template.group else ""
        said = message(
            "컨테이너 {container}{group}: GPU {count}개를 요청하면서 NVIDIA_VISIBLE_DEVICES=all을 적어, "
            "장치 목록을 환경 변수로 넘기는 설정에서는 노드의 GPU를 모두 봅니다",
            "container {container}{group} requests {count} GPU(s) but sets NVIDIA_VISIBLE_DEVICES=all: where "
            "the device list travels by env, it sees every GPU of the node",
            container=name,
            group=group,
            count=count,
        )
        return said, {"container": name, VARIABLE: "all", "gpus": count}
    offender = _offending_container(template.spec)
    if offender is None:
        return None
    name, value = offender
    role = f" ({template.group})" if template.group else ""
    said = message(
        "컨테이너 {container}{role}에 NVIDIA_VISIBLE_DEVICES={value} 설정이 있지만 GPU 요청이 없어, "
        "스케줄러가 모르는 GPU를 씁니다",
        "container {container}{role} sets NVIDIA_VISIBLE_DEVICES={value} but requests no GPU, so "
        "it uses GPUs the scheduler never counted",
        container=name,
        role=role,
        value=value,
    )
    return said, {"container": name, VARIABLE: value}


def _all_beside_count(spec: dict[str, object]) -> tuple[str, int] | None:
    """A container that asks for some GPUs yet names all of them in NVIDIA_VISIBLE_DEVICES."""
    for container in containers(mapping(spec), include_init=False):
        value = container_env(container).get(VARIABLE, "").strip().lower()
        count = gpus_requested({"containers": [container]})
        if value == "all" and count > 0:
            return str(container.get("name") or ""), count
    return None


def _offending_container(spec: dict[str, object]) -> tuple[str, str] | None:
    for container in containers(mapping(spec)):
        value = container_env(container).get(VARIABLE)
        if value is None or value.strip().lower() in NO_DEVICES or container_requests_gpu(container):
            continue
        return str(container.get("name") or ""), value.strip()
    return None
