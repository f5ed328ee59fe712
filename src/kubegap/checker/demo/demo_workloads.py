"""Demo cluster, workload side: a JobSet, a PyTorchJob, plain Jobs and Kueue; then every object in order."""

from __future__ import annotations

from kubegap.checker.demo.demo_platform import Obj, gpu_operator, meta, os_updates_and_dns, telemetry_and_apf

TRAINING_IMAGE = "nvcr.io/nvidia/pytorch:24.10-py3"
GPU_TOLERATION = {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
# Looks like a Weights & Biases key but is made up: reports must show it redacted.
FAKE_WANDB_KEY = "a3f9c2e17b5d4e8f9a0b1c2d3e4f5a6b7c8d9e0f"


def _trainer(env: list[dict[str, str]], mounts: list[Obj]) -> Obj:
    return {
        "name": "trainer",
        "image": TRAINING_IMAGE,
        "command": ["torchrun", "--nnodes=4", "--nproc-per-node=8", "train.py"],
        "env": env,
        "resources": {"limits": {"nvidia.com/gpu": "8", "rdma/rdma_shared_device_a": "1"}},
        "volumeMounts": mounts,
    }


def jobset() -> Obj:
    env = [
        {"name": "TORCH_NCCL_ASYNC_ERROR_HANDLING", "value": "3"},
        {"name": "TORCH_NCCL_DUMP_ON_TIMEOUT", "value": "1"},
        {"name": "TORCH_NCCL_TRACE_BUFFER_SIZE", "value": "2000"},
        {"name": "WANDB_API_KEY", "value": FAKE_WANDB_KEY},
    ]
    mounts = [{"name": "dshm", "mountPath": "/dev/shm"}, {"name": "checkpoints", "mountPath": "/checkpoints"}]
    volumes = [
        {"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": "64Gi"}},
        {"name": "checkpoints", "persistentVolumeClaim": {"claimName": "llama-70b-checkpoints"}},
    ]
    return {
        "apiVersion": "jobset.x-k8s.io/v1alpha2",
        "kind": "JobSet",
        "metadata": meta("llama-70b-pretrain", "research", **{"kueue.x-k8s.io/queue-name": "research"}),
        "spec": {
            "failurePolicy": {"maxRestarts": 10},
            "replicatedJobs": [
                {
                    "name": "workers",
                    "replicas": 4,
                    "template": {
                        "spec": {
                            "parallelism": 1,
                            "completions": 1,
                            "backoffLimit": 0,
                            "template": {
                                "spec": {
                                    "restartPolicy": "Never",
                                    "tolerations": [GPU_TOLERATION],
                                    "containers": [_trainer(env, mounts)],
                                    "volumes": volumes,
                                }
                            },
                        }
                    },
                }
            ],
        },
    }


def pytorchjob() -> Obj:
    env = [
        {"name": "TORCH_NCCL_ASYNC_ERROR_HANDLING", "value": "0"},
        {"name": "TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC", "value": "7200"},
    ]
    replica = {
        "restartPolicy": "OnFailure",
        "template": {
            "spec": {
                "tolerations": [GPU_TOLERATION],
                "containers": [
                    {**_trainer(env, [{"name": "scratch", "mountPath": "/scratch"}]), "name": "pytorch"}
                ],
                "volumes": [{"name": "scratch", "emptyDir": {}}],
            }
        },
    }
    return {
        "apiVersion": "kubeflow.org/v1",
        "kind": "PyTorchJob",
        "metadata": meta("mixtral-finetune", "research"),
        "spec": {
            "runPolicy": {"activeDeadlineSeconds": 172800, "cleanPodPolicy": "Running"},
            "pytorchReplicaSpecs": {
                "Master": {"replicas": 1, **replica},
                "Worker": {"replicas": 1, **replica},
            },
        },
    }


def jobs() -> list[Obj]:
    def job(name: str, gpus: int, ttl: bool) -> Obj:
        spec: Obj = {
            "backoffLimit": 4,
            "template": {
                "spec": {
                    "restartPolicy": "Never",
                    "containers": [
                        {
                            "name": name,
                            "image": TRAINING_IMAGE,
                            "command": ["python", f"{name}.py"],
                            "resources": {"limits": {"nvidia.com/gpu": str(gpus)} if gpus else {"cpu": "8"}},
                        }
                    ],
                }
            },
        }
        if gpus:
            spec["template"]["spec"]["tolerations"] = [GPU_TOLERATION]
        if ttl:
            spec["ttlSecondsAfterFinished"] = 86400
        status = {"conditions": [{"type": "Complete", "status": "True"}], "succeeded": 1}
        return {
            "apiVersion": "batch/v1",
            "kind": "Job",
            "metadata": meta(name, "research"),
            "spec": spec,
            "status": status,
        }

    return [job("tokenize-shards", 0, ttl=False), job("eval-llama-8b", 1, ttl=True)]


def kueue() -> list[Obj]:
    config = "\n".join(
        [
            "apiVersion: config.kueue.x-k8s.io/v1beta1",
            "kind: Configuration",
            "health:",
            "  healthProbeBindAddress: :8081",
            "integrations:",
            "  frameworks: [batch/job, jobset.x-k8s.io/jobset, kubeflow.org/pytorchjob]",
            "",
        ]
    )
    return [
        {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": meta("kueue-manager-config", "kueue-system"),
            "data": {"controller_manager_config.yaml": config},
        },
        {
            "apiVersion": "kueue.x-k8s.io/v1beta1",
            "kind": "ClusterQueue",
            "metadata": meta("h100"),
            "spec": {
                "namespaceSelector": {},
                "resourceGroups": [
                    {
                        "coveredResources": ["nvidia.com/gpu"],
                        "flavors": [
                            {"name": "h100-p5", "resources": [{"name": "nvidia.com/gpu", "nominalQuota": 48}]}
                        ],
                    }
                ],
            },
        },
    ]


def serving() -> list[Obj]:
    labels = {"app": "llama-8b-chat"}
    container = {
        "name": "vllm",
        "image": "vllm/vllm-openai:v0.6.3",
        "args": ["--model", "meta-llama/Llama-3.1-8B-Instruct", "--tensor-parallel-size", "2"],
        "resources": {"limits": {"nvidia.com/gpu": "2"}},
        "volumeMounts": [{"name": "dshm", "mountPath": "/dev/shm"}],
    }
    deployment = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": meta("llama-8b-chat", "serving", **labels),
        "spec": {
            "replicas": 2,
            "selector": {"matchLabels": labels},
            "template": {
                "metadata": {"labels": labels},
                "spec": {
                    "tolerations": [GPU_TOLERATION],
                    "containers": [container],
                    "volumes": [{"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": "8Gi"}}],
                },
            },
        },
    }
    budget = {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": meta("llama-8b-chat", "serving"),
        "spec": {"maxUnavailable": 1, "selector": {"matchLabels": labels}},
    }
    return [deployment, budget]


def namespaces() -> list[Obj]:
    names = (
        "kube-system",
        "gpu-operator",
        "observability",
        "system-upgrade",
        "kueue-system",
        "argocd",
        "research",
    )
    return [{"apiVersion": "v1", "kind": "Namespace", "metadata": meta(name)} for name in names]


def training_pods(gpu_nodes: list[str]) -> list[Obj]:
    """The JobSet's four workers, running on the first four GPU nodes (what a live read would show)."""
    pods = []
    for index, node in enumerate(gpu_nodes[:4]):
        job = f"llama-70b-pretrain-workers-{index}"
        pods.append(
            {
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {
                    **meta(
                        f"{job}-0-x7k2q",
                        "research",
                        **{"jobset.sigs.k8s.io/jobset-name": "llama-70b-pretrain"},
                    ),
                    "ownerReferences": [
                        {"apiVersion": "batch/v1", "kind": "Job", "name": job, "controller": True}
                    ],
                },
                "spec": {
                    "nodeName": node,
                    "containers": [
                        {
                            "name": "trainer",
                            "image": TRAINING_IMAGE,
                            "resources": {"limits": {"nvidia.com/gpu": "8"}},
                        }
                    ],
                },
                "status": {"phase": "Running"},
            }
        )
    return pods


def workload_objects(gpu_nodes: list[str]) -> list[Obj]:
    """Every non-Node object of the demo cluster, in a fixed order."""
    return [
        *namespaces(),
        *gpu_operator(gpu_nodes),
        *telemetry_and_apf(),
        *os_updates_and_dns(gpu_nodes),
        jobset(),
        *training_pods(gpu_nodes),
        pytorchjob(),
        *jobs(),
        *serving(),
        *kueue(),
    ]
