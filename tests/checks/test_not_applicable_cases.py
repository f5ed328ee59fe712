"""Not-applicable verdicts, which fixture names cannot express (fixtures are pass, fail or unknown).

Each case is an input where the check's subject is absent and everything it reads was read: the
verdict must be not-applicable, never a pass on nothing and never a fail.
"""

from __future__ import annotations

from typing import Any

import pytest

from kubegap.checker.finding import Status
from kubegap.checker.registry import get_check
from kubegap.checker.runner import run_checks
from kubegap.checker.snapshot import Coverage, KindCoverage, Snapshot

_CPU_NODE = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "cpu-1"}, "status": {"capacity": {}}}
_GPU_NODE = {
    "apiVersion": "v1",
    "kind": "Node",
    "metadata": {"name": "gpu-1", "labels": {"nvidia.com/gpu.present": "true"}},
    "status": {"capacity": {"nvidia.com/gpu": "8"}},
}
_TRAINER = {
    "apiVersion": "v1",
    "kind": "Pod",
    "metadata": {"name": "trainer", "namespace": "research"},
    "spec": {"nodeName": "gpu-1", "containers": [{"name": "t", "image": "nvcr.io/nvidia/pytorch:24.10-py3"}]},
    "status": {"phase": "Running"},
}
_NPD_DAEMONSET = {
    "apiVersion": "apps/v1",
    "kind": "DaemonSet",
    "metadata": {"name": "node-problem-detector", "namespace": "kube-system"},
    "spec": {"template": {"spec": {"containers": [{"name": "npd", "image": "node-problem-detector:v0.8"}]}}},
}

_CPU_QUOTA_FULL = {
    "apiVersion": "v1",
    "kind": "ResourceQuota",
    "metadata": {"name": "pods", "namespace": "frontend"},
    "status": {"hard": {"pods": "10"}, "used": {"pods": "10"}},
}

CASES: list[tuple[str, list[dict[str, Any]]]] = [
    ("gpu-monitoring-agent-memory", [_CPU_NODE]),  # no GPU nodes
    ("gpu-monitoring-agent-memory", [_GPU_NODE, _TRAINER]),  # GPU nodes, but no monitoring agent pods
    ("compute-domain-not-ready", [_TRAINER]),  # no ComputeDomains
    ("dcgm-exporter-not-scraped", [_NPD_DAEMONSET]),  # no dcgm-exporter, no ClusterPolicy
    ("gpu-namespace-quota-exhausted", [_CPU_QUOTA_FULL]),  # a full quota, but no GPU namespace
]


@pytest.mark.parametrize(("check_id", "objects"), CASES, ids=[f"{c}-{i}" for i, (c, _) in enumerate(CASES)])
def test_absent_subject_is_not_applicable(check_id: str, objects: list[dict[str, Any]]) -> None:
    check = get_check(check_id)
    snapshot = Snapshot(mode="snapshot", source="test")
    for obj in objects:
        snapshot.add(obj)
    for kind in (*check.meta.needs, *check.meta.optional):
        snapshot.coverage.setdefault(kind, KindCoverage(Coverage.read))
    findings = [f for f in run_checks(snapshot, checks=[check]).findings if f.check_id == check_id]
    assert findings and {finding.status for finding in findings} == {Status.not_applicable}, findings
