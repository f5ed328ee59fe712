"""Every real-world manifest under ../shared/realworld scans cleanly, and its findings match the golden file.

The golden file keeps, per input file, the sorted [check_id, status, object] of every finding except
'not-applicable' ones and 'unknown' ones caused only by a kind the file does not contain. A change in
what the checks report on real manifests must be reviewed by hand, then recorded with:
    KUBEGAP_UPDATE_GOLDEN=1 .venv/bin/pytest tests/checks/test_realworld_golden.py
"""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path

import pytest

from kubegap.checker.finding import Status
from kubegap.checker.runner import run_checks
from kubegap.checker.sources.manifests import load_manifests
from kubegap.errors import KubegapError

GOLDEN = Path(__file__).parent / "golden" / "realworld-findings.json"


@cache
def scan_realworld(root: Path) -> dict[str, object]:
    results: dict[str, object] = {}
    for path in sorted(root.rglob("*")):
        if not path.is_file() or path.suffix.lower() not in (".yaml", ".yml", ".json"):
            continue
        name = path.relative_to(root).as_posix()
        try:
            snapshot = load_manifests([path])
        except KubegapError as error:
            results[name] = {"error": error.one_line().replace(str(root), "realworld")}
            continue
        report = run_checks(snapshot)
        crashed = [f"{f.check_id}: {f.message}" for f in report.findings if f.reason == "check-error"]
        assert not crashed, (name, crashed)
        results[name] = sorted(
            [finding.check_id, finding.status.value, finding.object.display()]
            for finding in report.findings
            if finding.status is not Status.not_applicable and finding.reason != "kind-absent"
        )
    return results


def _realworld(shared_dir: Path) -> Path:
    folder = shared_dir / "realworld"
    if not folder.is_dir():
        pytest.skip("../shared/realworld is absent: the real-world manifests are not in this checkout")
    return folder


def test_realworld_findings_match_golden(shared_dir: Path) -> None:
    actual = scan_realworld(_realworld(shared_dir))
    if os.environ.get("KUBEGAP_UPDATE_GOLDEN"):
        GOLDEN.write_text(json.dumps(actual, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    changed = sorted(name for name in set(actual) | set(expected) if actual.get(name) != expected.get(name))
    assert not changed, f"findings changed for {changed[:10]}; review, then re-record (see module docstring)"


def test_only_json_configs_of_node_problem_detector_are_not_objects(shared_dir: Path) -> None:
    actual = scan_realworld(_realworld(shared_dir))
    errors = sorted(name for name, value in actual.items() if isinstance(value, dict))
    assert errors == [], errors
