"""A JobSet without a failurePolicy dies on the first child Job failure: one bad node ends the run."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import role_workloads, text, workload_failed, workload_verdicts
from kubegap.checker.extract import dig, integer
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.workload import WORKLOAD_KINDS, Role

CHECK = CheckMeta(
    id="jobset-failure-policy",
    area="training-jobs",
    severity=Severity.medium,
    title=text("JobSet의 실패 정책", "JobSet failure policy"),
    why=text(
        "failurePolicy가 없거나 maxRestarts가 0인 JobSet은 자식 Job 하나가 실패하는 순간 전체가 "
        "실패합니다. Llama 3 학습은 54일 동안 약 3시간마다 한 번 중단되었고, 자동 재시작 덕분에 유효 학습 "
        "시간을 90% 넘게 지켰습니다.",
        "A JobSet with no failurePolicy, or maxRestarts 0, fails as a whole the moment one child Job "
        "fails. Llama 3 training was interrupted about every three hours for 54 days and kept effective "
        "training time above 90% because restarts were automatic.",
    ),
    remediation=text(
        "spec.failurePolicy.maxRestarts를 예상 중단 횟수에 맞게 두고(예: 10 이상), 필요하면 rules로 호스트 "
        "유지보수·선점은 재시작 횟수에서 빼세요. 체크포인트에서 재개하도록 학습 코드를 짜 두세요.",
        "Set spec.failurePolicy.maxRestarts to match expected interruptions (e.g. 10 or more) and, where "
        "useful, rules that do not count host maintenance or preemption. Make the training code resume "
        "from a checkpoint.",
    ),
    decides=text(
        "역할이 학습이나 배치인 GPU JobSet에 spec.failurePolicy가 없거나 maxRestarts가 0이면 실패입니다. "
        "벤치마크·번인·스모크 테스트는 뺍니다. 실패를 찾으려고 돌리는 것이라 다시 시작하면 그 실패를 가릴 "
        "뿐입니다.",
        "Fails a GPU JobSet whose role is training or batch when its spec.failurePolicy is missing or has "
        "maxRestarts 0. Benchmarks, burn-in and smoke tests are left out: they run to find failures, and "
        "restarting them would only hide one.",
    ),
    incidents=("llama3-2024-54-day-interruptions", "bloom-2022-04-weekly-gpu-failures-hang-instead-of-exit"),
    needs=(),
    optional=WORKLOAD_KINDS,
    components=("job-scheduler", "training-framework"),
    references=(
        "https://github.com/kubernetes-sigs/jobset/blob/main/api/jobset/v1alpha2/jobset_types.go",
        "https://jobset.sigs.k8s.io/docs/concepts/",
    ),
    roles=(Role.multi_node_training, Role.single_node_training, Role.batch),
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    selection = role_workloads(CHECK, snapshot, kinds=("jobset.x-k8s.io/JobSet",))
    chosen = selection.chosen
    problems = []
    for workload in chosen:
        policy = dig(workload.obj, "spec", "failurePolicy")
        restarts = integer(dig(policy, "maxRestarts"), 0)
        if not isinstance(policy, dict) or restarts == 0:
            evidence: dict[str, object] = {"failurePolicy": isinstance(policy, dict), "maxRestarts": restarts}
            problems.append(
                workload_failed(
                    CHECK,
                    workload,
                    message(
                        "자식 Job 하나만 실패해도 JobSet 전체가 끝납니다(maxRestarts 0)",
                        "the first child Job failure ends the JobSet (maxRestarts 0)",
                    ),
                    evidence,
                )
            )
    yield from workload_verdicts(
        CHECK,
        snapshot,
        problems,
        len(chosen),
        text("GPU JobSet", "GPU JobSets"),
        ("jobset.x-k8s.io/JobSet",),
        selection.undecided,
    )
