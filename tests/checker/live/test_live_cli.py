"""`kubegap scan` against the emulated cluster through the real command, as a user would run it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from k8s_emulator import KubeEmulator
from k8s_emulator.factories import gpu_cluster, gpu_node, pod
from k8s_emulator.testing import StartEmulator, assert_read_only


def _kubegap(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("KUBECONFIG", "KUBERNETES_SERVICE_HOST")
    }
    env["HOME"] = str(home)
    command = [sys.executable, "-m", "kubegap", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120, check=False)


def test_scan_reads_the_live_cluster_and_reports_where_from(
    start_emulator: StartEmulator, kubeconfig_for: Callable[[KubeEmulator], Path], tmp_path: Path
) -> None:
    emulator = start_emulator(list(gpu_cluster(nodes=4, pods=40, namespaces=2)))
    kubeconfig = kubeconfig_for(emulator)
    done = _kubegap("scan", "--kubeconfig", str(kubeconfig), "-f", "json", home=tmp_path)
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(done.stdout)
    assert report["scan"]["mode"] == "live"
    assert report["scan"]["kubeconfig"] == str(kubeconfig)
    assert report["scan"]["context"] == "emulator"
    assert report["scan"]["requests"] == len(emulator.requests) > 0
    assert_read_only(emulator)


def test_scan_of_an_unreachable_cluster_is_one_error_line(tmp_path: Path, closed_port_url: str) -> None:
    kube = tmp_path / ".kube"
    kube.mkdir()
    (kube / "config").write_text(
        "apiVersion: v1\nkind: Config\ncurrent-context: gone\n"
        f"clusters: [{{name: c, cluster: {{server: '{closed_port_url}'}}}}]\n"
        "users: [{name: u, user: {token: t}}]\n"
        "contexts: [{name: gone, context: {cluster: c, user: u}}]\n"
    )
    done = _kubegap("scan", home=tmp_path)
    assert done.returncode == 3  # the cluster could not be read
    assert done.stderr == f"Error: cannot reach the Kubernetes API at {closed_port_url}: connection refused\n"


def test_scan_without_any_kubeconfig_suggests_the_demo(tmp_path: Path) -> None:
    done = _kubegap("scan", home=tmp_path)
    assert done.returncode == 2  # a usage error: choose a source
    assert done.stderr.startswith("Error: No kubeconfig found") and "kubegap scan --demo" in done.stderr
    assert done.stderr.count("\n") == 1


def test_scan_timeout_ends_an_endless_list_and_the_report_says_so(
    start_emulator: StartEmulator, kubeconfig_for: Callable[[KubeEmulator], Path], tmp_path: Path
) -> None:
    import time

    from k8s_emulator import Fault

    emulator = start_emulator(list(gpu_cluster(nodes=4, pods=40, namespaces=2)))
    emulator.inject(Fault(r"/api/v1/pods", mode="endless-continue", delay=0.05))
    kubeconfig = kubeconfig_for(emulator)
    started = time.monotonic()
    done = _kubegap(
        "scan",
        "--kubeconfig",
        str(kubeconfig),
        "-f",
        "json",
        "--scan-timeout",
        "3",
        "--max-pages",
        "100000",
        home=tmp_path,
    )
    took = time.monotonic() - started
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(done.stdout)
    pods = next(row for row in report["coverage"] if row["kind"] == "Pod")
    assert pods["status"] == "partial" and "--scan-timeout" in pods["detail"]
    assert any("3 s (--scan-timeout)" in note for note in report["notes"])
    assert took < 3 + 15  # the budget, plus interpreter start and the checks
    assert_read_only(emulator)


def test_limit_flags_are_validated_in_one_line(tmp_path: Path) -> None:
    done = _kubegap("scan", "--max-page-mb", "0", home=tmp_path)
    assert done.returncode == 2 and "--max-page-mb" in done.stderr


def test_snapshot_redacts_configmaps_and_env_values_unless_raw(
    start_emulator: StartEmulator, kubeconfig_for: Callable[[KubeEmulator], Path], tmp_path: Path
) -> None:
    """A snapshot is attached to tickets: ConfigMap contents and literal env credentials stay out."""
    secret = "hunter2-7f3a9c1e5b"
    config_map = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "app", "namespace": "team"},
        "data": {"settings.ini": f"[db]\nuser = app\npass = {secret}\n"},
    }
    workload = pod("trainer", "team", node="n1", gpus=1)
    workload["spec"]["containers"][0]["env"] = [
        {"name": "DATABASE_CONNECTION", "value": f"app:{secret}"},
        {"name": "NCCL_DEBUG", "value": "INFO"},
    ]
    emulator = start_emulator([gpu_node("n1"), config_map, workload])
    kubeconfig = str(kubeconfig_for(emulator))
    redacted = tmp_path / "snapshot.json"
    done = _kubegap("snapshot", "--kubeconfig", kubeconfig, "-o", str(redacted), home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert secret not in redacted.read_text(encoding="utf-8") and "Warning" not in done.stderr
    items = {
        item["metadata"]["name"]: item for item in json.loads(redacted.read_text(encoding="utf-8"))["items"]
    }
    assert items["app"]["data"] == {"settings.ini": "[REDACTED]"}
    env = {entry["name"]: entry["value"] for entry in items["trainer"]["spec"]["containers"][0]["env"]}
    assert env == {"DATABASE_CONNECTION": "[REDACTED]", "NCCL_DEBUG": "INFO"}
    raw = tmp_path / "raw.json"
    done = _kubegap("snapshot", "--kubeconfig", kubeconfig, "-o", str(raw), "--raw", home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert secret in raw.read_text(encoding="utf-8")
    assert done.stderr.startswith("Warning: a --raw snapshot holds ConfigMap contents and env values")
    assert_read_only(emulator)
