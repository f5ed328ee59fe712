"""Pod logs only with --logs: pods showing a symptom, bounded, matched, redacted, GET on pods/log only.

Each test reads the emulator through the real GET-only client and ends with `assert_read_only`.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from k8s_emulator import KubeEmulator
from k8s_emulator.symptoms import CREDENTIALS, GITHUB_TOKEN, PASSWORD, seeded_cluster
from k8s_emulator.testing import StartEmulator, assert_read_only
from kubegap.checker.live.client import ReadOnlyClient
from kubegap.checker.live.request_paths import ReadOnlyViolation, check_path
from kubegap.checker.reports import render
from kubegap.checker.scanning import LiveTarget, ScanRequest, run_scan
from kubegap.checker.snapshot_file import snapshot_document
from kubegap.checker.symptoms.logs import LogLimits

Kubeconfig = Callable[[KubeEmulator], Path]
SERVING = ("serving", "llama-serve-7d9f8-x2x4k", "main:previous")  # OOMKilled, crash-looping
LOG_LINES = [
    *(f"step {index} loss 1.{index:03d}" for index in range(500)),
    "CUDA error: unspecified launch failure",
    f"NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus. token {GITHUB_TOKEN}",
    f"export HF_TOKEN={GITHUB_TOKEN} --password={PASSWORD}",
]


def _cluster(start_emulator: StartEmulator) -> KubeEmulator:
    emulator = start_emulator(seeded_cluster(dt.datetime.now(dt.UTC)))
    emulator.pod_logs[SERVING] = "\n".join(LOG_LINES) + "\n"
    return emulator


def _log_requests(emulator: KubeEmulator) -> list[object]:
    return [request for request in emulator.requests if request.path.endswith("/log")]


def _assert_no_leak(text: str) -> None:
    for secret in CREDENTIALS:
        pieces = {secret[start : start + 8] for start in range(0, len(secret) - 7)}
        assert not [piece for piece in pieces if piece in text], "a credential from a log reached an output"


def test_logs_of_a_pod_with_a_symptom_are_matched_bounded_and_redacted(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    emulator = _cluster(start_emulator)
    live = LiveTarget(str(kubeconfig_for(emulator)), logs=LogLimits(pods=2, tail_lines=50))
    report = run_scan(ScanRequest(live=live))
    assert report.symptoms is not None
    from_logs = [group for group in report.symptoms.groups if "log" in group.sources]
    assert [(group.signature.id, group.place) for group in from_logs] == [
        ("xid-79", "Deployment serving/llama-serve")
    ]
    requests = _log_requests(emulator)
    assert 1 <= len(requests) <= 2  # at most --log-pods, only pods already showing a symptom
    for request in requests:
        assert request.method == "GET"
        assert request.query["tailLines"] == "50" and int(request.query["limitBytes"]) <= 256 * 1024
        assert "follow" not in request.query
    for fmt in ("table", "plain", "json", "markdown", "sarif"):
        _assert_no_leak(render(report, fmt, "en", full=True))
    assert any("pod logs: read for" in str(note) for note in report.notes)
    assert_read_only(emulator)


def test_no_log_is_requested_without_logs(start_emulator: StartEmulator, kubeconfig_for: Kubeconfig) -> None:
    emulator = _cluster(start_emulator)
    report = run_scan(ScanRequest(live=LiveTarget(str(kubeconfig_for(emulator)))))
    assert report.symptoms is not None and report.symptoms.groups
    assert not _log_requests(emulator)
    assert not [group for group in report.symptoms.groups if "log" in group.sources]
    assert_read_only(emulator)


def test_logs_never_reach_a_snapshot_file(start_emulator: StartEmulator, kubeconfig_for: Kubeconfig) -> None:
    from kubegap.checker.live.reader import read_cluster
    from kubegap.checker.symptoms import SIGNAL_KINDS

    emulator = _cluster(start_emulator)
    snapshot = read_cluster(list(SIGNAL_KINDS), kubeconfig=str(kubeconfig_for(emulator)), logs=LogLimits())
    assert snapshot.log_signals
    for redacted in (True, False):
        text = json.dumps(snapshot_document(snapshot, redacted=redacted), default=str)
        assert "fallen off the bus. token" not in text and "CUDA error" not in text
    assert_read_only(emulator)


def _kubegap(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("KUBECONFIG", "KUBERNETES_SERVICE_HOST")
    }
    env["HOME"] = str(home)
    command = [sys.executable, "-m", "kubegap", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=300, check=False)


def test_kubegap_symptoms_reads_logs_only_with_the_flag(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig, tmp_path: Path
) -> None:
    emulator = _cluster(start_emulator)
    kubeconfig = str(kubeconfig_for(emulator))
    without = _kubegap("symptoms", "--kubeconfig", kubeconfig, "-f", "json", home=tmp_path)
    assert without.returncode == 0, without.stderr
    assert not _log_requests(emulator)
    done = _kubegap("symptoms", "--kubeconfig", kubeconfig, "--logs", "-f", "json", home=tmp_path)
    assert done.returncode == 0, done.stderr
    groups = json.loads(done.stdout)["groups"]
    assert [group["place"] for group in groups if "log" in group["sources"]] == [
        "Deployment serving/llama-serve"
    ]
    assert 1 <= len(_log_requests(emulator)) <= 5
    _assert_no_leak(done.stdout + done.stderr)
    scanned = _kubegap("scan", "--kubeconfig", kubeconfig, "--logs", "-f", "plain", home=tmp_path)
    assert scanned.returncode in (0, 1), scanned.stderr
    _assert_no_leak(scanned.stdout + scanned.stderr)
    offline = _kubegap("symptoms", "--demo", "--logs", home=tmp_path)
    assert offline.returncode == 2 and offline.stderr.count("\n") == 1 and "--logs" in offline.stderr
    role = _kubegap("rbac", "--logs", home=tmp_path)
    assert "- pods/log" in role.stdout and "- pods/log" not in _kubegap("rbac", home=tmp_path).stdout
    assert_read_only(emulator)


def test_a_log_request_is_refused_before_any_io_without_logs(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    emulator = _cluster(start_emulator)
    client = ReadOnlyClient.from_kubeconfig(str(kubeconfig_for(emulator)))
    with pytest.raises(ReadOnlyViolation):
        client.get_log(
            "serving", "llama-serve-7d9f8-x2x4k", "main", previous=True, tail_lines=10, limit_bytes=1024
        )
    client.close()
    assert not _log_requests(emulator)


def test_only_pods_already_showing_a_symptom_are_chosen_at_most_n() -> None:
    from k8s_emulator.factories import pod
    from kubegap.checker.snapshot import Snapshot
    from kubegap.checker.symptoms.logs import log_targets

    snapshot = Snapshot(mode="live")
    for obj in seeded_cluster(dt.datetime.now(dt.UTC)):
        snapshot.add(obj)
    for name, gpus in (("gpu-job-0", 8), ("cpu-job-0", 0)):
        failed = pod(name, "batch", node="gpu-a", gpus=gpus, owner=("batch/v1", "Job", name[:-2]))
        failed["status"] |= {"phase": "Failed", "containerStatuses": [{"name": "main"}]}
        snapshot.add(failed)
    chosen = {(target.pod, target.why, target.previous) for target in log_targets(snapshot, 50)}
    assert chosen == {
        ("pretrain-0", "CrashLoopBackOff", True),
        ("pretrain-1", "CrashLoopBackOff", True),
        ("llama-serve-7d9f8-x2x4k", "CrashLoopBackOff", True),
        ("gpu-job-0", "Failed", False),  # the CPU Job's failed pod is not chosen
    }
    assert len(log_targets(snapshot, 2)) == 2


LOG = "/api/v1/namespaces/serving/pods/llama/log"
BOUNDED = {"tailLines": 200, "limitBytes": 65536, "container": "main"}


def test_the_path_guard_lets_through_only_a_bounded_pod_log_and_only_with_logs() -> None:
    check_path(LOG, BOUNDED, logs=True)
    check_path(LOG, {**BOUNDED, "previous": "true"}, logs=True)
    with pytest.raises(ReadOnlyViolation):
        check_path(LOG, BOUNDED)  # no --logs


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("/api/v1/namespaces/serving/pods/llama/exec", BOUNDED),
        ("/api/v1/namespaces/serving/pods/llama/attach", BOUNDED),
        ("/api/v1/namespaces/serving/pods/llama/portforward", BOUNDED),
        ("/api/v1/namespaces/serving/pods/llama/proxy", BOUNDED),
        ("/api/v1/namespaces/serving/pods/llama/eviction", BOUNDED),
        ("/api/v1/namespaces/serving/secrets/llama/log", BOUNDED),
        ("/api/v1/namespaces/serving/services/llama/log", BOUNDED),
        ("/apis/apps/v1/namespaces/serving/deployments/llama/log", BOUNDED),
        ("/api/v1/nodes/gpu-a/proxy/logs", BOUNDED),
        (LOG, {**BOUNDED, "follow": "true"}),
        (LOG, {**BOUNDED, "sinceSeconds": 60}),
        (LOG, {"limitBytes": 65536}),  # no tailLines
        (LOG, {"tailLines": 200}),  # no limitBytes
        (LOG, {**BOUNDED, "tailLines": 100_000}),
        (LOG, {**BOUNDED, "limitBytes": 64 * 1024 * 1024}),
        ("/api/v1/namespaces/serving/pods/llama/log/..%2F..%2Fsecrets", BOUNDED),
    ],
)
def test_the_path_guard_refuses_every_other_subresource_and_parameter_even_with_logs(
    path: str, params: dict[str, object]
) -> None:
    with pytest.raises(ReadOnlyViolation):
        check_path(path, params, logs=True)
