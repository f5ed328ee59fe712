"""The quota check's severity and wording: a full quota refuses pods now (high), 90% soon (medium)."""

from __future__ import annotations

from typing import Any

from kubegap.checker.finding import Severity, Status
from kubegap.checker.registry import get_check
from kubegap.checker.runner import run_checks
from kubegap.checker.snapshot import Coverage, KindCoverage, Snapshot

_CHECK = get_check("gpu-namespace-quota-exhausted")


_GPU_POD = {
    "apiVersion": "v1",
    "kind": "Pod",
    "metadata": {"name": "server", "namespace": "ml"},
    "spec": {
        "containers": [
            {"name": "vllm", "image": "vllm/vllm-openai", "resources": {"limits": {"nvidia.com/gpu": "1"}}}
        ]
    },
}


def _quota(name: str, hard: dict[str, str], used: dict[str, str] | None) -> dict[str, Any]:
    status: dict[str, Any] = {"hard": hard}
    if used is not None:
        status["used"] = used
    return {
        "apiVersion": "v1",
        "kind": "ResourceQuota",
        "metadata": {"name": name, "namespace": "ml"},
        "spec": {"hard": hard},
        "status": status,
    }


def _findings(*objects: dict[str, Any]) -> list[Any]:
    snapshot = Snapshot(mode="snapshot", source="test")
    for obj in objects:
        snapshot.add(obj)
    for kind in (*_CHECK.meta.needs, *_CHECK.meta.optional):
        snapshot.coverage.setdefault(kind, KindCoverage(Coverage.read))
    return [f for f in run_checks(snapshot, checks=[_CHECK]).findings if f.check_id == _CHECK.meta.id]


def test_full_quota_is_high_and_says_pods_are_refused() -> None:
    (finding,) = _findings(_quota("gpus", {"requests.nvidia.com/gpu": "8"}, {"requests.nvidia.com/gpu": "8"}))
    assert finding.status is Status.failed and finding.severity is Severity.high
    assert finding.message_in("en") == "requests.nvidia.com/gpu used 8 of 8 (100%): new pods are refused"
    assert "새 파드가 거부됩니다" in finding.message_in("ko")


def test_ninety_percent_memory_is_medium_with_units_compared() -> None:
    (finding,) = _findings(_GPU_POD, _quota("memory", {"limits.memory": "1Ti"}, {"limits.memory": "950Gi"}))
    assert finding.status is Status.failed and finding.severity is Severity.medium
    assert "(93%)" in finding.message_in("en")


def test_memory_quota_without_gpu_workloads_is_not_judged() -> None:
    findings = _findings(_quota("memory", {"limits.memory": "1Ti"}, {"limits.memory": "1Ti"}))
    assert [finding.status for finding in findings] == [Status.not_applicable]


def test_unwatched_resources_and_missing_usage_pass() -> None:
    findings = _findings(
        _quota(
            "configmaps", {"count/configmaps": "10", "limits.nvidia.com/gpu": "8"}, {"count/configmaps": "10"}
        ),
        _quota("no-status-yet", {"limits.nvidia.com/gpu": "8"}, None),
    )
    assert [finding.status for finding in findings] == [Status.passed]


def test_fullest_resource_is_named_first() -> None:
    hard = {"pods": "100", "requests.nvidia.com/gpu": "16"}
    (finding,) = _findings(_quota("both", hard, {"pods": "91", "requests.nvidia.com/gpu": "16"}))
    assert finding.message_in("en").startswith("requests.nvidia.com/gpu")
    assert [entry["resource"] for entry in finding.evidence["resources"]] == [
        "requests.nvidia.com/gpu",
        "pods",
    ]
