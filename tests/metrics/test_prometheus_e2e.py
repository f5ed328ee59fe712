"""A real Prometheus (Debian's package) scrapes `kubegap exporter` scanning emulated clusters.

Every assertion reads Prometheus's HTTP API, so it proves what a user's Prometheus stores: the check
series agree with a direct scan of the same cluster, an unreachable and a forbidden cluster are
told apart, and the example alert rules fire on what they should.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from fleet_helpers import Fleet
from processes import answers, free_port, running, wait_until

from k8s_emulator.factories import gpu_cluster
from kubegap.checker.scanning import LiveTarget, ScanRequest, run_scan
from kubegap.checker.sources import load_demo

pytestmark = pytest.mark.e2e
RULES = Path(__file__).resolve().parents[2] / "deploy" / "monitoring" / "prometheusrule.yaml"


@dataclass
class Stack:
    fleet: Fleet
    kubeconfig: Path
    prometheus: str  # base URL of Prometheus's HTTP API

    def query(self, expression: str) -> list[dict[str, Any]]:
        answer = httpx.get(f"{self.prometheus}/api/v1/query", params={"query": expression}, timeout=10).json()
        assert answer["status"] == "success", answer
        result: list[dict[str, Any]] = answer["data"]["result"]
        return result

    def values(self, expression: str, by: str) -> dict[str, float]:
        return {series["metric"][by]: float(series["value"][1]) for series in self.query(expression)}


def _rules_for_test(folder: Path) -> Path:
    """The example PrometheusRule's groups as a Prometheus rule file, with `for` cut to zero."""
    groups = yaml.safe_load(RULES.read_text())["spec"]["groups"]
    for group in groups:
        for rule in group["rules"]:
            rule["for"] = "0s"
    path = folder / "rules.yaml"
    path.write_text(yaml.safe_dump({"groups": groups}))
    return path


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """One exporter and one Prometheus for the module: starting them is most of the cost."""
    tmp_path = tmp_path_factory.mktemp("prometheus-e2e")
    prometheus = shutil.which("prometheus")
    if prometheus is None:
        pytest.skip("prometheus is not installed (scripts/test-deps installs Debian's package)")
    fleet = Fleet(tmp_path)
    demo = load_demo()
    fleet.add("east", [obj for items in demo.objects.values() for obj in items])
    fleet.add("west", list(gpu_cluster(nodes=3, pods=12, namespaces=1)))
    fleet.add_unreachable("gone")
    fleet.add("locked", [], token="a-token-kubegap-does-not-have")
    kubeconfig = fleet.kubeconfig()
    exporter_port, prometheus_port = free_port(), free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("KUBECONFIG", "KUBERNETES_SERVICE_HOST")
    }
    env["HOME"] = str(tmp_path)
    exporter = [
        sys.executable, "-m", "kubegap", "exporter", "--kubeconfig", str(kubeconfig), "--all-contexts",
        "--interval", "2", "--port", str(exporter_port), "--timeout", "5",
    ]  # fmt: skip
    config = tmp_path / "prometheus.yml"
    config.write_text(
        yaml.safe_dump(
            {
                "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
                "rule_files": [str(_rules_for_test(tmp_path))],
                "scrape_configs": [
                    {"job_name": "kubegap", "static_configs": [{"targets": [f"127.0.0.1:{exporter_port}"]}]}
                ],
            }
        )
    )
    server = [
        prometheus, f"--config.file={config}", f"--storage.tsdb.path={tmp_path / 'tsdb'}",
        f"--web.listen-address=127.0.0.1:{prometheus_port}", "--log.level=warn",
    ]  # fmt: skip
    with (
        running(exporter, tmp_path / "exporter.log", env),
        running(server, tmp_path / "prometheus.log"),
    ):
        try:
            wait_until(answers(f"http://127.0.0.1:{exporter_port}/readyz"), 60, "the exporter's first round")
            base = f"http://127.0.0.1:{prometheus_port}"
            wait_until(answers(f"{base}/-/ready"), 60, "Prometheus to start")
            built = Stack(fleet, kubeconfig, base)
            wait_until(lambda: len(built.query("kubegap_scan_success")) == 4, 60, "the first scrape")
            yield built
        except BaseException:
            for log in ("exporter.log", "prometheus.log"):
                print(f"--- {log}\n{(tmp_path / log).read_text(errors='replace')[-4000:]}")
            raise
        finally:
            fleet.stop()


def test_prometheus_stores_the_same_check_results_as_a_direct_scan(stack: Stack) -> None:
    direct = run_scan(ScanRequest(live=LiveTarget(str(stack.kubeconfig), "east")))
    failing = {summary.check_id for summary in direct.checks if summary.status.value == "fail"}
    stored = stack.values('kubegap_check_status{cluster="east", status="fail"} == 1', "check")
    assert set(stored) == failing and len(failing) > 5
    unknown = {summary.check_id for summary in direct.checks if summary.status.value == "unknown"}
    assert (
        set(stack.values('kubegap_check_status{cluster="east", status="unknown"} == 1', "check")) == unknown
    )
    fails = stack.values('sum by (cluster) (kubegap_check_findings{status="fail"})', "cluster")
    assert fails["east"] == direct.counts["fail"]
    open_fails = stack.values('kubegap_open_fails{cluster="east"}', "severity")
    assert open_fails == {key: float(value) for key, value in direct.severity_counts.items()}
    assert stack.values('kubegap_scan_requests{cluster="east"}', "cluster") == {
        "east": float(direct.requests)
    }
    assert stack.values('kubegap_unknown_checks{cluster="east"}', "cluster") == {"east": float(len(unknown))}
    # Every check is one state set: exactly one status is 1 for each (cluster, check).
    per_check = stack.values('sum by (check) (kubegap_check_status{cluster="west"})', "check")
    assert per_check and set(per_check.values()) == {1.0}


def test_unreachable_and_forbidden_clusters_are_told_apart_and_keep_no_check_series(stack: Stack) -> None:
    success = stack.values("kubegap_scan_success", "cluster")
    assert success == {"east": 1.0, "west": 1.0, "gone": 0.0, "locked": 0.0}
    status = stack.values("kubegap_scan_status == 1", "cluster")
    assert status == {"east": 1.0, "west": 1.0, "gone": 1.0, "locked": 1.0}
    outcome = {
        series["metric"]["cluster"]: series["metric"]["status"]
        for series in stack.query("kubegap_scan_status == 1")
    }
    assert outcome == {"east": "scanned", "west": "scanned", "gone": "unreachable", "locked": "forbidden"}
    assert stack.query('kubegap_check_status{cluster=~"gone|locked"}') == []
    assert stack.values('kubegap_last_success_timestamp_seconds{cluster="gone"}', "cluster") == {"gone": 0.0}


def test_rounds_repeat_and_the_request_counter_only_grows(stack: Stack) -> None:
    first = stack.values('kubegap_api_requests_total{cluster="east"}', "cluster")["east"]
    wait_until(
        lambda: stack.values('kubegap_api_requests_total{cluster="east"}', "cluster")["east"] > first,
        30,
        "a second round of scans",
    )
    scans = stack.values('kubegap_scans_total{result="scanned"}', "cluster")
    assert scans["east"] >= 2 and "gone" in stack.values(
        'kubegap_scans_total{result="unreachable"} > 0', "cluster"
    )


def test_the_example_alerts_fire_for_gaps_failing_scans_and_undecided_checks(stack: Stack) -> None:
    def firing() -> dict[str, set[str]]:
        alerts = httpx.get(f"{stack.prometheus}/api/v1/alerts", timeout=10).json()["data"]["alerts"]
        named: dict[str, set[str]] = {}
        for alert in alerts:
            if alert["state"] == "firing":
                named.setdefault(alert["labels"]["alertname"], set()).add(alert["labels"]["cluster"])
        return named

    wait_until(lambda: {"KubegapGapFound", "KubegapScanFailing"} <= set(firing()), 30, "the alerts to fire")
    fired = firing()
    assert fired["KubegapGapFound"] == {"east"}  # only the demo cluster has high-severity gaps
    assert fired["KubegapScanFailing"] == {"gone", "locked"}
    undecided = stack.values("kubegap_unknown_checks > 0", "cluster")
    assert undecided and fired["KubegapChecksUndecided"] == set(undecided)
    assert "KubegapScanStale" not in fired  # every success is seconds old; "never" is ScanFailing's
