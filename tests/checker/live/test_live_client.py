"""The read-only chokepoint: GET only, never Secrets, bounded retries, clear one-line errors."""

from __future__ import annotations

import ast
import inspect
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from kubernetes import client as kube_client

from k8s_emulator import Fault, KubeEmulator
from k8s_emulator.factories import gpu_node, pod
from k8s_emulator.testing import TOKEN, StartEmulator, assert_read_only
from kubegap.checker.live import client as client_module
from kubegap.checker.live.client import ApiError, ReadOnlyClient, ReadOnlyViolation, check_path
from kubegap.errors import ClusterError

SECRET_PATHS = [
    "/api/v1/secrets",
    "/api/v1/namespaces/x/secrets",
    "/api/v1/namespaces/x/secrets/y",
    "/api/v1/namespaces/kube-system/secrets/",
    "/apis/example.com/v1/secrets",
    "/apis/example.com/v1/namespaces/x/secrets/y",
    "/api/v1/namespaces/x/SECRETS",
    "/api/v1/namespaces/x/%73ecrets/y",
    "/api/v1/watch/pods",
    "/api/v1/namespaces/x/pods/p/exec",
    "/api/v1/namespaces/x/pods/p/log",
    "/api/v1/namespaces/x/pods/../secrets",
    "https://evil.example.com/api/v1/pods",
    "/api/v1/pods?watch=true",
    "/openapi/secrets",
    # encoded and normalised spellings: the guard decides on the decoded, normalised path
    "/api/v1/..%2F..%2Fapi%2Fv1%2Fsecrets",
    "/api/v1/%2E%2E/%2E%2E/api/v1/secrets",
    "/api/v1/namespaces/x/%2573ecrets",
    "/api/v1/namespaces/x/secrets%2Fy",
    "/api/v1/namespaces/x/pods%2F..%2Fsecrets",
    "/api/v1/namespaces/x/\u017fecrets",
    "/api/v1/namespaces/x/ｓｅｃｒｅｔｓ",
    "/api//v1/secrets",
    "/api/v1/namespaces/x/pods/p%2Fexec",
    "/api/v1/namespaces/x/pods/p/../p/exec",
    "/api/v1/namespaces/x/pods\\..\\secrets",
    "/api/v1/namespaces/x/pods\x00",
    "/api/v1/" + "a" * 3000,
    "api/v1/pods",
]


def _offline_client(sleep: Callable[[float], None] = lambda seconds: None) -> ReadOnlyClient:
    configuration = kube_client.Configuration()
    configuration.host = "http://127.0.0.1:9"
    return ReadOnlyClient(configuration, max_retries=0, sleep=sleep)


@pytest.mark.parametrize("path", SECRET_PATHS)
def test_refuses_secrets_watch_exec_and_odd_paths_before_any_io(path: str) -> None:
    client = _offline_client()
    with pytest.raises(ReadOnlyViolation) as refused:
        client.get(path)
    assert client.requests == 0
    assert "\n" not in refused.value.one_line() and len(refused.value.one_line()) < 300


def test_refuses_a_watch_parameter() -> None:
    client = _offline_client()
    with pytest.raises(ReadOnlyViolation, match="watch"):
        client.get("/api/v1/pods", {"watch": "true"})
    assert client.requests == 0


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/namespaces/secrets",  # a namespace that happens to be named "secrets"
        "/api/v1/namespaces/secrets/pods",
        "/api/v1/namespaces/x/pods/secrets",  # a pod named "secrets"
        "/apis/apps/v1/daemonsets",
        "/apis/jobset.x-k8s.io/v1alpha2/namespaces/a/jobsets",
        "/api",
        "/apis",
        "/version",
    ],
)
def test_allows_ordinary_reads(path: str) -> None:
    check_path(path)


def test_the_class_offers_no_way_to_send_another_verb() -> None:
    public = {name for name, _ in inspect.getmembers(ReadOnlyClient) if not name.startswith("_")}
    # get_log is one more GET, of pods/log only, refused before I/O unless --logs (test_live_logs.py)
    assert public == {"get", "get_sized", "get_log", "close", "describe", "from_kubeconfig", "requests"}
    tree = ast.parse(inspect.getsource(client_module))
    calls = [
        node for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
    ]
    serialized = [call for call in calls if call.func.attr == "param_serialize"]  # type: ignore[attr-defined]
    sent = [call for call in calls if call.func.attr in ("call_api", "request", "urlopen")]  # type: ignore[attr-defined]
    assert len(serialized) == 1 and len(sent) == 1
    first = serialized[0].args[0]
    assert isinstance(first, ast.Constant) and first.value == "GET"
    constants = {node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)}
    assert not constants & {"POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}


def test_lists_through_a_real_kubeconfig_with_its_token(
    start_emulator: StartEmulator, kubeconfig_for: Callable[[KubeEmulator], Path]
) -> None:
    emulator = start_emulator([gpu_node("n1"), pod("p1", "default")])
    with ReadOnlyClient.from_kubeconfig(str(kubeconfig_for(emulator))) as client:
        nodes = client.get("/api/v1/nodes")
        assert client.describe().startswith("context emulator (")
        assert client.context == "emulator"
    assert [item["metadata"]["name"] for item in nodes["items"]] == ["n1"]
    assert {request.authorization for request in emulator.requests} == {f"Bearer {TOKEN}"}
    assert client.requests == 1
    assert_read_only(emulator)


def test_falls_back_to_home_kube_config_and_says_so(
    start_emulator: StartEmulator, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    emulator = start_emulator([gpu_node("n1")])
    home = tmp_path / "home"
    (home / ".kube").mkdir(parents=True)
    emulator.write_kubeconfig(home / ".kube" / "config", context="from-home", token=TOKEN)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("KUBECONFIG", raising=False)
    with ReadOnlyClient.from_kubeconfig() as client:
        assert client.kubeconfig == str(home / ".kube" / "config")
        assert client.context == "from-home"
        assert client.get("/version")["gitVersion"].startswith("v1.31")
    assert_read_only(emulator)


def test_no_kubeconfig_anywhere_is_one_line_suggesting_demo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("KUBECONFIG", raising=False)
    monkeypatch.delenv("KUBERNETES_SERVICE_HOST", raising=False)
    with pytest.raises(ClusterError) as error:
        ReadOnlyClient.from_kubeconfig()
    line = error.value.one_line()
    assert "No kubeconfig found" in line and "kubegap scan --demo" in line and "--snapshot" in line
    assert str(error.value).count("\n") == 0


def test_unknown_context_is_one_line(
    start_emulator: StartEmulator, kubeconfig_for: Callable[[KubeEmulator], Path]
) -> None:
    emulator = start_emulator()
    with pytest.raises(ClusterError, match="context 'nope'") as error:
        ReadOnlyClient.from_kubeconfig(str(kubeconfig_for(emulator)), "nope")
    assert "\n" not in str(error.value)


def test_unreachable_server_is_one_line_with_host_and_reason(closed_port_url: str) -> None:
    configuration = kube_client.Configuration()
    configuration.host = closed_port_url
    client = ReadOnlyClient(configuration, max_retries=2, sleep=lambda seconds: None)
    with pytest.raises(ApiError) as error:
        client.get("/api")
    line = error.value.one_line()
    assert line == f"cannot reach the Kubernetes API at {closed_port_url}: connection refused"
    assert client.requests == 3


def test_429_with_retry_after_is_retried_with_a_capped_wait(
    start_emulator: StartEmulator, kubeconfig_for: Callable[[KubeEmulator], Path]
) -> None:
    emulator = start_emulator([gpu_node("n1")])
    emulator.inject(Fault(r"/api/v1/nodes", status=429, retry_after="7", times=2))
    waits: list[float] = []
    client = ReadOnlyClient.from_kubeconfig(
        str(kubeconfig_for(emulator)), max_retry_wait=0.01, sleep=waits.append
    )
    assert len(client.get("/api/v1/nodes")["items"]) == 1
    assert waits == [0.01, 0.01]
    assert client.requests == 3 == emulator.count(r"/api/v1/nodes")
    assert_read_only(emulator)


def test_retry_after_is_honoured_below_the_cap(
    start_emulator: StartEmulator, kubeconfig_for: Callable[[KubeEmulator], Path]
) -> None:
    emulator = start_emulator([gpu_node("n1")])
    emulator.inject(Fault(r"/api/v1/nodes", status=503, retry_after="3", times=1))
    waits: list[float] = []
    client = ReadOnlyClient.from_kubeconfig(
        str(kubeconfig_for(emulator)), max_retry_wait=10, sleep=waits.append
    )
    client.get("/api/v1/nodes")
    assert waits == [3.0]
    assert_read_only(emulator)


def test_500_forever_fails_after_bounded_retries(
    start_emulator: StartEmulator, kubeconfig_for: Callable[[KubeEmulator], Path]
) -> None:
    emulator = start_emulator()
    emulator.inject(Fault(r"/api/v1/nodes", status=500))
    client = ReadOnlyClient.from_kubeconfig(
        str(kubeconfig_for(emulator)), max_retries=3, sleep=lambda seconds: None
    )
    with pytest.raises(ApiError) as error:
        client.get("/api/v1/nodes")
    assert error.value.status == 500
    assert "answered 500 after 3 retries" in error.value.one_line()
    assert emulator.count(r"/api/v1/nodes") == 4
    assert_read_only(emulator)


def test_403_is_not_retried(
    start_emulator: StartEmulator, kubeconfig_for: Callable[[KubeEmulator], Path]
) -> None:
    emulator = start_emulator()
    emulator.inject(Fault(r"/api/v1/nodes", status=403))
    client = ReadOnlyClient.from_kubeconfig(str(kubeconfig_for(emulator)), sleep=lambda seconds: None)
    with pytest.raises(ApiError) as error:
        client.get("/api/v1/nodes")
    assert error.value.status == 403
    assert client.requests == 1
    assert_read_only(emulator)


def test_latency_beyond_the_timeout_fails_with_the_reason(
    start_emulator: StartEmulator, kubeconfig_for: Callable[[KubeEmulator], Path]
) -> None:
    emulator = start_emulator()
    emulator.inject(Fault(r"/api/v1/nodes", delay=1.0))
    client = ReadOnlyClient.from_kubeconfig(
        str(kubeconfig_for(emulator)), timeout=0.2, max_retries=1, sleep=lambda seconds: None
    )
    with pytest.raises(ApiError, match=r"timed out after 0.2s") as error:
        client.get("/api/v1/nodes")
    assert error.value.status == 0
    assert client.requests == 2
    assert_read_only(emulator)


def test_rate_limit_spaces_requests_beyond_the_burst(
    start_emulator: StartEmulator, kubeconfig_for: Callable[[KubeEmulator], Path]
) -> None:
    emulator = start_emulator()
    waits: list[float] = []
    client = ReadOnlyClient.from_kubeconfig(str(kubeconfig_for(emulator)), qps=1, burst=2, sleep=waits.append)
    started = time.monotonic()
    for _ in range(5):
        client.get("/version")
    real = time.monotonic() - started
    # two requests ride the burst; the sleeps are not real, so each later one owes a second more,
    # less whatever real time passed between requests (a loaded machine refills the bucket a little)
    assert len(waits) == 3
    assert 1 + 2 + 3 - 3 * real - 0.5 <= sum(waits) <= 1 + 2 + 3 + 0.5
    assert_read_only(emulator)


def test_wrong_token_is_a_401(start_emulator: StartEmulator, tmp_path: Path) -> None:
    emulator = start_emulator()
    kubeconfig = emulator.write_kubeconfig(tmp_path / "bad", token="wrong")
    client = ReadOnlyClient.from_kubeconfig(str(kubeconfig))
    with pytest.raises(ApiError) as error:
        client.get("/api")
    assert error.value.status == 401
    assert_read_only(emulator)


def test_a_kubeconfig_list_skips_missing_files_like_kubectl(
    start_emulator: StartEmulator,
    kubeconfig_for: Callable[[KubeEmulator], Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    emulator = start_emulator([gpu_node("n1")])
    real = kubeconfig_for(emulator)
    monkeypatch.setenv("KUBECONFIG", f"{real.parent / 'missing'}:{real}")
    with ReadOnlyClient.from_kubeconfig() as client:
        assert client.kubeconfig == str(real)
        assert len(client.get("/api/v1/nodes")["items"]) == 1
    assert_read_only(emulator)


def test_in_cluster_service_account_is_used_without_a_kubeconfig(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    token, certificate = tmp_path / "token", tmp_path / "ca.crt"
    token.write_text("service-account-token")
    certificate.write_text("not checked until a TLS handshake")
    monkeypatch.setattr(client_module, "SERVICE_ACCOUNT_DIR", tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("KUBECONFIG", raising=False)
    monkeypatch.setenv("KUBERNETES_SERVICE_HOST", "10.0.0.1")
    monkeypatch.setenv("KUBERNETES_SERVICE_PORT", "443")
    with ReadOnlyClient.from_kubeconfig() as client:
        assert client.describe() == "in-cluster service account (https://10.0.0.1:443)"
        assert client.kubeconfig == "" and client.requests == 0


def _exec_kubeconfig(emulator: KubeEmulator, folder: Path, script: str) -> Path:
    plugin = folder / "credential-plugin"
    plugin.write_text(f"#!/bin/sh\n{script}\n")
    plugin.chmod(0o755)
    kubeconfig = folder / "kubeconfig-exec"
    kubeconfig.write_text(
        "apiVersion: v1\nkind: Config\ncurrent-context: exec\n"
        f"clusters: [{{name: c, cluster: {{server: '{emulator.url}'}}}}]\n"
        "contexts: [{name: exec, context: {cluster: c, user: u}}]\n"
        "users: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1beta1, "
        f"command: '{plugin}', interactiveMode: Never}}}}}}]\n"
    )
    return kubeconfig


def test_an_exec_credential_plugin_supplies_the_token(start_emulator: StartEmulator, tmp_path: Path) -> None:
    emulator = start_emulator([gpu_node("n1")])
    credential = (
        '{"apiVersion": "client.authentication.k8s.io/v1beta1", "kind": "ExecCredential", '
        f'"status": {{"token": "{TOKEN}"}}}}'
    )
    kubeconfig = _exec_kubeconfig(emulator, tmp_path, f"echo '{credential}'")
    with ReadOnlyClient.from_kubeconfig(str(kubeconfig)) as client:
        assert len(client.get("/api/v1/nodes")["items"]) == 1
    assert [request.authorization for request in emulator.requests] == [f"Bearer {TOKEN}"]
    assert_read_only(emulator)


def test_an_expired_exec_token_is_renewed_within_the_request_deadline(
    start_emulator: StartEmulator, tmp_path: Path
) -> None:
    """A token past its expirationTimestamp makes the plugin run again, bounded by the request's time."""
    emulator = start_emulator([gpu_node("n1")])
    credential = (
        '{"apiVersion": "client.authentication.k8s.io/v1beta1", "kind": "ExecCredential", '
        f'"status": {{"token": "{TOKEN}", "expirationTimestamp": "2000-01-01T00:00:00Z"}}}}'
    )
    runs = tmp_path / "runs"
    script = f"echo run >> {runs}\n[ \"$(wc -l < {runs})\" -gt 2 ] && exec sleep 30\necho '{credential}'"
    kubeconfig = _exec_kubeconfig(emulator, tmp_path, script)
    with ReadOnlyClient.from_kubeconfig(str(kubeconfig), timeout=2) as client:
        assert len(client.get("/api/v1/nodes")["items"]) == 1  # renewed once: the second run
        started = time.monotonic()
        with pytest.raises(ClusterError) as error:
            client.get("/api/v1/nodes")  # the third run hangs: cut at the request's deadline
    assert time.monotonic() - started < 5
    line = error.value.one_line()
    assert "credential plugin (exec) of context 'exec' failed: it did not finish within 2 s" in line, line
    assert runs.read_text().count("run") == 3
    assert [request.authorization for request in emulator.requests] == [f"Bearer {TOKEN}"]
    assert_read_only(emulator)


def test_a_failing_exec_plugin_ends_in_one_line_about_credentials(
    start_emulator: StartEmulator, tmp_path: Path
) -> None:
    """The official loader only logged a failing plugin and went on; kubegap runs it and names it."""
    emulator = start_emulator()
    kubeconfig = _exec_kubeconfig(emulator, tmp_path, "echo 'please log in first' >&2; exit 1")
    with pytest.raises(ClusterError) as error:
        ReadOnlyClient.from_kubeconfig(str(kubeconfig))
    line = error.value.one_line()
    assert line.startswith(
        f"kubeconfig {kubeconfig}: the credential plugin (exec) of context 'exec' failed: "
        "exited with 1: please log in first"
    )
    assert "\n" not in line and not emulator.requests
    assert_read_only(emulator)
