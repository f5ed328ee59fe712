"""API versions that Kubernetes or an operator no longer serves: the table `removed-api-version` reads.

Each row is (group/version, kind or `*` for every kind of that version, where it went away, what to
use instead, where that is written). Kubernetes rows follow the deprecation guide; operator rows follow
each operator's own upgrade notes. A version an operator still serves for some kinds is listed kind by
kind (`kubeflow.org/v1alpha1` still holds Kubeflow's PodDefault; `serving.kserve.io/v1alpha2` holds
LLMInferenceService today), so a row never condemns a whole group by its name.
"""

from __future__ import annotations

from dataclasses import dataclass

K8S_GUIDE = "https://kubernetes.io/docs/reference/using-api/deprecation-guide/"
KUBERAY_GUIDE = "https://docs.ray.io/en/latest/cluster/kubernetes/user-guides/upgrade-guide.html"
MPI_RELEASES = "https://github.com/kubeflow/mpi-operator/releases"
TRAINING_OPERATOR = "https://www.kubeflow.org/docs/components/trainer/legacy-v1/overview/"
KATIB = "https://www.kubeflow.org/docs/components/katib/"
KSERVE = "https://kserve.github.io/website/latest/admin/migration/"
KARPENTER_BETA = "https://karpenter.sh/docs/upgrading/v1beta1-migration/"
KARPENTER_V1 = "https://karpenter.sh/docs/upgrading/v1-migration/"


@dataclass(frozen=True)
class RemovedApi:
    version: str  # group/version as apiVersion spells it
    kind: str  # a kind, or '*' for every kind of this version
    removed_in: str  # "Kubernetes 1.22", "KubeRay 1.1"
    use: str  # the apiVersion (and kind, when it changed) to use instead
    source: str


def _k8s(version: str, kinds: str, release: str, use: str) -> list[RemovedApi]:
    return [RemovedApi(version, kind, f"Kubernetes {release}", use, K8S_GUIDE) for kind in kinds.split()]


def _operator(version: str, kinds: str, removed_in: str, use: str, source: str) -> list[RemovedApi]:
    return [RemovedApi(version, kind, removed_in, use, source) for kind in kinds.split()]


REMOVED: tuple[RemovedApi, ...] = (
    # Kubernetes 1.16: the workload and policy kinds of extensions and the apps betas.
    *_k8s("extensions/v1beta1", "DaemonSet Deployment ReplicaSet", "1.16", "apps/v1"),
    *_k8s("extensions/v1beta1", "NetworkPolicy", "1.16", "networking.k8s.io/v1"),
    *_k8s("extensions/v1beta1", "PodSecurityPolicy", "1.16", "Pod Security Admission"),
    *_k8s("extensions/v1beta1", "Ingress", "1.22", "networking.k8s.io/v1"),
    *_k8s("apps/v1beta1", "*", "1.16", "apps/v1"),
    *_k8s("apps/v1beta2", "*", "1.16", "apps/v1"),
    # Kubernetes 1.22.
    *_k8s(
        "admissionregistration.k8s.io/v1beta1",
        "MutatingWebhookConfiguration ValidatingWebhookConfiguration",
        "1.22",
        "admissionregistration.k8s.io/v1",
    ),
    *_k8s("apiextensions.k8s.io/v1beta1", "CustomResourceDefinition", "1.22", "apiextensions.k8s.io/v1"),
    *_k8s("apiregistration.k8s.io/v1beta1", "APIService", "1.22", "apiregistration.k8s.io/v1"),
    *_k8s("certificates.k8s.io/v1beta1", "CertificateSigningRequest", "1.22", "certificates.k8s.io/v1"),
    *_k8s("coordination.k8s.io/v1beta1", "Lease", "1.22", "coordination.k8s.io/v1"),
    *_k8s("networking.k8s.io/v1beta1", "Ingress IngressClass", "1.22", "networking.k8s.io/v1"),
    *_k8s(
        "rbac.authorization.k8s.io/v1beta1",
        "ClusterRole ClusterRoleBinding Role RoleBinding",
        "1.22",
        "rbac.authorization.k8s.io/v1",
    ),
    *_k8s("rbac.authorization.k8s.io/v1alpha1", "*", "1.22", "rbac.authorization.k8s.io/v1"),
    *_k8s("scheduling.k8s.io/v1beta1", "PriorityClass", "1.22", "scheduling.k8s.io/v1"),
    *_k8s("scheduling.k8s.io/v1alpha1", "PriorityClass", "1.22", "scheduling.k8s.io/v1"),
    *_k8s(
        "storage.k8s.io/v1beta1",
        "CSIDriver CSINode StorageClass VolumeAttachment",
        "1.22",
        "storage.k8s.io/v1",
    ),
    # Kubernetes 1.25.
    *_k8s("batch/v1beta1", "CronJob", "1.25", "batch/v1"),
    *_k8s("batch/v2alpha1", "CronJob", "1.21", "batch/v1"),
    *_k8s("discovery.k8s.io/v1beta1", "EndpointSlice", "1.25", "discovery.k8s.io/v1"),
    *_k8s("events.k8s.io/v1beta1", "Event", "1.25", "events.k8s.io/v1"),
    *_k8s("autoscaling/v2beta1", "HorizontalPodAutoscaler", "1.25", "autoscaling/v2"),
    *_k8s("policy/v1beta1", "PodDisruptionBudget", "1.25", "policy/v1"),
    *_k8s("policy/v1beta1", "PodSecurityPolicy", "1.25", "Pod Security Admission"),
    *_k8s("node.k8s.io/v1beta1", "RuntimeClass", "1.25", "node.k8s.io/v1"),
    # Kubernetes 1.26, 1.27, 1.29, 1.32.
    *_k8s("autoscaling/v2beta2", "HorizontalPodAutoscaler", "1.26", "autoscaling/v2"),
    *_k8s(
        "flowcontrol.apiserver.k8s.io/v1beta1",
        "FlowSchema PriorityLevelConfiguration",
        "1.26",
        "flowcontrol.apiserver.k8s.io/v1",
    ),
    *_k8s("storage.k8s.io/v1beta1", "CSIStorageCapacity", "1.27", "storage.k8s.io/v1"),
    *_k8s(
        "flowcontrol.apiserver.k8s.io/v1beta2",
        "FlowSchema PriorityLevelConfiguration",
        "1.29",
        "flowcontrol.apiserver.k8s.io/v1",
    ),
    *_k8s(
        "flowcontrol.apiserver.k8s.io/v1beta3",
        "FlowSchema PriorityLevelConfiguration",
        "1.32",
        "flowcontrol.apiserver.k8s.io/v1",
    ),
    # Dynamic resource allocation: the classic alpha APIs were replaced by structured parameters.
    *_k8s("resource.k8s.io/v1alpha1", "*", "1.27", "resource.k8s.io/v1"),
    *_k8s("resource.k8s.io/v1alpha2", "*", "1.31", "resource.k8s.io/v1"),
    # KubeRay serves ray.io/v1 only from 1.1.
    *_operator("ray.io/v1alpha1", "RayCluster RayJob RayService", "KubeRay 1.1", "ray.io/v1", KUBERAY_GUIDE),
    # Kubeflow training: the alpha and beta job APIs gave way to kubeflow.org/v1 (and MPIJob to v2beta1).
    *_operator(
        "kubeflow.org/v1alpha1",
        "TFJob PyTorchJob",
        "the Kubeflow Training Operator",
        "kubeflow.org/v1",
        TRAINING_OPERATOR,
    ),
    *_operator(
        "kubeflow.org/v1alpha2",
        "TFJob PyTorchJob",
        "the Kubeflow Training Operator",
        "kubeflow.org/v1",
        TRAINING_OPERATOR,
    ),
    *_operator(
        "kubeflow.org/v1beta1",
        "TFJob PyTorchJob",
        "the Kubeflow Training Operator",
        "kubeflow.org/v1",
        TRAINING_OPERATOR,
    ),
    *_operator(
        "kubeflow.org/v1beta2",
        "TFJob PyTorchJob",
        "the Kubeflow Training Operator",
        "kubeflow.org/v1",
        TRAINING_OPERATOR,
    ),
    *_operator(
        "kubeflow.org/v1alpha1",
        "MPIJob",
        "MPI Operator 0.4",
        "kubeflow.org/v2beta1",
        MPI_RELEASES,
    ),
    *_operator(
        "kubeflow.org/v1alpha2",
        "MPIJob",
        "MPI Operator 0.4",
        "kubeflow.org/v2beta1",
        MPI_RELEASES,
    ),
    *_operator(
        "kubeflow.org/v1beta1",
        "MPIJob",
        "MPI Operator 0.4",
        "kubeflow.org/v2beta1",
        MPI_RELEASES,
    ),
    # Katib: StudyJob became Experiment, and the alpha Experiment APIs gave way to v1beta1.
    *_operator(
        "kubeflow.org/v1alpha1", "StudyJob", "Katib v1alpha2", "kubeflow.org/v1beta1 Experiment", KATIB
    ),
    *_operator(
        "kubeflow.org/v1alpha2", "Experiment Trial Suggestion", "Katib 0.10", "kubeflow.org/v1beta1", KATIB
    ),
    *_operator(
        "kubeflow.org/v1alpha3", "Experiment Trial Suggestion", "Katib 0.10", "kubeflow.org/v1beta1", KATIB
    ),
    # KFServing was renamed KServe; its serving.kubeflow.org group is no longer served.
    *_operator(
        "serving.kubeflow.org/v1alpha2", "InferenceService", "KServe 0.7", "serving.kserve.io/v1beta1", KSERVE
    ),
    *_operator(
        "serving.kubeflow.org/v1beta1", "InferenceService", "KServe 0.7", "serving.kserve.io/v1beta1", KSERVE
    ),
    *_operator(
        "serving.kubeflow.org/v1alpha1", "TrainedModel", "KServe 0.7", "serving.kserve.io/v1alpha1", KSERVE
    ),
    # Karpenter: the alpha APIs went in 0.33, the beta APIs in 1.1.
    *_operator(
        "karpenter.sh/v1alpha5",
        "Provisioner Machine",
        "Karpenter 0.33",
        "karpenter.sh/v1 NodePool",
        KARPENTER_BETA,
    ),
    *_operator(
        "karpenter.k8s.aws/v1alpha1",
        "AWSNodeTemplate",
        "Karpenter 0.33",
        "karpenter.k8s.aws/v1 EC2NodeClass",
        KARPENTER_BETA,
    ),
    *_operator(
        "karpenter.sh/v1beta1", "NodePool NodeClaim", "Karpenter 1.1", "karpenter.sh/v1", KARPENTER_V1
    ),
    *_operator(
        "karpenter.k8s.aws/v1beta1", "EC2NodeClass", "Karpenter 1.1", "karpenter.k8s.aws/v1", KARPENTER_V1
    ),
)

_BY_VERSION: dict[str, dict[str, RemovedApi]] = {}
for _row in REMOVED:
    _BY_VERSION.setdefault(_row.version, {})[_row.kind] = _row


def removed(api_version: str, kind: str) -> RemovedApi | None:
    """The row that says `kind` in `api_version` is no longer served, or None."""
    rows = _BY_VERSION.get(api_version.strip())
    if rows is None:
        return None
    return rows.get(kind) or rows.get("*")


SOURCES = tuple(dict.fromkeys(row.source for row in REMOVED))
# Where `*` rows stand for every kind of a version: the kinds those versions held.
_EVERY_KIND = {
    "apps": ("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "ControllerRevision"),
    "rbac.authorization.k8s.io": ("ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding"),
    "resource.k8s.io": ("ResourceClaim", "ResourceClaimTemplate", "ResourceClass", "PodSchedulingContext"),
}


# The kinds this check declares: it reads every object of a manifest input, but is not applicable on a
# live read, so it declares only kinds other checks list anyway (no extra live requests, no wider RBAC).
KIND_KEYS = (
    "apps/DaemonSet",
    "apps/Deployment",
    "apps/ReplicaSet",
    "apps/StatefulSet",
    "autoscaling/HorizontalPodAutoscaler",
    "batch/CronJob",
    "flowcontrol.apiserver.k8s.io/FlowSchema",
    "karpenter.sh/NodePool",
    "kubeflow.org/MPIJob",
    "kubeflow.org/PyTorchJob",
    "kubeflow.org/TFJob",
    "policy/PodDisruptionBudget",
    "ray.io/RayCluster",
    "ray.io/RayJob",
    "ray.io/RayService",
)
