"""Shared extractors: every check reads nodes, workloads, agents and RBAC through these views.

Each view is built once per snapshot (see `_memo`) so thirty checks over 5,000 nodes and 150,000
pods still walk the raw objects only a few times.
"""

from kubegap.checker.extract._fields import (
    dig,
    integer,
    items,
    mapping,
    percent_or_count,
    quantity,
    ref,
    strings,
)
from kubegap.checker.extract.agents import (
    GPU_HEALTH_ROLES,
    GPU_STACK_ROLES,
    DaemonSetView,
    PodIndex,
    classify,
    daemonsets,
    pod_index,
)
from kubegap.checker.extract.nodes import NodeView, gpu_nodes, node_view, nodes
from kubegap.checker.extract.podspec import container_env, containers, gpus_requested, pod_env, shm_size_bytes
from kubegap.checker.extract.rbac import cluster_wide_reads
from kubegap.checker.extract.scheduling import placement_blockers, selector_matches
from kubegap.checker.extract.workloads import (
    WORKLOAD_KINDS,
    PodTemplate,
    Workload,
    gpu_training_workloads,
    templates,
    workload_of,
    workloads,
)

__all__ = [
    "GPU_HEALTH_ROLES",
    "GPU_STACK_ROLES",
    "WORKLOAD_KINDS",
    "DaemonSetView",
    "NodeView",
    "PodIndex",
    "PodTemplate",
    "Workload",
    "classify",
    "cluster_wide_reads",
    "container_env",
    "containers",
    "daemonsets",
    "dig",
    "gpu_nodes",
    "gpu_training_workloads",
    "gpus_requested",
    "integer",
    "items",
    "mapping",
    "node_view",
    "nodes",
    "percent_or_count",
    "placement_blockers",
    "pod_env",
    "pod_index",
    "quantity",
    "ref",
    "selector_matches",
    "shm_size_bytes",
    "strings",
    "templates",
    "workload_of",
    "workloads",
]
