"""Exemptions: file entries with globs and expiry, the kubegap.io/ignore annotation, and the off switch."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from engine_helpers import make_check, make_meta, node, snapshot_of

from kubegap.checker.exemptions import load_exemptions, parse_exemptions
from kubegap.checker.finding import Status
from kubegap.checker.runner import run_checks
from kubegap.checker.scan_report import ScanReport
from kubegap.errors import InputError

TODAY = dt.date(2026, 6, 1)


def _report(
    exemptions_text: str | None = None, honour_annotations: bool = True, ignore: str | None = None
) -> ScanReport:
    annotations = {"kubegap.io/ignore": ignore} if ignore is not None else None
    nodes = [node("gpu-a", gap=True), node("gpu-b", gap=True, annotations=annotations), node("cpu-c")]
    exemptions = parse_exemptions(exemptions_text, Path("ex.yaml"), TODAY) if exemptions_text else None
    checks = [make_check(make_meta("first")), make_check(make_meta("second"))]
    return run_checks(
        snapshot_of(*nodes), exemptions=exemptions, honour_annotations=honour_annotations, checks=checks
    )


def _exempted(report: ScanReport) -> list[tuple[str, str]]:
    return sorted((f.check_id, f.object.name) for f in report.findings if f.exempted_by)


def test_file_entry_with_glob_exempts_but_keeps_the_fail_visible() -> None:
    report = _report("exemptions:\n- check: first\n  name: gpu-*\n  reason: burn-in pool\n")
    assert _exempted(report) == [("first", "gpu-a"), ("first", "gpu-b")]
    exempted = [f for f in report.findings if f.exempted_by]
    assert all(f.status is Status.failed and "burn-in pool" in f.exempted_by for f in exempted)
    assert report.counts["exempted"] == 2 and report.counts["fail"] == 2
    first = next(summary for summary in report.checks if summary.check_id == "first")
    assert first.status is Status.passed and first.counts["exempted"] == 2


def test_kind_namespace_and_wildcard_check_matching() -> None:
    text = (
        "- check: '*'\n  kind: Node\n  name: gpu-a\n  reason: r\n- check: second\n  kind: Pod\n  reason: r\n"
    )
    assert _exempted(_report(text)) == [("first", "gpu-a"), ("second", "gpu-a")]
    text = "- check: first\n  namespace: team-*\n  reason: nodes have no namespace\n"
    assert _exempted(_report(text)) == []


def test_expired_entries_are_ignored_and_reported() -> None:
    expired = "- check: first\n  reason: old\n  expires: 2026-01-31\n"
    report = _report(expired + "- check: second\n  reason: ok\n  expires: 2026-12-31\n")
    assert _exempted(report) == [("second", "gpu-a"), ("second", "gpu-b")]
    assert any("expired on 2026-01-31" in note and "first" in note for note in report.notes)


def test_annotation_exempts_listed_checks_or_all_and_can_be_switched_off() -> None:
    listed = _report(ignore="second, other")
    assert _exempted(listed) == [("second", "gpu-b")]
    assert "annotation kubegap.io/ignore" in next(f.exempted_by for f in listed.findings if f.exempted_by)
    assert _exempted(_report(ignore="all")) == [("first", "gpu-b"), ("second", "gpu-b")]
    assert _exempted(_report(honour_annotations=False, ignore="all")) == []


def test_exit_code_ignores_exempted_fails() -> None:
    from kubegap.checker.finding import Severity

    report = _report("- check: '*'\n  reason: everything accepted\n")
    assert report.exit_code(Severity.high) == 0
    assert _report().exit_code(Severity.high) == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("- check: first\n", "entry 1: reason: Field required"),
        ("- check: first\n  reason: r\n- check: x\n  reason: r\n  expires: someday\n", "entry 2: expires"),
        ("- check: first\n  reason: r\n  colour: red\n", "entry 1: colour"),
        ("exemptions: {check: first}\n", "exemptions"),
        ("- check: [unclosed\n", "not valid YAML at line"),
        ("42\n", "expected a mapping"),
    ],
)
def test_bad_exemption_file_is_one_line_input_error(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "exemptions.yaml"
    path.write_text(text)
    with pytest.raises(InputError, match=expected) as caught:
        load_exemptions(path, TODAY)
    assert str(path) in caught.value.one_line() and "\n" not in caught.value.one_line()


def test_missing_or_empty_exemption_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read"):
        load_exemptions(tmp_path / "nope.yaml")
    (tmp_path / "empty.yaml").write_text("")
    assert load_exemptions(tmp_path / "empty.yaml").rules == []
