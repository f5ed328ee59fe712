"""A fail-closed admission webhook with no ready backend rejects every request it intercepts, right now."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from kubegap.bilingual import Message, message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import failed, not_applicable, passed, text
from kubegap.checker.extract import dig, items
from kubegap.checker.extract._fields import labels_of, name_of, namespace_of
from kubegap.checker.extract.webhooks import WEBHOOK_KINDS, WebhookView, webhooks
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Coverage, Snapshot

SLICE = "discovery.k8s.io/EndpointSlice"
SERVICE_LABEL = "kubernetes.io/service-name"

CHECK = CheckMeta(
    id="admission-webhook-no-endpoints",
    area="control-plane",
    severity=Severity.high,
    title=text(
        "실패 시 요청을 거부하는 어드미션 웹훅의 준비된 백엔드",
        "Ready backends of fail-closed admission webhooks",
    ),
    why=text(
        "failurePolicy가 Fail인 웹훅은 백엔드를 부르지 못하면 요청을 거부합니다. 백엔드 Service에 준비된 "
        "엔드포인트가 하나도 없으면 웹훅이 가로채는 생성·수정 요청이 지금 모두 실패합니다. 학습 "
        "오퍼레이터, KubeRay, GPU Operator, Kueue, Volcano는 파드나 Job에 웹훅을 걸기 때문에 오퍼레이터 "
        "파드 하나가 내려가면 학습 작업 제출이 통째로 막힙니다. Heureka에서는 Gatekeeper 파드가 모두 "
        "사라지자 웹훅이 kube-system까지 막아 노드가 Ready가 되지 못했습니다.",
        "A webhook with failurePolicy Fail rejects a request when its backend cannot be called. When the "
        "backing Service has no ready endpoint, every create or update the webhook intercepts fails now. "
        "Training operators, KubeRay, the GPU Operator, Kueue and Volcano put webhooks on pods or Jobs, so "
        "one operator pod going down blocks all job submission. At Heureka, once no Gatekeeper pod was "
        "left, the webhook blocked kube-system too and nodes never became Ready.",
    ),
    remediation=text(
        "백엔드 파드가 왜 준비되지 않았는지(kubectl get endpointslices -l kubernetes.io/service-name=<이름>, "
        "파드 이벤트) 확인해 되살리세요. 급하면 웹훅 설정을 지우거나 failurePolicy를 Ignore로 바꿔 "
        "클러스터를 풀고, 이후 백엔드를 2개 이상의 레플리카와 PDB로 돌리세요. 더 이상 쓰지 않는 "
        "오퍼레이터라면 웹훅 설정도 함께 지우세요.",
        "Find out why the backend pods are not ready (kubectl get endpointslices -l "
        "kubernetes.io/service-name=<name>, the pods' events) and bring them back. In an emergency, delete "
        "the webhook configuration or set failurePolicy to Ignore to unblock the cluster, then run the "
        "backend with 2+ replicas and a PDB. If the operator was uninstalled, delete its webhook "
        "configuration too.",
    ),
    decides=text(
        "Validating·MutatingWebhookConfiguration의 웹훅 가운데 failurePolicy가 Fail(v1의 기본값)이고 "
        "클러스터 안 Service를 부르는 것마다, 그 Service의 EndpointSlice"
        "(kubernetes.io/service-name 레이블)에 ready가 false가 아닌 주소가 하나도 없으면 실패입니다. "
        "Service가 없어도 실패입니다. URL로 부르는 웹훅, Ignore 웹훅, ExternalName Service는 건너뜁니다.",
        "For each webhook of a Validating- or MutatingWebhookConfiguration with failurePolicy Fail (the v1 "
        "default) that calls an in-cluster Service, fails when the Service's EndpointSlices (label "
        "kubernetes.io/service-name) hold no address whose ready condition is not false, or the Service "
        "does not exist. URL webhooks, Ignore webhooks and ExternalName Services are skipped.",
    ),
    incidents=("heureka-2022-03-gatekeeper-webhook-blocked-kube-system",),
    needs=(*WEBHOOK_KINDS, SLICE),
    optional=("Service",),
    components=("kubernetes-control-plane", "kube-apiserver"),
    references=(
        "https://kubernetes.io/docs/reference/access-authn-authz/extensible-admission-controllers/#failure-policy",
        "https://kubernetes.io/docs/concepts/services-networking/endpoint-slices/#conditions",
    ),
    manifests=False,
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    chosen = [hook for hook in webhooks(snapshot) if hook.fails_closed and hook.service_name]
    if not chosen:
        yield not_applicable(
            CHECK,
            message(
                "클러스터 Service를 부르면서 실패 시 요청을 거부하는 웹훅이 없습니다",
                "no fail-closed webhook calls an in-cluster Service",
            ),
        )
        return
    ready = _ready_endpoints(snapshot)
    services = {(namespace_of(svc), name_of(svc)): svc for svc in snapshot.of("Service")}
    services_read = snapshot.status_of("Service").status is Coverage.read
    examined = 0
    problems = []
    for hook in chosen:
        key = (hook.service_namespace, hook.service_name)
        service = services.get(key)
        if service is not None and dig(service, "spec", "type") == "ExternalName":
            continue
        examined += 1
        if ready.get(key, (0, 0))[1] > 0:
            continue
        said = _problem(hook, service is None and services_read, ready.get(key, (0, 0))[0])
        problems.append(failed(CHECK, hook.config, said, {"webhook": hook.name, "service": hook.service}))
    yield from problems
    if not problems and examined:
        said = message(
            "실패 시 요청을 거부하는 웹훅 {count}개 모두 준비된 백엔드가 있습니다",
            "all {count} fail-closed webhooks have a ready backend",
            count=examined,
        )
        yield passed(CHECK, None, said, {"examined": examined})
    elif not problems:
        yield not_applicable(
            CHECK,
            message(
                "실패 시 요청을 거부하는 웹훅이 모두 ExternalName Service를 부릅니다",
                "every fail-closed webhook calls an ExternalName Service",
            ),
        )


def _ready_endpoints(snapshot: Snapshot) -> dict[tuple[str, str], tuple[int, int]]:
    """(namespace, service) -> (slices, ready addresses); ready is true unless the condition says false."""
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for endpoint_slice in snapshot.of(SLICE):
        service = labels_of(endpoint_slice).get(SERVICE_LABEL)
        if not service:
            continue
        entry = counts[(namespace_of(endpoint_slice), service)]
        entry[0] += 1
        for endpoint in items(endpoint_slice.get("endpoints")):
            if dig(endpoint, "conditions", "ready") is not False and endpoint.get("addresses"):
                entry[1] += 1
    return {key: (slices, ready) for key, (slices, ready) in counts.items()}


def _problem(hook: WebhookView, service_missing: bool, slices: int) -> Message:
    if service_missing:
        return message(
            "웹훅 {webhook}의 Service {service}에 해당하는 오브젝트가 없어 가로챈 요청이 모두 거부됩니다",
            "webhook {webhook} calls Service {service}, which does not exist: every request it "
            "intercepts is rejected",
            webhook=hook.name,
            service=hook.service,
        )
    if slices == 0:
        return message(
            "웹훅 {webhook}의 Service {service}에 EndpointSlice가 없어 가로챈 요청이 모두 거부됩니다",
            "webhook {webhook}: Service {service} has no EndpointSlice, so every request it intercepts "
            "is rejected",
            webhook=hook.name,
            service=hook.service,
        )
    return message(
        "웹훅 {webhook}의 Service {service}에 준비된 엔드포인트가 없어 가로챈 요청이 모두 거부됩니다",
        "webhook {webhook}: Service {service} has no ready endpoint, so every request it intercepts "
        "is rejected",
        webhook=hook.name,
        service=hook.service,
    )
