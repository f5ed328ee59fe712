"""The resources the emulated API server serves: built-in kinds always, custom resources when present.

A custom resource is served when a fixture holds objects of its kind, when a fixture holds its
CustomResourceDefinition, or when a test enables it by kind key; otherwise it is absent, as on a
cluster where the CRD is not installed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

_ALL_VERBS = ("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch")


@dataclass(frozen=True)
class ApiResource:
    group: str
    version: str
    name: str  # plural, as in URLs
    kind: str
    namespaced: bool
    short_names: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """The kind key kubegap uses: 'Pod', 'apps/DaemonSet'."""
        return f"{self.group}/{self.kind}" if self.group else self.kind

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    def discovery_entry(self) -> dict[str, Any]:
        entry: dict[str, Any] = {
            "name": self.name,
            "singularName": self.kind.lower(),
            "namespaced": self.namespaced,
            "kind": self.kind,
            "verbs": list(_ALL_VERBS),
        }
        if self.short_names:
            entry["shortNames"] = list(self.short_names)
        return entry


def _resources(group: str, version: str, rows: str) -> list[ApiResource]:
    """Rows of 'plural Kind namespaced|cluster short,names'."""
    found = []
    for row in rows.strip().splitlines():
        name, kind, scope, *short = row.split()
        short_names = tuple(short[0].split(",")) if short else ()
        found.append(ApiResource(group, version, name, kind, scope == "namespaced", short_names))
    return found


BUILT_IN: list[ApiResource] = [
    *_resources(
        "",
        "v1",
        """
        pods Pod namespaced po
        nodes Node cluster no
        namespaces Namespace cluster ns
        services Service namespaced svc
        configmaps ConfigMap namespaced cm
        secrets Secret namespaced
        events Event namespaced ev
        endpoints Endpoints namespaced ep
        persistentvolumes PersistentVolume cluster pv
        persistentvolumeclaims PersistentVolumeClaim namespaced pvc
        serviceaccounts ServiceAccount namespaced sa
        resourcequotas ResourceQuota namespaced quota
        limitranges LimitRange namespaced limits
        replicationcontrollers ReplicationController namespaced rc
        """,
    ),
    *_resources(
        "apps",
        "v1",
        """
        deployments Deployment namespaced deploy
        daemonsets DaemonSet namespaced ds
        statefulsets StatefulSet namespaced sts
        replicasets ReplicaSet namespaced rs
        controllerrevisions ControllerRevision namespaced
        """,
    ),
    *_resources("batch", "v1", "jobs Job namespaced\ncronjobs CronJob namespaced cj"),
    *_resources("policy", "v1", "poddisruptionbudgets PodDisruptionBudget namespaced pdb"),
    *_resources("autoscaling", "v2", "horizontalpodautoscalers HorizontalPodAutoscaler namespaced hpa"),
    *_resources("scheduling.k8s.io", "v1", "priorityclasses PriorityClass cluster pc"),
    *_resources("node.k8s.io", "v1", "runtimeclasses RuntimeClass cluster"),
    *_resources(
        "networking.k8s.io",
        "v1",
        "networkpolicies NetworkPolicy namespaced netpol\ningresses Ingress namespaced ing",
    ),
    *_resources(
        "storage.k8s.io", "v1", "storageclasses StorageClass cluster sc\ncsidrivers CSIDriver cluster"
    ),
    *_resources(
        "apiextensions.k8s.io", "v1", "customresourcedefinitions CustomResourceDefinition cluster crd,crds"
    ),
    *_resources(
        "rbac.authorization.k8s.io",
        "v1",
        """
        clusterroles ClusterRole cluster
        clusterrolebindings ClusterRoleBinding cluster
        roles Role namespaced
        rolebindings RoleBinding namespaced
        """,
    ),
    *_resources("coordination.k8s.io", "v1", "leases Lease namespaced"),
    *_resources("discovery.k8s.io", "v1", "endpointslices EndpointSlice namespaced"),
    *_resources(
        "flowcontrol.apiserver.k8s.io",
        "v1",
        "flowschemas FlowSchema cluster\nprioritylevelconfigurations PriorityLevelConfiguration cluster",
    ),
    *_resources(
        "admissionregistration.k8s.io",
        "v1",
        "validatingwebhookconfigurations ValidatingWebhookConfiguration cluster\n"
        "mutatingwebhookconfigurations MutatingWebhookConfiguration cluster",
    ),
    *_resources(
        "resource.k8s.io",
        "v1",
        "deviceclasses DeviceClass cluster\nresourceslices ResourceSlice cluster\n"
        "resourceclaims ResourceClaim namespaced",
    ),
]

KNOWN_CUSTOM: list[ApiResource] = [
    *_resources("jobset.x-k8s.io", "v1alpha2", "jobsets JobSet namespaced"),
    *_resources("kubeflow.org", "v1", "pytorchjobs PyTorchJob namespaced\ntfjobs TFJob namespaced"),
    *_resources("kubeflow.org", "v1", "paddlejobs PaddleJob namespaced\nxgboostjobs XGBoostJob namespaced"),
    *_resources("kubeflow.org", "v2beta1", "mpijobs MPIJob namespaced"),
    *_resources(
        "trainer.kubeflow.org",
        "v1alpha1",
        "trainjobs TrainJob namespaced\ntrainingruntimes TrainingRuntime namespaced\n"
        "clustertrainingruntimes ClusterTrainingRuntime cluster",
    ),
    *_resources("batch.volcano.sh", "v1alpha1", "jobs Job namespaced vcjob,vj"),
    *_resources(
        "ray.io",
        "v1",
        "rayjobs RayJob namespaced\nrayclusters RayCluster namespaced\nrayservices RayService namespaced",
    ),
    *_resources("leaderworkerset.x-k8s.io", "v1", "leaderworkersets LeaderWorkerSet namespaced lws"),
    *_resources("nvidia.com", "v1", "clusterpolicies ClusterPolicy cluster"),
    *_resources("nvidia.com", "v1alpha1", "nvidiadrivers NVIDIADriver cluster"),
    *_resources("resource.nvidia.com", "v1beta1", "computedomains ComputeDomain namespaced"),
    *_resources("mellanox.com", "v1alpha1", "nicclusterpolicies NicClusterPolicy cluster"),
    *_resources("upgrade.cattle.io", "v1", "plans Plan namespaced"),
    *_resources("karpenter.sh", "v1", "nodepools NodePool cluster\nnodeclaims NodeClaim cluster"),
    *_resources(
        "kueue.x-k8s.io",
        "v1beta1",
        "clusterqueues ClusterQueue cluster cq\nlocalqueues LocalQueue namespaced queue,queues\n"
        "workloads Workload namespaced wl",
    ),
    *_resources(
        "monitoring.coreos.com",
        "v1",
        "prometheusrules PrometheusRule namespaced\nservicemonitors ServiceMonitor namespaced\n"
        "podmonitors PodMonitor namespaced\n"
        "prometheuses Prometheus namespaced",
    ),
]


def pluralize(kind: str) -> str:
    """The plural resource name Kubernetes derives for a CRD kind without one."""
    lowered = kind.lower()
    if re.search(r"(s|x|z|ch|sh)$", lowered):
        return lowered + "es"
    if re.search(r"[^aeiou]y$", lowered):
        return lowered[:-1] + "ies"
    return lowered + "s"


def from_definition(definition: dict[str, Any]) -> list[ApiResource]:
    """The resources a CustomResourceDefinition object declares, one per served version."""
    spec = definition.get("spec") or {}
    names = spec.get("names") or {}
    kind = str(names.get("kind", ""))
    if not kind or not spec.get("group"):
        return []
    versions = [item for item in spec.get("versions") or [] if item.get("served", True)]
    short = tuple(names.get("shortNames") or ())
    return [
        ApiResource(
            str(spec["group"]),
            str(item.get("name")),
            str(names.get("plural") or pluralize(kind)),
            kind,
            spec.get("scope", "Namespaced") == "Namespaced",
            short,
        )
        for item in versions
    ]


def guess(api_version: str, kind: str, namespaced: bool) -> ApiResource:
    """A resource for objects of a kind nobody declared, named as the CRD machinery would name it."""
    group, _, version = api_version.rpartition("/")
    return ApiResource(group, version, pluralize(kind), kind, namespaced)


def version_rank(version: str) -> tuple[int, int, int]:
    """Kubernetes version priority: GA over beta over alpha, then higher numbers first."""
    match = re.fullmatch(r"v(\d+)(?:(alpha|beta)(\d+))?", version)
    if not match:
        return (-1, 0, 0)
    stability = {"alpha": 0, "beta": 1, None: 2}[match.group(2)]
    return (stability, int(match.group(1)), int(match.group(3) or 0))


def preferred_first(versions: Iterable[str]) -> list[str]:
    return sorted(set(versions), key=version_rank, reverse=True)
