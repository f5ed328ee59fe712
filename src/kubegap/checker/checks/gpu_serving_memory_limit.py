"""A GPU serving container without a memory limit can eat a node's memory; the kernel then kills at random."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import (
    role_workloads,
    text,
    workload_failed,
    workload_verdicts,
)
from kubegap.checker.extract import containers, dig
from kubegap.checker.extract.podspec import container_requests_gpu
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.workload import WORKLOAD_KINDS, Role

# Long-running workloads that share a node with other pods for days. Judged on real manifests first over
# every GPU workload, most findings were test pods, tutorials and placeholders where the gap is noise.
SERVING_KINDS = frozenset(
    {"apps/Deployment", "apps/StatefulSet", "leaderworkerset.x-k8s.io/LeaderWorkerSet", "ray.io/RayService"}
)

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
        "오래 떠 있으며 노드를 다른 파드와 나눠 쓰는 GPU 서빙 워크로드(Deployment, StatefulSet, "
        "LeaderWorkerSet, RayService)에서 GPU를 요청하는 컨테이너에 resources.limits.memory가 없으면 "
        "실패입니다. 끝나는 작업(Job, 학습 작업), 낱개 파드, gpu-burn 같은 스트레스 테스트와 벤치마크는 "
        "보지 않습니다. 워크로드 종류를 읽지 못했으면 알 수 없음입니다.",
        "Fails each container that requests GPUs, in long-running GPU serving workloads that share nodes "
        "(Deployment, StatefulSet, LeaderWorkerSet, RayService), when it has no resources.limits.memory. "
        "Work that ends (Jobs, training jobs), bare Pods, stress tests such as gpu-burn and benchmarks are "
        "not judged. If the workload kinds could not be read, the result is unknown.",
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


def run(snapshot: Snapshot) -> Iterator[Finding]:
    selection = role_workloads(CHECK, snapshot, kinds=SERVING_KINDS)
    chosen = selection.chosen
    problems = []
    for workload in chosen:
        unlimited = sorted(
            {
                str(container.get("name") or "?")
                for template in workload.templates
                for container in containers(template.spec, include_init=False)
                if container_requests_gpu(container)
                and dig(container, "resources", "limits", "memory") is None
            }
        )
        if unlimited:
            problems.append(
                workload_failed(
                    CHECK,
                    workload,
                    message(
                        "GPU 컨테이너 {count}개에 메모리 한도가 없습니다",
                        "{count} GPU container(s) with no memory limit",
                        count=len(unlimited),
                    ),
                    {"containers": unlimited[:10]},
                )
            )
    subject = text("GPU 서빙 워크로드", "GPU serving workloads")
    yield from workload_verdicts(
        CHECK, snapshot, problems, len(chosen), subject, undecided=selection.undecided
    )
