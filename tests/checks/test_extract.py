"""The shared extractors: every workload kind yields its pod templates, and odd input never raises."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from kubegap.checker.extract import gpu_nodes, gpus_requested, pod_index, shm_size_bytes
from kubegap.checker.extract.agents import classify
from kubegap.checker.finding import Status
from kubegap.checker.registry import all_checks
from kubegap.checker.runner import run_checks
from kubegap.checker.snapshot import Coverage, KindCoverage, Snapshot, kind_key
from kubegap.checker.workload import workload_of, workloads

GPU = {"limits": {"nvidia.com/gpu": "8"}}


def _pod_spec(gpu: bool = True) -> dict[str, object]:
    return {"containers": [{"name": "c", "image": "img", **({"resources": GPU} if gpu else {})}]}


WORKLOADS = {
    "jobset": (
        "jobset.x-k8s.io/v1alpha2",
        "JobSet",
        {
            "replicatedJobs": [
                {
                    "name": "w",
                    "replicas": 3,
                    "template": {"spec": {"parallelism": 2, "template": {"spec": _pod_spec()}}},
                }
            ]
        },
        6,
        True,
    ),
    "pytorchjob": (
        "kubeflow.org/v1",
        "PyTorchJob",
        {
            "pytorchReplicaSpecs": {
                "Master": {"replicas": 1, "template": {"spec": _pod_spec()}},
                "Worker": {"replicas": 3, "template": {"spec": _pod_spec()}},
            }
        },
        4,
        True,
    ),
    "mpijob": (
        "kubeflow.org/v2beta1",
        "MPIJob",
        {
            "mpiReplicaSpecs": {
                "Launcher": {"replicas": 1, "template": {"spec": _pod_spec(False)}},
                "Worker": {"replicas": 2, "template": {"spec": _pod_spec()}},
            }
        },
        3,
        True,
    ),
    "trainjob": (
        "trainer.kubeflow.org/v1alpha1",
        "TrainJob",
        {"trainer": {"numNodes": 4, "image": "img", "resourcesPerNode": {"limits": {"nvidia.com/gpu": 8}}}},
        4,
        True,
    ),
    "rayjob": (
        "ray.io/v1",
        "RayJob",
        {
            "rayClusterSpec": {
                "headGroupSpec": {"template": {"spec": _pod_spec(False)}},
                "workerGroupSpecs": [
                    {"groupName": "g", "replicas": 2, "numOfHosts": 2, "template": {"spec": _pod_spec()}}
                ],
            }
        },
        5,
        True,
    ),
    "lws": (
        "leaderworkerset.x-k8s.io/v1",
        "LeaderWorkerSet",
        {
            "replicas": 2,
            "leaderWorkerTemplate": {
                "size": 4,
                "leaderTemplate": {"spec": _pod_spec()},
                "workerTemplate": {"spec": _pod_spec()},
            },
        },
        8,
        True,
    ),
    "volcano": (
        "batch.volcano.sh/v1alpha1",
        "Job",
        {
            "tasks": [
                {"name": "m", "replicas": 1, "template": {"spec": _pod_spec(False)}},
                {"name": "w", "replicas": 2, "template": {"spec": _pod_spec()}},
            ]
        },
        3,
        True,
    ),
    "cronjob": (
        "batch/v1",
        "CronJob",
        {"jobTemplate": {"spec": {"template": {"spec": _pod_spec()}}}},
        1,
        False,
    ),
    "deployment": ("apps/v1", "Deployment", {"replicas": 3, "template": {"spec": _pod_spec()}}, 3, False),
}


@pytest.mark.parametrize("name", sorted(WORKLOADS))
def test_each_workload_kind_yields_its_templates(name: str) -> None:
    api_version, kind, spec, pods, distributed = WORKLOADS[name]
    obj = {
        "apiVersion": api_version,
        "kind": kind,
        "metadata": {"name": name, "namespace": "ns"},
        "spec": spec,
    }
    workload = workload_of(kind_key(api_version, kind), obj)
    assert workload is not None
    assert workload.pods == pods
    assert workload.requests_gpus
    assert workload.distributed is distributed
    assert workload.owner.display() == f"{kind}/ns/{name}"


def test_owned_objects_are_not_counted_twice() -> None:
    owned = {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "j", "ownerReferences": [{"kind": "JobSet", "name": "x", "controller": True}]},
        "spec": {"template": {"spec": _pod_spec()}},
    }
    assert workload_of("batch/Job", owned) is None


def _mangle(value: object) -> object:
    """Replace every list with a string and every dict leaf with a list: the worst shapes YAML can give."""
    if isinstance(value, dict):
        return {key: _mangle(item) for key, item in value.items()}
    if isinstance(value, list):
        return "not-a-list"
    return [value]


def _every_fixture_object() -> list[dict[str, object]]:
    found = []
    for path in sorted(Path(__file__).parent.glob("*/*.yaml")):
        found += [doc for doc in yaml.safe_load_all(path.read_text()) if isinstance(doc, dict)]
    return found


def test_ill_typed_fields_never_crash_a_check() -> None:
    snapshot = Snapshot(mode="snapshot")
    for obj in _every_fixture_object():
        mangled = {"apiVersion": obj["apiVersion"], "kind": obj["kind"], "metadata": {"name": "m"}}
        mangled |= {key: _mangle(copy.deepcopy(value)) for key, value in obj.items() if key not in mangled}
        snapshot.add(mangled)
        snapshot.add(obj)
    for kind in {key for check in all_checks() for key in (*check.meta.needs, *check.meta.optional)}:
        snapshot.coverage.setdefault(kind, KindCoverage(Coverage.read))
    report = run_checks(snapshot)
    crashed = [(f.check_id, f.message) for f in report.findings if f.reason == "check-error"]
    assert not crashed
    assert any(f.status is Status.failed for f in report.findings)


def test_views_are_built_once_and_refreshed_when_objects_change() -> None:
    snapshot = Snapshot()
    snapshot.add(
        {
            "apiVersion": "v1",
            "kind": "Node",
            "metadata": {"name": "a"},
            "status": {"capacity": {"nvidia.com/gpu": "8"}},
        }
    )
    assert gpu_nodes(snapshot) is gpu_nodes(snapshot)
    snapshot.add(
        {
            "apiVersion": "v1",
            "kind": "Node",
            "metadata": {"name": "b", "labels": {"nvidia.com/gpu.present": "true"}},
        }
    )
    assert [node.name for node in gpu_nodes(snapshot)] == ["a", "b"]
    assert workloads(snapshot) == []
    assert pod_index(snapshot).by_node == {}


def test_gpu_feature_discovery_is_not_taken_for_the_device_plugin() -> None:
    spec = {"containers": [{"image": "nvcr.io/nvidia/k8s-device-plugin:v0.17.0"}]}
    assert classify("gpu-feature-discovery", spec, {}) == "gpu-feature-discovery"
    assert classify("nvidia-device-plugin-daemonset", spec, {}) == "device-plugin"


def test_shm_size_reads_memory_empty_dirs_and_host_paths() -> None:
    def spec(volume: dict[str, object]) -> dict[str, object]:
        return {
            "containers": [{"name": "c", "volumeMounts": [{"name": "shm", "mountPath": "/dev/shm/"}]}],
            "volumes": [{"name": "shm", **volume}],
        }

    assert shm_size_bytes(spec({"emptyDir": {"medium": "Memory", "sizeLimit": "2Gi"}})) == 2 * 1024**3
    assert shm_size_bytes(spec({"emptyDir": {"medium": "Memory"}})) == float("inf")
    assert shm_size_bytes(spec({"emptyDir": {}})) is None
    assert shm_size_bytes({"containers": [{"name": "c"}]}) is None


def test_gpu_requests_count_limits_mig_slices_and_ignore_junk() -> None:
    spec = {
        "containers": [
            {"resources": {"limits": {"nvidia.com/gpu": "4", "cpu": "8"}}},
            {"resources": {"requests": {"nvidia.com/mig-1g.10gb": 2}}},
            {"resources": {"limits": {"nvidia.com/gpu": "many"}}},
            {"resources": "not-a-dict"},
        ]
    }
    assert gpus_requested(spec) == 6


def test_cluster_wide_reads_follow_cluster_role_bindings_only() -> None:
    from kubegap.checker.extract import cluster_wide_reads

    snapshot = Snapshot()
    rules = {
        "wide": [{"apiGroups": ["*"], "resources": ["*"], "verbs": ["list"]}],
        "named": [
            {"apiGroups": [""], "resources": ["configmaps"], "verbs": ["get", "list"], "resourceNames": ["x"]}
        ],
        "writes": [{"apiGroups": [""], "resources": ["pods"], "verbs": ["create", "delete"]}],
    }
    for name, role_rules in rules.items():
        snapshot.add(
            {
                "apiVersion": "rbac.authorization.k8s.io/v1",
                "kind": "ClusterRole",
                "metadata": {"name": name},
                "rules": role_rules,
            }
        )
        subject = {"kind": "ServiceAccount", "name": name, "namespace": "ns"}
        binding = {"kind": "ClusterRole", "name": name}
        snapshot.add(
            {
                "apiVersion": "rbac.authorization.k8s.io/v1",
                "kind": "ClusterRoleBinding",
                "metadata": {"name": name},
                "roleRef": binding,
                "subjects": [subject],
            }
        )
    snapshot.add(
        {
            "apiVersion": "rbac.authorization.k8s.io/v1",
            "kind": "ClusterRoleBinding",
            "metadata": {"name": "odd"},
            "roleRef": "wide",
            "subjects": "all",
        }
    )
    reads = cluster_wide_reads(snapshot)
    assert {"pods", "endpoints", "secrets"} <= reads[("ns", "wide")]
    assert ("ns", "named") not in reads and ("ns", "writes") not in reads
