"""The summary counts checks in one unit and findings apart; unknowns are said once per cause.

A manifest scan cannot see Nodes, Pods or the cluster's CoreDNS: the checks that need them are one
line, not one per check. Kinds read but understood by no check are named as such, not folded into
"not applicable". The role a check assumed is shown beside its finding. The coverage count leaves
out Secrets, which have their own line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

import pytest
from engine_helpers import make_check, make_meta, node, snapshot_of

from kubegap.checker.finding import Finding, ObjectRef, Severity, Status
from kubegap.checker.report_summary import tally, unknown_groups
from kubegap.checker.reports import render
from kubegap.checker.runner import run_checks
from kubegap.checker.scan_report import ScanReport
from kubegap.checker.scanning import ScanRequest, run_scan
from kubegap.checker.snapshot import Snapshot

_SERVING = """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: vllm, namespace: serving}
spec:
  replicas: 2
  selector: {matchLabels: {app: vllm}}
  template:
    metadata: {labels: {app: vllm}}
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.6.3
          resources: {limits: {nvidia.com/gpu: 1, memory: 40Gi}}
---
apiVersion: widgets.example.com/v1
kind: Widget
metadata: {name: llama, namespace: serving}
spec: {size: 3}
"""


@pytest.fixture
def manifest_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ScanReport:
    monkeypatch.chdir(tmp_path)
    Path("serving.yaml").write_text(_SERVING)
    return run_scan(ScanRequest(manifest_paths=["serving.yaml"]))


def test_checks_add_up_in_one_unit_and_findings_are_counted_apart(manifest_report: ScanReport) -> None:
    counts = tally(manifest_report)
    assert sum(counts.values()) == len(manifest_report.checks)
    assert counts["out-of-reach"] >= 15  # Nodes, Pods, FlowSchemas, RBAC, CoreDNS: not in the files
    plain = render(manifest_report, "plain")
    checks_line = next(line for line in plain.splitlines() if re.match(r"\d+ checks: ", line))
    numbers = [int(n) for n in re.findall(r"(\d+) [a-z]", checks_line.split(": ", 1)[1])]
    assert sum(numbers) == len(manifest_report.checks)
    assert any(line.startswith("Findings: ") for line in plain.splitlines())
    korean = render(manifest_report, "plain", "ko")
    assert re.search(
        r"^점검 \d+개: 틈 발견 \d+, 판단 불가 \d+, 통과 \d+, 해당 없음 \d+, 실제 클러스터나 스냅숏 필요 \d+$",
        korean,
        re.M,
    )
    assert re.search(
        r"^발견 사항: 틈 \d+, 예외 처리 \d+, 판단 불가 \d+, 통과 \d+, 해당 없음 \d+$", korean, re.M
    )


@pytest.mark.parametrize("fmt", ["plain", "table", "markdown"])
def test_a_manifest_scan_says_once_what_files_cannot_show(manifest_report: ScanReport, fmt: str) -> None:
    output = render(manifest_report, fmt, width=120)
    flat = " ".join(output.split())
    counts = tally(manifest_report)
    assert flat.count("need a live cluster or snapshot") == 2  # the count in the summary, and its line
    said = f"{counts['out-of-reach']} checks need a live cluster or snapshot (files hold no Node, DaemonSet, "
    assert said in flat
    assert "cannot decide" not in flat  # no line per check per kind
    fails = [finding for finding in manifest_report.findings if finding.status is Status.failed]
    if fmt == "plain":  # in a pipe: one line per fail and at most 8 more
        assert len(output.splitlines()) <= len(fails) + 8, output
    if fmt == "table":  # on a terminal a failing check also has its heading line
        assert len(output.splitlines()) <= len(fails) + len({f.check_id for f in fails}) + 8, output


def test_kinds_read_but_understood_by_no_check_are_named(manifest_report: ScanReport) -> None:
    for fmt in ("plain", "table", "markdown"):
        assert "Read, not checked: widgets.example.com/Widget (1)" in render(manifest_report, fmt)
    assert "읽었지만 점검하지 않은 종류: widgets.example.com/Widget (1)" in render(
        manifest_report, "plain", "ko"
    )
    document = json.loads(render(manifest_report, "json"))
    assert document["summary"]["readNotChecked"] == [{"kind": "widgets.example.com/Widget", "objects": 1}]
    rows = {row["kind"]: row for row in document["coverage"]}
    assert rows["widgets.example.com/Widget"]["checked"] is False
    assert rows["apps/Deployment"]["checked"] is True


def test_selecting_one_check_does_not_call_the_other_kinds_unchecked(tmp_path: Path) -> None:
    path = tmp_path / "serving.yaml"
    path.write_text(_SERVING)
    report = run_scan(ScanRequest(manifest_paths=[str(path)], check_ids=["checkpoint-volume"]))
    assert [row.kind for row in report.coverage if not row.checked] == ["widgets.example.com/Widget"]


def _causes(snapshot: Snapshot) -> Iterable[Finding]:
    yield Finding(
        "typed", Status.unknown, Severity.high, ObjectRef("Pod", "p", "ns"), "x", reason="not-decidable"
    )


def test_unknowns_are_one_line_per_cause_with_what_resolves_it() -> None:
    from kubegap.checker.snapshot import Coverage, KindCoverage

    snapshot = snapshot_of(node("a"))
    snapshot.coverage["apps/DaemonSet"] = KindCoverage(Coverage.forbidden, "403")
    snapshot.coverage["batch/Job"] = KindCoverage(Coverage.partial, "stopped after 1 page")
    checks = [
        make_check(make_meta("denied-a", needs=("apps/DaemonSet",))),
        make_check(make_meta("denied-b", needs=("apps/DaemonSet",))),
        make_check(make_meta("cut", needs=("batch/Job",))),
        make_check(make_meta("typed"), _causes),
    ]
    report = run_checks(snapshot, checks=checks)
    assert [(group.cause, group.checks) for group in unknown_groups(report)] == [
        ("forbidden", ("denied-a", "denied-b")),
        ("unreadable", ("cut",)),
        ("not-decidable", ("typed",)),
    ]
    lines = [
        line for line in render(report, "plain").splitlines() if re.match(r"\d+ checks? unknown: ", line)
    ]
    assert lines == [
        "2 checks unknown: reading DaemonSet was refused (403). Fix: `kubegap rbac` prints the read-only "
        "ClusterRole; apply it and scan again.",
        "1 check unknown: Job could not be read in full (partial); scan again.",
        "1 check unknown: what was read cannot decide them (typed); `kubegap checks show ID` says what "
        "each needs.",
    ]


def _serving(snapshot: Snapshot) -> Iterable[Finding]:
    evidence = {"containers": "vllm", "role": "serving", "role_evidence": "image vllm/vllm-openai"}
    yield Finding(
        "roles", Status.failed, Severity.high, ObjectRef("Deployment", "vllm", "ml"), "no limit", evidence
    )


@pytest.mark.parametrize(
    ("fmt", "shown"),
    [
        ("plain", "[role: serving]"),
        ("table", "[role: serving]"),
        ("markdown", "\\[role: serving\\]"),
        ("sarif", "\\\\[role: serving\\\\]"),
    ],
)
def test_the_role_a_check_assumed_is_shown_beside_its_finding(fmt: str, shown: str) -> None:
    report = run_checks(snapshot_of(node("a")), checks=[make_check(make_meta("roles"), _serving)])
    output = render(report, fmt)
    assert shown in output, output
    assert "role_evidence" not in output or fmt == "sarif"  # SARIF keeps the evidence as data
    assert "[역할: serving]" in render(report, "plain", "ko")


def test_the_coverage_count_leaves_out_secrets(capsys: pytest.CaptureFixture[str]) -> None:
    report = run_checks(snapshot_of(node("a")), checks=[make_check(make_meta("one"))])
    rows = [row for row in report.coverage if row.kind != "Secret"]
    unread = sum(1 for row in rows if row.status != "read")
    output = render(report, "plain", full=True)
    assert f"Coverage: 1 kind(s) read, 1 object(s); {unread} not read" in output
    assert "Secrets: never read by kubegap." in output
