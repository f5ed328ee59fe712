"""Finished Jobs without ttlSecondsAfterFinished pile up in etcd and in every LIST."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import failed, not_applicable, passed, sample, text
from kubegap.checker.extract import dig, items, ref
from kubegap.checker.extract._fields import controller_owner
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import KubeObject, Snapshot

PILE_UP = 50

CHECK = CheckMeta(
    id="finished-jobs-ttl",
    area="control-plane",
    severity=Severity.low,
    title=text(
        "끝난 Job 정리(ttlSecondsAfterFinished)", "Cleanup of finished Jobs (ttlSecondsAfterFinished)"
    ),
    why=text(
        "끝난 Job과 그 파드는 지우기 전까지 etcd에 남고, 모든 LIST와 컨트롤러 재동기화 비용에 더해집니다. "
        "OpenAI는 1,000 노드를 넘기며 etcd가 기본 2GB 한도에 닿아 쓰기가 막혔고, 그 여파로 오토스케일러가 "
        "워커를 전부 종료했습니다.",
        "Finished Jobs and their pods stay in etcd until deleted and add to every LIST and controller "
        "resync. Past 1,000 nodes OpenAI's etcd hit its default 2 GB quota and refused writes, and the "
        "fallout led the autoscaler to terminate every worker.",
    ),
    remediation=text(
        "Job(과 JobSet)에 ttlSecondsAfterFinished를 두세요(예: 86400). 결과를 보관해야 하면 로그·지표로 "
        "내보내고 Job은 지우세요.",
        "Set ttlSecondsAfterFinished on Jobs (and JobSets), e.g. 86400. If results must be kept, ship logs "
        "and metrics out and let the Job go.",
    ),
    decides=text(
        "CronJob이 만들지 않은 Job 중 ttlSecondsAfterFinished가 없는 것을 셉니다. 클러스터에서는 끝난 "
        "Job이 50개를 넘으면 실패입니다. 매니페스트에서는 generateName으로 만들 때마다 새로 생기는 Job만 "
        "실패입니다. 이름이 정해진 Job은 한 번에 하나만 있을 수 있어 쌓이지 않으므로 통과입니다.",
        "Counts Jobs not created by a CronJob that lack ttlSecondsAfterFinished. On a cluster, more than "
        "50 finished ones fail. In manifests, only Jobs named by generateName (a new one at every create) "
        "fail; a Job with a fixed name can exist only once, so it cannot pile up, and passes.",
    ),
    incidents=("openai-2018-k8s-etcd-quota-autoscaler-mass-termination", "openai-2018-k8s-etcd-disk-latency"),
    needs=("batch/Job",),
    components=("etcd", "kube-apiserver"),
    references=(
        "https://kubernetes.io/docs/concepts/workloads/controllers/ttlafterfinished/",
        "https://github.com/stackrox/kube-linter/blob/main/pkg/builtinchecks/yamls/job-ttl-seconds-after-finished.yaml",
    ),
)


def _finished(job: KubeObject) -> bool:
    return any(
        condition.get("type") in ("Complete", "Failed") and condition.get("status") == "True"
        for condition in items(dig(job, "status", "conditions"))
    )


def run(snapshot: Snapshot) -> Iterator[Finding]:
    jobs = [job for job in snapshot.of("batch/Job") if controller_owner(job) is None]
    if not jobs:
        yield not_applicable(CHECK, message("단독 Job이 없습니다", "no standalone Jobs"))
        return
    lacking = [job for job in jobs if dig(job, "spec", "ttlSecondsAfterFinished") is None]
    if snapshot.mode == "manifests":
        # A fixed-name Job exists once at a time: it cannot pile up. One made by generateName can.
        lacking = [job for job in lacking if not dig(job, "metadata", "name")]
        for job in lacking:
            said = message(
                "Job에 ttlSecondsAfterFinished가 없어 끝난 뒤에도 남습니다",
                "Job has no ttlSecondsAfterFinished: it stays after it finishes",
            )
            yield failed(CHECK, ref(job), said)
        if not lacking:
            said = message(
                "Job {count}개 모두 끝나면 스스로 정리됩니다",
                "all {count} Jobs clean up after themselves",
                count=len(jobs),
            )
            yield passed(CHECK, None, said)
        return
    piled = [job for job in lacking if _finished(job)]
    names = [f"{dig(job, 'metadata', 'namespace')}/{dig(job, 'metadata', 'name')}" for job in piled]
    evidence: dict[str, object] = {"finished_without_ttl": len(piled), "examples": sample(names)}
    if len(piled) > PILE_UP:
        said = message(
            "ttlSecondsAfterFinished 없이 끝난 Job이 {count}개 남아 있습니다",
            "{count} finished Jobs without ttlSecondsAfterFinished remain",
            count=len(piled),
        )
        yield failed(CHECK, None, said, evidence)
    else:
        said = message(
            "TTL 없이 끝난 Job이 {count}개입니다(기준 {threshold}개)",
            "{count} finished Jobs without a TTL (threshold {threshold})",
            count=len(piled),
            threshold=PILE_UP,
        )
        yield passed(CHECK, None, said, evidence)
