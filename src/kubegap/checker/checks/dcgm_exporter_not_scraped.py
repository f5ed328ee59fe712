"""A running dcgm-exporter that nothing scrapes: the GPU metrics exist, and nobody ever sees them.

Under the Prometheus Operator only what a ServiceMonitor or PodMonitor selects gets scraped; a plain
Prometheus follows `prometheus.io/scrape` annotations. The GPU Operator creates no ServiceMonitor
unless told to, so a cluster can run dcgm-exporter on every GPU node with no dashboard, alert or
autoscaler ever receiving a sample. Every link of that chain is an object a read-only reader can see.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import failed, not_applicable, passed, text, unknown, unread_kinds
from kubegap.checker.extract import daemonsets, dig, mapping, ref, selector_matches, strings
from kubegap.checker.extract._fields import annotations_of, labels_of, namespace_of
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.names import is_namespace_name
from kubegap.checker.snapshot import KubeObject, Snapshot

SERVICE_MONITOR = "monitoring.coreos.com/ServiceMonitor"
POD_MONITOR = "monitoring.coreos.com/PodMonitor"
CLUSTER_POLICY = "nvidia.com/ClusterPolicy"
# The labels the GPU Operator puts on its dcgm-exporter pods and Service.
OPERATOR_EXPORTER_LABELS = {"app": "nvidia-dcgm-exporter"}

CHECK = CheckMeta(
    id="dcgm-exporter-not-scraped",
    area="gpu-health",
    severity=Severity.medium,
    title=text("dcgm-exporter 메트릭 수집", "Scraping of dcgm-exporter"),
    why=text(
        "dcgm-exporter가 지표를 내도 Prometheus가 그것을 긁지 않으면 GPU 대시보드와 경보, GPU 지표 기반 "
        "오토스케일링이 모두 비어 있습니다. GPU Operator는 따로 켜지 않으면 ServiceMonitor를 만들지 "
        "않습니다. NVIDIA의 AI 클러스터 레시피로 만든 EKS H100 클러스터에서도 ServiceMonitor가 꺼져 있어 "
        "익스포터는 멀쩡한데 Prometheus에는 스크레이프 대상이 없었습니다.",
        "If Prometheus does not scrape dcgm-exporter, GPU dashboards, alerts and autoscaling on GPU "
        "metrics are all empty even though the exporter serves metrics. The GPU Operator creates no "
        "ServiceMonitor unless told to; on an EKS H100 cluster built from NVIDIA's AI cluster recipes the "
        "ServiceMonitor was off, the exporter was healthy, and Prometheus had no scrape target for it.",
    ),
    remediation=text(
        "GPU Operator라면 dcgmExporter.serviceMonitor.enabled: true로 ServiceMonitor를 만들고, 직접 배포한 "
        "dcgm-exporter라면 그 파드를 고르는 ServiceMonitor나 PodMonitor를 두거나 Prometheus가 "
        '어노테이션을 따른다면 prometheus.io/scrape: "true"를 붙이세요. 클러스터 밖 설정으로 긁고 있다면 '
        "그 이유와 함께 이 점검을 예외로 두세요.",
        "With the GPU Operator set dcgmExporter.serviceMonitor.enabled: true; for a dcgm-exporter you "
        "deploy yourself add a ServiceMonitor or PodMonitor that selects its pods, or prometheus.io/scrape: "
        '"true" if your Prometheus follows annotations. If a scrape config outside the cluster covers it, '
        "exempt this check with that reason.",
    ),
    decides=text(
        "dcgm-exporter DaemonSet마다 그 파드를 고르는 PodMonitor, 그 파드를 고르는 Service를 고르는 "
        'ServiceMonitor(네임스페이스 선택 포함), 파드 템플릿이나 Service의 prometheus.io/scrape: "true" '
        "어노테이션을 찾고, 하나도 없으면 실패입니다. DaemonSet 없이 ClusterPolicy만 있는 입력에서는 "
        "dcgmExporter가 켜져 있는데 serviceMonitor가 꺼져 있고 그 파드를 고르는 모니터도 없으면 "
        "실패입니다. 네임스페이스가 자리표시자인 DaemonSet(오퍼레이터가 채워 넣는 에셋 등)은 "
        "알 수 없음이고, 모니터가 하나도 없는 매니페스트의 어노테이션 없는 exporter도(모니터가 다른 파일에 "
        "있을 수 있으므로) 알 수 없음입니다. "
        "Prometheus 설정 파일처럼 API 밖의 스크레이프 설정은 볼 수 없습니다.",
        "For each dcgm-exporter DaemonSet, looks for a PodMonitor selecting its pods, a ServiceMonitor "
        "(namespace selector included) selecting a Service that selects its pods, or a "
        'prometheus.io/scrape: "true" annotation on the pod template or such a Service; with none, it '
        "fails. Where the input has a ClusterPolicy but no exporter DaemonSet, it fails when dcgmExporter "
        "is on, its serviceMonitor is off and no monitor selects the operator's exporter pods. A DaemonSet "
        "whose namespace is a placeholder (an asset an operator fills in) is unknown, and so is an "
        "unannotated exporter in manifests that hold no monitor at all (it may be in another file). "
        "Scrape "
        "configs outside the API, such as a Prometheus config file, cannot be seen.",
    ),
    incidents=("nvidia-aicr-2026-02-dcgm-exporter-servicemonitor-disabled-no-gpu-metrics",),
    needs=(),
    optional=("apps/DaemonSet", "Service", SERVICE_MONITOR, POD_MONITOR, CLUSTER_POLICY),
    components=("monitoring", "gpu-health-monitoring"),
    references=(
        "https://github.com/NVIDIA/dcgm-exporter",
        "https://prometheus-operator.dev/docs/developer/getting-started/",
    ),
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    exporters = [ds for ds in daemonsets(snapshot) if ds.role == "dcgm-exporter"]
    policies = [policy for policy in snapshot.of(CLUSTER_POLICY) if _policy_runs_exporter(policy)]
    if not exporters and not policies:
        yield not_applicable(
            CHECK,
            message(
                "dcgm-exporter가 없습니다(GPU 감시 에이전트가 있어야 하는지는 gpu-health-agent가 판단합니다)",
                "no dcgm-exporter (gpu-health-agent judges whether a GPU agent should run)",
            ),
        )
        return
    services = snapshot.of("Service")
    service_monitors = snapshot.of(SERVICE_MONITOR)
    pod_monitors = snapshot.of(POD_MONITOR)
    # A missing scrape config may only be one we could not read: then say so instead of failing.
    unread = unread_kinds(snapshot, ("Service", SERVICE_MONITOR, POD_MONITOR))
    problems = 0
    for exporter in exporters:
        if exporter.namespace and not is_namespace_name(exporter.namespace):
            # An operator asset or template: the real namespace, and so the monitors that select it,
            # are filled in later by the tool that applies it.
            problems += 1
            yield unknown(
                CHECK,
                exporter.ref,
                message(
                    "{name}의 네임스페이스 {namespace:가} 자리표시자라 "
                    "어떤 모니터가 그 파드를 고를지 알 수 없습니다",
                    "the namespace of {name} is a placeholder ({namespace}), so which monitors will select "
                    "its pods cannot be told",
                    name=exporter.ref.name,
                    namespace=exporter.namespace,
                ),
            )
            continue
        labels = mapping(dig(exporter.obj, "spec", "template", "metadata", "labels"))
        pod_labels = {str(key): str(value) for key, value in labels.items()}
        pod_annotations = mapping(dig(exporter.obj, "spec", "template", "metadata", "annotations"))
        how = _scraped_by(exporter.namespace, pod_labels, pod_annotations, services, service_monitors)
        how = how or _pod_monitor(exporter.namespace, pod_labels, pod_monitors)
        if how:
            continue
        problems += 1
        if snapshot.mode == "manifests" and not (service_monitors or pod_monitors):
            # Manifests without any monitor: it may well be in a file beside this one, not given.
            yield unknown(
                CHECK,
                exporter.ref,
                message(
                    "이 매니페스트에는 ServiceMonitor도 PodMonitor도 없어, {name:을} 긁는 설정이 다른 "
                    "파일에 있는지 알 수 없습니다(함께 스캔하면 판단합니다)",
                    "these manifests hold no ServiceMonitor or PodMonitor, so whether another file scrapes "
                    "{name} cannot be told (scan them together)",
                    name=exporter.ref.display(),
                ),
            )
            continue
        if unread:
            yield unknown(
                CHECK,
                exporter.ref,
                message(
                    "{name:을} 긁는 설정은 찾지 못했지만 {kinds:를} 읽지 못해 판단할 수 없습니다",
                    "no scrape configuration found for {name}, but {kinds} could not be read",
                    name=exporter.ref.display(),
                    kinds=", ".join(unread),
                ),
            )
            continue
        yield failed(
            CHECK,
            exporter.ref,
            message(
                "{name}의 파드를 고르는 ServiceMonitor, PodMonitor, 스크레이프 어노테이션이 없습니다",
                "no ServiceMonitor, PodMonitor or scrape annotation selects the pods of {name}",
                name=exporter.ref.display(),
            ),
            {"pod_labels": pod_labels, "services_seen": len(services)},
        )
    if not exporters:
        for policy in policies:
            if _monitored_by_operator(policy) or _any_monitor_selects(
                OPERATOR_EXPORTER_LABELS, service_monitors, pod_monitors
            ):
                continue
            problems += 1
            if unread:
                yield unknown(
                    CHECK,
                    ref(policy),
                    message(
                        "ClusterPolicy {name}의 dcgm-exporter를 긁는 설정은 찾지 못했지만 "
                        "{kinds:를} 읽지 못했습니다",
                        "no scrape configuration found for ClusterPolicy {name}, "
                        "but {kinds} could not be read",
                        name=ref(policy).name,
                        kinds=", ".join(unread),
                    ),
                )
                continue
            yield failed(
                CHECK,
                ref(policy),
                message(
                    "ClusterPolicy {name}에서 dcgm-exporter는 켜져 있지만 serviceMonitor가 꺼져 있고 "
                    "그 파드를 고르는 모니터도 없습니다",
                    "ClusterPolicy {name} runs dcgm-exporter with serviceMonitor off and no monitor "
                    "selecting its pods",
                    name=ref(policy).name,
                ),
                {"dcgmExporter.serviceMonitor.enabled": _monitored_by_operator(policy)},
            )
    if not problems:
        yield passed(
            CHECK,
            None,
            message(
                "dcgm-exporter {count}개 모두 스크레이프 설정이 있습니다",
                "every dcgm-exporter ({count}) has a scrape configuration",
                count=len(exporters) or len(policies),
            ),
        )


def _policy_runs_exporter(policy: KubeObject) -> bool:
    """The GPU Operator deploys dcgm-exporter unless dcgmExporter.enabled is false."""
    return dig(policy, "spec", "dcgmExporter", "enabled") is not False


def _monitored_by_operator(policy: KubeObject) -> bool:
    return dig(policy, "spec", "dcgmExporter", "serviceMonitor", "enabled") is True


def _wants_scrape(annotations: dict[str, Any]) -> bool:
    return str(annotations.get("prometheus.io/scrape", "")).lower() == "true"


def _namespace_selected(monitor: KubeObject, namespace: str) -> bool:
    """A monitor's namespaceSelector: any, a list of names, or (absent) the monitor's own namespace."""
    selector = mapping(dig(monitor, "spec", "namespaceSelector"))
    if selector.get("any") is True:
        return True
    names = strings(selector.get("matchNames"))
    if names:
        return namespace in names
    own = namespace_of(monitor)
    return not own or not namespace or own == namespace  # a manifest without namespaces cannot tell


def _selects_pods(service: KubeObject, pod_labels: dict[str, str]) -> bool:
    selector = mapping(dig(service, "spec", "selector"))
    return bool(selector) and all(pod_labels.get(str(key)) == str(value) for key, value in selector.items())


def _scraped_by(
    namespace: str,
    pod_labels: dict[str, str],
    pod_annotations: dict[str, Any],
    services: list[KubeObject],
    service_monitors: list[KubeObject],
) -> str:
    """How the exporter's pods are scraped through annotations or a Service, or '' when they are not."""
    if _wants_scrape(pod_annotations):
        return "pod annotation"
    for service in services:
        same_namespace = not namespace_of(service) or not namespace or namespace_of(service) == namespace
        if not same_namespace or not _selects_pods(service, pod_labels):
            continue
        if _wants_scrape(annotations_of(service)):
            return "service annotation"
        for monitor in service_monitors:
            selected = selector_matches(labels_of(service), dig(monitor, "spec", "selector"))
            if selected and _namespace_selected(monitor, namespace_of(service) or namespace):
                return "ServiceMonitor"
    return ""


def _pod_monitor(namespace: str, pod_labels: dict[str, str], pod_monitors: list[KubeObject]) -> str:
    for monitor in pod_monitors:
        if selector_matches(pod_labels, dig(monitor, "spec", "selector")) and _namespace_selected(
            monitor, namespace
        ):
            return "PodMonitor"
    return ""


def _any_monitor_selects(
    labels: dict[str, str], service_monitors: list[KubeObject], pod_monitors: list[KubeObject]
) -> bool:
    """ClusterPolicy-only input: a monitor that would pick up the operator's exporter Service or pods."""
    return any(
        selector_matches(labels, dig(monitor, "spec", "selector"))
        for monitor in [*service_monitors, *pod_monitors]
    )
