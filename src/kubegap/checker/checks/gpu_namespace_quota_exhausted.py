"""A full namespace quota refuses every new pod: GPU jobs and serving replicas stop starting, silently."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import failed, not_applicable, passed, text
from kubegap.checker.extract import dig, mapping, quantity, ref
from kubegap.checker.extract.podspec import is_gpu_resource
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import KubeObject, Snapshot
from kubegap.checker.workload import USER_ROLES, WORKLOAD_KINDS, workloads

QUOTA = "ResourceQuota"
NEAR = 0.9  # at 90% a scale-out or a retried job can already be refused

CHECK = CheckMeta(
    id="gpu-namespace-quota-exhausted",
    area="fleet-change",
    severity=Severity.medium,
    title=text("GPU 네임스페이스의 ResourceQuota 여유", "ResourceQuota headroom of GPU namespaces"),
    why=text(
        "ResourceQuota의 status.used가 status.hard에 닿으면 API 서버는 새 파드를 403으로 거부합니다. "
        "스케일 아웃, 재시도한 작업, 교체 파드가 모두 조용히 멈춥니다. mybinder.org는 GKE가 넣어 둔 "
        "gke-resource-quotas가 파드 1만 5천 개를 다 썼다고 잘못 세는 바람에 11시간 동안 새 세션을 하나도 "
        "띄우지 못했습니다.",
        "When a ResourceQuota's status.used reaches status.hard, the API server refuses new pods with a 403: "
        "scale-outs, retried jobs and replacement pods all stall quietly. mybinder.org launched no new "
        "sessions for 11 hours because the gke-resource-quotas object GKE had placed wrongly counted its "
        "full 15k pods as used.",
    ),
    remediation=text(
        "status.used를 실제 파드·GPU 사용량과 비교하세요. 실제로 찼다면 한도를 늘리거나 끝난 파드를 "
        "정리하고, 사용량과 맞지 않으면 할당량 컨트롤러(관리형 서비스라면 제공사)를 살피세요. "
        "할당량 사용률 90%에 경보를 거세요.",
        "Compare status.used with the real pod and GPU usage. If the quota is truly full, raise the limit "
        "or clean up finished pods; if it does not match usage, look at the quota controller (or the "
        "provider, for a managed object). Alert on quota use at 90%.",
    ),
    decides=text(
        "GPU 워크로드가 있거나 GPU 자원에 한도를 둔 네임스페이스의 ResourceQuota마다 pods, count/pods, "
        "GPU 자원(requests.nvidia.com/gpu 등), requests.memory, limits.memory의 status.used가 "
        "status.hard의 90% 이상이면 실패이고, 100%면 심각도가 높습니다. 라이브 상태(status)가 필요해 "
        "매니페스트 파일에서는 판단하지 않습니다.",
        "Fails each ResourceQuota, in a namespace with GPU workloads or a GPU limit, whose status.used for "
        "pods, count/pods, a GPU resource (requests.nvidia.com/gpu and the like), requests.memory or "
        "limits.memory is at 90% or more of status.hard; at 100% the severity is high. It needs live "
        "status, so manifest files are not judged.",
    ),
    incidents=("mybinder-2022-06-02-gke-resource-quota-phantom-pod-limit",),
    needs=(QUOTA,),
    optional=WORKLOAD_KINDS,
    components=("kube-apiserver", "cloud-provider-service"),
    references=(
        "https://kubernetes.io/docs/concepts/policy/resource-quotas/",
        "https://cloud.google.com/kubernetes-engine/quotas#resource_quotas",
    ),
    manifests=False,
    roles=USER_ROLES,
)


def _watched(resource: str) -> bool:
    """Pod counts, memory and GPUs: the quotas that stop GPU pods from being created."""
    if resource in ("pods", "count/pods", "requests.memory", "limits.memory"):
        return True
    bare = resource.removeprefix("requests.").removeprefix("limits.")
    return is_gpu_resource(bare)


def _has_gpu_limit(quota: KubeObject) -> bool:
    return any(
        _watched(str(name)) and "/" in str(name) and "pods" not in str(name)
        for name in mapping(dig(quota, "spec", "hard")) | mapping(dig(quota, "status", "hard"))
    )


def _tight(quota: KubeObject) -> list[tuple[str, float, str, str]]:
    """(resource, used fraction, used, hard) for each watched resource at 90% or more, fullest first."""
    hard = mapping(dig(quota, "status", "hard")) or mapping(dig(quota, "spec", "hard"))
    used = mapping(dig(quota, "status", "used"))
    tight = []
    for resource, limit in hard.items():
        if not _watched(str(resource)) or resource not in used:
            continue
        limit_value, used_value = quantity(limit), quantity(used[resource])
        if limit_value is None or used_value is None or limit_value <= 0:
            continue
        fraction = used_value / limit_value
        if fraction >= NEAR:
            tight.append((str(resource), fraction, str(used[resource]), str(limit)))
    return sorted(tight, key=lambda entry: -entry[1])


def run(snapshot: Snapshot) -> Iterator[Finding]:
    gpu_namespaces = {
        w.owner.namespace for w in workloads(snapshot) if w.requests_gpus and w.role in CHECK.roles
    }
    quotas = [
        quota
        for quota in snapshot.of(QUOTA)
        if str(dig(quota, "metadata", "namespace") or "") in gpu_namespaces or _has_gpu_limit(quota)
    ]
    if not quotas:
        yield not_applicable(
            CHECK,
            message("GPU 네임스페이스에 ResourceQuota가 없습니다", "no ResourceQuota in a GPU namespace"),
        )
        return
    failing = 0
    for quota in quotas:
        tight = _tight(quota)
        if not tight:
            continue
        failing += 1
        resource, fraction, used, hard = tight[0]
        full = fraction >= 1.0
        said = message(
            "{resource} 사용량 {used}/{hard}({percent}%): {ko_effect}",
            "{resource} used {used} of {hard} ({percent}%): {effect}",
            resource=resource,
            used=used,
            hard=hard,
            percent=round(fraction * 100),
            ko_effect="새 파드가 거부됩니다" if full else "곧 새 파드가 거부됩니다",
            effect="new pods are refused" if full else "new pods will soon be refused",
        )
        evidence: dict[str, object] = {
            "resources": [{"resource": r, "used": u, "hard": h} for r, _, u, h in tight]
        }
        yield failed(CHECK, ref(quota), said, evidence, Severity.high if full else None)
    if not failing:
        yield passed(
            CHECK,
            None,
            message(
                "GPU 네임스페이스의 ResourceQuota {count}개 모두 여유가 있습니다",
                "all {count} ResourceQuotas of GPU namespaces have headroom",
                count=len(quotas),
            ),
            {"examined": len(quotas)},
        )
