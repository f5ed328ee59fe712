"""The container default /dev/shm is 64 MiB: NCCL and data-loader workers need far more."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import Message, message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import (
    role_workloads,
    text,
    unknown,
    workload_failed,
    workload_verdicts,
)
from kubegap.checker.extract import shm_size_bytes
from kubegap.checker.extract.podspec import tpu_only
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.workload import WORKLOAD_KINDS, Role, runs_bounded_benchmark, uses_gloo, uses_nccl_tests

MIN_BYTES = 1024**3
# Operators that mount /dev/shm into the pods they build (KubeRay, the Trainer runtime, the NIM
# operator, Dynamo, KServe's LLMInferenceService presets): the pod spec in the manifest is not the pod.
SKIPPED = frozenset(
    {
        "ray.io/RayJob",
        "ray.io/RayCluster",
        "ray.io/RayService",
        "orchestration.aibrix.ai/RayClusterFleet",
        "trainer.kubeflow.org/TrainJob",
        "apps.nvidia.com/NIMService",
        "apps.nvidia.com/NIMCache",
        "nvidia.com/DynamoGraphDeployment",
        "serving.kserve.io/LLMInferenceService",
        "serving.kserve.io/LLMInferenceServiceConfig",
    }
)


CHECK = CheckMeta(
    id="dev-shm-size",
    area="training-jobs",
    severity=Severity.medium,
    title=text("GPU 파드의 /dev/shm 크기", "/dev/shm size of GPU pods"),
    why=text(
        "컨테이너의 기본 /dev/shm은 64MiB입니다. 같은 노드의 GPU끼리 NCCL이 주고받는 버퍼와 PyTorch "
        "DataLoader 워커의 텐서가 여기를 지나므로, 작으면 'unable to allocate shared memory' 오류로 죽거나 "
        "데이터 로더가 멈춥니다. BLOOM의 평가 단계 멈춤도 데이터 로더 워커에서 시작됐습니다.",
        "A container's default /dev/shm is 64 MiB. NCCL buffers between GPUs on one node and PyTorch "
        "DataLoader worker tensors pass through it, so when it is small jobs die with 'unable to allocate "
        "shared memory' or the loader stalls. BLOOM's evaluation hangs also started in data-loader workers.",
    ),
    remediation=text(
        "emptyDir {medium: Memory, sizeLimit: 수 GiB} 볼륨을 /dev/shm에 마운트하세요(파드 메모리 한도에 "
        "포함됩니다).",
        "Mount an emptyDir {medium: Memory, sizeLimit: a few GiB} volume at /dev/shm (it counts against "
        "the pod's memory limit).",
    ),
    decides=text(
        "GPU를 2개 이상 요청하는 파드 템플릿이나 여러 노드 학습 템플릿에 메모리 emptyDir /dev/shm이 없거나 "
        "1GiB 미만이고 hostIPC도 아니면 실패입니다. KubeRay와 TrainJob은 그 컨트롤러가 정하므로, gloo "
        "백엔드 작업과 gpu-burn·nvbandwidth 같은 정해진 시간만 도는 측정 도구는 NCCL 공유 메모리도 데이터 "
        "로더도 쓰지 않으므로 건너뜁니다. 다른 벤치마크는 파드당 GPU가 2개 이상일 때만 봅니다. "
        "이미지 없는 컨테이너로 된 패치 조각은 기본 매니페스트를 볼 수 없으므로 알 수 없음입니다.",
        "Fails a pod template that requests 2+ GPUs, or belongs to multi-node training, when it has no "
        "memory emptyDir at /dev/shm (or one under 1 GiB) and is not hostIPC. Skipped: KubeRay and "
        "TrainJob (their controllers decide), and gloo-backend jobs and fixed-length measurement tools such "
        "as gpu-burn and nvbandwidth, which use neither NCCL shared memory nor a data loader; other "
        "benchmarks are judged when a pod has 2 or more GPUs. A patch fragment (containers without an "
        "image) is unknown: the base it merges into is not in the input.",
    ),
    incidents=(
        "bloom-2022-05-18-dataloader-deadlock",
        "lmcache-2026-07-ci-pods-default-dev-shm-vllm-out-of-shared-memory",
    ),
    needs=(),
    optional=WORKLOAD_KINDS,
    components=("data-loader", "nccl"),
    references=(
        "https://github.com/pytorch/pytorch#docker-image",
        "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html",
    ),
    roles=(
        Role.multi_node_training,
        Role.single_node_training,
        Role.serving,
        Role.batch,
        Role.benchmark,
        Role.other,
    ),
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    selection = role_workloads(CHECK, snapshot)
    chosen = [
        w
        for w in selection.chosen
        if w.kind_key not in SKIPPED
        and not uses_gloo(w)
        and (w.role is not Role.benchmark or uses_nccl_tests(w) or not runs_bounded_benchmark(w))
    ]
    problems = []
    for workload in chosen:
        if workload.fragment:
            # A kustomize component or patch: its /dev/shm mount, if any, is in the base it merges into.
            problems.append(
                unknown(
                    CHECK,
                    workload.owner,
                    message(
                        "패치 조각이라(이미지 없는 컨테이너) 병합될 기본 매니페스트의 /dev/shm을 볼 수 "
                        "없습니다",
                        "a patch fragment (containers without an image): the /dev/shm of the base it merges "
                        "into is not in this input",
                    ),
                    workload.evidence,
                )
            )
            continue
        for template in workload.templates:
            if (
                template.gpus == 0
                or (template.gpus < 2 and (not workload.distributed or workload.role is Role.benchmark))
                or template.spec.get("hostIPC") is True
                or tpu_only(template.spec)
            ):
                continue
            size = shm_size_bytes(template.spec)
            if size is None or size < MIN_BYTES:
                group = f" ({template.group})" if template.group else ""
                problems.append(
                    workload_failed(
                        CHECK,
                        workload,
                        _shm_message(group, size),
                        {"group": template.group, "gpus": template.gpus},
                    )
                )
                break
    yield from workload_verdicts(
        CHECK,
        snapshot,
        problems,
        len(chosen),
        text("GPU 워크로드", "GPU workloads"),
        undecided=selection.undecided,
    )


def _shm_message(role: str, size: float | None) -> Message:
    if size is None:
        return message(
            "/dev/shm{role}이 마운트되지 않았습니다(기본 64 MiB)",
            "/dev/shm{role} is not mounted (64 MiB default)",
            role=role,
        )
    return message(
        "/dev/shm{role}이 {size} MiB입니다",
        "/dev/shm{role} is {size} MiB",
        role=role,
        size=int(size / 1024**2),
    )
