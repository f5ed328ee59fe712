"""Shared extractors: every check reads nodes, agents and RBAC through these views.

Workloads, their pod templates and roles are the workload model in `checker.workload`.
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

__all__ = [
    "GPU_HEALTH_ROLES",
    "GPU_STACK_ROLES",
    "DaemonSetView",
    "NodeView",
    "PodIndex",
    "classify",
    "cluster_wide_reads",
    "container_env",
    "containers",
    "daemonsets",
    "dig",
    "gpu_nodes",
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
]
