"""A live scan always ends, whatever the API server does, and says which kinds it could not trust.

Each fault mode of the emulator gets a test: the scan ends within its budget, the kinds the fault
spoiled are not `read` (so every check that needs them is unknown, never pass), the other kinds are
read, and nothing but GET reached the server, nothing named Secrets.
"""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from k8s_emulator import Fault, KubeEmulator
from k8s_emulator.factories import GPU_AGENTS, daemonset, gpu_node, jobset, pod
from k8s_emulator.testing import StartEmulator, assert_read_only
from kubegap.checker.live.client import ReadOnlyClient
from kubegap.checker.live.limits import MIB, LiveLimits
from kubegap.checker.live.reader import read_cluster
from kubegap.checker.runner import run_checks
from kubegap.checker.snapshot import Coverage, Snapshot

KINDS = ["Node", "Pod", "apps/DaemonSet", "jobset.x-k8s.io/JobSet"]
Kubeconfig = Callable[[KubeEmulator], Path]


def _cluster(pods: int = 30) -> list[dict[str, object]]:
    objects: list[dict[str, object]] = [gpu_node(f"n{index}") for index in range(3)]
    objects += [pod(f"p{index:04d}", f"ns{index % 3}", node="n0", gpus=1) for index in range(pods)]
    objects.append(daemonset(GPU_AGENTS[1][0], "gpu-operator", GPU_AGENTS[1][1], scheduled=3))
    objects.append(jobset("pretrain", "ns0"))
    return objects


def _scan(
    emulator: KubeEmulator, kubeconfig: Kubeconfig, limits: LiveLimits, **options: object
) -> tuple[Snapshot, float]:
    client = ReadOnlyClient.from_kubeconfig(
        str(kubeconfig(emulator)),
        timeout=limits.request_timeout,
        max_retries=limits.max_retries,
        max_retry_wait=limits.max_retry_wait,
        max_total_retry_wait=limits.max_total_retry_wait,
        max_page_bytes=limits.max_page_bytes,
        **options,  # type: ignore[arg-type]
    )
    started = time.monotonic()
    with client:
        snapshot = read_cluster(KINDS, client=client, limits=limits)
    return snapshot, time.monotonic() - started


def _assert_unknown_where_spoiled(snapshot: Snapshot, spoiled: str) -> None:
    """Every check that needs the spoiled kind is unknown or not applicable; none passes on it."""
    report = run_checks(snapshot)
    needing = {summary.meta.id for summary in report.checks if spoiled in summary.meta.needs}
    assert needing, f"no check needs {spoiled}"
    passed = [f.check_id for f in report.findings if f.check_id in needing and f.status.value == "pass"]
    assert passed == []
    unknown = {f.check_id for f in report.findings if f.check_id in needing and f.status.value == "unknown"}
    assert unknown == needing


def _assert_rest_read(snapshot: Snapshot, spoiled: set[str]) -> None:
    for key in KINDS:
        if key not in spoiled:
            assert snapshot.status_of(key).status is Coverage.read, (key, snapshot.status_of(key))


def test_an_endless_continue_token_stops_at_the_page_limit(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    emulator = start_emulator(_cluster())
    emulator.inject(Fault(r"/api/v1/pods", mode="endless-continue"))
    snapshot, took = _scan(emulator, kubeconfig_for, LiveLimits(max_pages=40))
    coverage = snapshot.status_of("Pod")
    assert coverage.status is Coverage.partial and "40 pages" in coverage.detail
    assert "--max-pages" in coverage.detail and "Pod" not in snapshot.objects
    assert emulator.count(r"/api/v1/pods") == 40
    assert took < 15
    _assert_rest_read(snapshot, {"Pod"})
    _assert_unknown_where_spoiled(snapshot, "Pod")
    assert_read_only(emulator)


def test_a_repeated_continue_token_is_caught_at_once(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    emulator = start_emulator(_cluster())
    emulator.inject(Fault(r"/api/v1/pods", mode="repeated-continue"))
    snapshot, took = _scan(emulator, kubeconfig_for, LiveLimits())
    coverage = snapshot.status_of("Pod")
    assert coverage.status is Coverage.partial and "repeated a continue token" in coverage.detail
    assert emulator.count(r"/api/v1/pods") == 2
    assert took < 10
    _assert_rest_read(snapshot, {"Pod"})
    assert_read_only(emulator)


def test_a_list_that_loops_over_its_first_page_is_caught(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    emulator = start_emulator(_cluster())
    emulator.inject(Fault(r"/api/v1/pods", mode="looping-continue"))
    snapshot, took = _scan(emulator, kubeconfig_for, LiveLimits())
    coverage = snapshot.status_of("Pod")
    assert coverage.status is Coverage.partial and "the list loops" in coverage.detail
    assert emulator.count(r"/api/v1/pods") == 2
    assert took < 10
    _assert_rest_read(snapshot, {"Pod"})
    assert_read_only(emulator)


def test_an_endless_list_ends_at_the_scan_budget(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    emulator = start_emulator(_cluster())
    emulator.inject(Fault(r"/api/v1/pods", mode="endless-continue", delay=0.05))
    snapshot, took = _scan(emulator, kubeconfig_for, LiveLimits(scan_timeout=2.0))
    coverage = snapshot.status_of("Pod")
    assert coverage.status is Coverage.partial and "--scan-timeout" in coverage.detail
    assert took < 2.0 + 3
    # kinds after Pod were never started: the budget was gone
    later = [snapshot.status_of(key) for key in KINDS[KINDS.index("Pod") + 1 :]]
    assert all(item.status is Coverage.failed and "time budget" in item.detail for item in later)
    assert any("time budget" in note and "ran out" in note for note in snapshot.notes)
    _assert_unknown_where_spoiled(snapshot, "Pod")
    assert_read_only(emulator)


def test_a_trickled_body_ends_at_the_request_timeout(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    emulator = start_emulator(_cluster())
    emulator.inject(Fault(r"/api/v1/nodes", mode="trickle", interval=0.2))
    limits = LiveLimits(request_timeout=1.0, max_retries=1)
    snapshot, took = _scan(emulator, kubeconfig_for, limits)
    coverage = snapshot.status_of("Node")
    assert coverage.status is Coverage.failed
    assert "timed out after 1s without a complete answer [limit: --timeout]" in coverage.detail
    assert emulator.count(r"/api/v1/nodes") == 2  # one retry, each cut at one second
    assert took < 2 * 1.0 + 3
    _assert_rest_read(snapshot, {"Node"})
    _assert_unknown_where_spoiled(snapshot, "Node")
    assert_read_only(emulator)


def test_trickled_headers_end_at_the_request_timeout(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    emulator = start_emulator(_cluster())
    emulator.inject(Fault(r"/apis/apps/v1/daemonsets", mode="trickle-headers", interval=0.2))
    limits = LiveLimits(request_timeout=1.0, max_retries=0)
    snapshot, took = _scan(emulator, kubeconfig_for, limits)
    coverage = snapshot.status_of("apps/DaemonSet")
    assert coverage.status is Coverage.failed and "timed out after 1s" in coverage.detail
    assert took < 1.0 + 3
    _assert_rest_read(snapshot, {"apps/DaemonSet"})
    _assert_unknown_where_spoiled(snapshot, "apps/DaemonSet")
    assert_read_only(emulator)


def test_an_oversized_body_is_cut_at_the_page_cap_and_memory_stays_bounded(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    emulator = start_emulator(_cluster())
    emulator.inject(Fault(r"/api/v1/pods", mode="oversized"))  # never ends, no Content-Length
    limits = LiveLimits(max_page_bytes=4 * MIB)
    tracemalloc.start()
    try:
        snapshot, took = _scan(emulator, kubeconfig_for, limits)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    coverage = snapshot.status_of("Pod")
    assert coverage.status is Coverage.failed and "more than 4.0 MiB" in coverage.detail
    assert "--max-page-mb" in coverage.detail
    # asked again in smaller pages (500, 100, 20, 10) before giving up
    assert [request.query["limit"] for request in emulator.requests if request.path == "/api/v1/pods"] == [
        "500",
        "100",
        "20",
        "10",
    ]
    assert peak < 8 * 4 * MIB
    assert took < 20
    _assert_rest_read(snapshot, {"Pod"})
    _assert_unknown_where_spoiled(snapshot, "Pod")
    assert_read_only(emulator)


def test_a_kind_over_its_byte_cap_is_partial(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    emulator = start_emulator(_cluster(pods=1600))
    limits = LiveLimits(max_kind_bytes=300_000)
    snapshot, _took = _scan(emulator, kubeconfig_for, limits)
    coverage = snapshot.status_of("Pod")
    assert coverage.status is Coverage.partial and "--max-kind-mb" in coverage.detail
    assert "Pod" not in snapshot.objects
    _assert_rest_read(snapshot, {"Pod"})
    assert_read_only(emulator)


def test_429_forever_ends_when_the_retry_budget_is_spent(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    emulator = start_emulator(_cluster())
    lists = r"/api/v1/(nodes|pods)|/apis/apps/v1/daemonsets|/apis/jobset\.x-k8s\.io/v1alpha2/jobsets"
    emulator.inject(Fault(lists, status=429, retry_after="1"))
    limits = LiveLimits(max_total_retry_wait=3.0)
    snapshot, took = _scan(emulator, kubeconfig_for, limits)
    for key in KINDS:
        coverage = snapshot.status_of(key)
        assert coverage.status is Coverage.failed and "429" in coverage.detail, (key, coverage)
    assert any("retry budget" in snapshot.status_of(key).detail for key in KINDS)
    assert took < 3.0 + 3
    assert emulator.count(lists) <= 3 + len(KINDS)  # three one-second waits, then one try per kind
    _assert_unknown_where_spoiled(snapshot, "Node")
    assert_read_only(emulator)


HOSTILE_DOCUMENTS = [
    ("/apis", {"groups": [1]}, {"apps/DaemonSet", "jobset.x-k8s.io/JobSet"}),
    (
        "/apis",
        {"groups": [{"name": "apps", "preferredVersion": "v1"}]},
        {"apps/DaemonSet", "jobset.x-k8s.io/JobSet"},
    ),
    ("/apis", {"groups": "apps"}, {"apps/DaemonSet", "jobset.x-k8s.io/JobSet"}),
    ("/apis", ["not", "an", "object"], {"apps/DaemonSet", "jobset.x-k8s.io/JobSet"}),
    ("/api", {"versions": "v1"}, {"Node", "Pod"}),
    ("/api", "v1", {"Node", "Pod"}),
    ("/api/v1", {"resources": [{"name": 5, "kind": "Pod"}]}, {"Node", "Pod"}),
    ("/api/v1", {"resources": {"pods": "Pod"}}, {"Node", "Pod"}),
    (
        "/apis/apps/v1",
        {"resources": [{"name": "daemonsets", "kind": "DaemonSet", "verbs": "list"}]},
        {"apps/DaemonSet"},
    ),
    ("/api/v1/pods", {"items": [], "metadata": []}, {"Pod"}),
    ("/api/v1/pods", {"items": [], "metadata": "continue"}, {"Pod"}),
    ("/api/v1/pods", {"items": {"a": 1}}, {"Pod"}),
    ("/api/v1/pods", {"items": [1, 2]}, {"Pod"}),
    ("/api/v1/pods", {"items": [{"metadata": "x"}]}, {"Pod"}),
    ("/api/v1/pods", {"items": [{"metadata": {"name": 7}}]}, {"Pod"}),
    ("/api/v1/pods", {"items": [], "metadata": {"continue": 12}}, {"Pod"}),
    ("/api/v1/pods", "x", {"Pod"}),
]


@pytest.mark.parametrize(("path", "document", "spoiled"), HOSTILE_DOCUMENTS)
def test_hostile_discovery_and_list_bodies_are_malformed_kinds(
    start_emulator: StartEmulator,
    kubeconfig_for: Kubeconfig,
    path: str,
    document: object,
    spoiled: set[str],
) -> None:
    emulator = start_emulator(_cluster())
    emulator.inject(Fault(path.replace(".", r"\."), body=document))
    snapshot, took = _scan(emulator, kubeconfig_for, LiveLimits())
    for key in spoiled:
        coverage = snapshot.status_of(key)
        assert coverage.status is Coverage.malformed, (key, coverage)
        assert "\n" not in coverage.detail and len(coverage.detail) < 400
    _assert_rest_read(snapshot, spoiled)
    _assert_unknown_where_spoiled(snapshot, sorted(spoiled)[0])
    assert took < 10
    assert_read_only(emulator)


ENCODED_NAMES = [
    "..%2F..%2Fapi%2Fv1%2Fsecrets",
    "..%252F..%252Fapi%252Fv1%252Fsecrets",
    "%73ecrets",
    "SECRETS",
    "pods%2F..%2F..%2Fsecrets",
    "pods?watch=true",
    "pods#x",
    "ſecrets",
    "pods\u202e",
    "a" * 300,
]


@pytest.mark.parametrize("name", ENCODED_NAMES)
def test_encoded_resource_names_from_discovery_never_become_requests(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig, name: str
) -> None:
    emulator = start_emulator(_cluster())
    resources = [
        {"name": name, "kind": "Pod", "namespaced": True, "verbs": ["list"]},
        {"name": "nodes", "kind": "Node", "namespaced": False, "verbs": ["list"]},
    ]
    emulator.inject(
        Fault(r"/api/v1", body={"kind": "APIResourceList", "groupVersion": "v1", "resources": resources})
    )
    snapshot, _took = _scan(emulator, kubeconfig_for, LiveLimits())
    coverage = snapshot.status_of("Pod")
    assert coverage.status is Coverage.malformed and "not a valid Kubernetes resource name" in coverage.detail
    assert snapshot.status_of("Node").status is Coverage.read
    sent = [request.path for request in emulator.requests]
    assert not [path for path in sent if "%" in path or ".." in path or "ecrets" in path.lower()]
    assert emulator.secret_requests() == []
    assert_read_only(emulator)


def test_a_discovery_document_naming_secrets_for_another_kind_is_refused_before_io(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    emulator = start_emulator(_cluster())
    resources = [{"name": "secrets", "kind": "Pod", "namespaced": True, "verbs": ["list"]}]
    emulator.inject(Fault(r"/api/v1", body={"kind": "APIResourceList", "resources": resources}))
    snapshot, _took = _scan(emulator, kubeconfig_for, LiveLimits())
    coverage = snapshot.status_of("Pod")
    assert coverage.status is Coverage.not_collected and "never reads Secrets" in coverage.detail
    assert emulator.secret_requests() == []
    assert_read_only(emulator)


def test_a_namespace_outside_the_grammar_is_one_line(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    from kubegap.errors import UsageError

    emulator = start_emulator(_cluster())
    with pytest.raises(UsageError, match="not a valid Kubernetes namespace name"):
        read_cluster(KINDS, kubeconfig=str(kubeconfig_for(emulator)), namespaces=["../secrets"])
    assert emulator.requests == []


def test_a_report_of_a_spoiled_scan_matches_the_report_schema(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    import json

    import jsonschema

    from kubegap.checker.reports import render

    emulator = start_emulator(_cluster())
    emulator.inject(Fault(r"/api/v1/pods", mode="looping-continue"))
    emulator.inject(Fault(r"/api/v1/nodes", body={"items": [1]}))
    snapshot, _took = _scan(emulator, kubeconfig_for, LiveLimits())
    report = json.loads(render(run_checks(snapshot), "json", "en", None))
    schema = json.loads((Path(__file__).resolve().parents[3] / "docs" / "report.schema.json").read_text())
    jsonschema.validate(report, schema)
    statuses = {row["kind"]: row["status"] for row in report["coverage"]}
    assert statuses["Pod"] == "partial" and statuses["Node"] == "malformed"
    assert_read_only(emulator)
