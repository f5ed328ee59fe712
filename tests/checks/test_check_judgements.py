"""The judged real-world findings stay in step with what the checks report.

A check with a judgement file in bench/check_eval/judgements must have every failing finding on the
real-world manifests judged, and no judgement may point at a finding that is no longer reported: a
change in what a check says on real input is looked at again by a person.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import eval_checks  # noqa: E402


def _realworld(shared_dir: Path) -> Path:
    folder = shared_dir / "realworld"
    if not folder.is_dir():
        pytest.skip("../shared/realworld is absent: the real-world manifests are not in this checkout")
    return folder.resolve()


def test_split_names_real_repositories(shared_dir: Path) -> None:
    repositories = {path.name for path in _realworld(shared_dir).iterdir() if path.is_dir()}
    heldout = eval_checks.heldout_repositories()
    assert heldout <= repositories
    assert len(heldout) >= 0.3 * len(repositories)


def test_every_judged_check_has_all_its_findings_judged(shared_dir: Path) -> None:
    judgements = eval_checks.load_judgements()
    failures = eval_checks.scan_failures(_realworld(shared_dir))
    evaluation = eval_checks.evaluate(failures, judgements, eval_checks.heldout_repositories())
    assert [(f.check, f.file, f.object) for f in evaluation.unjudged] == []
    assert evaluation.stale == []


def test_judgement_files_are_checked_for_shape(tmp_path: Path) -> None:
    (tmp_path / "some-check.yaml").write_text(
        "check: some-check\nfindings:\n  - {file: a/b.yaml, object: Pod/x, verdict: maybe, reason: r}\n",
        encoding="utf-8",
    )
    with pytest.raises(SystemExit, match="verdict must be one of"):
        eval_checks.load_judgements(tmp_path)


def test_precision_and_recall_count_what_they_say() -> None:
    found = eval_checks.FoundFailure
    failures = (
        found("c", "dev/a.yaml", "Pod/a"),
        found("c", "dev/b.yaml", "Pod/b"),
        found("c", "held/c.yaml", "Pod/c"),
    )
    judgements: dict[str, dict[str, object]] = {
        "c": {
            "check": "c",
            "findings": [
                {"file": "dev/a.yaml", "object": "Pod/a", "verdict": "tp", "reason": "r"},
                {"file": "dev/b.yaml", "object": "Pod/b", "verdict": "fp", "reason": "r"},
                {"file": "dev/gone.yaml", "object": "Pod/g", "verdict": "tp", "reason": "r"},
            ],
            "misses": [{"file": "held/d.yaml", "object": "Pod/d", "reason": "r"}],
        }
    }
    evaluation = eval_checks.evaluate(failures, judgements, frozenset({"held"}))
    dev, held = evaluation.tallies[("c", "dev")], evaluation.tallies[("c", "heldout")]
    assert (dev.precision(), dev.recall()) == (0.5, 1.0)
    assert held.recall() == 0.0 and held.precision() is None
    assert [f.object for f in evaluation.unjudged] == ["Pod/c"]
    assert evaluation.stale == [("c", "dev/gone.yaml", "Pod/g")]
