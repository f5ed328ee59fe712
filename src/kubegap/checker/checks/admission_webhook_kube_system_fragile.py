"""A fail-closed webhook over kube-system is only as available as its backend: one pod, and nodes stall."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from kubegap.bilingual import Message, message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import (
    failed,
    not_applicable,
    passed,
    text,
    unknown,
    unread_kinds,
    unread_message,
)
from kubegap.checker.extract import dig, integer, mapping, selector_matches
from kubegap.checker.extract._fields import name_of, namespace_of
from kubegap.checker.extract.webhooks import WEBHOOK_KINDS, WebhookView, namespace_labels, webhooks
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot

PDB = "policy/PodDisruptionBudget"
BACKEND_KINDS = ("apps/Deployment", "apps/StatefulSet")
SYSTEM_NAMESPACE = "kube-system"

CHECK = CheckMeta(
    id="admission-webhook-kube-system-fragile",
    area="control-plane",
    severity=Severity.high,
    title=text(
        "kube-system을 막을 수 있는 웹훅 백엔드의 이중화",
        "Backend redundancy of fail-closed webhooks over kube-system",
    ),
    why=text(
        "failurePolicy가 Fail이고 kube-system을 빼지 않은 웹훅은 백엔드가 잠깐만 사라져도 kube-system의 "
        "파드·ConfigMap 쓰기를 막습니다. 백엔드 파드가 하나뿐이거나 PDB가 없으면 노드 교체, 업그레이드, "
        "drain 한 번에 그 순간이 옵니다. Heureka는 선점형 노드 교체로 Gatekeeper 파드가 모두 사라져 새 "
        "노드가 Ready가 되지 못했고, Jetstack은 응답 없는 OPA 웹훅이 kube-system ConfigMap 갱신을 막아 GKE "
        "마스터 업그레이드가 멈췄습니다.",
        "A webhook with failurePolicy Fail that does not leave kube-system out blocks pod and ConfigMap "
        "writes there whenever its backend is gone, even briefly. With a single backend pod or no PDB, "
        "one node rotation, upgrade or drain brings that moment. At Heureka a preemptible-node rotation "
        "removed every Gatekeeper pod and new nodes never became Ready; at Jetstack an unresponsive OPA "
        "webhook blocked a ConfigMap update in kube-system and stalled a GKE master upgrade.",
    ),
    remediation=text(
        "웹훅의 namespaceSelector에 kubernetes.io/metadata.name NotIn [kube-system, 웹훅 자신의 "
        "네임스페이스] 조건을 넣고, 백엔드는 레플리카 2개 이상을 서로 다른 노드에 두고 minAvailable 1인 "
        "PDB로 지키세요. 정책이 꼭 필요한 리소스만 rules에 남기세요.",
        "Add kubernetes.io/metadata.name NotIn [kube-system, the webhook's own namespace] to the webhook's "
        "namespaceSelector, and run the backend with 2+ replicas spread over nodes and a PDB with "
        "minAvailable 1. Keep in rules only the resources the policy needs.",
    ),
    decides=text(
        "failurePolicy가 Fail(v1 기본값)이고 클러스터 Service를 부르며, 기본 API 그룹(코어, apps, "
        "*.k8s.io, '*')의 네임스페이스 리소스를 가로채고, namespaceSelector가 kube-system의 레이블과 맞고, "
        "objectSelector가 레이블 없는 오브젝트도 고르는 웹훅을 봅니다. Service의 selector에 맞는 "
        "Deployment·StatefulSet의 레플리카 합이 2 미만이면 실패, 2 이상인데 그 파드를 고르는 PDB가 없으면 "
        "실패(중간 심각도)입니다. 자기 CRD만 가로채는 오퍼레이터 웹훅은 건너뜁니다.",
        "Looks at webhooks with failurePolicy Fail (the v1 default) calling an in-cluster Service that "
        "intercept namespaced resources of built-in groups (core, apps, *.k8s.io, '*'), whose "
        "namespaceSelector matches kube-system's labels and whose objectSelector also picks unlabelled "
        "objects. Fails when the Deployments and StatefulSets the Service selects have fewer than 2 "
        "replicas in all, and (medium) when they have 2+ but no PDB selects their pods. Operator webhooks "
        "that only intercept their own CRDs are skipped.",
    ),
    incidents=(
        "heureka-2022-03-gatekeeper-webhook-blocked-kube-system",
        "jetstack-2019-09-opa-webhook-gke-upgrade",
    ),
    needs=(),
    optional=(*WEBHOOK_KINDS, "Service", *BACKEND_KINDS, PDB, "Namespace"),
    components=("kubernetes-control-plane", "kube-apiserver"),
    references=(
        "https://kubernetes.io/docs/reference/access-authn-authz/extensible-admission-controllers/#avoiding-operating-on-the-kube-system-namespace",
        "https://open-policy-agent.github.io/gatekeeper/website/docs/exempt-namespaces/",
    ),
)


@dataclass(frozen=True)
class _Backend:
    names: list[str]  # namespace/name of the Deployments and StatefulSets behind the Service
    replicas: int
    protected: bool  # some PDB selects the backend pods


def run(snapshot: Snapshot) -> Iterator[Finding]:
    system_labels = namespace_labels(snapshot, SYSTEM_NAMESPACE)
    chosen = [
        hook
        for hook in webhooks(snapshot)
        if hook.fails_closed
        and hook.service_name
        and hook.intercepts_core_objects
        and hook.covers_namespace(system_labels)
        and hook.covers_unlabelled_objects
    ]
    if not chosen:
        missing = unread_kinds(snapshot, WEBHOOK_KINDS)
        if missing:
            yield unknown(CHECK, None, unread_message(missing))
            return
        yield not_applicable(
            CHECK,
            message(
                "kube-system의 기본 리소스를 가로채면서 실패 시 요청을 거부하는 웹훅이 없습니다",
                "no fail-closed webhook intercepts built-in resources in kube-system",
            ),
        )
        return
    services = {(namespace_of(svc), name_of(svc)): svc for svc in snapshot.of("Service")}
    pdbs_unread = bool(unread_kinds(snapshot, (PDB,)))
    examined = 0
    for hook in chosen:
        backend = _backend(snapshot, hook, services)
        evidence: dict[str, object] = {"webhook": hook.name, "service": hook.service}
        if backend is None:
            yield unknown(CHECK, hook.config, _not_found(hook))
            continue
        examined += 1
        evidence |= {"backend": backend.names, "replicas": backend.replicas}
        if backend.replicas < 2:
            yield failed(CHECK, hook.config, _single(hook, backend), evidence)
        elif not backend.protected and pdbs_unread:
            yield unknown(CHECK, hook.config, unread_message([PDB]))
        elif not backend.protected:
            yield failed(CHECK, hook.config, _no_pdb(hook, backend), evidence, Severity.medium)
        else:
            said = message(
                "웹훅 {webhook}의 백엔드는 레플리카 {replicas}개와 PDB로 지켜집니다",
                "webhook {webhook} is backed by {replicas} replicas under a PDB",
                webhook=hook.name,
                replicas=backend.replicas,
            )
            yield passed(CHECK, hook.config, said, evidence)


def _backend(
    snapshot: Snapshot, hook: WebhookView, services: dict[tuple[str, str], dict[str, object]]
) -> _Backend | None:
    """The workloads whose pods the webhook's Service selects, or None when they cannot be found."""
    service = services.get((hook.service_namespace, hook.service_name))
    selector = mapping(dig(service, "spec", "selector"))
    if not selector:
        return None
    names, replicas, pod_labels = [], 0, []
    for kind in BACKEND_KINDS:
        for obj in snapshot.of(kind):
            template_labels = mapping(dig(obj, "spec", "template", "metadata", "labels"))
            labels = {str(key): str(value) for key, value in template_labels.items()}
            if namespace_of(obj) != hook.service_namespace or not labels:
                continue
            if all(labels.get(str(key)) == str(value) for key, value in selector.items()):
                names.append(f"{namespace_of(obj)}/{name_of(obj)}")
                replicas += max(integer(dig(obj, "spec", "replicas"), 1), 0)
                pod_labels.append(labels)
    if not names:
        return None
    protected = any(
        namespace_of(pdb) == hook.service_namespace
        and dig(pdb, "spec", "selector") is not None
        and any(selector_matches(labels, dig(pdb, "spec", "selector")) for labels in pod_labels)
        for pdb in snapshot.of(PDB)
    )
    return _Backend(names, replicas, protected)


def _single(hook: WebhookView, backend: _Backend) -> Message:
    return message(
        "웹훅 {webhook}의 백엔드 레플리카가 {replicas}개뿐입니다. 이 웹훅은 실패 시 요청을 거부하고 "
        "kube-system도 덮으므로 그 파드가 내려가면 kube-system 쓰기가 막힙니다",
        "webhook {webhook} fails closed over kube-system but its backend has {replicas} replica(s): "
        "when that pod is down, writes in kube-system are blocked",
        webhook=hook.name,
        replicas=backend.replicas,
    )


def _no_pdb(hook: WebhookView, backend: _Backend) -> Message:
    return message(
        "웹훅 {webhook}의 백엔드 레플리카 {replicas}개를 지키는 PDB가 없습니다. 이 웹훅은 실패 시 요청을 "
        "거부하고 kube-system도 덮으므로 drain 한 번에 백엔드가 모두 내려가면 kube-system 쓰기가 막힙니다",
        "webhook {webhook} fails closed over kube-system and no PDB guards its {replicas} backend "
        "replicas: one drain can take them all down",
        webhook=hook.name,
        replicas=backend.replicas,
    )


def _not_found(hook: WebhookView) -> Message:
    return message(
        "웹훅 {webhook}의 Service {service} 뒤에 있는 워크로드를 입력에서 찾지 못해, kube-system을 덮는 "
        "이 웹훅 백엔드의 레플리카와 PDB를 판단할 수 없습니다",
        "webhook {webhook} fails closed over kube-system, but the workload behind Service {service} is "
        "not in the input, so its replicas and PDB cannot be judged",
        webhook=hook.name,
        service=hook.service,
    )
