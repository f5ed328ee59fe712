"""Realistic objects for a GPU cluster, shaped as `kubectl get -o json` prints them.

Shared by the live tests and the checker benchmark, so both scan the same kind of cluster: GPU nodes
with NVIDIA labels and capacity, GPU operator DaemonSets and their pods, training Jobs, JobSets and
PyTorchJobs whose pods request GPUs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

CREATED = "2026-01-05T08:00:00Z"


def _metadata(name: str, namespace: str = "", labels: dict[str, str] | None = None) -> dict[str, Any]:
    metadata: dict[str, Any] = {"name": name, "creationTimestamp": CREATED, "uid": f"uid-{namespace}-{name}"}
    if namespace:
        metadata["namespace"] = namespace
    if labels:
        metadata["labels"] = labels
    return metadata


def gpu_node(name: str, *, gpus: int = 8, pool: str = "h100", ready: bool = True) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": _metadata(
            name,
            labels={
                "kubernetes.io/hostname": name,
                "nvidia.com/gpu.present": "true",
                "nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3",
                "node.kubernetes.io/instance-type": "p5.48xlarge",
                "karpenter.sh/nodepool": pool,
            },
        ),
        "spec": {"taints": [{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}]},
        "status": {
            "capacity": {"cpu": "192", "memory": "2097152Mi", "nvidia.com/gpu": str(gpus), "pods": "110"},
            "allocatable": {"cpu": "190", "memory": "2000000Mi", "nvidia.com/gpu": str(gpus), "pods": "110"},
            "conditions": [
                {"type": "Ready", "status": "True" if ready else "False", "reason": "KubeletReady"},
                {"type": "MemoryPressure", "status": "False"},
            ],
            "nodeInfo": {"kubeletVersion": "v1.31.4", "containerRuntimeVersion": "containerd://1.7.23"},
        },
    }


def pod(
    name: str,
    namespace: str,
    *,
    node: str = "",
    gpus: int = 0,
    image: str = "nvcr.io/nvidia/pytorch:24.10-py3",
    labels: dict[str, str] | None = None,
    owner: tuple[str, str, str] | None = None,  # (apiVersion, kind, name)
) -> dict[str, Any]:
    resources: dict[str, Any] = {"requests": {"cpu": "4", "memory": "16Gi"}}
    if gpus:
        resources["limits"] = {"nvidia.com/gpu": str(gpus)}
        resources["requests"]["nvidia.com/gpu"] = str(gpus)
    metadata = _metadata(name, namespace, labels)
    if owner:
        metadata["ownerReferences"] = [
            {
                "apiVersion": owner[0],
                "kind": owner[1],
                "name": owner[2],
                "controller": True,
                "uid": f"uid-{owner[2]}",
            }
        ]
    spec: dict[str, Any] = {
        "containers": [{"name": "main", "image": image, "resources": resources}],
        "restartPolicy": "Never" if owner and owner[1] == "Job" else "Always",
        "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}],
    }
    if node:
        spec["nodeName"] = node
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": metadata,
        "spec": spec,
        "status": {
            "phase": "Running" if node else "Pending",
            "conditions": [{"type": "Ready", "status": "True"}],
        },
    }


def daemonset(name: str, namespace: str, image: str, *, scheduled: int = 0) -> dict[str, Any]:
    labels = {"app": name}
    return {
        "apiVersion": "apps/v1",
        "kind": "DaemonSet",
        "metadata": _metadata(name, namespace, {"app.kubernetes.io/name": name}),
        "spec": {
            "selector": {"matchLabels": labels},
            "template": {
                "metadata": {"labels": labels},
                "spec": {
                    "nodeSelector": {"nvidia.com/gpu.present": "true"},
                    "tolerations": [{"operator": "Exists"}],
                    "containers": [{"name": name, "image": image}],
                },
            },
        },
        "status": {
            "desiredNumberScheduled": scheduled,
            "currentNumberScheduled": scheduled,
            "numberReady": scheduled,
            "numberAvailable": scheduled,
        },
    }


GPU_AGENTS = (
    ("nvidia-device-plugin-daemonset", "nvcr.io/nvidia/k8s-device-plugin:v0.17.0"),
    ("nvidia-dcgm-exporter", "nvcr.io/nvidia/k8s/dcgm-exporter:3.3.9-3.6.1-ubuntu22.04"),
    ("gpu-feature-discovery", "nvcr.io/nvidia/k8s-device-plugin:v0.17.0"),
    ("node-problem-detector", "registry.k8s.io/node-problem-detector/node-problem-detector:v0.8.20"),
)


def job(name: str, namespace: str, *, completions: int = 1) -> dict[str, Any]:
    template = pod(f"{name}-template", namespace, gpus=8)
    return {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": _metadata(name, namespace, {"team": namespace}),
        "spec": {
            "completions": completions,
            "parallelism": completions,
            "backoffLimit": 4,
            "template": {"metadata": {"labels": {"job-name": name}}, "spec": template["spec"]},
        },
        "status": {"active": completions},
    }


def jobset(name: str, namespace: str, *, replicas: int = 4) -> dict[str, Any]:
    template = pod(f"{name}-template", namespace, gpus=8)
    return {
        "apiVersion": "jobset.x-k8s.io/v1alpha2",
        "kind": "JobSet",
        "metadata": _metadata(name, namespace),
        "spec": {
            "failurePolicy": {"maxRestarts": 3},
            "replicatedJobs": [
                {
                    "name": "workers",
                    "replicas": replicas,
                    "template": {
                        "spec": {"parallelism": 1, "completions": 1, "template": {"spec": template["spec"]}}
                    },
                }
            ],
        },
    }


def pytorchjob(name: str, namespace: str, *, workers: int = 7) -> dict[str, Any]:
    template = pod(f"{name}-template", namespace, gpus=8)
    replica = {"restartPolicy": "OnFailure", "template": {"spec": template["spec"]}}
    return {
        "apiVersion": "kubeflow.org/v1",
        "kind": "PyTorchJob",
        "metadata": _metadata(name, namespace),
        "spec": {
            "pytorchReplicaSpecs": {
                "Master": {**replica, "replicas": 1},
                "Worker": {**replica, "replicas": workers},
            }
        },
    }


def gpu_cluster(nodes: int, pods: int, *, namespaces: int = 20) -> Iterator[dict[str, Any]]:
    """A whole GPU cluster: `nodes` GPU nodes, one pod per GPU agent per node, and training pods up to `pods`.

    Agent pods count toward `pods`. Workloads: one Job per 50 training pods, a JobSet and a PyTorchJob
    per namespace, so every kind a check may read is present at a realistic ratio.
    """
    node_names = [f"gpu-node-{index:05d}" for index in range(nodes)]
    for name in node_names:
        yield gpu_node(name, ready=not name.endswith("7"))
    agents = GPU_AGENTS if pods >= nodes * len(GPU_AGENTS) else ()
    for agent, image in agents:
        yield daemonset(agent, "gpu-operator", image, scheduled=nodes)
        for index, node in enumerate(node_names):
            yield pod(
                f"{agent}-{index:05d}",
                "gpu-operator",
                node=node,
                image=image,
                labels={"app": agent},
                owner=("apps/v1", "DaemonSet", agent),
            )
    remaining = pods - nodes * len(agents)
    team_names = [f"team-{index:02d}" for index in range(namespaces)]
    for team in team_names:
        yield jobset(f"{team}-pretrain", team)
        yield pytorchjob(f"{team}-finetune", team)
    for index in range(max(0, remaining)):
        team = team_names[index % namespaces]
        job_name = f"{team}-train-{index // (50 * namespaces):04d}"
        if index % (50 * namespaces) < namespaces:
            yield job(job_name, team, completions=50)
        node = node_names[index % nodes] if nodes else ""
        yield pod(
            f"{job_name}-{index:07d}",
            team,
            node=node,
            gpus=1,
            labels={"job-name": job_name},
            owner=("batch/v1", "Job", job_name),
        )
