"""A GPU serving container without a memory limit can eat a node's memory; the kernel then kills at random."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import (
    role_workloads,
    text,
    unknown,
    workload_failed,
    workload_verdicts,
)
from kubegap.checker.extract import containers, dig
from kubegap.checker.extract.podspec import container_requests_gpu
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.workload import WORKLOAD_KINDS, Role, Workload
from kubegap.checker.workload.operators import RESOURCES, Managed

# Bare Pods are left out: judged on real manifests, GPU Pods are mostly test pods and tutorials.
SKIPPED_KINDS = frozenset({"Pod"})

CHECK = CheckMeta(
    id="gpu-serving-memory-limit",
    area="gpu-stack",
    severity=Severity.medium,
    title=text("GPU 서빙 컨테이너의 메모리 한도", "Memory limits of GPU serving containers"),
    why=text(
        "메모리 한도가 없는 컨테이너는 노드 메모리를 다 쓸 때까지 자랄 수 있고, 그러면 커널은 같은 노드의 "
        "아무 프로세스나 죽입니다. mybinder.org에서는 한도 없는 빌드 컨테이너가 노드 메모리를 다 써 같은 "
        "노드의 프록시가 망가졌고, 오슬로시 플랫폼에서는 자원 한도 없는 파드 때문에 부하가 몰린 노드가 "
        "멈췄습니다. GPU 노드에서는 모델 로딩과 데이터 로더가 호스트 메모리를 크게 쓰므로, 한 파드가 "
        "노드의 다른 작업과 GPU 에이전트까지 함께 쓰러뜨립니다.",
        "A container without a memory limit can grow until the node runs out, and the kernel then kills "
        "whatever process it picks on that node. On mybinder.org a build container with no limit used up "
        "a node's memory and broke the proxy beside it; on the City of Oslo's platform pods without "
        "resource limits left a loaded node dead. On GPU nodes model loading and data loaders use a lot "
        "of host memory, so one pod takes the node's other work, GPU agents included, down with it.",
    ),
    remediation=text(
        "GPU를 요청하는 컨테이너마다 resources.limits.memory를 두세요. 모델과 데이터 로더가 실제로 쓰는 "
        "양에 여유를 더해 정하고, requests.memory도 함께 두면 스케줄러가 노드를 과하게 채우지 않습니다.",
        "Give every container that requests GPUs a resources.limits.memory sized to what the model and "
        "its data loaders really use plus headroom, and set requests.memory too so the scheduler does not "
        "overfill the node.",
    ),
    decides=text(
        "역할이 서빙이고 GPU를 요청하는 워크로드(Deployment, StatefulSet, LeaderWorkerSet, RayService, "
        "StormService, RayClusterFleet, NIMService, NIMPipeline, LLMInferenceService 등 모든 서빙 종류)에서 "
        "GPU를 요청하는 컨테이너에 resources.limits.memory가 없으면 실패입니다. 낱개 파드, 끝나는 작업, "
        "gpu-burn 같은 스트레스 테스트와 벤치마크는 보지 않습니다. 오퍼레이터가 한도를 다른 곳에서 "
        "채우면(KServe 런타임 병합과 기본값 웹후크, KAITO 프리셋) 그 이유와 함께 알 수 없음이고, 이미지 없는 "
        "컨테이너로 된 패치 조각도 알 수 없음입니다. 워크로드 종류를 읽지 못했으면 알 수 없음입니다.",
        "Fails each container that requests GPUs, in GPU workloads whose role is serving (Deployment, "
        "StatefulSet, LeaderWorkerSet, RayService, StormService, RayClusterFleet, NIMService, NIMPipeline, "
        "LLMInferenceService and every other serving kind), when it has no resources.limits.memory. Bare "
        "Pods, work that ends, stress tests such as gpu-burn and benchmarks are not judged. Where an "
        "operator "
        "fills the limit from somewhere this input does not show (KServe's runtime merge and defaulting "
        "webhook, a KAITO preset) the result is unknown with that reason, and so it is for a patch fragment "
        "(containers without an image). If the workload kinds could not be read, the result is unknown.",
    ),
    incidents=(
        "mybinder-2017-11-30-build-pod-no-memory-limit-node-oom-proxy",
        "oslo-2022-01-07-pods-without-resource-limits-node-down",
    ),
    needs=(),
    optional=WORKLOAD_KINDS,
    components=("gpu", "gpu-node-software"),
    references=(
        "https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/",
        "https://kubernetes.io/docs/concepts/scheduling-eviction/node-pressure-eviction/",
    ),
    roles=(Role.serving,),
)


def _operator_fills(workload: Workload, groups: set[str]) -> Managed | None:
    return next(
        (found for group in sorted(groups) if (found := workload.managed_for(RESOURCES, group)) is not None),
        None,
    )


def run(snapshot: Snapshot) -> Iterator[Finding]:
    selection = role_workloads(CHECK, snapshot)
    chosen = [w for w in selection.chosen if w.kind_key not in SKIPPED_KINDS]
    problems = []
    for workload in chosen:
        unlimited: dict[str, str] = {}
        for template in workload.templates:
            for container in containers(template.spec, include_init=False):
                if (
                    container_requests_gpu(container)
                    and dig(container, "resources", "limits", "memory") is None
                ):
                    unlimited.setdefault(str(container.get("name") or "?"), template.group)
        if not unlimited:
            continue
        filled = _operator_fills(workload, set(unlimited.values()))
        if filled is not None or workload.fragment:
            problems.append(_unseen(workload, filled))
            continue
        names = sorted(unlimited)
        problems.append(
            workload_failed(
                CHECK,
                workload,
                message(
                    "GPU 컨테이너 {count}개에 메모리 한도가 없습니다",
                    "{count} GPU container(s) with no memory limit",
                    count=len(names),
                ),
                {"containers": names[:10]},
            )
        )
    subject = text("GPU 서빙 워크로드", "GPU serving workloads")
    yield from workload_verdicts(
        CHECK, snapshot, problems, len(chosen), subject, WORKLOAD_KINDS, selection.undecided
    )


def _unseen(workload: Workload, filled: Managed | None) -> Finding:
    """The limit is set where this input cannot see: by the operator, or by the base a patch merges into."""
    if filled is not None:
        said = message(
            "메모리 한도를 이 입력에서 볼 수 없습니다: {how}",
            "the memory limit is not in this input: {how_en}",
            how=filled.ko,
            how_en=filled.what,
        )
        return unknown(CHECK, workload.owner, said, {**workload.evidence, **filled.evidence})
    said = message(
        "패치 조각이라(이미지 없는 컨테이너) 병합될 기본 매니페스트의 메모리 한도를 볼 수 없습니다",
        "a patch fragment (containers without an image): the memory limit of the base it merges into is "
        "not in this input",
    )
    return unknown(CHECK, workload.owner, said, workload.evidence)
