"""GPU Jobs need a podFailurePolicy: disruptions should not burn retries, fatal errors should not retry."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import role_workloads, text, workload_failed, workload_verdicts
from kubegap.checker.extract import dig, integer, items
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.workload import WORKLOAD_KINDS, Role

CHECK = CheckMeta(
    id="gpu-job-pod-failure-policy",
    area="training-jobs",
    severity=Severity.medium,
    title=text("GPU Job의 podFailurePolicy", "podFailurePolicy of GPU Jobs"),
    why=text(
        "podFailurePolicy가 없으면 노드 장애나 선점으로 죽은 파드도 backoffLimit을 깎고, 반대로 코드 "
        "버그로 죽은 파드는 쓸데없이 여러 번 재시도합니다. 대형 학습에서는 몇 시간마다 하드웨어가 고장 "
        "나므로, 재시도 예산이 하드웨어 때문에 바닥나면 작업 전체가 실패로 끝납니다.",
        "Without a podFailurePolicy, pods killed by a node failure or preemption eat into backoffLimit, "
        "while pods that crash on a code bug are retried for nothing. In large runs hardware fails every "
        "few hours, so the retry budget drains on hardware and the whole Job ends as failed.",
    ),
    remediation=text(
        "podFailurePolicy에 onPodConditions DisruptionTarget → Ignore 규칙을 넣어 중단은 재시도 횟수에서 "
        "빼고, 복구할 수 없는 종료 코드는 FailJob으로 바로 끝내세요(restartPolicy: Never 필요).",
        "Add a podFailurePolicy rule onPodConditions DisruptionTarget → Ignore so disruptions do not "
        "count, and FailJob on exit codes that cannot recover (requires restartPolicy: Never).",
    ),
    decides=text(
        "역할이 학습이나 배치이고 GPU를 요청하는 Job·CronJob의 Job spec에 DisruptionTarget 조건을 다루는 "
        "podFailurePolicy 규칙이 없으면 실패입니다. 벤치마크·번인·스모크 테스트는 다시 돌리면 그만이라 "
        "건너뜁니다.",
        "Fails a Job or CronJob whose role is training or batch and that requests GPUs when its Job spec "
        "has no podFailurePolicy rule handling the DisruptionTarget condition. Benchmarks, burn-in runs and "
        "smoke tests, which can simply be run again, are skipped.",
    ),
    incidents=("llama3-2024-54-day-interruptions", "opt-2021-11-thanksgiving-restarts-buffer-nodes"),
    needs=(),
    optional=WORKLOAD_KINDS,
    components=("job-scheduler", "training-framework"),
    references=("https://kubernetes.io/docs/tasks/job/pod-failure-policy/",),
    roles=(Role.multi_node_training, Role.single_node_training, Role.batch),
)


def handles_disruption(job_spec: Any) -> bool:
    for rule in items(dig(job_spec, "podFailurePolicy", "rules")):
        if any(pattern.get("type") == "DisruptionTarget" for pattern in items(rule.get("onPodConditions"))):
            return True
    return False


def run(snapshot: Snapshot) -> Iterator[Finding]:
    selection = role_workloads(CHECK, snapshot, kinds=("batch/Job", "batch/CronJob"))
    chosen = selection.chosen
    problems = []
    for workload in chosen:
        spec = dig(workload.obj, "spec")
        job_spec = dig(spec, "jobTemplate", "spec") if workload.kind_key == "batch/CronJob" else spec
        if handles_disruption(job_spec):
            continue
        backoff = integer(dig(job_spec, "backoffLimit"), 6)
        evidence: dict[str, object] = {
            "backoffLimit": backoff,
            "podFailurePolicy": dig(job_spec, "podFailurePolicy") is not None,
        }
        problems.append(
            workload_failed(
                CHECK,
                workload,
                message(
                    "노드 중단이 Job 실패로 셈해집니다(DisruptionTarget 규칙 없음)",
                    "node disruptions count as Job failures (no DisruptionTarget rule)",
                ),
                evidence,
            )
        )
    yield from workload_verdicts(
        CHECK,
        snapshot,
        problems,
        len(chosen),
        text("GPU 학습·배치 Job", "GPU training and batch Jobs"),
        ("batch/Job", "batch/CronJob"),
        selection.undecided,
    )
