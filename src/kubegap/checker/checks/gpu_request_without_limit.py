"""Accelerators requested without an equal limit: the API server refuses the pod, so it never runs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kubegap.bilingual import Message, message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import judge_user_templates, text
from kubegap.checker.extract import containers
from kubegap.checker.extract._fields import mapping, quantity
from kubegap.checker.extract.podspec import ACCELERATOR_SUFFIXES, is_gpu_resource, shares_gpu
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.workload import ALL_ROLES, WORKLOAD_KINDS, PodTemplate, Workload, is_unrendered

CHECK = CheckMeta(
    id="gpu-request-without-limit",
    area="gpu-stack",
    severity=Severity.high,
    title=text(
        "GPU·가속기 요청과 한도의 일치",
        "GPU and accelerator requests matched by equal limits",
    ),
    why=text(
        "GPU, Neuron, Gaudi, TPU, NPU 같은 확장 자원은 나눠 쓸 수 없어서 쿠버네티스는 요청과 한도가 같기를 "
        "요구합니다. requests에만 적거나 limits와 다른 값을 적으면 API 서버가 파드를 거부합니다(Limit must "
        "be set for non overcommitable resources, must be equal to ... limit). 컨트롤러나 오퍼레이터가 "
        "파드를 만드는 경우에는 적용은 성공한 것처럼 보이고 파드만 끝내 생기지 않습니다. kthena의 모델 서빙 "
        "컨트롤러는 NPU를 한도 8, 요청 6으로 적은 서빙에서 엔트리 파드를 만들지 못했습니다.",
        "Extended resources such as GPUs, Neuron, Gaudi, TPUs and NPUs cannot be shared, so Kubernetes "
        "requires their request to equal their limit. Written under requests only, or with a request that "
        "differs from the limit, the pod is refused by the API server (Limit must be set for non "
        "overcommitable resources; must be equal to ... limit). When a controller or an operator creates the "
        "pods, the apply looks successful and the pods simply never appear: kthena's model-serving "
        "controller could not create the entry pod of a serving whose NPU limit was 8 and request 6.",
    ),
    remediation=text(
        "가속기는 limits에만 적으세요(요청은 한도와 같은 값으로 채워집니다). requests에도 적으려면 limits와 "
        "같은 값으로 적으세요. 요청만 받아 파드로 옮기는 CRD나 차트라면 한도 필드를 함께 채우세요.",
        "Put accelerators under limits only (the request is filled in with the same value), or under both "
        "with equal values. For a CRD or chart that copies only requests into its pods, fill in its limit "
        "field as well.",
    ),
    decides=text(
        "모든 워크로드의 앱·init 컨테이너에서 가속기 자원(NVIDIA·AMD·Intel GPU와 MIG, AWS Neuron, Gaudi, "
        "TPU, "
        "Ascend 등 워크로드 모델이 아는 것과 GPU 공유 스케줄러의 자원)이 requests에 있는데 limits에 없거나 "
        "값이 다르면 실패입니다. limits 전체가 템플릿으로 채워질 자리면 판단하지 않습니다.",
        "Fails when an app or init container of any workload has an accelerator resource (NVIDIA, AMD and "
        "Intel GPUs and MIG slices, AWS Neuron, Gaudi, TPU, Ascend and the others the workload model knows, "
        "and GPU-sharing schedulers' resources) under requests but not under limits, or with a different "
        "value. When the whole limits section is left to a template engine it does not judge.",
    ),
    incidents=("kthena-2025-12-npu-request-limit-mismatch-pod-rejected",),
    needs=(),
    optional=WORKLOAD_KINDS,
    components=("device-plugin", "workload-operator"),
    references=(
        "https://kubernetes.io/docs/tasks/manage-gpus/scheduling-gpus/",
        "https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/#extended-resources",
    ),
    roles=ALL_ROLES,
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    yield from judge_user_templates(CHECK, snapshot, _judge)


def _accelerator(name: str) -> bool:
    return is_gpu_resource(name) or name.lower().endswith(ACCELERATOR_SUFFIXES) or shares_gpu(name)


def _problem(container: dict[str, Any]) -> tuple[str, str, str] | None:
    """(resource, request, limit or '') for the first accelerator whose request has no equal limit."""
    resources = mapping(container.get("resources"))
    limits_field = resources.get("limits")
    if limits_field is not None and not isinstance(limits_field, dict):
        return None  # the whole limits section is templated: not decidable
    limits = mapping(limits_field)
    for name, request in mapping(resources.get("requests")).items():
        if not _accelerator(str(name)):
            continue
        if name not in limits:
            return str(name), str(request), ""
        limit = limits[name]
        if is_unrendered(request) or is_unrendered(limit):
            continue
        wanted, allowed = quantity(request), quantity(limit)
        if wanted is not None and allowed is not None and wanted != allowed:
            return str(name), str(request), str(limit)
    return None


def _judge(workload: Workload, template: PodTemplate) -> tuple[Message, dict[str, Any]] | None:
    for container in containers(template.spec):
        found = _problem(container)
        if found is None:
            continue
        resource, request, limit = found
        name = str(container.get("name") or "")
        group = f" ({template.group})" if template.group else ""
        if limit:
            said = message(
                "컨테이너 {container}{group}: {resource} 요청 {request:이} 한도 {limit:와} 달라 API 서버가 "
                "파드를 거부합니다",
                "container {container}{group} requests {request} {resource} but limits it to {limit}: the "
                "API server refuses the pod",
                container=name,
                group=group,
                resource=resource,
                request=request,
                limit=limit,
            )
        else:
            said = message(
                "컨테이너 {container}{group}: {resource} {request}개를 요청만 하고 한도를 적지 않아 API "
                "서버가 파드를 "
                "거부합니다",
                "container {container}{group} requests {request} {resource} with no limit: the API server "
                "refuses the pod",
                container=name,
                group=group,
                resource=resource,
                request=request,
            )
        return said, {"container": name, "resource": resource, "request": request, "limit": limit or None}
    return None
