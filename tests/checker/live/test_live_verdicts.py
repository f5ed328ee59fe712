"""Honest verdicts against the emulated API server: what could not be read never passes.

The cluster is the bundled demo cluster served by the emulator, where many checks pass. Each kind the
checks read is then answered 403 in turn, and no check that reads that kind may pass or say "not
applicable"; the same for malformed Node lists (taken for "no GPU nodes" before) and for a group
whose discovery fails.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from k8s_emulator import Fault, KubeEmulator
from k8s_emulator.factories import gpu_node
from k8s_emulator.testing import StartEmulator, assert_read_only
from kubegap.checker.finding import Status
from kubegap.checker.live.client import ReadOnlyClient
from kubegap.checker.live.discovery import discover
from kubegap.checker.live.rbac import kinds_read
from kubegap.checker.live.reader import read_cluster
from kubegap.checker.registry import all_checks
from kubegap.checker.runner import run_checks
from kubegap.checker.scan_report import ScanReport
from kubegap.checker.snapshot import Coverage
from kubegap.checker.sources.demo import load_demo

Kubeconfig = Callable[[KubeEmulator], Path]
KINDS = kinds_read(check.meta for check in all_checks())
_OK = (Status.passed, Status.not_applicable)


def _readers(kind: str) -> set[str]:
    return {check.id for check in all_checks() if kind in (*check.meta.needs, *check.meta.optional)}


@pytest.fixture(scope="module")
def demo_cluster() -> Iterator[tuple[KubeEmulator, list[str]]]:
    """The demo cluster's objects, its installed CRDs enabled; one emulator for the whole module."""
    demo = load_demo()
    installed = [kind for kind, coverage in demo.coverage.items() if coverage.status is Coverage.read]
    emulator = KubeEmulator(list(demo), enable=installed, token=None).start()
    try:
        yield emulator, installed
    finally:
        emulator.stop()
        assert_read_only(emulator)


def _scan(emulator: KubeEmulator, kubeconfig: Path) -> ScanReport:
    client = ReadOnlyClient.from_kubeconfig(str(kubeconfig), sleep=lambda seconds: None)
    try:
        return run_checks(read_cluster(KINDS, client=client))
    finally:
        client.close()


def _list_paths(kubeconfig: Path, kinds: list[str]) -> dict[str, str]:
    client = ReadOnlyClient.from_kubeconfig(str(kubeconfig))
    try:
        discovery = discover(client, kinds)
        return {kind: found.list_path(None) for kind in kinds if (found := discovery.find(kind)) is not None}
    finally:
        client.close()


def _passing_readers(report: ScanReport, kind: str) -> list[str]:
    return [
        f"{finding.check_id}: {finding.status.value}: {finding.message}"
        for finding in report.findings
        if finding.check_id in _readers(kind) and finding.status in _OK
    ]


def test_403_on_each_listed_kind_leaves_no_pass_that_depends_on_it(
    demo_cluster: tuple[KubeEmulator, list[str]], tmp_path: Path
) -> None:
    emulator, installed = demo_cluster
    kubeconfig = emulator.write_kubeconfig(tmp_path / "kubeconfig", context="demo")
    baseline = _scan(emulator, kubeconfig)
    assert {summary.status for summary in baseline.checks} >= {Status.passed, Status.failed}
    paths = _list_paths(kubeconfig, [kind for kind in KINDS if kind != "Secret"])
    assert set(installed) - {"Secret"} <= set(paths), "every kind the demo reads is served"
    walked = held_back = 0
    for kind, path in sorted(paths.items()):
        fault = emulator.inject(Fault(re.escape(path), status=403))
        try:
            report = _scan(emulator, kubeconfig)
        finally:
            emulator.faults.remove(fault)
        assert fault.hits >= 1, f"{kind} was never listed"
        assert report.coverage and any(
            row.kind == kind and row.status == "forbidden" for row in report.coverage
        )
        assert _passing_readers(report, kind) == [], kind
        walked += 1
        held_back += len(_passing_readers(baseline, kind))
        unreadable = report.unreadable
        assert unreadable.fix == ("kubegap rbac" if unreadable.checks else "")
    assert walked == len(paths) >= 20
    assert held_back > 0, "some passes of the demo depend on the kinds walked"


def test_pytorchjobs_forbidden_or_their_group_failing_keeps_the_nccl_checks_from_passing(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    """The five checks of the original report, with the list 403 and with discovery of kubeflow.org 500."""
    emulator = start_emulator([gpu_node("n1")], enable=["kubeflow.org/PyTorchJob"], token=None)
    five = {
        "checkpoint-volume",
        "dev-shm-size",
        "nccl-async-error-handling",
        "nccl-hang-dump",
        "nccl-watchdog-disabled",
    }
    for fault in (
        Fault(r"/apis/kubeflow.org/v1/pytorchjobs", status=403),
        Fault(r"/apis/kubeflow.org(/v1)?", status=500),
        Fault(r"/apis/kubeflow.org/v1/pytorchjobs", status=404),  # discovery listed it: failed, not absent
        Fault(r"/apis/kubeflow.org/v1", status=404),  # /apis announced the version
    ):
        emulator.inject(fault)
        client = ReadOnlyClient.from_kubeconfig(str(kubeconfig_for(emulator)), sleep=lambda seconds: None)
        try:
            report = run_checks(read_cluster(KINDS, client=client), check_ids=sorted(five))
        finally:
            client.close()
            emulator.faults.remove(fault)
        statuses = {summary.check_id: summary.status for summary in report.checks}
        assert statuses == dict.fromkeys(five, Status.unknown), (fault.pattern, statuses)
        assert report.unreadable.checks == 5
        assert ("kubegap rbac" if fault.status == 403 else "") == report.unreadable.fix
    assert_read_only(emulator)


@pytest.mark.parametrize(
    ("kind", "path"), [("Node", "/api/v1/nodes"), ("Pod", "/api/v1/pods"), ("Node", "/api/v1")]
)
def test_a_404_where_discovery_pointed_leaves_no_pass_that_depends_on_the_kind(
    demo_cluster: tuple[KubeEmulator, list[str]], tmp_path: Path, kind: str, path: str
) -> None:
    """A 404 on the LIST of nodes or pods (or on /api/v1 itself) made them "absent" and checks passed."""
    emulator, _installed = demo_cluster
    kubeconfig = emulator.write_kubeconfig(tmp_path / "kubeconfig", context="demo")
    assert _passing_readers(_scan(emulator, kubeconfig), kind), "the demo has passes that read the kind"
    fault = emulator.inject(Fault(re.escape(path), status=404))
    try:
        report = _scan(emulator, kubeconfig)
    finally:
        emulator.faults.remove(fault)
    assert fault.hits >= 1
    assert any(row.kind == kind and row.status == "failed" for row in report.coverage)
    assert _passing_readers(report, kind) == []


def _node_bodies() -> list[tuple[str, Any, str]]:
    node = gpu_node("n1")
    node.pop("kind")
    node.pop("apiVersion")
    nameless = {**node, "metadata": {"labels": {}}}
    return [
        (
            "items-an-object",
            {"kind": "NodeList", "apiVersion": "v1", "metadata": {}, "items": {"n1": node}},
            "items is an object",
        ),
        (
            "items-numbers",
            {"kind": "NodeList", "apiVersion": "v1", "metadata": {}, "items": [1, 2, 3]},
            "items[0]: not a mapping",
        ),
        (
            "item-without-name",
            {"kind": "NodeList", "apiVersion": "v1", "metadata": {}, "items": [node, nameless]},
            "items[1]: no metadata.name",
        ),
        (
            "labels-a-list",
            {
                "kind": "NodeList",
                "apiVersion": "v1",
                "metadata": {},
                "items": [{**node, "metadata": {"name": "n2", "labels": ["gpu"]}}],
            },
            "metadata.labels that is not a mapping",
        ),
        ("no-items", {"kind": "NodeList", "apiVersion": "v1", "metadata": {}}, "the body has no items"),
    ]


@pytest.mark.parametrize(
    ("body", "detail"),
    [(body, detail) for _name, body, detail in _node_bodies()],
    ids=[name for name, _b, _d in _node_bodies()],
)
def test_a_malformed_node_list_is_malformed_and_no_gpu_check_says_not_applicable(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig, body: Any, detail: str
) -> None:
    emulator = start_emulator([gpu_node("n1")], token=None)
    emulator.inject(Fault(r"/api/v1/nodes", body=body))
    snapshot = read_cluster(KINDS, kubeconfig=str(kubeconfig_for(emulator)))
    coverage = snapshot.status_of("Node")
    assert coverage.status is Coverage.malformed and detail in coverage.detail, coverage
    assert snapshot.of("Node") == []
    report = run_checks(snapshot)
    node_readers = _readers("Node")
    wrong = [
        f"{f.check_id}: {f.status.value}"
        for f in report.findings
        if f.check_id in node_readers and f.status in _OK
    ]
    assert wrong == []
    needing = [check.id for check in all_checks() if "Node" in check.meta.needs]
    reasons = {f.check_id: f.reason for f in report.findings if f.check_id in needing}
    assert reasons == dict.fromkeys(needing, "malformed")
    assert_read_only(emulator)


def test_items_null_is_an_empty_list_not_malformed(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    emulator = start_emulator([gpu_node("n1")], token=None)
    emulator.inject(
        Fault(r"/api/v1/nodes", body={"kind": "NodeList", "apiVersion": "v1", "metadata": {}, "items": None})
    )
    snapshot = read_cluster(["Node"], kubeconfig=str(kubeconfig_for(emulator)))
    assert snapshot.status_of("Node").status is Coverage.read and snapshot.of("Node") == []
    assert_read_only(emulator)
