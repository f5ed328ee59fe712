"""kubegap inside a pod: no kubeconfig, the service account's token and CA, the API over HTTPS.

The emulator serves TLS with a certificate made for the test, and the "pod" is this process with
KUBERNETES_SERVICE_HOST/PORT set and the service-account folder pointed at a temp dir holding
`token` and `ca.crt`, exactly the files the kubelet mounts.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from k8s_emulator import KubeEmulator
from k8s_emulator.factories import gpu_cluster
from k8s_emulator.testing import TOKEN, assert_read_only, write_self_signed_certificate
from kubegap.checker.live import client as client_module
from kubegap.checker.scanning import ScanRequest, run_scan
from kubegap.errors import ClusterError
from kubegap.metrics.loop import ScanLoop, Targets
from kubegap.metrics.state import ExporterState


@pytest.fixture
def tls_emulator(tmp_path: Path) -> Iterator[KubeEmulator]:
    certificate, key = write_self_signed_certificate(tmp_path)
    emulator = KubeEmulator(
        list(gpu_cluster(nodes=3, pods=12, namespaces=1)), token=TOKEN, tls=(certificate, key)
    )
    emulator.start()
    yield emulator
    emulator.stop()
    assert_read_only(emulator)


def _inside_a_pod(
    monkeypatch: pytest.MonkeyPatch, folder: Path, emulator: KubeEmulator, ca: Path, token: str = TOKEN
) -> None:
    account = folder / "serviceaccount"
    account.mkdir()
    (account / "token").write_text(token)
    (account / "ca.crt").write_bytes(ca.read_bytes())
    (account / "namespace").write_text("kubegap")
    monkeypatch.setattr(client_module, "SERVICE_ACCOUNT_DIR", account)
    monkeypatch.setenv("HOME", str(folder))  # no ~/.kube/config
    monkeypatch.delenv("KUBECONFIG", raising=False)
    monkeypatch.setenv("KUBERNETES_SERVICE_HOST", "127.0.0.1")
    monkeypatch.setenv("KUBERNETES_SERVICE_PORT", str(emulator.port))


def test_a_scan_in_a_pod_uses_the_service_account_over_verified_tls(
    tls_emulator: KubeEmulator, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _inside_a_pod(monkeypatch, tmp_path, tls_emulator, tmp_path / "cert.pem")
    report = run_scan(ScanRequest())
    assert report.mode == "live"
    assert report.source == f"live: in-cluster service account (https://127.0.0.1:{tls_emulator.port})"
    assert report.kubeconfig == "" and report.context == ""
    assert report.requests == len(tls_emulator.requests) > 0
    assert {request.authorization.lower() for request in tls_emulator.requests} == {f"bearer {TOKEN}".lower()}
    assert any(row.kind == "Node" and row.status == "read" and row.objects == 3 for row in report.coverage)


def test_a_ca_that_did_not_sign_the_server_certificate_is_one_line_error(
    tls_emulator: KubeEmulator, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stranger = tmp_path / "stranger"
    stranger.mkdir()
    other_ca, _ = write_self_signed_certificate(stranger)
    _inside_a_pod(monkeypatch, tmp_path, tls_emulator, other_ca)
    with pytest.raises(ClusterError) as raised:
        run_scan(ScanRequest())
    message = raised.value.one_line()
    assert message == (
        f"cannot reach the Kubernetes API at https://127.0.0.1:{tls_emulator.port}: TLS verification failed "
        "(certificate verify failed: self-signed certificate); check the cluster's CA certificate"
    )
    assert tls_emulator.requests == []  # the handshake failed before any request was read


def test_the_exporter_default_target_in_a_pod_is_labelled_in_cluster(
    tls_emulator: KubeEmulator, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _inside_a_pod(monkeypatch, tmp_path, tls_emulator, tmp_path / "cert.pem")
    state = ExporterState()
    ScanLoop(Targets(ScanRequest(), default_name="in-cluster"), state, interval=60).run_round()
    [cluster] = state.clusters()
    assert cluster.name == "in-cluster" and cluster.last_status == "scanned"
    assert cluster.last_report is not None and cluster.requests_total == len(tls_emulator.requests)
