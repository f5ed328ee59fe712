"""A GPU serving autoscaler at its ceiling cannot answer the next surge: requests queue and time out."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import role_workloads, text, workload_failed, workload_verdicts
from kubegap.checker.extract import dig, integer, items
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.workload import WORKLOAD_KINDS, Role

HPA = "autoscaling/HorizontalPodAutoscaler"
SERVING_KINDS = ("apps/Deployment", "apps/StatefulSet")

CHECK = CheckMeta(
    id="gpu-serving-hpa-at-max",
    area="control-plane",
    severity=Severity.medium,
    title=text("GPU 서빙 오토스케일러의 여유", "Headroom of GPU serving autoscalers"),
    why=text(
        "HorizontalPodAutoscaler가 이미 maxReplicas에 닿아 있으면 트래픽이 더 늘어도 파드를 늘릴 수 없어 "
        "요청이 쌓이고 시간 초과가 납니다. AssemblyAI에서는 잘못 설정된 확장 정책이 서비스의 확장 폭을 묶어, "
        "약 1시간 동안 모든 요청이 느려지고 일부는 시간 초과로 실패했습니다.",
        "When a HorizontalPodAutoscaler already sits at maxReplicas, more traffic cannot add pods: requests "
        "queue and time out. At AssemblyAI a misconfigured scaling policy capped how far a service could "
        "scale out, and for about an hour every request was slow and some failed with timeouts.",
    ),
    remediation=text(
        "maxReplicas를 GPU 용량이 허락하는 선까지 올리고, 그만큼의 GPU 노드(또는 노드 자동 확장)가 있는지 "
        "확인하세요. 오토스케일러가 최대치에 닿으면 알림이 오게 하세요(ScalingLimited 조건).",
        "Raise maxReplicas as far as GPU capacity allows, make sure the GPU nodes (or node autoscaling) "
        "exist to back it, and alert when the autoscaler reaches its ceiling (the ScalingLimited "
        "condition).",
    ),
    decides=text(
        "GPU를 요청하는 Deployment·StatefulSet을 대상으로 하는 HPA가 상태상 현재 복제본 수가 maxReplicas "
        "이상이거나 ScalingLimited 조건이 TooManyReplicas로 참이면 실패입니다. minReplicas와 maxReplicas가 "
        "같으면 자동 확장이 없는 것이므로 역시 실패입니다. 상태가 없는 HPA(매니페스트 파일)는 설정만 봅니다.",
        "Fails an HPA targeting a Deployment or StatefulSet that requests GPUs when its status shows current "
        "replicas at or above maxReplicas, or the ScalingLimited condition True with reason "
        "TooManyReplicas; also when minReplicas equals maxReplicas, which is no autoscaling at all. An HPA "
        "with no status (manifest files) is judged on its settings only.",
    ),
    incidents=("assemblyai-2025-01-03-scaling-policy-capped-scale-out",),
    needs=(),
    optional=(HPA, *WORKLOAD_KINDS),
    components=("inference-serving", "cluster-autoscaler"),
    references=(
        "https://kubernetes.io/docs/tasks/run-application/horizontal-pod-autoscale/",
        "https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/horizontal-pod-autoscaler-v2/",
    ),
    roles=(Role.serving,),
)


def _limited(hpa: dict[str, object]) -> bool:
    return any(
        condition.get("type") == "ScalingLimited"
        and condition.get("status") == "True"
        and condition.get("reason") == "TooManyReplicas"
        for condition in items(dig(hpa, "status", "conditions"))
    )


def _problem(hpa: dict[str, object]) -> tuple[str, int, int] | None:
    """(why, current, max) when the autoscaler has no room left, else None."""
    maximum = integer(dig(hpa, "spec", "maxReplicas"), 0)
    minimum = integer(dig(hpa, "spec", "minReplicas"), 1)
    current = integer(dig(hpa, "status", "currentReplicas"), -1)
    if maximum and minimum >= maximum:
        return "fixed", minimum, maximum
    if maximum and (current >= maximum or _limited(hpa)):
        return "at-max", max(current, 0), maximum
    return None


def run(snapshot: Snapshot) -> Iterator[Finding]:
    serving = {
        (w.owner.namespace, w.kind_key.rsplit("/", 1)[-1], w.owner.name): w
        for w in role_workloads(CHECK, snapshot).chosen
        if w.kind_key in SERVING_KINDS
    }
    judged = 0
    problems = []
    for hpa in snapshot.of(HPA):
        target = dig(hpa, "spec", "scaleTargetRef") or {}
        key = (str(dig(hpa, "metadata", "namespace") or ""), str(target.get("kind")), str(target.get("name")))
        workload = serving.get(key)
        if workload is None:
            continue
        judged += 1
        found = _problem(hpa)
        if found is None:
            continue
        why, current, maximum = found
        said = (
            message(
                "{target}의 HPA는 minReplicas와 maxReplicas가 {maximum:으로} 같아 늘어날 수 없습니다",
                "the HPA of {target} has minReplicas equal to maxReplicas ({maximum}): it cannot grow",
                target=workload.owner.display(),
                maximum=maximum,
            )
            if why == "fixed"
            else message(
                "{target}의 HPA가 최대치에 닿았습니다(현재 {current}, 최대 {maximum})",
                "the HPA of {target} is at its ceiling (current {current}, max {maximum})",
                target=workload.owner.display(),
                current=current,
                maximum=maximum,
            )
        )
        problems.append(workload_failed(CHECK, workload, said, {"current": current, "maxReplicas": maximum}))
    subject = text("GPU 서빙 워크로드의 HPA", "HPAs of GPU serving workloads")
    yield from workload_verdicts(CHECK, snapshot, problems, judged, subject, (HPA, *SERVING_KINDS))
