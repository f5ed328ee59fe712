"""The GPU ranks of one distributed job must run one image: mixed builds mean mixed NCCL and CUDA."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import (
    role_workloads,
    text,
    unrendered_unknown,
    workload_failed,
    workload_verdicts,
)
from kubegap.checker.extract import containers
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.workload import USER_ROLES, WORKLOAD_KINDS, Workload, is_placeholder

CHECK = CheckMeta(
    id="distributed-job-image-skew",
    area="training-jobs",
    severity=Severity.medium,
    title=text("분산 작업 GPU 파드들의 이미지 일치", "One image across a distributed job's GPU pods"),
    why=text(
        "한 작업의 rank들이 서로 다른 이미지를 쓰면 NCCL·CUDA·프레임워크 버전이 섞여, collective가 "
        "멈추거나 결과가 조용히 달라질 수 있습니다. OPT 팀은 실행 중 의존성이 바뀌어 학습 양상이 달라졌고, "
        "Azure OpenAI는 모델 설정과 엔진 버전이 어긋나 요청이 실패했습니다.",
        "When ranks of one job run different images, NCCL, CUDA and framework versions mix; collectives "
        "can hang or results can silently differ. OPT saw training dynamics change after a dependency "
        "drifted mid-run, and Azure OpenAI requests failed when model config and engine version disagreed.",
    ),
    remediation=text(
        "분산 작업의 모든 GPU 역할(Master/Worker, leader/worker)에 같은 이미지를 digest(@sha256:)로 고정해 "
        "쓰세요.",
        "Use one image, pinned by digest (@sha256:), for every GPU role of a distributed job "
        "(Master/Worker, leader/worker).",
    ),
    decides=text(
        "여러 노드 GPU 워크로드에서 GPU를 요청하는 역할들의 주 컨테이너 이미지가 둘 이상이면 실패입니다. "
        "GPU를 쓰지 않는 launcher·head 역할은 뺍니다.",
        "Fails a multi-node GPU workload whose GPU-requesting roles use more than one main container "
        "image. Roles without GPUs (launcher, head) are left out.",
    ),
    incidents=(
        "opt-2021-12-accidental-megatron-upgrade",
        "azure-openai-2026-03-gpt52-config-engine-mismatch",
    ),
    needs=(),
    optional=WORKLOAD_KINDS,
    components=("training-framework", "nccl"),
    references=(
        "https://kubernetes.io/docs/concepts/containers/images/#image-names",
        "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html",
    ),
    roles=USER_ROLES,
)


def gpu_images(workload: Workload) -> dict[str, str]:
    """Role -> image of the first app container, for roles that request GPUs."""
    found = {}
    for template in workload.templates:
        main = containers(template.spec, include_init=False)
        if template.gpus > 0 and main and main[0].get("image"):
            found[template.group or "pod"] = str(main[0]["image"])
    return found


def run(snapshot: Snapshot) -> Iterator[Finding]:
    selection = role_workloads(CHECK, snapshot, fields=("image",))
    chosen = [workload for workload in selection.chosen if workload.distributed]
    problems = []
    undecided = list(selection.undecided)
    for workload in chosen:
        images = gpu_images(workload)
        templated = [group for group, image in images.items() if is_placeholder(image)]
        if templated:
            undecided.append(unrendered_unknown(CHECK, workload, [f"{group}.image" for group in templated]))
        elif len(set(images.values())) > 1:
            evidence: dict[str, object] = {"images": images}
            problems.append(
                workload_failed(
                    CHECK,
                    workload,
                    message(
                        "GPU 역할들이 서로 다른 이미지 {count}개를 씁니다",
                        "GPU roles run {count} images",
                        count=len(set(images.values())),
                    ),
                    evidence,
                )
            )
    subject = text("여러 노드 GPU 워크로드", "multi-node GPU workloads")
    yield from workload_verdicts(CHECK, snapshot, problems, len(chosen), subject, undecided=undecided)
