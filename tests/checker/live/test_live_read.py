"""read_cluster against the emulated API server: paging, discovery, coverage verdicts, faults."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import pytest

from k8s_emulator import Fault, KubeEmulator
from k8s_emulator.factories import GPU_AGENTS, daemonset, gpu_node, jobset, pod
from k8s_emulator.testing import StartEmulator, assert_read_only
from kubegap.checker.live.client import ReadOnlyClient
from kubegap.checker.live.reader import read_cluster
from kubegap.checker.snapshot import Coverage
from kubegap.errors import ClusterError

KINDS = ["Node", "Pod", "apps/DaemonSet", "jobset.x-k8s.io/JobSet", "kubeflow.org/PyTorchJob"]
Kubeconfig = Callable[[KubeEmulator], Path]


def _cluster(pods: int = 10) -> list[dict[str, object]]:
    objects: list[dict[str, object]] = [gpu_node(f"n{index}") for index in range(3)]
    objects += [pod(f"p{index:04d}", f"ns{index % 3}", node="n0", gpus=1) for index in range(pods)]
    objects.append(daemonset(GPU_AGENTS[1][0], "gpu-operator", GPU_AGENTS[1][1], scheduled=3))
    objects.append(jobset("pretrain", "ns0"))
    return objects


def _fast_client(emulator: KubeEmulator, kubeconfig: Kubeconfig, **options: object) -> ReadOnlyClient:
    options.setdefault("sleep", lambda seconds: None)
    return ReadOnlyClient.from_kubeconfig(str(kubeconfig(emulator)), **options)  # type: ignore[arg-type]


def test_pages_1234_pods_in_three_requests_and_restores_types(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    emulator = start_emulator(_cluster(pods=1234))
    snapshot = read_cluster(KINDS, kubeconfig=str(kubeconfig_for(emulator)))
    assert len(snapshot.of("Pod")) == 1234
    assert emulator.count(r"/api/v1/pods") == math.ceil(1234 / 500) == 3
    assert all(item["apiVersion"] == "v1" and item["kind"] == "Pod" for item in snapshot.of("Pod"))
    assert [item["kind"] for item in snapshot.of("jobset.x-k8s.io/JobSet")] == ["JobSet"]
    assert snapshot.of("apps/DaemonSet")[0]["apiVersion"] == "apps/v1"
    assert snapshot.requests == len(emulator.requests)
    assert snapshot.mode == "live"
    assert snapshot.context == "emulator"
    assert snapshot.source == f"live: context emulator ({snapshot.kubeconfig})"
    assert {request.query.get("limit") for request in emulator.requests if "pods" in request.path} == {"500"}
    assert_read_only(emulator)


def test_absent_crd_is_absent_and_never_listed(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    emulator = start_emulator(_cluster())
    snapshot = read_cluster(KINDS, kubeconfig=str(kubeconfig_for(emulator)))
    assert snapshot.status_of("kubeflow.org/PyTorchJob").status is Coverage.absent
    assert snapshot.status_of("jobset.x-k8s.io/JobSet").status is Coverage.read
    assert not [request for request in emulator.requests if "kubeflow" in request.path]
    assert_read_only(emulator)


def test_an_installed_crd_with_no_objects_is_read_and_empty(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    emulator = start_emulator(_cluster(), enable=["kubeflow.org/PyTorchJob"])
    snapshot = read_cluster(KINDS, kubeconfig=str(kubeconfig_for(emulator)))
    assert snapshot.status_of("kubeflow.org/PyTorchJob").status is Coverage.read
    assert snapshot.of("kubeflow.org/PyTorchJob") == []
    assert_read_only(emulator)


def test_403_is_forbidden_and_the_rest_is_still_read(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    emulator = start_emulator(_cluster())
    emulator.inject(Fault(r"/apis/apps/v1/daemonsets", status=403))
    snapshot = read_cluster(KINDS, kubeconfig=str(kubeconfig_for(emulator)))
    coverage = snapshot.status_of("apps/DaemonSet")
    assert coverage.status is Coverage.forbidden and "403" in coverage.detail
    assert "apps/DaemonSet" not in snapshot.objects
    assert snapshot.status_of("Node").status is Coverage.read
    assert_read_only(emulator)


@pytest.mark.parametrize(
    ("pattern", "kinds"),
    [
        (r"/apis/jobset\.x-k8s\.io/.*/jobsets", ["jobset.x-k8s.io/JobSet"]),
        (r"/api/v1/nodes", ["Node"]),
        (r"/api/v1/pods", ["Pod"]),
        (r"/apis/jobset\.x-k8s\.io/v1alpha2", ["jobset.x-k8s.io/JobSet"]),  # the group's discovery document
        (r"/api/v1", ["Node", "Pod"]),  # the core group's discovery document
    ],
)
def test_404_for_a_kind_discovery_announced_is_failed_not_absent(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig, pattern: str, kinds: list[str]
) -> None:
    """Only "not in discovery" is absent; a 404 where discovery pointed is a read that failed."""
    emulator = start_emulator(_cluster())
    fault = emulator.inject(Fault(pattern, status=404))
    snapshot = read_cluster(KINDS, kubeconfig=str(kubeconfig_for(emulator)))
    assert fault.hits >= 1
    for kind in kinds:
        coverage = snapshot.status_of(kind)
        assert coverage.status is Coverage.failed and "404" in coverage.detail, (kind, coverage)
        assert kind not in snapshot.objects
    assert snapshot.status_of("kubeflow.org/PyTorchJob").status is Coverage.absent  # never announced
    assert_read_only(emulator)


def test_expired_continue_restarts_the_list_once(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    emulator = start_emulator(_cluster(pods=1200))
    emulator.inject(Fault(r"/api/v1/pods", status=410, times=1, only_continue=True))
    snapshot = read_cluster(KINDS, kubeconfig=str(kubeconfig_for(emulator)))
    assert len(snapshot.of("Pod")) == 1200
    assert len({item["metadata"]["name"] for item in snapshot.of("Pod")}) == 1200
    assert emulator.count(r"/api/v1/pods") == 2 + 3  # first page, 410, then a full restart
    assert_read_only(emulator)


def test_a_list_that_expires_twice_fails(start_emulator: StartEmulator, kubeconfig_for: Kubeconfig) -> None:
    emulator = start_emulator(_cluster(pods=1200))
    emulator.inject(Fault(r"/api/v1/pods", status=410, only_continue=True))
    snapshot = read_cluster(KINDS, kubeconfig=str(kubeconfig_for(emulator)))
    coverage = snapshot.status_of("Pod")
    assert coverage.status is Coverage.failed and "expired twice" in coverage.detail
    assert "Pod" not in snapshot.objects  # a half-read kind keeps no items
    assert_read_only(emulator)


def test_500_forever_fails_the_kind_after_bounded_retries(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    emulator = start_emulator(_cluster())
    emulator.inject(Fault(r"/api/v1/nodes", status=500))
    client = _fast_client(emulator, kubeconfig_for, max_retries=2)
    snapshot = read_cluster(KINDS, client=client)
    coverage = snapshot.status_of("Node")
    assert coverage.status is Coverage.failed and "500 after 2 retries" in coverage.detail
    assert emulator.count(r"/api/v1/nodes") == 3
    assert snapshot.status_of("Pod").status is Coverage.read
    assert_read_only(emulator)


def test_429_then_success_reads_the_kind(start_emulator: StartEmulator, kubeconfig_for: Kubeconfig) -> None:
    emulator = start_emulator(_cluster())
    emulator.inject(Fault(r"/api/v1/pods", status=429, retry_after="1", times=2))
    waits: list[float] = []
    client = _fast_client(emulator, kubeconfig_for, max_retry_wait=0.01, sleep=waits.append)
    snapshot = read_cluster(KINDS, client=client)
    assert snapshot.status_of("Pod").status is Coverage.read and len(snapshot.of("Pod")) == 10
    assert waits == [0.01, 0.01]
    assert_read_only(emulator)


def test_latency_beyond_the_timeout_fails_the_kind_with_the_reason(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    emulator = start_emulator(_cluster())
    emulator.inject(Fault(r"/apis/apps/v1/daemonsets", delay=1.0))
    client = _fast_client(emulator, kubeconfig_for, timeout=0.2, max_retries=0)
    snapshot = read_cluster(KINDS, client=client)
    coverage = snapshot.status_of("apps/DaemonSet")
    assert coverage.status is Coverage.failed and "timed out after 0.2s" in coverage.detail
    assert_read_only(emulator)


def test_failed_group_discovery_fails_its_kinds(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    emulator = start_emulator(_cluster())
    emulator.inject(Fault(r"/apis/jobset\.x-k8s\.io/v1alpha2", status=503))
    snapshot = read_cluster(KINDS, client=_fast_client(emulator, kubeconfig_for, max_retries=1))
    coverage = snapshot.status_of("jobset.x-k8s.io/JobSet")
    assert coverage.status is Coverage.failed and coverage.detail.startswith("discovery failed")
    assert_read_only(emulator)


def test_namespace_selection_lists_per_namespace(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    emulator = start_emulator(_cluster(pods=30))
    snapshot = read_cluster(KINDS, kubeconfig=str(kubeconfig_for(emulator)), namespaces=["ns1", "ns2"])
    assert {item["metadata"]["namespace"] for item in snapshot.of("Pod")} == {"ns1", "ns2"}
    assert len(snapshot.of("Pod")) == 20
    assert emulator.count(r"/api/v1/pods") == 0
    assert emulator.count(r"/api/v1/namespaces/ns[12]/pods") == 2
    assert emulator.count(r"/api/v1/nodes") == 1  # cluster-scoped kinds are listed whole
    assert snapshot.status_of("Pod").detail == "namespaces: ns1, ns2"
    assert_read_only(emulator)


def test_secrets_are_never_requested_even_when_asked_for(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    secret = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s", "namespace": "a"}, "data": {}}
    emulator = start_emulator([*_cluster(), secret])
    snapshot = read_cluster(["Secret", "Node"], kubeconfig=str(kubeconfig_for(emulator)))
    assert snapshot.status_of("Secret").status is Coverage.not_collected
    assert "Secret" not in snapshot.objects
    assert emulator.secret_requests() == []
    assert_read_only(emulator)


def test_progress_bar_goes_to_stderr(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig, capsys: pytest.CaptureFixture[str]
) -> None:
    emulator = start_emulator(_cluster())
    snapshot = read_cluster(KINDS, kubeconfig=str(kubeconfig_for(emulator)), progress=True)
    assert len(snapshot.of("Node")) == 3
    assert capsys.readouterr().out == ""
    assert_read_only(emulator)


def test_unreachable_cluster_is_one_clear_line(tmp_path: Path, closed_port_url: str) -> None:
    emulator = KubeEmulator()
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(
        "apiVersion: v1\nkind: Config\ncurrent-context: gone\n"
        f"clusters: [{{name: c, cluster: {{server: '{closed_port_url}'}}}}]\n"
        "users: [{name: u, user: {token: t}}]\n"
        "contexts: [{name: gone, context: {cluster: c, user: u}}]\n"
    )
    client = ReadOnlyClient.from_kubeconfig(str(kubeconfig), max_retries=1, sleep=lambda seconds: None)
    with pytest.raises(ClusterError) as error:
        read_cluster(KINDS, client=client)
    assert (
        error.value.one_line() == f"cannot reach the Kubernetes API at {closed_port_url}: connection refused"
    )
    assert emulator.requests == []


def test_no_kubeconfig_is_one_clear_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("KUBECONFIG", raising=False)
    monkeypatch.delenv("KUBERNETES_SERVICE_HOST", raising=False)
    with pytest.raises(ClusterError, match="kubegap scan --demo"):
        read_cluster(KINDS)
