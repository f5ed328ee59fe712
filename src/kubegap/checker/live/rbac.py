"""The read-only ClusterRole kubegap needs, generated from what the checks declare they read.

Every check lists the kinds it `needs` and may use (`optional`); this module maps each kind key to its
API group and resource and emits one rule per group with the verbs `get` and `list` only. Secrets
are never granted, whatever a check declares. `deploy/rbac.yaml` is this output, and a test fails
when the two drift.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import yaml

from kubegap.checker.check import CheckMeta
from kubegap.checker.symptoms.report import SIGNAL_KINDS

ROLE_NAME = "kubegap-reader"
VERBS = ("get", "list")
FORBIDDEN_RESOURCES = frozenset({"secrets"})

# kind key -> (API group, resource plural). Keep sorted by group; add a line when a check reads a new kind.
KIND_RESOURCES: dict[str, tuple[str, str]] = {
    "ConfigMap": ("", "configmaps"),
    "crd.projectcalico.org/BGPPeer": ("crd.projectcalico.org", "bgppeers"),
    "projectcalico.org/BGPPeer": ("projectcalico.org", "bgppeers"),
    "Endpoints": ("", "endpoints"),
    "Event": ("", "events"),
    "LimitRange": ("", "limitranges"),
    "Namespace": ("", "namespaces"),
    "Node": ("", "nodes"),
    "PersistentVolume": ("", "persistentvolumes"),
    "PersistentVolumeClaim": ("", "persistentvolumeclaims"),
    "Pod": ("", "pods"),
    "ReplicationController": ("", "replicationcontrollers"),
    "ResourceQuota": ("", "resourcequotas"),
    "Service": ("", "services"),
    "ServiceAccount": ("", "serviceaccounts"),
    "admissionregistration.k8s.io/MutatingWebhookConfiguration": (
        "admissionregistration.k8s.io",
        "mutatingwebhookconfigurations",
    ),
    "admissionregistration.k8s.io/ValidatingWebhookConfiguration": (
        "admissionregistration.k8s.io",
        "validatingwebhookconfigurations",
    ),
    "apiextensions.k8s.io/CustomResourceDefinition": ("apiextensions.k8s.io", "customresourcedefinitions"),
    "apps/ControllerRevision": ("apps", "controllerrevisions"),
    "apps/DaemonSet": ("apps", "daemonsets"),
    "apps/Deployment": ("apps", "deployments"),
    "apps/ReplicaSet": ("apps", "replicasets"),
    "apps/StatefulSet": ("apps", "statefulsets"),
    "autoscaling/HorizontalPodAutoscaler": ("autoscaling", "horizontalpodautoscalers"),
    "batch.volcano.sh/Job": ("batch.volcano.sh", "jobs"),
    "batch/CronJob": ("batch", "cronjobs"),
    "batch/Job": ("batch", "jobs"),
    "coordination.k8s.io/Lease": ("coordination.k8s.io", "leases"),
    "discovery.k8s.io/EndpointSlice": ("discovery.k8s.io", "endpointslices"),
    "flowcontrol.apiserver.k8s.io/FlowSchema": ("flowcontrol.apiserver.k8s.io", "flowschemas"),
    "flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration": (
        "flowcontrol.apiserver.k8s.io",
        "prioritylevelconfigurations",
    ),
    "jobset.x-k8s.io/JobSet": ("jobset.x-k8s.io", "jobsets"),
    "karpenter.k8s.aws/EC2NodeClass": ("karpenter.k8s.aws", "ec2nodeclasses"),
    "karpenter.sh/NodeClaim": ("karpenter.sh", "nodeclaims"),
    "karpenter.sh/NodePool": ("karpenter.sh", "nodepools"),
    "kubeflow.org/JAXJob": ("kubeflow.org", "jaxjobs"),
    "kubeflow.org/MPIJob": ("kubeflow.org", "mpijobs"),
    "kubeflow.org/PaddleJob": ("kubeflow.org", "paddlejobs"),
    "kubeflow.org/PyTorchJob": ("kubeflow.org", "pytorchjobs"),
    "kubeflow.org/TFJob": ("kubeflow.org", "tfjobs"),
    "kubeflow.org/XGBoostJob": ("kubeflow.org", "xgboostjobs"),
    "kueue.x-k8s.io/ClusterQueue": ("kueue.x-k8s.io", "clusterqueues"),
    "kueue.x-k8s.io/LocalQueue": ("kueue.x-k8s.io", "localqueues"),
    "kueue.x-k8s.io/ResourceFlavor": ("kueue.x-k8s.io", "resourceflavors"),
    "kueue.x-k8s.io/Workload": ("kueue.x-k8s.io", "workloads"),
    "leaderworkerset.x-k8s.io/LeaderWorkerSet": ("leaderworkerset.x-k8s.io", "leaderworkersets"),
    "mellanox.com/HostDeviceNetwork": ("mellanox.com", "hostdevicenetworks"),
    "mellanox.com/NicClusterPolicy": ("mellanox.com", "nicclusterpolicies"),
    "mellanox.com/NicNodePolicy": ("mellanox.com", "nicnodepolicies"),
    "monitoring.coreos.com/PodMonitor": ("monitoring.coreos.com", "podmonitors"),
    "monitoring.coreos.com/PrometheusRule": ("monitoring.coreos.com", "prometheusrules"),
    "monitoring.coreos.com/ServiceMonitor": ("monitoring.coreos.com", "servicemonitors"),
    "monitoring.coreos.com/Prometheus": ("monitoring.coreos.com", "prometheuses"),
    "networking.k8s.io/Ingress": ("networking.k8s.io", "ingresses"),
    "node.k8s.io/RuntimeClass": ("node.k8s.io", "runtimeclasses"),
    "nvidia.com/ClusterPolicy": ("nvidia.com", "clusterpolicies"),
    "nvidia.com/NVIDIADriver": ("nvidia.com", "nvidiadrivers"),
    "apps.nvidia.com/NIMCache": ("apps.nvidia.com", "nimcaches"),
    "apps.nvidia.com/NIMService": ("apps.nvidia.com", "nimservices"),
    "apps.nvidia.com/NIMPipeline": ("apps.nvidia.com", "nimpipelines"),
    "kaito.sh/Workspace": ("kaito.sh", "workspaces"),
    "ome.io/InferenceService": ("ome.io", "inferenceservices"),
    "argoproj.io/ClusterWorkflowTemplate": ("argoproj.io", "clusterworkflowtemplates"),
    "argoproj.io/CronWorkflow": ("argoproj.io", "cronworkflows"),
    "argoproj.io/Workflow": ("argoproj.io", "workflows"),
    "argoproj.io/WorkflowTemplate": ("argoproj.io", "workflowtemplates"),
    "nvidia.com/DynamoGraphDeployment": ("nvidia.com", "dynamographdeployments"),
    "orchestration.aibrix.ai/RayClusterFleet": ("orchestration.aibrix.ai", "rayclusterfleets"),
    "sagemaker.amazonaws.com/HyperPodPyTorchJob": ("sagemaker.amazonaws.com", "hyperpodpytorchjobs"),
    "serving.kserve.io/ClusterServingRuntime": ("serving.kserve.io", "clusterservingruntimes"),
    "serving.kserve.io/InferenceService": ("serving.kserve.io", "inferenceservices"),
    "serving.kserve.io/LLMInferenceService": ("serving.kserve.io", "llminferenceservices"),
    "serving.kserve.io/LLMInferenceServiceConfig": ("serving.kserve.io", "llminferenceserviceconfigs"),
    "serving.kserve.io/ServingRuntime": ("serving.kserve.io", "servingruntimes"),
    "policy/PodDisruptionBudget": ("policy", "poddisruptionbudgets"),
    "ray.io/RayCluster": ("ray.io", "rayclusters"),
    "ray.io/RayJob": ("ray.io", "rayjobs"),
    "ray.io/RayService": ("ray.io", "rayservices"),
    "rbac.authorization.k8s.io/ClusterRole": ("rbac.authorization.k8s.io", "clusterroles"),
    "rbac.authorization.k8s.io/ClusterRoleBinding": ("rbac.authorization.k8s.io", "clusterrolebindings"),
    "rbac.authorization.k8s.io/Role": ("rbac.authorization.k8s.io", "roles"),
    "rbac.authorization.k8s.io/RoleBinding": ("rbac.authorization.k8s.io", "rolebindings"),
    "resource.k8s.io/DeviceClass": ("resource.k8s.io", "deviceclasses"),
    "resource.k8s.io/ResourceClaim": ("resource.k8s.io", "resourceclaims"),
    "resource.k8s.io/ResourceSlice": ("resource.k8s.io", "resourceslices"),
    "resource.nvidia.com/ComputeDomain": ("resource.nvidia.com", "computedomains"),
    "scheduling.k8s.io/PriorityClass": ("scheduling.k8s.io", "priorityclasses"),
    "scheduling.volcano.sh/PodGroup": ("scheduling.volcano.sh", "podgroups"),
    "scheduling.volcano.sh/Queue": ("scheduling.volcano.sh", "queues"),
    "storage.k8s.io/CSIDriver": ("storage.k8s.io", "csidrivers"),
    "storage.k8s.io/StorageClass": ("storage.k8s.io", "storageclasses"),
    "trainer.kubeflow.org/ClusterTrainingRuntime": ("trainer.kubeflow.org", "clustertrainingruntimes"),
    "trainer.kubeflow.org/TrainJob": ("trainer.kubeflow.org", "trainjobs"),
    "trainer.kubeflow.org/TrainingRuntime": ("trainer.kubeflow.org", "trainingruntimes"),
    "upgrade.cattle.io/Plan": ("upgrade.cattle.io", "plans"),
}


def guess_plural(kind: str) -> str:
    """English plural of a lower-cased kind, the way CRDs conventionally name their resource."""
    lower = kind.lower()
    if lower.endswith("y") and lower[-2:-1] not in set("aeiou"):
        return lower[:-1] + "ies"
    if lower.endswith(("s", "x", "z", "ch", "sh")):
        return lower + "es"
    return lower + "s"


def resource_of(key: str) -> tuple[str, str]:
    """(API group, resource plural) for a kind key; kinds outside the table get the conventional plural."""
    known = KIND_RESOURCES.get(key)
    if known is not None:
        return known
    group, _, kind = key.rpartition("/")
    return group, guess_plural(kind)


def kinds_read(checks: Iterable[CheckMeta], *, symptoms: bool = False) -> list[str]:
    """Every kind key any check needs or may use, and with `symptoms` the kinds symptoms read (Events,
    Nodes, Pods, Jobs: checker/symptoms), sorted; Secrets are dropped."""
    kinds = {kind for meta in checks for kind in (*meta.needs, *meta.optional)}
    if symptoms:
        kinds.update(SIGNAL_KINDS)
    return sorted(kind for kind in kinds if resource_of(kind)[1] not in FORBIDDEN_RESOURCES)


def rbac_rules(checks: Iterable[CheckMeta], *, symptoms: bool = False) -> list[dict[str, object]]:
    by_group: dict[str, set[str]] = {}
    for kind in kinds_read(checks, symptoms=symptoms):
        group, resource = resource_of(kind)
        by_group.setdefault(group, set()).add(resource)
    return [
        {"apiGroups": [group], "resources": sorted(resources), "verbs": list(VERBS)}
        for group, resources in sorted(by_group.items())
    ]


LOG_RULE = {"apiGroups": [""], "resources": ["pods/log"], "verbs": ["get"]}


def cluster_role(
    checks: Sequence[CheckMeta], *, symptoms: bool = False, logs: bool = False
) -> dict[str, object]:
    """The ClusterRole; with `logs`, one more rule: get on pods/log (for --logs), nothing else."""
    return {
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "ClusterRole",
        "metadata": {
            "name": ROLE_NAME,
            "labels": {"app.kubernetes.io/name": "kubegap", "app.kubernetes.io/component": "reader"},
        },
        "rules": [*rbac_rules(checks, symptoms=symptoms), *([LOG_RULE] if logs else [])],
    }


def render_rbac(
    checks: Sequence[CheckMeta], lang: str = "en", *, symptoms: bool = False, logs: bool = False
) -> str:
    """The ClusterRole as YAML with a header saying where it came from (the comments in `lang`; the
    manifest itself is the same in every language)."""
    if lang == "ko":
        header = (
            "# `kubegap rbac`이 모든 점검(과 증상 읽기)이 읽는 리소스 종류로 만든 파일입니다. "
            "손으로 고치지 마세요.\n"
            "# 읽기 전용: 동사는 `get`과 `list`뿐이고, Secret은 허용하지 않습니다.\n"
            "# kubegap을 실행하는 주체에 바인딩합니다. 예:\n"
            "#   kubectl create clusterrolebinding kubegap-reader "
            f"--clusterrole={ROLE_NAME} --user=<사용자>\n"
        )
    else:
        header = (
            "# Generated by `kubegap rbac` from the kinds every check (and the symptoms) read.\n"
            "# Do not edit by hand.\n"
            "# Read-only: verbs get and list only; Secrets are never granted.\n"
            f"# Bind it to the identity that runs kubegap, e.g.\n"
            f"#   kubectl create clusterrolebinding kubegap-reader --clusterrole={ROLE_NAME} --user=<you>\n"
        )
    if logs:
        header += (
            "# --logs: get 하나를 pods/log에 더 허용합니다(증상이 있는 파드의 로그, 길이 제한).\n"
            if lang == "ko"
            else "# --logs: one more rule, get on pods/log (bounded logs of pods with a symptom).\n"
        )
    return header + yaml.safe_dump(
        cluster_role(checks, symptoms=symptoms, logs=logs), sort_keys=False, default_flow_style=False
    )
