"""A service-mesh sidecar in front of multi-node NCCL traffic stalls collectives at start-up."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import role_workloads, text, unknown, workload_failed, workload_verdicts
from kubegap.checker.extract import dig, mapping
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Coverage, Snapshot
from kubegap.checker.workload import USER_ROLES, WORKLOAD_KINDS, Workload

ON = ("true", "enabled")

CHECK = CheckMeta(
    id="mesh-sidecar-in-nccl-jobs",
    area="networking",
    severity=Severity.medium,
    title=text(
        "여러 노드 GPU 작업의 서비스 메시 사이드카 주입",
        "Service-mesh sidecar injection into multi-node GPU jobs",
    ),
    why=text(
        "Istio나 Linkerd 사이드카는 파드의 트래픽을 가로챕니다. NCCL은 노드 사이에 임의 포트로 직접 연결을 "
        "맺기 때문에, 사이드카가 붙은 네임스페이스에서는 여러 노드 vLLM과 nccl-tests가 시작 단계에서 "
        "멈췄고 사이드카를 떼자 정상으로 돌아왔습니다.",
        "Istio and Linkerd sidecars intercept a pod's traffic. NCCL opens direct connections between nodes "
        "on arbitrary ports, so in namespaces with the sidecar injected, multi-node vLLM and nccl-tests "
        "stalled at start-up and worked again once the sidecar was gone.",
    ),
    remediation=text(
        '학습·추론 파드 템플릿에 sidecar.istio.io/inject: "false"(Linkerd는 linkerd.io/inject: '
        "disabled)를 붙이거나, GPU 작업을 메시 주입이 없는 네임스페이스에서 돌리세요.",
        'Label the training or serving pod templates sidecar.istio.io/inject: "false" (Linkerd: '
        "linkerd.io/inject: disabled), or run GPU jobs in a namespace without mesh injection.",
    ),
    decides=text(
        "여러 노드 GPU 워크로드의 파드 템플릿이나 그 네임스페이스가 Istio(istio-injection, istio.io/rev, "
        "sidecar.istio.io/inject)나 Linkerd(linkerd.io/inject) 주입을 켜고, 템플릿이 끄지 않으면 "
        "실패입니다. 네임스페이스를 볼 수 없고 템플릿이 끄지도 않으면 알 수 없음입니다.",
        "Fails a multi-node GPU workload whose pod template or namespace turns on Istio (istio-injection, "
        "istio.io/rev, sidecar.istio.io/inject) or Linkerd (linkerd.io/inject) injection without the "
        "template opting out. If the namespace cannot be seen and the template does not opt out, the "
        "result is unknown.",
    ),
    incidents=("nccl-2025-03-istio-sidecar-multinode-hang",),
    needs=(),
    optional=(*WORKLOAD_KINDS, "Namespace"),
    components=("nccl", "host-networking"),
    references=(
        "https://istio.io/latest/docs/setup/additional-setup/sidecar-injection/",
        "https://linkerd.io/2/features/proxy-injection/",
    ),
    roles=USER_ROLES,
)


def _template_setting(workload: Workload) -> str:
    """'on', 'off' or '' from the pod templates' labels and annotations."""
    for template_meta in _template_metas(workload):
        values = {**mapping(template_meta.get("labels")), **mapping(template_meta.get("annotations"))}
        for key in ("sidecar.istio.io/inject", "linkerd.io/inject"):
            value = str(values.get(key, "")).lower()
            if value:
                return "on" if value in ON else "off"
    return ""


def _template_metas(workload: Workload) -> list[dict[str, object]]:
    """Pod template metadata is not in PodTemplate.spec; find it beside each spec in the raw object."""
    found: list[dict[str, object]] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if (
                "spec" in node
                and isinstance(node.get("metadata"), dict)
                and "containers" in mapping(node["spec"])
            ):
                found.append(node["metadata"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(workload.obj.get("spec"))
    return found


def _namespace_injects(labels: dict[str, object]) -> bool:
    return (
        str(labels.get("istio-injection", "")).lower() == "enabled"
        or bool(labels.get("istio.io/rev"))
        or str(labels.get("linkerd.io/inject", "")).lower() == "enabled"
    )


def run(snapshot: Snapshot) -> Iterator[Finding]:
    selection = role_workloads(CHECK, snapshot)
    chosen = [workload for workload in selection.chosen if workload.distributed]
    namespaces_read = snapshot.status_of("Namespace").status is Coverage.read
    namespaces = {
        str(dig(ns, "metadata", "name")): {
            **mapping(dig(ns, "metadata", "labels")),
            **mapping(dig(ns, "metadata", "annotations")),
        }
        for ns in snapshot.of("Namespace")
    }
    problems: list[Finding] = []
    undecided: list[Finding] = list(selection.undecided)
    for workload in chosen:
        setting = _template_setting(workload)
        namespace = workload.owner.namespace
        if setting == "off":
            continue
        if setting == "on" or _namespace_injects(namespaces.get(namespace, {})):
            said = message(
                "메시 사이드카가 NCCL 트래픽 앞에 끼어듭니다",
                "a mesh sidecar will sit in front of NCCL traffic",
            )
            problems.append(workload_failed(CHECK, workload, said))
        elif namespace not in namespaces and not namespaces_read:
            undecided.append(
                unknown(
                    CHECK,
                    workload.owner,
                    message(
                        "네임스페이스 레이블이 보이지 않고, 템플릿도 사이드카 주입을 끄지 않습니다",
                        "namespace labels not visible; the template does not opt out",
                    ),
                    workload.evidence,
                )
            )
    if problems or undecided:
        yield from problems
        yield from undecided
    else:
        subject = text("여러 노드 GPU 워크로드", "multi-node GPU workloads")
        yield from workload_verdicts(CHECK, snapshot, [], len(chosen), subject)
