"""Running pods grouped into the multi-node jobs they belong to, from labels and owners (never names).

A synchronous multi-node job runs at the pace of its slowest node, so node-level checks (thermal
throttling, maintenance) need to know which nodes one running job spans. Controllers stamp their pods
with the job's name; we group by those labels and fall back to the controlling owner.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kubegap.checker.extract._fields import controller_owner, dig, labels_of, namespace_of
from kubegap.checker.extract._memo import memo
from kubegap.checker.extract.podspec import GpuCounts
from kubegap.checker.finding import ObjectRef
from kubegap.checker.snapshot import KubeObject, Snapshot

# (label on the pod, kind of the job it names), first match wins: the outermost controller first.
JOB_LABELS = (
    ("jobset.sigs.k8s.io/jobset-name", "JobSet"),
    ("training.kubeflow.org/job-name", "TrainingJob"),
    ("trainer.kubeflow.org/trainjob-name", "TrainJob"),
    ("volcano.sh/job-name", "Job"),
    ("ray.io/cluster", "RayCluster"),
    ("leaderworkerset.sigs.k8s.io/name", "LeaderWorkerSet"),
    ("batch.kubernetes.io/job-name", "Job"),
    ("job-name", "Job"),
)


_NOT_A_RUN = frozenset({"DaemonSet", "Node", "ReplicaSet", "StatefulSet", "ReplicationController"})


@dataclass
class RunningJob:
    ref: ObjectRef  # the job as its label or owner names it
    nodes: set[str] = field(default_factory=set)  # nodes its Running GPU pods are bound to
    pods: int = 0
    training: bool = False  # batch/training controller (not serving: LeaderWorkerSet, Deployment)

    @property
    def multi_node(self) -> bool:
        return len(self.nodes) > 1


def _job_of(pod: KubeObject) -> tuple[str, str, bool] | None:
    """(kind, name, is training) of the job a pod belongs to, or None for pods of no known controller."""
    labels = labels_of(pod)
    for label, kind in JOB_LABELS:
        if labels.get(label):
            return kind, labels[label], kind != "LeaderWorkerSet"
    owner = controller_owner(pod)
    # Replicas of a Deployment or StatefulSet serve independently: they are not one run.
    if owner is None or owner.get("kind") in _NOT_A_RUN:
        return None
    kind = str(owner.get("kind") or "")
    return kind, str(owner.get("name") or ""), kind in ("Job", "MPIJob", "PyTorchJob")


def running_gpu_pods(snapshot: Snapshot) -> list[tuple[KubeObject, RunningJob]]:
    """Each Running GPU pod of a known job, with its job (shared objects: nodes fill in as pods are read)."""

    def build(snap: Snapshot) -> list[tuple[KubeObject, RunningJob]]:
        found: dict[tuple[str, str, str], RunningJob] = {}
        pods: list[tuple[KubeObject, RunningJob]] = []
        gpus = GpuCounts()
        for pod in snap.of("Pod"):
            node = dig(pod, "spec", "nodeName")
            spec = pod.get("spec")
            if dig(pod, "status", "phase") != "Running" or not isinstance(node, str) or not node:
                continue
            if not isinstance(spec, dict) or gpus.of(spec) == 0 or (job := _job_of(pod)) is None:
                continue
            kind, name, training = job
            namespace = namespace_of(pod)
            entry = found.setdefault(
                (namespace, kind, name), RunningJob(ObjectRef(kind=kind, name=name, namespace=namespace))
            )
            entry.nodes.add(node)
            entry.pods += 1
            entry.training = entry.training or training
            pods.append((pod, entry))
        return pods

    return memo(snapshot, "running_gpu_pods", build)


def running_gpu_jobs(snapshot: Snapshot) -> list[RunningJob]:
    """Jobs with Running GPU pods, and the nodes those pods run on; one pass over all pods."""
    jobs: dict[int, RunningJob] = {}
    for _, job in running_gpu_pods(snapshot):
        jobs.setdefault(id(job), job)
    return list(jobs.values())
