"""The bundled demo cluster: rebuilt byte for byte by its script, and showing a fail in every check area."""

from __future__ import annotations

from kubegap.checker.demo import build_demo
from kubegap.checker.demo.demo_workloads import FAKE_WANDB_KEY
from kubegap.checker.finding import Status
from kubegap.checker.registry import all_checks, get_check
from kubegap.checker.runner import run_checks
from kubegap.checker.sources.demo import load_demo


def test_committed_demo_matches_its_builder() -> None:
    message = "cluster.json is stale; run: .venv/bin/python -m kubegap.checker.demo.build_demo"
    assert build_demo.OUTPUT.read_bytes() == build_demo.render(), message


def test_demo_shows_a_fail_in_every_area_and_some_passes() -> None:
    report = run_checks(load_demo())
    assert not [f for f in report.findings if f.reason == "check-error"]
    failing_areas = {get_check(f.check_id).meta.area for f in report.findings if f.status is Status.failed}
    assert failing_areas == {check.meta.area for check in all_checks()}
    assert sum(f.status is Status.passed for f in report.findings) >= 5
    failed = {f.check_id for f in report.findings if f.status is Status.failed}
    assert {
        "gpu-health-agent",
        "dcgm-exporter-coverage",
        "node-agent-apf-guard",
        "suc-plan-gpu-pool",
    } <= failed


def test_demo_carries_a_secret_looking_value_for_redaction() -> None:
    snapshot = load_demo()
    values = [
        env.get("value")
        for jobset in snapshot.of("jobset.x-k8s.io/JobSet")
        for replicated in jobset["spec"]["replicatedJobs"]
        for container in replicated["template"]["spec"]["template"]["spec"]["containers"]
        for env in container.get("env", [])
    ]
    assert FAKE_WANDB_KEY in values
