"""Every report format: content, structure (JSON schema, SARIF 2.1.0), incident links, and redaction."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import jsonschema
import pytest
import yaml
from engine_helpers import INCIDENT, make_check, make_meta, node, snapshot_of

from kubegap.checker.finding import Finding, ObjectRef, Severity, Status
from kubegap.checker.reports import FORMATS, render
from kubegap.checker.runner import run_checks
from kubegap.checker.scan_report import ScanReport
from kubegap.checker.snapshot import Coverage, KindCoverage, Snapshot
from kubegap.errors import UsageError

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "docs" / "report.schema.json").read_text())
SEEDED = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"


def _leaky(snapshot: Snapshot) -> Iterable[Finding]:
    ref = ObjectRef("DaemonSet", "trainer", "ml", "apps/v1", "deploy/train.yaml", 4)
    yield Finding(
        "leaky",
        Status.failed,
        Severity.critical,
        ref,
        f"container runs with --token={SEEDED}",
        {"env": [{"name": "HF_TOKEN", "value": "plain-value-1"}], "args": ["--password", "plain-value-2"]},
    )
    yield Finding("leaky", Status.unknown, Severity.critical, ref, "cannot tell", reason="not-decidable")


def _report() -> ScanReport:
    snapshot = snapshot_of(node("gpu-a", gap=True), node("gpu-b"), mode="manifests")
    snapshot.coverage["apps/DaemonSet"] = KindCoverage(Coverage.forbidden, "403 Forbidden: list daemonsets")
    snapshot.notes.append("skipped 1 object(s) with no kind")
    checks = [
        make_check(make_meta("leaky", needs=("Node",), severity=Severity.critical), _leaky),
        make_check(make_meta("nodes", incidents=(INCIDENT, "no-such-incident"))),
        make_check(make_meta("blocked", needs=("apps/DaemonSet",))),
    ]
    return run_checks(snapshot, checks=checks)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_no_format_leaks_a_seeded_secret(fmt: str, lang: str) -> None:
    output = render(_report(), fmt, lang)
    for leaked in (SEEDED, "plain-value-1", "plain-value-2"):
        assert leaked not in output, (fmt, leaked)


def test_json_validates_against_the_published_schema_and_keeps_exemptions() -> None:
    report = _report()
    from dataclasses import replace

    report.findings[0] = replace(report.findings[0], exempted_by="exemption (leaky */*): accepted")
    document = json.loads(render(report, "json", "ko", "https://library.example"))
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    jsonschema.validate(document, SCHEMA, cls=jsonschema.Draft202012Validator)
    assert document["schemaVersion"] == "1.4" and document["lang"] == "ko"
    summary = document["summary"]
    assert summary["checkCounts"] == {
        "fail": 2,
        "unknown": 1,
        "pass": 0,
        "not-applicable": 0,
        "out-of-reach": 0,
    }
    assert sum(summary["checkCounts"].values()) == summary["checks"] == 3  # one unit: checks
    assert [(group["cause"], group["checks"]) for group in summary["unknownGroups"]] == [
        ("forbidden", ["blocked"])
    ]
    assert "kubegap rbac" in summary["unknownGroups"][0]["message"]
    assert document["scan"]["mode"] == "manifests"
    leaky = next(f for f in document["findings"] if f["checkId"] == "leaky" and f["status"] == "fail")
    assert leaky["exemptedBy"].startswith("exemption") and leaky["object"]["file"] == "deploy/train.yaml"
    nodes = next(check for check in document["checks"] if check["id"] == "nodes")
    assert [item["id"] for item in nodes["incidents"]] == [INCIDENT]  # the unknown id is skipped
    assert nodes["incidents"][0]["url"] == f"https://library.example/ko/incidents/{INCIDENT}"
    assert nodes["title"].endswith("(ko)")
    coverage = {row["kind"]: row for row in document["coverage"]}
    assert (
        coverage["apps/DaemonSet"]["status"] == "forbidden"
        and coverage["Secret"]["status"] == "not-collected"
    )
    blocked = next(f for f in document["findings"] if f["checkId"] == "blocked")
    assert (blocked["status"], blocked["reason"]) == ("unknown", "forbidden")


def test_sarif_has_the_required_2_1_0_structure() -> None:
    document = json.loads(render(_report(), "sarif"))
    assert document["version"] == "2.1.0" and document["$schema"].endswith("sarif-2.1.0.json")
    (run,) = document["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "kubegap" and driver["version"]
    rule_ids = [rule["id"] for rule in driver["rules"]]
    assert rule_ids == ["leaky", "nodes", "blocked"]
    for rule in driver["rules"]:
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
        assert rule["defaultConfiguration"]["level"] in {"none", "note", "warning", "error"}
    results = run["results"]
    assert {result["ruleId"] for result in results} == {"leaky", "nodes"}  # fails only, no unknowns
    assert len(results) == 2
    for result in results:
        assert result["message"]["text"]
        assert result["level"] in {"none", "note", "warning", "error"}
        assert driver["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["locations"][0]["logicalLocations"][0]["name"]
    leaky = next(result for result in results if result["ruleId"] == "leaky")
    physical = leaky["locations"][0]["physicalLocation"]
    assert physical["artifactLocation"]["uri"] == "deploy/train.yaml" and physical["region"]["startLine"] == 4
    assert leaky["level"] == "error"


def test_sarif_marks_exempted_fails_as_suppressed() -> None:
    report = _report()
    from dataclasses import replace

    report.findings[0] = replace(report.findings[0], exempted_by="annotation kubegap.io/ignore: all")
    results = json.loads(render(report, "sarif"))["runs"][0]["results"]
    suppressed = [result for result in results if result.get("suppressions")]
    assert len(suppressed) == 1 and suppressed[0]["suppressions"][0]["kind"] == "external"


def test_markdown_has_counts_gaps_fixes_incidents_unknowns_and_coverage() -> None:
    output = render(_report(), "markdown")
    assert output.startswith("## kubegap scan")
    assert "**3 checks: 2 with a gap, 1 unknown, 0 passed, 0 not applicable**" in output  # in checks
    assert "Findings: 2 gaps, 0 exempted, 2 unknown, 1 pass, 0 not applicable" in output  # in findings
    assert "### Gaps found" in output and "`leaky`" in output
    assert "`deploy/train.yaml:4`" in output  # where the object is defined
    assert "Fix leaky like this" in output and "127.0.0.1" not in output  # no server configured: sources
    linked = render(_report(), "markdown", base_url="https://library.example")
    assert f"https://library.example/en/incidents/{INCIDENT}" in linked
    assert "<summary>Could not decide</summary>" in output and "not-decidable" in output
    assert "403 Forbidden" in output and "skipped 1 object(s) with no kind" in output


def test_table_shows_checks_findings_coverage_and_summary_in_both_languages() -> None:
    english = render(_report(), "table", "en", full=True)
    for expected in (
        "Checks",
        "leaky",
        "Fix leaky like this",
        "Coverage:",
        "apps/DaemonSet",
        "forbidden",
        "3 checks: 2 with a gap, 1 unknown",
        "Node/gpu-b",  # --all lists passes too
    ):
        assert expected in english, expected
    compact = render(_report(), "table", "en")
    assert "Node/gpu-a" in compact and "Node/gpu-b" not in compact  # passes are counted, not listed
    assert "Fix leaky like this" not in compact and "Coverage:" not in compact
    assert "1 check unknown: reading DaemonSet was refused (403)" in " ".join(compact.split())
    korean = render(_report(), "table", "ko")
    assert "틈 발견" in korean and "Title of leaky (ko)" in korean
    colored = render(_report(), "table", "en", color=True)
    assert "\x1b[" in colored


def test_unknown_format_is_a_usage_error() -> None:
    with pytest.raises(UsageError):
        render(_report(), "html")


def test_real_world_manifests_render_valid_reports_with_the_shipped_checks(shared_dir: Path) -> None:
    from kubegap.checker.sources import load_manifests

    folder = shared_dir / "realworld"
    if not folder.is_dir():
        pytest.skip("../shared/realworld is absent")
    report = run_checks(load_manifests([folder]))
    document = json.loads(render(report, "json"))
    jsonschema.validate(document, SCHEMA, cls=jsonschema.Draft202012Validator)
    sarif = json.loads(render(report, "sarif"))
    fails = [f for f in report.findings if f.status is Status.failed]
    assert len(sarif["runs"][0]["results"]) == len(fails)
    named = [f for f in fails if f.object.name and f.object.kind != "Cluster"]
    assert named and all(f.object.source_file and f.object.source_line > 0 for f in named), [
        f.object for f in named if not f.object.source_file
    ]
    for fmt in ("table", "markdown"):
        assert render(report, fmt, "ko").strip()


_HUGE_DNS = """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: coredns, namespace: kube-system}
spec:
  replicas: REPLICAS
  template:
    metadata: {labels: {k8s-app: kube-dns}}
    spec: {containers: [{name: coredns, image: registry.k8s.io/coredns/coredns:v1.11.1}]}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: other, namespace: kube-system}
spec: {minAvailable: 1, selector: {matchLabels: {app: other}}}
"""


@pytest.mark.parametrize(
    ("written", "value"),
    [("0x1ffffffffffffffffffff", 0x1FFFFFFFFFFFFFFFFFFFF), ("1_180_591_620_717_411_303_424", 2**70)],
)
@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_integers_past_64_bits_are_written_exactly_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], written: str, value: int, fmt: str
) -> None:
    """YAML hex or underscores (and snapshots, live bodies) can hold any integer; orjson writes 64 bits."""
    from kubegap.cli import main

    manifest = tmp_path / "dns.yaml"
    manifest.write_text(_HUGE_DNS.replace("REPLICAS", written))
    with pytest.raises(SystemExit) as exited:
        main(["scan", str(manifest), "-f", fmt, "--check", "coredns-redundancy", "--fail-on", "never"])
    captured = capsys.readouterr()
    assert exited.value.code == 0, captured.err
    document = json.loads(captured.out)
    if fmt == "json":
        evidence = [finding["evidence"] for finding in document["findings"]]
    else:
        evidence = [result["properties"]["evidence"] for result in document["runs"][0]["results"]]
    assert {"replicas": str(value), "pdb": False} in evidence  # the exact value, as its digits


def test_a_snapshot_integer_past_64_bits_renders_in_every_format(tmp_path: Path) -> None:
    from kubegap.checker.scanning import ScanRequest, run_scan

    snapshot = {
        "apiVersion": "kubegap.io/v1",
        "kind": "Snapshot",
        "coverage": {"apps/Deployment": "read", "policy/PodDisruptionBudget": "read"},
        "items": list(yaml.safe_load_all(_HUGE_DNS.replace("REPLICAS", str(-(2**80))))),
    }
    path = tmp_path / "cluster.json"
    path.write_text(json.dumps(snapshot))
    report = run_scan(ScanRequest(snapshot_paths=[str(path)], check_ids=["coredns-redundancy"]))
    for fmt in FORMATS:
        assert render(report, fmt), fmt
    assert json.loads(render(report, "json"))["findings"][0]["evidence"]["replicas"] == str(-(2**80))
