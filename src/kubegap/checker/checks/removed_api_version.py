"""Objects written in an API version that Kubernetes or their operator no longer serves."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import failed, not_applicable, passed, text
from kubegap.checker.checks._removed_apis import KIND_KEYS, SOURCES, removed
from kubegap.checker.extract import ref
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot

CHECK = CheckMeta(
    id="removed-api-version",
    area="fleet-change",
    severity=Severity.high,
    title=text(
        "오브젝트 API 버전의 제공 여부",
        "API versions of objects, against those still served",
    ),
    why=text(
        "API 버전은 업그레이드와 함께 사라집니다. 쿠버네티스 1.16은 extensions/v1beta1과 "
        "apps/v1beta1·v1beta2의 "
        "워크로드를, 1.22는 v1beta1 Ingress·RBAC·CRD를, 1.25는 policy/v1beta1 PDB와 PSP, batch/v1beta1 "
        "CronJob, autoscaling/v2beta1 HPA를 더는 받지 않습니다. 오퍼레이터도 마찬가지여서 KubeRay 1.1부터는 "
        "ray.io/v1만, MPI Operator는 v2beta1만 읽습니다. 이런 매니페스트와 차트는 적용 자체가 실패하고, 이미 "
        "설치된 Helm 릴리스는 업그레이드가 막힙니다. KubeRay에서는 CRD와 오퍼레이터의 버전이 어긋나자 "
        "RayCluster의 워커 파드가 모두 지워졌고, Reddit에서는 업그레이드가 없앤 옛 레이블에 기대던 설정 "
        "때문에 "
        "사이트가 몇 시간 멈췄습니다.",
        "API versions go away with upgrades. Kubernetes 1.16 stopped serving the workload kinds of "
        "extensions/v1beta1 and apps/v1beta1/v1beta2, 1.22 the v1beta1 Ingress, RBAC and CRD APIs, 1.25 "
        "policy/v1beta1 PDBs and PSPs, batch/v1beta1 CronJobs and autoscaling/v2beta1 HPAs. Operators do the "
        "same: KubeRay reads only ray.io/v1 from 1.1, the MPI Operator only v2beta1. Such manifests and "
        "charts "
        "fail to apply, and an installed Helm release that holds them can no longer be upgraded. At KubeRay "
        "a "
        "CRD and operator version mismatch deleted every RayCluster worker pod; at Reddit configuration that "
        "relied on an old label an upgrade removed took the site down for hours.",
    ),
    remediation=text(
        "메시지에 적힌 새 API 버전으로 옮기고(필드 이름이 바뀐 것은 이전 안내를 따르세요), 클러스터나 "
        "오퍼레이터를 올리기 전에 차트와 매니페스트를 이 점검으로 다시 훑으세요. 이미 설치된 Helm 릴리스가 "
        "옛 버전을 품고 있으면 helm-mapkubeapis로 릴리스 기록을 고친 뒤 업그레이드하세요.",
        "Move to the API version the message names (follow its migration notes where fields were renamed), "
        "and re-run this check on charts and manifests before upgrading the cluster or the operator. If an "
        "installed Helm release holds an old version, fix its release record with helm-mapkubeapis before "
        "upgrading.",
    ),
    decides=text(
        "입력의 모든 오브젝트를 apiVersion과 kind로 표에 비춰 봅니다. 표에는 쿠버네티스 폐기 안내서에 실린 "
        "제거된 버전(1.16~1.32)과 DRA의 옛 알파 버전, 오퍼레이터가 더는 제공하지 않는 버전(KubeRay "
        "ray.io/v1alpha1, Kubeflow의 옛 TFJob·PyTorchJob·MPIJob·Katib API, KFServing, Karpenter의 알파·베타 "
        "API)이 있습니다. 같은 그룹·버전이라도 아직 제공되는 kind(kubeflow.org/v1alpha1 PodDefault 등)는 "
        "실패로 보지 않습니다. 라이브 클러스터와 스냅숏의 오브젝트는 API 서버가 제공하는 버전으로 읽히므로 "
        "해당 없음이고, 매니페스트와 차트를 적용하기 전에 쓰는 점검입니다.",
        "Looks up every object of the input by apiVersion and kind in a table: the versions the Kubernetes "
        "deprecation guide lists as removed (1.16 to 1.32), the old DRA alphas, and versions operators no "
        "longer serve (KubeRay ray.io/v1alpha1, Kubeflow's old TFJob, PyTorchJob, MPIJob and Katib APIs, "
        "KFServing, Karpenter's alpha and beta APIs). A kind the same group and version still serves "
        "(kubeflow.org/v1alpha1 PodDefault) is not a fail. Objects read from a live cluster or a snapshot "
        "come "
        "in versions the API server serves, so there it is not applicable: this check is for manifests and "
        "charts before they are applied.",
    ),
    incidents=(
        "kuberay-2024-04-old-crd-numofhosts-zero-deletes-workers",
        "reddit-2023-03-k8s-upgrade-calico-route-reflectors",
    ),
    needs=(),
    optional=KIND_KEYS,
    components=("kubernetes-control-plane", "workload-operator"),
    references=SOURCES,
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    if snapshot.mode in ("live", "snapshot"):
        yield not_applicable(
            CHECK,
            message(
                "API 서버가 읽어 준 오브젝트는 제공되는 버전으로 옵니다. 적용할 매니페스트와 차트를 "
                "스캔하세요",
                "objects read from the API server come in versions it serves; scan the manifests and charts "
                "you apply",
            ),
        )
        return
    examined = fails = 0
    for obj in snapshot:
        if not isinstance(obj, dict):
            continue
        examined += 1
        row = removed(str(obj.get("apiVersion") or ""), str(obj.get("kind") or ""))
        if row is None:
            continue
        said = message(
            "{api_version} {kind:은} {removed_in}부터 제공되지 않아 적용되지 않습니다. {use:로} 옮기세요",
            "{kind} in {api_version} is no longer served as of {removed_in}; it will not apply. Use {use}",
            api_version=row.version,
            kind=row.kind if row.kind != "*" else str(obj.get("kind") or ""),
            removed_in=row.removed_in,
            use=row.use,
        )
        evidence: dict[str, object] = {
            "apiVersion": row.version,
            "removed_in": row.removed_in,
            "use": row.use,
            "source": row.source,
        }
        yield failed(CHECK, ref(obj), said, evidence)
        fails += 1
    if examined == 0:
        yield not_applicable(CHECK, message("이 입력에는 오브젝트가 없습니다", "no objects in this input"))
    elif fails == 0:
        yield passed(
            CHECK,
            None,
            message(
                "오브젝트 {count}개 모두 제공되는 API 버전을 씁니다",
                "all {count} objects use served API versions",
                count=examined,
            ),
        )
