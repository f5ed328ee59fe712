"""Demo cluster, platform side: GPU Operator, agents, RBAC, API Priority and Fairness, DNS, OS updates."""

from __future__ import annotations

from typing import Any

Obj = dict[str, Any]
GPU_TOLERATION = {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}


def meta(name: str, namespace: str = "", **labels: str) -> Obj:
    found: Obj = {"name": name, "creationTimestamp": "2026-10-02T09:30:00Z"}
    if namespace:
        found["namespace"] = namespace
    if labels:
        found["labels"] = dict(labels)
    return found


def daemonset(
    name: str, namespace: str, container: Obj, spec: Obj, desired: int, ready: int, **extra: Any
) -> Obj:
    return {
        "apiVersion": "apps/v1",
        "kind": "DaemonSet",
        "metadata": meta(name, namespace, app=name),
        "spec": {
            "selector": {"matchLabels": {"app": name}},
            "template": {"metadata": {"labels": {"app": name}}, "spec": {"containers": [container], **spec}},
            **extra,
        },
        "status": {"desiredNumberScheduled": desired, "numberReady": ready, "numberAvailable": ready},
    }


def agent_pod(daemonset_name: str, namespace: str, image: str, node: str, index: int) -> Obj:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            **meta(f"{daemonset_name}-{index:05x}", namespace, app=daemonset_name),
            "ownerReferences": [
                {"apiVersion": "apps/v1", "kind": "DaemonSet", "name": daemonset_name, "controller": True}
            ],
        },
        "spec": {"nodeName": node, "containers": [{"name": daemonset_name, "image": image}]},
        "status": {"phase": "Running"},
    }


def gpu_operator(gpu_nodes: list[str]) -> list[Obj]:
    exporter_image = "nvcr.io/nvidia/k8s/dcgm-exporter:3.3.8-3.6.0-ubuntu22.04"
    exporter = daemonset(
        "nvidia-dcgm-exporter",
        "gpu-operator",
        {
            "name": "nvidia-dcgm-exporter",
            "image": exporter_image,
            "env": [
                {"name": "DCGM_EXPORTER_COLLECTORS", "value": "/etc/dcgm-exporter/dcp-metrics-included.csv"}
            ],
        },
        {
            "priorityClassName": "system-node-critical",
            "tolerations": [GPU_TOLERATION],
            "nodeSelector": {"nvidia.com/gpu.present": "true"},
        },
        desired=len(gpu_nodes) - 1,
        ready=len(gpu_nodes) - 1,
        updateStrategy={"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1}},
    )
    plugin = daemonset(
        "nvidia-device-plugin-daemonset",
        "gpu-operator",
        {
            "name": "nvidia-device-plugin",
            "image": "nvcr.io/nvidia/k8s-device-plugin:v0.16.2",
            "env": [
                {"name": "PASS_DEVICE_SPECS", "value": "true"},
                {"name": "FAIL_ON_INIT_ERROR", "value": "true"},
            ],
        },
        {
            "priorityClassName": "system-node-critical",
            "tolerations": [GPU_TOLERATION, {"operator": "Exists"}],
        },
        desired=len(gpu_nodes),
        ready=len(gpu_nodes),
    )
    driver = daemonset(
        "nvidia-driver-daemonset",
        "gpu-operator",
        {"name": "nvidia-driver-ctr", "image": "nvcr.io/nvidia/driver:550.90.07-ubuntu22.04"},
        {"priorityClassName": "system-node-critical", "tolerations": [{"operator": "Exists"}]},
        desired=len(gpu_nodes),
        ready=len(gpu_nodes),
        updateStrategy={"type": "OnDelete"},
    )
    policy = {
        "apiVersion": "nvidia.com/v1",
        "kind": "ClusterPolicy",
        "metadata": meta("cluster-policy"),
        "spec": {
            "driver": {
                "enabled": True,
                "version": "550.90.07",
                "upgradePolicy": {"autoUpgrade": True, "maxParallelUpgrades": 0, "maxUnavailable": "25%"},
            },
            "devicePlugin": {"enabled": True},
            "dcgmExporter": {"enabled": True, "config": {"name": ""}},
        },
        "status": {"state": "ready", "namespace": "gpu-operator"},
    }
    covered = [node for index, node in enumerate(gpu_nodes) if index != 4]
    pods = [
        agent_pod("nvidia-dcgm-exporter", "gpu-operator", exporter_image, node, i)
        for i, node in enumerate(covered)
    ]
    return [exporter, plugin, driver, policy, *pods]


def telemetry_and_apf() -> list[Obj]:
    agent = daemonset(
        "fleet-telemetry",
        "observability",
        {
            "name": "collector",
            "image": "registry.example.com/fleet-telemetry:2.4.0",
            "env": [{"name": "DISCOVERY", "value": "kubernetes-pods,kubernetes-endpoints"}],
        },
        {"serviceAccountName": "fleet-telemetry", "tolerations": [{"operator": "Exists"}]},
        desired=8,
        ready=8,
        updateStrategy={"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "100%"}},
    )
    role = {
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "ClusterRole",
        "metadata": meta("fleet-telemetry"),
        "rules": [
            {
                "apiGroups": [""],
                "resources": ["pods", "endpoints", "nodes", "services"],
                "verbs": ["get", "list", "watch"],
            }
        ],
    }
    binding = {
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "ClusterRoleBinding",
        "metadata": meta("fleet-telemetry"),
        "roleRef": {
            "apiGroup": "rbac.authorization.k8s.io",
            "kind": "ClusterRole",
            "name": "fleet-telemetry",
        },
        "subjects": [{"kind": "ServiceAccount", "name": "fleet-telemetry", "namespace": "observability"}],
    }

    def flow_schema(name: str, level: str, precedence: int, subject: Obj) -> Obj:
        return {
            "apiVersion": "flowcontrol.apiserver.k8s.io/v1",
            "kind": "FlowSchema",
            "metadata": meta(name),
            "spec": {
                "priorityLevelConfiguration": {"name": level},
                "matchingPrecedence": precedence,
                "rules": [{"subjects": [subject]}],
            },
        }

    schemas = [
        flow_schema(
            "service-accounts",
            "workload-low",
            9000,
            {"kind": "Group", "group": {"name": "system:serviceaccounts"}},
        ),
        flow_schema(
            "ci-deployer",
            "exempt",
            200,
            {
                "kind": "ServiceAccount",
                "serviceAccount": {"name": "argocd-application-controller", "namespace": "argocd"},
            },
        ),
    ]
    return [agent, role, binding, *schemas]


def os_updates_and_dns(gpu_nodes: list[str]) -> list[Obj]:
    kured = daemonset(
        "kured",
        "kube-system",
        {
            "name": "kured",
            "image": "ghcr.io/kubereboot/kured:1.16.0",
            "command": [
                "/usr/bin/kured",
                "--reboot-sentinel=/sentinel/reboot-required",
                "--period=1h",
                "--start-time=22:00",
                "--end-time=06:00",
            ],
        },
        {"serviceAccountName": "kured", "tolerations": [{"operator": "Exists"}], "hostPID": True},
        desired=8,
        ready=8,
    )
    plan = {
        "apiVersion": "upgrade.cattle.io/v1",
        "kind": "Plan",
        "metadata": meta("ubuntu-kernel-gpu", "system-upgrade"),
        "spec": {
            "concurrency": 3,
            "nodeSelector": {"matchLabels": {"nvidia.com/gpu.present": "true"}},
            "serviceAccountName": "system-upgrade",
            "drain": {"force": True, "skipWaitForDeleteTimeout": 60},
            "version": "jammy-2026.11",
            "upgrade": {
                "image": "registry.example.com/ubuntu-kernel-upgrade",
                "command": ["chroot", "/host"],
            },
        },
    }
    coredns = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": meta("coredns", "kube-system", **{"k8s-app": "kube-dns"}),
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": {"k8s-app": "kube-dns"}},
            "template": {
                "metadata": {"labels": {"k8s-app": "kube-dns"}},
                "spec": {
                    "priorityClassName": "system-cluster-critical",
                    "containers": [{"name": "coredns", "image": "registry.k8s.io/coredns/coredns:v1.11.3"}],
                },
            },
        },
    }
    nic = {
        "apiVersion": "mellanox.com/v1alpha1",
        "kind": "NicClusterPolicy",
        "metadata": meta("nic-cluster-policy"),
        "spec": {"rdmaSharedDevicePlugin": {"image": "k8s-rdma-shared-dev-plugin", "version": "v1.5.1"}},
        "status": {"state": "ready"},
    }
    return [kured, plan, coredns, nic]
