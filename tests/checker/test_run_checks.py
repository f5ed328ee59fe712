"""Runner semantics: unread needs become unknown (check not run), a crashing check becomes unknown,
namespace selection, manifests mode, summaries, counts, locations and exit codes."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from engine_helpers import make_check, make_meta, node, pod, snapshot_of

from kubegap.checker.finding import CLUSTER, Finding, ObjectRef, Severity, Status
from kubegap.checker.runner import run_checks
from kubegap.checker.snapshot import Coverage, KindCoverage, Snapshot


def _never_called(snapshot: Snapshot) -> Iterable[Finding]:
    raise AssertionError("run() must not be called when a needed kind was not read")


@pytest.mark.parametrize(
    ("coverage", "reason"),
    [
        (KindCoverage(Coverage.forbidden, "403 Forbidden"), "forbidden"),
        (KindCoverage(Coverage.absent, "CRD not installed"), "kind-absent"),
        (KindCoverage(Coverage.failed, "500 after 3 retries"), "failed"),
        (KindCoverage(Coverage.failed, "request timed out after 30s"), "timed-out"),
        (KindCoverage(Coverage.not_collected, "not in this snapshot"), "not-collected"),
    ],
)
def test_unread_need_becomes_one_unknown_per_kind_and_check_is_not_run(
    coverage: KindCoverage, reason: str
) -> None:
    snapshot = snapshot_of(node("gpu-1"))
    snapshot.coverage["jobset.x-k8s.io/JobSet"] = coverage
    meta = make_meta(needs=("Node", "jobset.x-k8s.io/JobSet"))
    report = run_checks(snapshot, checks=[make_check(meta, _never_called)])
    assert len(report.findings) == 1
    finding = report.findings[0]
    assert (finding.status, finding.reason, finding.object) == (Status.unknown, reason, CLUSTER)
    assert finding.evidence["kind"] == "jobset.x-k8s.io/JobSet"
    assert coverage.detail in finding.message
    assert report.checks[0].status is Status.unknown


def test_kind_missing_from_snapshot_is_not_collected_and_two_missing_kinds_give_two_unknowns() -> None:
    meta = make_meta(needs=("Node", "apps/DaemonSet"))
    report = run_checks(Snapshot(mode="snapshot"), checks=[make_check(meta, _never_called)])
    assert [(f.reason, f.evidence["kind"]) for f in report.findings] == [
        ("not-collected", "Node"),
        ("not-collected", "apps/DaemonSet"),
    ]


def test_manifests_mode_missing_kind_is_absent() -> None:
    meta = make_meta(needs=("Node",))
    report = run_checks(Snapshot(mode="manifests"), checks=[make_check(meta, _never_called)])
    assert report.findings[0].reason == "kind-absent"


def test_optional_kind_the_server_does_not_serve_does_not_block_a_check() -> None:
    meta = make_meta(needs=("Node",), optional=("nvidia.com/ClusterPolicy",))
    snapshot = snapshot_of(node("a"))
    snapshot.coverage["nvidia.com/ClusterPolicy"] = KindCoverage(Coverage.absent, "CRD not installed")
    report = run_checks(snapshot, checks=[make_check(meta)])
    assert [f.status for f in report.findings] == [Status.passed]


def test_optional_kind_missing_from_a_snapshot_keeps_the_check_from_passing() -> None:
    meta = make_meta(needs=("Node",), optional=("nvidia.com/ClusterPolicy",))
    report = run_checks(snapshot_of(node("a")), checks=[make_check(meta)])
    assert [(f.status, f.reason) for f in report.findings] == [(Status.unknown, "not-collected")]


def test_check_that_raises_becomes_one_unknown_check_error_and_scan_goes_on() -> None:
    def explode(snapshot: Snapshot) -> Iterable[Finding]:
        yield Finding("broken", Status.passed, Severity.high, CLUSTER, "partial result, must be discarded")
        raise RuntimeError("token=hunter22 in status\nsecond line")

    broken = make_check(make_meta("broken"), explode)
    healthy = make_check(make_meta("healthy"))
    report = run_checks(snapshot_of(node("a", gap=True)), checks=[broken, healthy])
    by_check = {summary.check_id: summary.status for summary in report.checks}
    assert by_check == {"broken": Status.unknown, "healthy": Status.failed}
    error = next(f for f in report.findings if f.check_id == "broken")
    assert error.reason == "check-error"
    assert error.message.startswith("the check failed: RuntimeError")
    assert "\n" not in error.message and "second line" not in error.message
    assert "hunter22" not in error.message
    assert len([f for f in report.findings if f.check_id == "broken"]) == 1


def test_check_yielding_something_else_than_findings_is_a_check_error() -> None:
    def wrong(snapshot: Snapshot) -> Iterable[Finding]:
        return ["not a finding"]  # type: ignore[list-item]

    report = run_checks(snapshot_of(node("a")), checks=[make_check(make_meta(), wrong)])
    assert report.findings[0].reason == "check-error"
    assert "str" in report.findings[0].message


def test_namespace_selection_keeps_cluster_scoped_and_selected_namespaces() -> None:
    def per_pod(snapshot: Snapshot) -> Iterable[Finding]:
        for obj in snapshot.of("Pod"):
            metadata = obj["metadata"]
            ref = ObjectRef("Pod", metadata["name"], metadata["namespace"])
            yield Finding("pods", Status.failed, Severity.high, ref, "bad pod")
        yield Finding("pods", Status.passed, Severity.high, CLUSTER, "cluster-wide verdict")

    snapshot = snapshot_of(pod("a", "team-a"), pod("b", "team-b"), pod("c", "team-c"))
    report = run_checks(
        snapshot,
        namespaces=["team-a", "team-c"],
        checks=[make_check(make_meta("pods", needs=("Pod",)), per_pod)],
    )
    assert sorted(f.object.display() for f in report.findings) == [
        "Cluster/cluster",
        "Pod/team-a/a",
        "Pod/team-c/c",
    ]
    assert report.namespaces == ("team-a", "team-c")


def test_check_not_meant_for_manifests_is_not_applicable_there() -> None:
    meta = make_meta(manifests=False)
    report = run_checks(snapshot_of(node("a"), mode="manifests"), checks=[make_check(meta, _never_called)])
    assert [(f.status, f.reason) for f in report.findings] == [(Status.not_applicable, "manifests-mode")]


def test_check_without_findings_is_not_applicable_in_summary() -> None:
    report = run_checks(snapshot_of(node("a")), checks=[make_check(make_meta(), lambda snapshot: [])])
    assert report.checks[0].status is Status.not_applicable


def test_summary_counts_sorting_and_exit_code() -> None:
    low = make_meta("low-check", severity=Severity.low)
    high = make_meta("high-check", severity=Severity.high)
    snapshot = snapshot_of(node("a", gap=True), node("b"))
    report = run_checks(snapshot, checks=[make_check(low), make_check(high)])
    assert report.counts == {"fail": 2, "exempted": 0, "unknown": 0, "pass": 2, "not-applicable": 0}
    assert report.severity_counts["high"] == 1 and report.severity_counts["low"] == 1
    assert [f.check_id for f in report.findings[:2]] == ["high-check", "low-check"]  # worst first
    assert report.exit_code(Severity.high) == 1
    assert report.exit_code(Severity.critical) == 0
    assert report.exit_code(None) == 0
    shown = report.filtered(["fail"], Severity.high)
    assert [f.check_id for f in shown.findings] == ["high-check"]
    assert len(shown.checks) == 2


def test_selecting_checks_by_id_and_coverage_table() -> None:
    first, second = make_meta("first", optional=("apps/DaemonSet",)), make_meta("second")
    snapshot = snapshot_of(node("a"))
    snapshot.coverage["apps/DaemonSet"] = KindCoverage(Coverage.forbidden, "403")
    report = run_checks(snapshot, check_ids=["first"], checks=[make_check(first), make_check(second)])
    assert [summary.check_id for summary in report.checks] == ["first"]
    rows = {row.kind: row for row in report.coverage}
    assert (
        rows["Node"].status == "read" and rows["Node"].objects == 1 and rows["Node"].needed_by == ("first",)
    )
    assert rows["apps/DaemonSet"].status == "forbidden" and rows["apps/DaemonSet"].optional_for == ("first",)
    assert rows["Secret"].status == "not-collected"


def test_manifest_locations_are_attached_to_findings() -> None:
    snapshot = snapshot_of(node("a", gap=True), mode="manifests")
    snapshot.locations[("Node", "", "a")] = ("deploy/nodes.yaml", 7, 2)
    report = run_checks(snapshot, checks=[make_check(make_meta())])
    found = report.findings[0].object
    assert (found.source_file, found.source_line, found.source_document) == ("deploy/nodes.yaml", 7, 2)


def test_report_carries_source_fields() -> None:
    snapshot = snapshot_of(node("a"))
    snapshot.context, snapshot.kubeconfig, snapshot.requests = "prod", "/home/me/.kube/config", 12
    snapshot.notes.append("skipped 1 object(s) with no kind")
    report = run_checks(snapshot, checks=[make_check(make_meta())])
    assert (report.context, report.kubeconfig, report.requests, report.mode) == (
        "prod",
        "/home/me/.kube/config",
        12,
        "snapshot",
    )
    assert report.notes == ["skipped 1 object(s) with no kind"]
    assert report.schema_version and report.kubegap_version and report.started_at <= report.finished_at


def _dns_like(snapshot: Snapshot) -> Iterable[Finding]:
    """Like coredns-redundancy: one replica is a gap whatever PDBs exist; "no PDB" needs the PDBs read."""
    ref = ObjectRef("Deployment", "coredns", "kube-system", "apps/v1")
    yield Finding(
        "dns-like",
        Status.failed,
        Severity.medium,
        ref,
        "cluster DNS has 1 replica",
        {"replicas": 1},
        holds_without=("policy/PodDisruptionBudget",),
    )
    if not snapshot.of("policy/PodDisruptionBudget"):
        yield Finding(
            "dns-like", Status.failed, Severity.medium, ref, "cluster DNS has no PodDisruptionBudget"
        )


def test_a_fail_that_holds_whatever_an_unread_kind_holds_is_still_a_fail() -> None:
    meta = make_meta("dns-like", needs=("apps/Deployment", "policy/PodDisruptionBudget"))
    snapshot = snapshot_of(node("a"))
    snapshot.coverage["apps/Deployment"] = KindCoverage(Coverage.read)
    snapshot.coverage["policy/PodDisruptionBudget"] = KindCoverage(
        Coverage.not_collected, "not in this snapshot"
    )
    report = run_checks(snapshot, checks=[make_check(meta, _dns_like)])
    said = [(finding.status.value, str(finding.message)) for finding in report.findings]
    assert ("fail", "cluster DNS has 1 replica") in said  # kept: it holds whatever PDBs exist
    assert ("fail", "cluster DNS has no PodDisruptionBudget") not in said  # dropped: it rests on the PDBs
    assert any(status == "unknown" and "PodDisruptionBudget" in text for status, text in said)
    assert report.checks[0].status is Status.failed


def test_without_the_declaration_an_unread_need_leaves_the_check_unknown() -> None:
    def plain(snapshot: Snapshot) -> Iterable[Finding]:
        yield Finding("plain", Status.failed, Severity.high, ObjectRef("Node", "a"), "looks like a gap")

    snapshot = snapshot_of(node("a"))
    snapshot.coverage["policy/PodDisruptionBudget"] = KindCoverage(Coverage.forbidden, "403")
    meta = make_meta("plain", needs=("Node", "policy/PodDisruptionBudget"))
    report = run_checks(snapshot, checks=[make_check(meta, plain)])
    assert [finding.status for finding in report.findings] == [Status.unknown]
