"""A memory /dev/shm not bounded below the pod's memory limit lets one leak take the pod; restarts keep it."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import Message, message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import role_workloads, text, workload_failed, workload_verdicts
from kubegap.checker.extract import quantity
from kubegap.checker.extract.podspec import memory_shm_volume, pod_memory_limit
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.workload import USER_ROLES, WORKLOAD_KINDS

GIB = 1024**3

CHECK = CheckMeta(
    id="dev-shm-memory-unbounded",
    area="training-jobs",
    severity=Severity.medium,
    title=text("메모리 기반 /dev/shm의 크기 제한", "Size limit of memory-backed /dev/shm"),
    why=text(
        "medium: Memory인 emptyDir에 쓴 파일은 파드의 메모리로 계산되고, 쓸 수 있는 양은 sizeLimit과 "
        "컨테이너 메모리 한도 합 중 작은 쪽입니다. sizeLimit이 없거나 그보다 크면 /dev/shm에 쌓인 것이 "
        "모델 서버나 학습 프로세스가 쓸 메모리를 차지하고, 메모리 한도도 없으면 노드 메모리까지 가져갑니다. "
        "이 볼륨은 컨테이너가 재시작해도 비워지지 않습니다. SGLang 서빙 플릿에서는 스케줄러 크래시 뒤 "
        "새어 나온 공유 메모리 조각이 /dev/shm을 채워 파드 101개가 지울 때까지 크래시 루프에 머물렀고, "
        "llm-d에서는 NCCL이 남긴 파일이 쌓여 vLLM 배포가 초기화하지 못했습니다.",
        "Files written to a medium: Memory emptyDir count as the pod's memory, and it can hold the smaller "
        "of its sizeLimit and the sum of the containers' memory limits. With no sizeLimit, or one above "
        "that sum, whatever piles up in /dev/shm takes memory the model server or trainer needs; with no "
        "memory limit either, it takes the node's. A container restart does not empty the volume. On an "
        "SGLang serving fleet, shared-memory segments leaked after a scheduler crash filled /dev/shm and "
        "held 101 pods in crash loops until they were deleted; at llm-d, files left by NCCL piled up until "
        "a vLLM deployment could not initialise.",
    ),
    remediation=text(
        "/dev/shm emptyDir에 sizeLimit을 주되 파드 메모리 한도보다 작게(프로세스가 쓸 몫을 남기고) "
        "잡으세요. 컨테이너가 볼륨의 유일한 사용자라면 시작 명령에서 /dev/shm을 먼저 비우고, 재시작이 "
        "거듭되는 GPU 파드는 기다리지 말고 지워서 새 볼륨을 받게 하세요.",
        "Give the /dev/shm emptyDir a sizeLimit below the pod's memory limit, leaving room for the process. "
        "If the container is the volume's only user, empty /dev/shm in its start command, and delete a GPU "
        "pod whose restarts keep climbing so it gets a fresh volume instead of waiting.",
    ),
    decides=text(
        "GPU를 요청하는 파드 템플릿(DaemonSet 제외)이 /dev/shm에 medium: Memory emptyDir을 마운트할 때, "
        "파드 메모리 한도(파드 수준 resources, 없으면 앱 컨테이너 limits.memory의 합; 하나라도 없으면 "
        "한도 없음)와 sizeLimit을 비교합니다. sizeLimit이 없거나 파드 메모리 한도보다 크면 실패입니다. "
        "sizeLimit이 있고 메모리 한도가 없는 파드는 /dev/shm 자체가 묶여 있으므로 통과입니다.",
        "For pod templates that request GPUs (DaemonSets excluded) and mount a medium: Memory emptyDir at "
        "/dev/shm, compares its sizeLimit with the pod's memory limit (pod-level resources, else the sum of "
        "the app containers' limits.memory; none if any container has none). Fails when there is no "
        "sizeLimit or it is above the pod's memory limit. A sizeLimit on a pod without a memory limit "
        "passes: /dev/shm itself is bounded.",
    ),
    incidents=(
        "sglang-2026-09-leaked-shm-segments-permanent-crashloop",
        "llm-d-2025-10-nccl-shm-leftovers-crashloop",
    ),
    needs=(),
    optional=WORKLOAD_KINDS,
    components=("inference-serving", "nccl"),
    references=(
        "https://kubernetes.io/docs/concepts/storage/volumes/#emptydir",
        "https://kubernetes.io/docs/reference/kubernetes-api/config-and-storage-resources/volume/#local-temporary-directory",
    ),
    roles=USER_ROLES,
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    selection = role_workloads(CHECK, snapshot)
    chosen = selection.chosen
    problems = []
    examined = 0
    for workload in chosen:
        for template in workload.templates:
            volume = memory_shm_volume(template.spec) if template.gpus > 0 else None
            if volume is None:
                continue
            examined += 1
            size_limit = quantity(volume.get("sizeLimit"))
            memory_limit = pod_memory_limit(template.spec)
            said = _problem(template.group, size_limit, memory_limit)
            if said is not None:
                evidence = {
                    "group": template.group,
                    "sizeLimit": volume.get("sizeLimit"),
                    "gpus": template.gpus,
                }
                problems.append(workload_failed(CHECK, workload, said, evidence))
                break
    yield from workload_verdicts(
        CHECK,
        snapshot,
        problems,
        examined,
        text("메모리 /dev/shm을 쓰는 GPU 파드 템플릿", "GPU pod templates with a memory /dev/shm"),
        kinds=WORKLOAD_KINDS,
        undecided=selection.undecided,
    )


def _problem(role: str, size_limit: float | None, memory_limit: float | None) -> Message | None:
    where = f" ({role})" if role else ""
    if size_limit is None and memory_limit is None:
        return message(
            "/dev/shm{where}이 메모리 emptyDir인데 sizeLimit도 메모리 한도도 없어 노드 메모리까지 차지할 수 "
            "있습니다",
            "/dev/shm{where} is a memory emptyDir with neither a sizeLimit nor a memory limit: it can take "
            "the node's memory",
            where=where,
        )
    if size_limit is None:
        return message(
            "/dev/shm{where}이 메모리 emptyDir인데 sizeLimit이 없어 파드 메모리 한도 {limit} GiB를 "
            "모두 차지할 수 있습니다",
            "/dev/shm{where} is a memory emptyDir with no sizeLimit: it can fill the pod's whole "
            "{limit} GiB memory limit",
            where=where,
            limit=_gib(memory_limit or 0),
        )
    if memory_limit is not None and size_limit > memory_limit:
        return message(
            "/dev/shm{where}의 sizeLimit {size} GiB가 파드 메모리 한도 {limit} GiB보다 커서 제한 구실을 하지 "
            "못합니다",
            "/dev/shm{where} has a sizeLimit of {size} GiB, above the pod's {limit} GiB memory limit, so it "
            "never bounds anything",
            where=where,
            size=_gib(size_limit),
            limit=_gib(memory_limit),
        )
    return None


def _gib(value: float) -> str:
    return f"{value / GIB:g}" if value >= GIB / 10 else f"{value / GIB:.2f}"
