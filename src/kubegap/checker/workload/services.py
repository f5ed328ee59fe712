"""Which workloads a Service sends traffic to, which Service a host name names, and how it is published.

Checks that follow traffic (a dashboard published to the world, a rendezvous endpoint behind one pod)
need the same three answers: the pod labels of each template (its own metadata plus the labels the
operator adds, such as KubeRay's `ray.io/node-type`), the templates a Service's selector matches, and
whether the Service (or an Ingress in front of it) is reachable from outside the cluster.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kubegap.checker.extract._fields import annotations_of, dig, items, mapping, name_of, namespace_of
from kubegap.checker.snapshot import KubeObject, Snapshot
from kubegap.checker.workload.model import PodTemplate, Workload, workloads

# Annotations that make a cloud load balancer internal (reachable from the VPC, not the internet).
_INTERNAL_LB = (
    "service.beta.kubernetes.io/aws-load-balancer-internal",
    "service.beta.kubernetes.io/azure-load-balancer-internal",
    "networking.gke.io/load-balancer-type",
    "cloud.google.com/load-balancer-type",
    "service.beta.kubernetes.io/oci-load-balancer-internal",
)
_AWS_SCHEME = "service.beta.kubernetes.io/aws-load-balancer-scheme"


def _operator_labels(workload: Workload, template: PodTemplate) -> dict[str, str]:
    """Labels the operator puts on every pod of this template, where their values are known."""
    name = name_of(workload.obj)
    kind = workload.kind_key
    if kind in ("ray.io/RayCluster", "ray.io/RayJob"):
        head = template.group == "head"
        labels = {"ray.io/node-type": "head" if head else "worker", "ray.io/is-ray-node": "yes"}
        if kind == "ray.io/RayCluster":
            labels["ray.io/cluster"] = name
        if not head:
            labels["ray.io/group"] = template.group
        return labels
    if kind == "leaderworkerset.x-k8s.io/LeaderWorkerSet":
        return {"leaderworkerset.sigs.k8s.io/name": name}
    if kind.startswith("kubeflow.org/"):
        return {
            "training.kubeflow.org/job-name": name,
            "training.kubeflow.org/replica-type": template.group.lower(),
        }
    if kind == "batch/Job":
        return {"job-name": name, "batch.kubernetes.io/job-name": name}
    return {}


def pod_labels(workload: Workload, template: PodTemplate) -> dict[str, str]:
    """The labels pods of this template carry: the template's own and the operator's."""
    labels = dict(template.labels)
    labels.update(_operator_labels(workload, template))
    return labels


def services(snapshot: Snapshot) -> list[KubeObject]:
    return [service for service in snapshot.of("Service") if isinstance(service, dict)]


def _same_namespace(left: str, right: str) -> bool:
    return not left or not right or left == right


def selected_templates(snapshot: Snapshot, service: KubeObject) -> list[tuple[Workload, PodTemplate]]:
    """The pod templates whose pods the Service's selector picks (none for a Service without one)."""
    selector = {str(k): str(v) for k, v in mapping(dig(service, "spec", "selector")).items()}
    if not selector:
        return []
    namespace = namespace_of(service)
    found = []
    for workload in workloads(snapshot):
        if not _same_namespace(namespace, workload.owner.namespace):
            continue
        for template in workload.templates:
            labels = pod_labels(workload, template)
            if all(labels.get(key) == value for key, value in selector.items()):
                found.append((workload, template))
    return found


_HOST = re.compile(r"^(?:[a-z][a-z0-9+.-]*://)?([^/:@\s]+)")


def service_for_host(snapshot: Snapshot, host: str, namespace: str = "") -> KubeObject | None:
    """The Service a DNS name or `host:port` names (`etcd`, `etcd.ns.svc.cluster.local`, `etcd-0.etcd`)."""
    match = _HOST.match(host.strip().lower())
    if match is None:
        return None
    labels = match.group(1).split(".")
    candidates = [(labels[0], labels[1] if len(labels) > 1 and labels[1] != "svc" else namespace)]
    if len(labels) > 1 and re.fullmatch(r".+-[0-9]+", labels[0]):  # a StatefulSet pod: <pod>.<service>
        candidates.append((labels[1], labels[2] if len(labels) > 2 and labels[2] != "svc" else namespace))
    for name, where in candidates:
        for service in services(snapshot):
            if name_of(service) == name and _same_namespace(where, namespace_of(service)):
                return service
    return None


@dataclass(frozen=True)
class Publication:
    """How a Service is reachable from outside the cluster ('' kind when it is not)."""

    kind: str  # LoadBalancer | NodePort | Ingress | ''
    via: str = ""  # the Ingress that routes to it, when kind is Ingress


def _internal(service: KubeObject) -> bool:
    annotations = {key: value.lower() for key, value in annotations_of(service).items()}
    if annotations.get(_AWS_SCHEME) == "internal":
        return True
    return any(annotations.get(key) in ("true", "internal") for key in _INTERNAL_LB)


def _ingress_services(ingress: KubeObject) -> set[str]:
    spec = mapping(ingress.get("spec"))
    backends = [mapping(spec.get("defaultBackend")), mapping(spec.get("backend"))]
    for rule in items(spec.get("rules")):
        backends += [mapping(path.get("backend")) for path in items(dig(rule, "http", "paths"))]
    names = {str(dig(backend, "service", "name") or backend.get("serviceName") or "") for backend in backends}
    return {name for name in names if name}


INGRESS_KINDS = ("networking.k8s.io/Ingress", "extensions/Ingress")


def published(snapshot: Snapshot, service: KubeObject) -> Publication:
    """Whether the Service is published outside the cluster: an external LoadBalancer, a NodePort, or an
    Ingress routing to it. An internal load balancer or a ClusterIP Service alone is not published."""
    kind = str(dig(service, "spec", "type") or "ClusterIP")
    if kind == "LoadBalancer" and not _internal(service):
        return Publication("LoadBalancer")
    if kind == "NodePort":
        return Publication("NodePort")
    for key in [kind for kind in INGRESS_KINDS if kind in set(snapshot.kinds())]:
        for ingress in snapshot.of(key):
            if (
                isinstance(ingress, dict)
                and _same_namespace(namespace_of(ingress), namespace_of(service))
                and name_of(service) in _ingress_services(ingress)
            ):
                return Publication("Ingress", name_of(ingress))
    return Publication("")
