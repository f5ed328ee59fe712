"""The coverage rule in the runner, on checks built in code: what becomes unknown, what stays, what is said.

An optional kind that exists but was not read whole turns pass and not-applicable into unknown (fails
stay); an absent one changes nothing. The summaries (table, Markdown, JSON) count the checks held
back and name `kubegap rbac` only when a 403 is among the causes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

import pytest
from engine_helpers import make_check, make_meta, node, snapshot_of

from kubegap.checker.finding import CLUSTER, Finding, Status
from kubegap.checker.reports import render
from kubegap.checker.runner import run_checks
from kubegap.checker.snapshot import Coverage, KindCoverage, Snapshot

JOBS = "kubeflow.org/PyTorchJob"
UNREADABLE = [
    (KindCoverage(Coverage.forbidden, "403 Forbidden"), "forbidden"),
    (KindCoverage(Coverage.failed, "500 after 3 retries"), "failed"),
    (KindCoverage(Coverage.failed, "timed out after 30s"), "timed-out"),
    (KindCoverage(Coverage.malformed, "items is an object, not a list"), "malformed"),
    (KindCoverage(Coverage.partial, "stopped after 2 pages"), "partial"),
    (KindCoverage(Coverage.not_collected, "not in this snapshot"), "not-collected"),
]


def _nothing(snapshot: Snapshot) -> Iterable[Finding]:
    return []


def _with_jobs(coverage: KindCoverage, *nodes: dict[str, object]) -> Snapshot:
    snapshot = snapshot_of(*nodes)
    snapshot.coverage[JOBS] = coverage
    return snapshot


@pytest.mark.parametrize(("coverage", "reason"), UNREADABLE, ids=[reason for _c, reason in UNREADABLE])
def test_an_unreadable_optional_kind_turns_each_pass_into_unknown_keeping_the_object(
    coverage: KindCoverage, reason: str
) -> None:
    meta = make_meta(needs=("Node",), optional=(JOBS,))
    report = run_checks(_with_jobs(coverage, node("a"), node("b")), checks=[make_check(meta)])
    assert [(f.status, f.reason, f.object.name) for f in report.findings] == [
        (Status.unknown, reason, "a"),
        (Status.unknown, reason, "b"),
    ]
    finding = report.findings[0]
    assert finding.message.startswith(f"cannot confirm pass: {JOBS} was {coverage.status.value}")
    assert coverage.detail in finding.message and finding.message.endswith("node a has no gap")
    assert finding.evidence["verdictOnWhatWasRead"] == "pass"
    assert finding.evidence["unread"] == {JOBS: coverage.status.value}
    assert report.checks[0].status is Status.unknown and report.checks[0].unread == {
        JOBS: coverage.status.value
    }
    assert report.unreadable.checks == 1
    assert report.unreadable.fix == ("kubegap rbac" if reason == "forbidden" else "")


def test_an_absent_optional_kind_changes_nothing() -> None:
    meta = make_meta(needs=("Node",), optional=(JOBS,))
    snapshot = _with_jobs(KindCoverage(Coverage.absent, "CRD not installed"), node("a"))
    report = run_checks(snapshot, checks=[make_check(meta)])
    assert [f.status for f in report.findings] == [Status.passed]
    assert report.unreadable.checks == 0 and report.unreadable.sentence("en") == ""


def test_fails_stay_and_one_unknown_says_what_was_not_checked() -> None:
    meta = make_meta(needs=("Node",), optional=(JOBS,))
    snapshot = _with_jobs(KindCoverage(Coverage.forbidden, "403"), node("a", gap=True))
    report = run_checks(snapshot, checks=[make_check(meta)])
    assert [(f.status, f.object) for f in report.findings] == [
        (Status.failed, report.findings[0].object),
        (Status.unknown, CLUSTER),
    ]
    assert report.findings[1].message.startswith(f"not checked: {JOBS} was forbidden")
    assert report.checks[0].status is Status.failed
    assert report.unreadable.checks == 0  # a fail is a fail: the summary counts checks left unknown


def test_a_check_that_found_nothing_is_unknown_not_not_applicable() -> None:
    meta = make_meta(needs=("Node",), optional=(JOBS, "ray.io/RayJob"))
    snapshot = _with_jobs(KindCoverage(Coverage.malformed, "items is a number, not a list"))
    snapshot.coverage["Node"] = KindCoverage(Coverage.read)
    snapshot.coverage["ray.io/RayJob"] = KindCoverage(Coverage.forbidden, "403")
    report = run_checks(snapshot, checks=[make_check(meta, _nothing)])
    assert sorted((f.status, f.reason, f.evidence["kind"]) for f in report.findings) == [
        (Status.unknown, "forbidden", "ray.io/RayJob"),
        (Status.unknown, "malformed", JOBS),
    ]
    assert all(f.message.startswith("cannot decide: ") for f in report.findings)


def test_with_several_unreadable_kinds_the_reason_is_the_one_rbac_fixes() -> None:
    meta = make_meta(needs=("Node",), optional=(JOBS, "ray.io/RayJob"))
    snapshot = _with_jobs(KindCoverage(Coverage.partial, "stopped"), node("a"))
    snapshot.coverage["ray.io/RayJob"] = KindCoverage(Coverage.forbidden, "403")
    report = run_checks(snapshot, checks=[make_check(meta)])
    (finding,) = report.findings
    assert finding.reason == "forbidden"
    assert f"{JOBS} was partial" in finding.message and "ray.io/RayJob was forbidden" in finding.message


def test_a_not_applicable_finding_becomes_unknown() -> None:
    meta = make_meta(needs=("Node",), optional=(JOBS,))

    def not_applicable(snapshot: Snapshot) -> Iterable[Finding]:
        yield Finding(meta.id, Status.not_applicable, meta.severity, CLUSTER, "no GPU nodes", reason="x")

    snapshot = _with_jobs(KindCoverage(Coverage.forbidden, "403"))
    snapshot.coverage["Node"] = KindCoverage(Coverage.read)
    report = run_checks(snapshot, checks=[make_check(meta, not_applicable)])
    assert [(f.status, f.evidence["verdictOnWhatWasRead"]) for f in report.findings] == [
        (Status.unknown, "not-applicable")
    ]


@pytest.mark.parametrize("status", [Coverage.malformed, Coverage.partial])
def test_a_malformed_or_partial_need_skips_the_check_and_names_unreadable_optional_kinds_too(
    status: Coverage,
) -> None:
    def never(snapshot: Snapshot) -> Iterable[Finding]:
        raise AssertionError("must not run")

    meta = make_meta(needs=("Node",), optional=(JOBS,))
    snapshot = _with_jobs(KindCoverage(Coverage.forbidden, "403"), node("a"))
    snapshot.coverage["Node"] = KindCoverage(status, "bad")
    report = run_checks(snapshot, checks=[make_check(meta, never)])
    assert sorted((f.reason, f.evidence["kind"]) for f in report.findings) == sorted(
        [("forbidden", JOBS), (status.value, "Node")]
    )
    assert report.unreadable.forbidden_checks == 1


def _held_back_report() -> Snapshot:
    snapshot = _with_jobs(KindCoverage(Coverage.forbidden, "403 Forbidden"), node("a"))
    snapshot.coverage["ray.io/RayJob"] = KindCoverage(Coverage.malformed, "items is an object")
    return snapshot


def test_the_summaries_count_held_back_checks_and_name_the_fix_in_both_languages() -> None:
    checks = [
        make_check(make_meta("one", optional=(JOBS,))),
        make_check(make_meta("two", optional=(JOBS, "ray.io/RayJob"))),
        make_check(make_meta("three", optional=("ray.io/RayJob",))),
        make_check(make_meta("fine")),
    ]
    report = run_checks(_held_back_report(), checks=checks)
    unreadable = report.unreadable
    assert (unreadable.checks, unreadable.forbidden_checks, unreadable.fix) == (3, 2, "kubegap rbac")
    assert unreadable.kinds == {JOBS: "forbidden", "ray.io/RayJob": "malformed"}
    english = unreadable.sentence("en")
    assert english.startswith("3 checks are unknown because kinds they read could not be read in full")
    assert f"forbidden: {JOBS}; malformed: ray.io/RayJob" in english and "`kubegap rbac`" in english
    korean = unreadable.sentence("ko")
    assert (
        "점검 항목 3개가 판단 불가입니다" in korean
        and "ClusterRole을" in korean
        and "`kubegap rbac`" in korean
    )
    # every text format says it as one line per cause, the 403 first with its fix
    forbidden = "2 checks unknown: reading PyTorchJob was refused (403). Fix: `kubegap rbac`"
    malformed = "1 check unknown: RayJob could not be read in full (malformed); scan again."
    for output in (render(report, "table", "en"), render(report, "plain", "en")):
        flat = " ".join(output.split())
        assert forbidden in flat and malformed in flat and flat.index(forbidden) < flat.index(malformed)
        assert "4 checks: 0 with a gap, 3 unknown, 1 passed, 0 not applicable" in flat
    assert "점검 2개는 판단 불가입니다: PyTorchJob 읽기가 거부되었습니다(403)" in " ".join(
        render(report, "table", "ko").split()
    )
    assert forbidden.replace("`kubegap rbac`", "`kubegap rbac`") in render(report, "markdown", "en")
    document = json.loads(render(report, "json", "en"))
    assert document["summary"]["unreadable"] == {
        "checks": 3,
        "forbiddenChecks": 2,
        "kinds": {JOBS: "forbidden", "ray.io/RayJob": "malformed"},
        "fix": "kubegap rbac",
        "message": english,
    }


def test_without_a_403_the_summary_names_no_rbac_fix() -> None:
    snapshot = _with_jobs(KindCoverage(Coverage.partial, "stopped after 1 page"), node("a"))
    report = run_checks(snapshot, checks=[make_check(make_meta("one", optional=(JOBS,)))])
    sentence = report.unreadable.sentence("en")
    assert sentence.startswith("1 check is unknown") and "partial: kubeflow.org/PyTorchJob" in sentence
    assert "rbac" not in sentence and "rbac" not in report.unreadable.sentence("ko")


def test_kinds_missing_from_a_kubectl_dump_point_at_a_kubegap_snapshot() -> None:
    report = run_checks(snapshot_of(node("a")), checks=[make_check(make_meta("one", optional=(JOBS,)))])
    english, korean = report.unreadable.sentence("en"), report.unreadable.sentence("ko")
    assert "not-collected: kubeflow.org/PyTorchJob" in english and "`kubegap snapshot -o FILE`" in english
    assert "`kubegap snapshot -o FILE`로" in korean and "rbac" not in english + korean
