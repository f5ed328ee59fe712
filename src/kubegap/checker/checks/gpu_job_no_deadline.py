"""A hung multi-node job with no deadline holds its GPUs until a person notices."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import role_workloads, text, workload_failed, workload_verdicts
from kubegap.checker.extract import dig, items
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.workload import WORKLOAD_KINDS, Role, Workload, runs_bounded_benchmark

KUBEFLOW = (
    "kubeflow.org/PyTorchJob",
    "kubeflow.org/TFJob",
    "kubeflow.org/MPIJob",
    "kubeflow.org/PaddleJob",
    "kubeflow.org/XGBoostJob",
)
JUDGED = frozenset({"batch/Job", "batch/CronJob", "jobset.x-k8s.io/JobSet", "ray.io/RayJob", *KUBEFLOW})

CHECK = CheckMeta(
    id="gpu-job-no-deadline",
    area="training-jobs",
    severity=Severity.low,
    title=text("여러 노드 GPU 작업의 실행 시간 상한", "Deadline of multi-node GPU jobs"),
    why=text(
        "NCCL 정리 단계에서 교착된 rank는 끝나지 않습니다. Goodfire에서는 죽은 64-GPU 작업 두 개가 좀비로 "
        "남아 H100 128장을 약 9시간 붙들었고, 7일 시간 제한만 바라보고 있었습니다. activeDeadlineSeconds는 "
        "적어도 그 낭비에 상한을 둡니다.",
        "A rank deadlocked in NCCL teardown never exits. At Goodfire two dead 64-GPU jobs stayed as "
        "zombies holding 128 H100s for about 9 hours, heading for a 7-day limit. activeDeadlineSeconds at "
        "least caps that waste.",
    ),
    remediation=text(
        "Job/JobSet의 replicatedJobs에 activeDeadlineSeconds를, PyTorchJob 등은 "
        "runPolicy.activeDeadlineSeconds를, RayJob은 spec.activeDeadlineSeconds를 예상 실행 시간보다 "
        "넉넉히 두고, 진행 단계 기반 감시도 함께 두세요.",
        "Set activeDeadlineSeconds (Job, JobSet replicatedJobs), runPolicy.activeDeadlineSeconds "
        "(PyTorchJob and friends) or spec.activeDeadlineSeconds (RayJob) comfortably above the expected "
        "run time, and add a progress (step) watchdog too.",
    ),
    decides=text(
        "GPU 파드 2개 이상이 한 실행을 이루는 워크로드(Job, CronJob, JobSet, Kubeflow 작업, RayJob) 가운데 "
        "역할이 여러 노드 학습, 배치, 벤치마크인 것에 종류별 activeDeadlineSeconds가 없으면 실패입니다. "
        "서빙과 스모크 테스트, 그리고 nvbandwidth·nccl-tests·gpu-burn처럼 정해진 시간만 재고 끝나는 측정 "
        "도구는 뺍니다. GPU 없는 파드(Ray 헤드 등)는 세지 않습니다.",
        "Fails a workload (Job, CronJob, JobSet, Kubeflow job, RayJob) whose run spans 2 or more GPU pods "
        "and whose role is multi-node training, batch or benchmark when it has no activeDeadlineSeconds in "
        "the field its kind uses. Serving, smoke tests and fixed-length measurement tools (nvbandwidth, "
        "nccl-tests, gpu-burn) are left out; pods without GPUs (a Ray head) are not counted.",
    ),
    incidents=(
        "goodfire-2026-zombie-slurm-jobs-128-h100",
        "pytorch-2023-nccl-watchdog-fails-to-crash",
        "bloom-2022-04-30-eval-hang-deepspeed-deadlock",
    ),
    needs=(),
    optional=WORKLOAD_KINDS,
    components=("job-scheduler", "nccl"),
    references=(
        "https://kubernetes.io/docs/concepts/workloads/controllers/job/#job-termination-and-cleanup",
        "https://nvidia.github.io/OSMO/main/user_guide/troubleshooting/nccl.html",
    ),
    roles=(Role.multi_node_training, Role.batch, Role.benchmark),
)


def deadline(workload: Workload) -> Any:
    spec = dig(workload.obj, "spec")
    if workload.kind_key == "batch/Job" or workload.kind_key == "ray.io/RayJob":
        return dig(spec, "activeDeadlineSeconds")
    if workload.kind_key == "batch/CronJob":
        return dig(spec, "jobTemplate", "spec", "activeDeadlineSeconds")
    if workload.kind_key == "jobset.x-k8s.io/JobSet":
        found = [
            dig(job, "template", "spec", "activeDeadlineSeconds")
            for job in items(dig(spec, "replicatedJobs"))
        ]
        return next((value for value in found if value is not None), None)
    return dig(spec, "runPolicy", "activeDeadlineSeconds")


def run(snapshot: Snapshot) -> Iterator[Finding]:
    selection = role_workloads(CHECK, snapshot, kinds=JUDGED)
    # Several GPU pods form one run (a CPU-only Ray head beside one GPU worker is not multi-node), and
    # not a bandwidth or burn-in tool that measures for a fixed time and exits.
    chosen = [
        w
        for w in selection.chosen
        if w.distributed and w.gpu_pods >= 2 and not (w.role is Role.benchmark and runs_bounded_benchmark(w))
    ]
    problems = [
        workload_failed(
            CHECK,
            workload,
            message(
                "GPU 파드 {pods}개짜리 작업에 activeDeadlineSeconds가 없습니다",
                "{pods}-GPU-pod job has no activeDeadlineSeconds",
                pods=workload.gpu_pods,
            ),
            {"pods": workload.pods, "gpu_pods": workload.gpu_pods},
        )
        for workload in chosen
        if deadline(workload) is None
    ]
    subject = text("여러 노드 GPU 작업", "multi-node GPU jobs")
    yield from workload_verdicts(
        CHECK, snapshot, problems, len(chosen), subject, undecided=selection.undecided
    )
