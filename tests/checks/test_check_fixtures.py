"""One parametrized test over every fixture: the worst status of the check's findings is the file's prefix."""

from __future__ import annotations

from pathlib import Path

import pytest
from check_fixture_loader import fixture_paths, load_fixture

from kubegap.checker.finding import Status
from kubegap.checker.registry import get_check
from kubegap.checker.runner import run_checks

# Worst first: a fixture named fail-* must produce at least one fail, pass-* none worse than pass.
_RANK = {Status.failed: 3, Status.unknown: 2, Status.passed: 1, Status.not_applicable: 0}


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


@pytest.mark.parametrize("path", fixture_paths(), ids=_id)
def test_fixture_outcome(path: Path) -> None:
    check = get_check(path.parent.name.replace("_", "-"))
    snapshot = load_fixture(path, check.meta)
    report = run_checks(snapshot, checks=[check])
    findings = [finding for finding in report.findings if finding.check_id == check.id]
    assert findings, f"{check.id} produced no finding for {path.name}"
    errors = [finding.message for finding in findings if finding.reason == "check-error"]
    assert not errors, errors
    worst = max(findings, key=lambda finding: _RANK[finding.status]).status
    expected = path.name.split("-")[0]
    details = [(finding.status.value, finding.object.display(), finding.message) for finding in findings]
    assert worst.value == expected, details
