"""Pod templates of the workload kinds whose shape we know: core, batch, Kubeflow, JobSet, Ray, LWS, Volcano.

Each extractor returns (group, pod spec, pods) for every template of one object and notes the count
fields a template engine left unfilled. Serving and other CRDs are in `crds`; any other kind holding a
PodTemplateSpec-shaped subtree is found by `crds.discovered`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kubegap.checker.extract._fields import dig, items, mapping
from kubegap.checker.snapshot import KubeObject
from kubegap.checker.workload._read import Found, Reader
from kubegap.checker.workload.operators import KUBERAY_LIVENESS, kuberay_liveness

Extractor = Callable[[KubeObject, Reader], list[Found]]


def _pod(obj: KubeObject, _reader: Reader) -> list[Found]:
    return [("", obj.get("spec"), 1)]


def _templated(obj: KubeObject, reader: Reader) -> list[Found]:
    return [
        (
            "",
            dig(obj, "spec", "template", "spec"),
            reader.count(obj.get("spec"), "replicas", 1, "spec.replicas"),
        )
    ]


def _daemonset(obj: KubeObject, _reader: Reader) -> list[Found]:
    return [("", dig(obj, "spec", "template", "spec"), 1)]


def _job_spec(job_spec: Any, reader: Reader, path: str, group: str = "", copies: int = 1) -> list[Found]:
    parallelism = reader.count(job_spec, "parallelism", 1, f"{path}.parallelism")
    return [(group, dig(job_spec, "template", "spec"), copies * max(parallelism, 0))]


def _job(obj: KubeObject, reader: Reader) -> list[Found]:
    return _job_spec(obj.get("spec"), reader, "spec")


def _cronjob(obj: KubeObject, reader: Reader) -> list[Found]:
    return _job_spec(dig(obj, "spec", "jobTemplate", "spec"), reader, "spec.jobTemplate.spec")


def replicated_jobs(jobset_spec: Any, reader: Reader, path: str = "spec") -> list[Found]:
    found: list[Found] = []
    for index, replicated in enumerate(items(dig(jobset_spec, "replicatedJobs"))):
        where = f"{path}.replicatedJobs[{index}]"
        copies = reader.count(replicated, "replicas", 1, f"{where}.replicas")
        job_spec = dig(replicated, "template", "spec")
        found += _job_spec(
            job_spec, reader, f"{where}.template.spec", str(replicated.get("name") or ""), copies
        )
    return found


def _jobset(obj: KubeObject, reader: Reader) -> list[Found]:
    return replicated_jobs(obj.get("spec"), reader)


def _kubeflow(obj: KubeObject, reader: Reader) -> list[Found]:
    found: list[Found] = []
    spec = mapping(obj.get("spec"))
    if isinstance(dig(spec, "template", "spec"), dict) and not any(
        str(k).endswith("ReplicaSpecs") for k in spec
    ):
        # kubeflow.org/v1alpha1 MPIJob: one worker template and a replica count, no replica specs.
        return [("worker", dig(spec, "template", "spec"), reader.count(spec, "replicas", 1, "spec.replicas"))]
    for key, replica_specs in spec.items():
        if not str(key).endswith("ReplicaSpecs"):
            continue
        for group, replica in mapping(replica_specs).items():
            count = reader.count(replica, "replicas", 1, f"spec.{key}.{group}.replicas")
            found.append((str(group), dig(replica, "template", "spec"), count))
    return found


def _trainjob(obj: KubeObject, reader: Reader) -> list[Found]:
    """TrainJob has no pod spec: the trainer image/env/resources are overrides applied to a runtime."""
    trainer = mapping(dig(obj, "spec", "trainer"))
    if not trainer:
        return []
    per_node = mapping(trainer.get("resourcesPerNode"))
    container = {
        "name": "trainer",
        "image": trainer.get("image"),
        "command": trainer.get("command"),
        "args": trainer.get("args"),
        "env": trainer.get("env"),
        "resources": {"limits": per_node.get("limits") or per_node.get("requests") or {}},
    }
    return [
        (
            "trainer",
            {"containers": [container]},
            reader.count(trainer, "numNodes", 1, "spec.trainer.numNodes"),
        )
    ]


def _training_runtime(obj: KubeObject, reader: Reader) -> list[Found]:
    nodes = reader.count(dig(obj, "spec", "mlPolicy"), "numNodes", 1, "spec.mlPolicy.numNodes")
    jobs = replicated_jobs(dig(obj, "spec", "template", "spec"), reader, "spec.template.spec")
    return [(group, spec, max(count, nodes)) for group, spec, count in jobs]


def _kuberay_probe(spec: Any, group: str, reader: Reader, serve: bool) -> Any:
    """The pod spec KubeRay runs: its Ray container (the first) gets KubeRay's liveness probe when it
    has none of its own."""
    listed = items(dig(spec, "containers"))
    if not listed or mapping(listed[0].get("livenessProbe")):
        return spec
    reader.manage(kuberay_liveness(group, serve))
    ray = {**listed[0], "livenessProbe": KUBERAY_LIVENESS}
    return reader.derive({**mapping(spec), "containers": [ray, *listed[1:]]}, spec)


def ray_cluster(cluster: Any, reader: Reader, path: str, serve: bool = False) -> list[Found]:
    head = _kuberay_probe(dig(cluster, "headGroupSpec", "template", "spec"), "head", reader, serve)
    found: list[Found] = [("head", head, 1)]
    for index, group in enumerate(items(dig(cluster, "workerGroupSpecs"))):
        where = f"{path}.workerGroupSpecs[{index}]"
        count = reader.count(
            group,
            "replicas",
            reader.count(group, "minReplicas", 1, f"{where}.minReplicas"),
            f"{where}.replicas",
        )
        count *= max(reader.count(group, "numOfHosts", 1, f"{where}.numOfHosts"), 1)
        name = str(group.get("groupName") or "worker")
        found.append((name, _kuberay_probe(dig(group, "template", "spec"), name, reader, serve), count))
    return found


def _raycluster(obj: KubeObject, reader: Reader) -> list[Found]:
    return ray_cluster(obj.get("spec"), reader, "spec")


def _rayjob(obj: KubeObject, reader: Reader) -> list[Found]:
    return ray_cluster(dig(obj, "spec", "rayClusterSpec"), reader, "spec.rayClusterSpec")


def _rayservice(obj: KubeObject, reader: Reader) -> list[Found]:
    return ray_cluster(dig(obj, "spec", "rayClusterConfig"), reader, "spec.rayClusterConfig", serve=True)


def leader_worker(template: Any, groups: int, reader: Reader, path: str) -> list[Found]:
    size = reader.count(template, "size", 1, f"{path}.size")
    worker = dig(template, "workerTemplate", "spec")
    leader = dig(template, "leaderTemplate", "spec")
    if leader is None:  # without a leader template the leader uses the worker template
        return [("worker", worker, groups * size)]
    return [("leader", leader, groups), ("worker", worker, groups * max(size - 1, 0))]


def _leaderworkerset(obj: KubeObject, reader: Reader) -> list[Found]:
    groups = reader.count(obj.get("spec"), "replicas", 1, "spec.replicas")
    template = mapping(dig(obj, "spec", "leaderWorkerTemplate"))
    return leader_worker(template, groups, reader, "spec.leaderWorkerTemplate")


def _volcano(obj: KubeObject, reader: Reader) -> list[Found]:
    return [
        (
            str(task.get("name") or ""),
            dig(task, "template", "spec"),
            reader.count(task, "replicas", 1, f"spec.tasks[{index}].replicas"),
        )
        for index, task in enumerate(items(dig(obj, "spec", "tasks")))
    ]


def _hyperpod(obj: KubeObject, reader: Reader) -> list[Found]:
    """SageMaker HyperPod PyTorchJob: `replicaSpecs` is a list of named groups, each with a template."""
    return [
        (
            str(group.get("name") or ""),
            dig(group, "template", "spec"),
            reader.count(group, "replicas", 1, f"spec.replicaSpecs[{index}].replicas"),
        )
        for index, group in enumerate(items(dig(obj, "spec", "replicaSpecs")))
    ]


KNOWN: dict[str, Extractor] = {
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
    "kubeflow.org/JAXJob": _kubeflow,
    "trainer.kubeflow.org/TrainJob": _trainjob,
    "trainer.kubeflow.org/TrainingRuntime": _training_runtime,
    "trainer.kubeflow.org/ClusterTrainingRuntime": _training_runtime,
    "ray.io/RayCluster": _raycluster,
    "ray.io/RayJob": _rayjob,
    "ray.io/RayService": _rayservice,
    "leaderworkerset.x-k8s.io/LeaderWorkerSet": _leaderworkerset,
    "batch.volcano.sh/Job": _volcano,
    "sagemaker.amazonaws.com/HyperPodPyTorchJob": _hyperpod,
}
