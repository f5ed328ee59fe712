"""Pod templates of every workload kind, so no check re-parses Deployments, JobSets or RayJobs itself.

Each workload yields its owner ObjectRef, its pod templates (role, pod spec, replica count, GPUs per
pod) and whether it is multi-node. Objects created by another workload we already read (a Job owned
by a CronJob or JobSet, a ReplicaSet owned by a Deployment, a Pod owned by anything) are skipped, so a
template is counted once, where a person would fix it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from kubegap.checker.extract._fields import controller_owner, dig, integer, items, mapping, ref
from kubegap.checker.extract._memo import memo
from kubegap.checker.extract.podspec import gpus_requested
from kubegap.checker.finding import ObjectRef
from kubegap.checker.snapshot import KubeObject, Snapshot

TRAINING_KINDS = frozenset(
    {
        "batch/Job",
        "batch/CronJob",
        "jobset.x-k8s.io/JobSet",
        "kubeflow.org/PyTorchJob",
        "kubeflow.org/TFJob",
        "kubeflow.org/MPIJob",
        "kubeflow.org/PaddleJob",
        "kubeflow.org/XGBoostJob",
        "trainer.kubeflow.org/TrainJob",
        "trainer.kubeflow.org/TrainingRuntime",
        "trainer.kubeflow.org/ClusterTrainingRuntime",
        "ray.io/RayJob",
        "ray.io/RayCluster",
        "batch.volcano.sh/Job",
    }
)


@dataclass(frozen=True)
class PodTemplate:
    owner: ObjectRef
    kind_key: str
    role: str  # '' for single-template kinds; 'Worker', 'workers', 'head' ... otherwise
    spec: dict[str, Any]  # the pod spec (always a dict, possibly empty)
    replicas: int  # pods created from this template
    gpus: int  # GPUs requested per pod


@dataclass(frozen=True)
class Workload:
    owner: ObjectRef
    kind_key: str
    obj: KubeObject
    templates: tuple[PodTemplate, ...]
    distributed: bool  # pods of one run spread over several nodes and talk to each other

    @property
    def requests_gpus(self) -> bool:
        return any(template.gpus > 0 for template in self.templates)

    @property
    def pods(self) -> int:
        return sum(template.replicas for template in self.templates)

    @property
    def is_training(self) -> bool:
        return self.kind_key in TRAINING_KINDS


_Templates = list[tuple[str, Any, int]]  # (role, pod spec, replicas)


def _pod(obj: KubeObject) -> _Templates:
    return [("", obj.get("spec"), 1)]


def _templated(obj: KubeObject) -> _Templates:
    return [("", dig(obj, "spec", "template", "spec"), integer(dig(obj, "spec", "replicas"), 1))]


def _daemonset(obj: KubeObject) -> _Templates:
    return [("", dig(obj, "spec", "template", "spec"), 1)]


def _job_spec(job_spec: Any, role: str = "", copies: int = 1) -> _Templates:
    parallelism = integer(dig(job_spec, "parallelism"), 1)
    return [(role, dig(job_spec, "template", "spec"), copies * max(parallelism, 0))]


def _job(obj: KubeObject) -> _Templates:
    return _job_spec(obj.get("spec"))


def _cronjob(obj: KubeObject) -> _Templates:
    return _job_spec(dig(obj, "spec", "jobTemplate", "spec"))


def _replicated_jobs(jobset_spec: Any) -> _Templates:
    found: _Templates = []
    for replicated in items(dig(jobset_spec, "replicatedJobs")):
        copies = integer(replicated.get("replicas"), 1)
        found += _job_spec(dig(replicated, "template", "spec"), str(replicated.get("name") or ""), copies)
    return found


def _jobset(obj: KubeObject) -> _Templates:
    return _replicated_jobs(obj.get("spec"))


def _kubeflow(obj: KubeObject) -> _Templates:
    found: _Templates = []
    for key, replica_specs in mapping(obj.get("spec")).items():
        if not str(key).endswith("ReplicaSpecs"):
            continue
        for role, replica in mapping(replica_specs).items():
            found.append((str(role), dig(replica, "template", "spec"), integer(dig(replica, "replicas"), 1)))
    return found


def _trainjob(obj: KubeObject) -> _Templates:
    """TrainJob has no pod spec: the trainer image/env/resources are overrides applied to a runtime."""
    trainer = mapping(dig(obj, "spec", "trainer"))
    if not trainer:
        return []
    container = {
        "name": "trainer",
        "image": trainer.get("image"),
        "command": trainer.get("command"),
        "args": trainer.get("args"),
        "env": trainer.get("env"),
        "resources": {
            "limits": mapping(trainer.get("resourcesPerNode")).get("limits")
            or mapping(trainer.get("resourcesPerNode")).get("requests")
            or {}
        },
    }
    return [("trainer", {"containers": [container]}, integer(trainer.get("numNodes"), 1))]


def _training_runtime(obj: KubeObject) -> _Templates:
    nodes = integer(dig(obj, "spec", "mlPolicy", "numNodes"), 1)
    return [
        (role, spec, max(count, nodes))
        for role, spec, count in _replicated_jobs(dig(obj, "spec", "template", "spec"))
    ]


def _ray_cluster_spec(cluster: Any) -> _Templates:
    found: _Templates = [("head", dig(cluster, "headGroupSpec", "template", "spec"), 1)]
    for group in items(dig(cluster, "workerGroupSpecs")):
        count = integer(group.get("replicas"), integer(group.get("minReplicas"), 1))
        count *= max(integer(group.get("numOfHosts"), 1), 1)
        found.append((str(group.get("groupName") or "worker"), dig(group, "template", "spec"), count))
    return found


def _raycluster(obj: KubeObject) -> _Templates:
    return _ray_cluster_spec(obj.get("spec"))


def _rayjob(obj: KubeObject) -> _Templates:
    return _ray_cluster_spec(dig(obj, "spec", "rayClusterSpec"))


def _rayservice(obj: KubeObject) -> _Templates:
    return _ray_cluster_spec(dig(obj, "spec", "rayClusterConfig"))


def _leaderworkerset(obj: KubeObject) -> _Templates:
    groups = integer(dig(obj, "spec", "replicas"), 1)
    template = mapping(dig(obj, "spec", "leaderWorkerTemplate"))
    size = integer(template.get("size"), 1)
    worker = dig(template, "workerTemplate", "spec")
    leader = dig(template, "leaderTemplate", "spec")
    if leader is None:  # without a leader template the leader uses the worker template
        return [("worker", worker, groups * size)]
    return [("leader", leader, groups), ("worker", worker, groups * max(size - 1, 0))]


def _volcano(obj: KubeObject) -> _Templates:
    return [
        (str(task.get("name") or ""), dig(task, "template", "spec"), integer(task.get("replicas"), 1))
        for task in items(dig(obj, "spec", "tasks"))
    ]


_EXTRACTORS: dict[str, Callable[[KubeObject], _Templates]] = {
    "Pod": _pod,
    "apps/Deployment": _templated,
    "apps/StatefulSet": _templated,
    "apps/ReplicaSet": _templated,
    "apps/DaemonSet": _daemonset,
    "batch/Job": _job,
    "batch/CronJob": _cronjob,
    "jobset.x-k8s.io/JobSet": _jobset,
    "kubeflow.org/PyTorchJob": _kubeflow,
    "kubeflow.org/TFJob": _kubeflow,
    "kubeflow.org/MPIJob": _kubeflow,
    "kubeflow.org/PaddleJob": _kubeflow,
    "kubeflow.org/XGBoostJob": _kubeflow,
    "trainer.kubeflow.org/TrainJob": _trainjob,
    "trainer.kubeflow.org/TrainingRuntime": _training_runtime,
    "trainer.kubeflow.org/ClusterTrainingRuntime": _training_runtime,
    "ray.io/RayCluster": _raycluster,
    "ray.io/RayJob": _rayjob,
    "ray.io/RayService": _rayservice,
    "leaderworkerset.x-k8s.io/LeaderWorkerSet": _leaderworkerset,
    "batch.volcano.sh/Job": _volcano,
}
WORKLOAD_KINDS = tuple(_EXTRACTORS)
_OWNER_KINDS = frozenset(key.rsplit("/", 1)[-1] for key in _EXTRACTORS) | {"Workload", "AppWrapper", "Node"}
_SINGLE_NODE_KINDS = frozenset(
    {"Pod", "apps/Deployment", "apps/StatefulSet", "apps/ReplicaSet", "apps/DaemonSet"}
)


def _owned_by_extracted_kind(obj: KubeObject) -> bool:
    owner = controller_owner(obj)
    return owner is not None and str(owner.get("kind")) in _OWNER_KINDS


def workload_of(key: str, obj: KubeObject) -> Workload | None:
    """One workload object as a Workload; None for kinds we do not know or objects owned by one we do."""
    extractor = _EXTRACTORS.get(key)
    if extractor is None or _owned_by_extracted_kind(obj):
        return None
    owner = ref(obj)
    templates = tuple(
        PodTemplate(owner, key, role, mapping(spec), max(replicas, 0), gpus_requested(mapping(spec)))
        for role, spec, replicas in extractor(obj)
    )
    pods = sum(template.replicas for template in templates)
    distributed = key not in _SINGLE_NODE_KINDS and pods > 1
    if key in ("batch/Job", "batch/CronJob"):  # many pods of one Job only form one run when Indexed
        job_spec = dig(obj, "spec", "jobTemplate", "spec") if key == "batch/CronJob" else obj.get("spec")
        distributed = pods > 1 and dig(job_spec, "completionMode") == "Indexed"
    if key == "leaderworkerset.x-k8s.io/LeaderWorkerSet":
        distributed = integer(dig(obj, "spec", "leaderWorkerTemplate", "size"), 1) > 1
    return Workload(owner, key, obj, templates, distributed)


def _build(snapshot: Snapshot) -> list[Workload]:
    found = []
    for key in WORKLOAD_KINDS:
        for obj in snapshot.of(key):
            if isinstance(obj, dict) and (workload := workload_of(key, obj)) is not None:
                found.append(workload)
    return found


def workloads(snapshot: Snapshot) -> list[Workload]:
    """Every top-level workload of the snapshot, in kind order, built once per snapshot."""
    return memo(snapshot, "workloads", _build)


def templates(snapshot: Snapshot, kinds: frozenset[str] | None = None) -> Iterator[PodTemplate]:
    """Pod templates of all workloads, optionally only of the given kind keys."""
    for workload in workloads(snapshot):
        if kinds is None or workload.kind_key in kinds:
            yield from workload.templates


def gpu_training_workloads(snapshot: Snapshot) -> list[Workload]:
    """Batch/training workloads (Jobs, JobSets, PyTorchJobs, RayJobs, ...) that ask for GPUs."""
    return [workload for workload in workloads(snapshot) if workload.is_training and workload.requests_gpus]
