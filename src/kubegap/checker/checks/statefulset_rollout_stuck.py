"""A StatefulSet whose pods never take its new spec hides a bad deploy until a node drain sets it off."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import failed, not_applicable, passed, text, unknown
from kubegap.checker.extract import dig, integer, mapping, ref
from kubegap.checker.extract._fields import controller_owner
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import KubeObject, Snapshot

ROLLOUT_HOURS = 1.0  # a healthy StatefulSet rollout replaces its pods well within this

CHECK = CheckMeta(
    id="statefulset-rollout-stuck",
    area="fleet-change",
    severity=Severity.medium,
    title=text("StatefulSet 롤아웃 진행", "StatefulSet rollout progress"),
    why=text(
        "StatefulSet 스펙을 바꿔도 갱신 방식이 OnDelete이거나 롤아웃이 멈추면 파드는 옛 리비전으로 계속 "
        "돕니다. 겉으로 아무 변화가 없으니 배포가 끝난 줄 알지만, 새 스펙은 노드 drain처럼 전혀 다른 "
        "작업 때에야 적용됩니다. 쿠버네티스 CI의 Boskos는 일주일 전 바꾼 이미지가 노드 업그레이드 때 "
        "처음 떠서 크래시 루프에 빠졌고, 9시간 동안 PR을 머지할 수 없었습니다.",
        "When a StatefulSet's spec changes but its update strategy is OnDelete, or its rollout stalls, the "
        "pods keep running the old revision. Nothing looks different, so the deploy seems done, yet the "
        "new spec only lands during some unrelated operation such as a node drain. Kubernetes CI's Boskos "
        "first started an image changed a week earlier during a node upgrade, crash-looped, and blocked "
        "every PR merge for nine hours.",
    ),
    remediation=text(
        "operator가 관리하지 않는 StatefulSet은 updateStrategy.type을 RollingUpdate로 두고, 배포 뒤 "
        "status.updateRevision과 currentRevision이 같아졌는지(kubectl rollout status sts/NAME) 확인하세요. "
        "멈춘 롤아웃은 준비되지 않은 파드의 원인을 고친 뒤 그 파드를 지워 다시 굴리세요.",
        "Give StatefulSets that no operator manages updateStrategy.type RollingUpdate, and after a deploy "
        "confirm status.updateRevision equals currentRevision (kubectl rollout status sts/NAME). For a "
        "stalled rollout, fix what keeps the new pod unready, then delete that pod to resume.",
    ),
    decides=text(
        "operator 소유가 아닌 StatefulSet의 갱신 방식이 OnDelete이면(apps/v1beta1의 기본값 포함) 실패입니다. "
        "라이브 상태에서는 컨트롤러가 최신 세대를 본 뒤에도 updateRevision이 currentRevision과 다르고 "
        "updatedReplicas가 replicas보다 적은 채 새 리비전(ControllerRevision)이 만들어진 지 1시간이 "
        "지났으면 실패이고, 리비전의 나이를 알 수 없으면 알 수 없음입니다. partition으로 일부러 나눠 "
        "굴리는 롤아웃은 건너뜁니다.",
        "Fails a StatefulSet no operator owns when its update strategy is OnDelete (including the "
        "apps/v1beta1 default). On live state it also fails when, after the controller has seen the "
        "latest generation, updateRevision still differs from currentRevision with updatedReplicas "
        "below replicas and the new revision (its ControllerRevision) is over an hour old; unknown "
        "when that age cannot be read. Rollouts deliberately staged with a partition are skipped.",
    ),
    incidents=("prow-2019-03-26-boskos-statefulset-stale-pod-node-upgrade",),
    needs=(),  # optional, not needed: a forbidden StatefulSet list holds passes back as unknown anyway
    optional=("apps/StatefulSet", "apps/ControllerRevision"),
    components=("deployment-pipeline",),
    references=(
        "https://kubernetes.io/docs/concepts/workloads/controllers/statefulset/#update-strategies",
        "https://kubernetes.io/docs/concepts/workloads/controllers/statefulset/#forced-rollback",
    ),
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    statefulsets = [
        sts
        for sts in snapshot.of("apps/StatefulSet")
        if isinstance(sts, dict) and controller_owner(sts) is None
    ]
    if not statefulsets:
        yield not_applicable(
            CHECK,
            message("operator가 관리하지 않는 StatefulSet이 없습니다", "no StatefulSets outside an operator"),
        )
        return
    born = _revision_times(snapshot)
    problems = 0
    for sts in statefulsets:
        finding = _judge(sts, born, _parse_time(snapshot.created_at))
        if finding is not None:
            problems += 1
            yield finding
    if not problems:
        yield passed(
            CHECK,
            None,
            message(
                "StatefulSet {count}개 모두 새 스펙이 파드에 적용됩니다",
                "all {count} StatefulSets roll their new spec out to the pods",
                count=len(statefulsets),
            ),
            {"examined": len(statefulsets)},
        )


def _judge(
    sts: KubeObject, born: dict[tuple[str, str], dt.datetime], now: dt.datetime | None
) -> Finding | None:
    spec, status = mapping(sts.get("spec")), mapping(sts.get("status"))
    replicas = integer(spec.get("replicas"), 1)
    stale = _stale_pods(sts, spec, status, replicas)
    if _strategy(sts, spec) == "OnDelete":
        said = message(
            "갱신 방식이 OnDelete라 스펙을 바꿔도 파드 {replicas}개가 옛 리비전으로 남습니다",
            "update strategy is OnDelete, so its {replicas} pods keep the old revision after a spec change",
            replicas=replicas,
        )
        if stale:
            said = message(
                "갱신 방식이 OnDelete이고 파드 {replicas}개 중 {stale}개가 아직 옛 리비전으로 돕니다",
                "update strategy is OnDelete and {stale} of its {replicas} pods still run the old revision",
                stale=stale,
                replicas=replicas,
            )
        return failed(
            CHECK, ref(sts), said, {"updateStrategy": "OnDelete", "replicas": replicas, "stale": stale}
        )
    if not stale or integer(dig(spec, "updateStrategy", "rollingUpdate", "partition"), 0) > 0:
        return None
    created = born.get((str(dig(sts, "metadata", "namespace") or ""), str(status.get("updateRevision"))))
    if created is None or now is None:
        return unknown(
            CHECK,
            ref(sts),
            message(
                "파드 {stale}개가 옛 리비전이지만 새 리비전이 언제 만들어졌는지 읽지 못했습니다",
                "{stale} pods run the old revision, but when the new revision was made could not be read",
                stale=stale,
            ),
            {"stale": stale, "updateRevision": status.get("updateRevision")},
        )
    hours = (now - created).total_seconds() / 3600
    if hours < ROLLOUT_HOURS:
        return None
    return failed(
        CHECK,
        ref(sts),
        message(
            "롤아웃이 {hours}시간째 멈춰 파드 {replicas}개 중 {stale}개가 옛 리비전으로 돕니다",
            "rollout stalled for {hours} h: {stale} of {replicas} pods still run the old revision",
            hours=round(hours, 1),
            stale=stale,
            replicas=replicas,
        ),
        {"stale": stale, "replicas": replicas, "hours": round(hours, 1)},
    )


def _strategy(sts: KubeObject, spec: dict[str, object]) -> str:
    """apps/v1beta1 defaulted to OnDelete; apps/v1beta2 and apps/v1 default to RollingUpdate."""
    declared = dig(spec, "updateStrategy", "type")
    if isinstance(declared, str) and declared:
        return declared
    return "OnDelete" if sts.get("apiVersion") == "apps/v1beta1" else "RollingUpdate"


def _stale_pods(sts: KubeObject, spec: dict[str, object], status: dict[str, object], replicas: int) -> int:
    """Pods on an older revision once the controller has caught up with the spec; 0 without live status."""
    current, update = status.get("currentRevision"), status.get("updateRevision")
    if not current or not update or current == update:
        return 0
    generation = integer(dig(sts, "metadata", "generation"), 0)
    if integer(status.get("observedGeneration"), 0) < generation:
        return 0  # the controller has not looked at the latest spec yet
    return max(replicas - integer(status.get("updatedReplicas"), 0), 0)


def _revision_times(snapshot: Snapshot) -> dict[tuple[str, str], dt.datetime]:
    found = {}
    for revision in snapshot.of("apps/ControllerRevision"):
        metadata = mapping(revision.get("metadata") if isinstance(revision, dict) else None)
        created = _parse_time(metadata.get("creationTimestamp"))
        if created is not None:
            found[(str(metadata.get("namespace") or ""), str(metadata.get("name")))] = created
    return found


def _parse_time(value: object) -> dt.datetime | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        parsed = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=dt.UTC)
