"""The judged findings on real manifests stay in step with what the checks report.

Evalset (../shared/evalset): every failing finding of every check must be judged, so a new check or a
new kind of finding is read by a person before it counts. Realworld (../shared/realworld): a check with
a judgement file must have every failing finding judged, and no judgement may point at a finding that
is no longer reported.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import eval_checks  # noqa: E402


def _corpus(shared_dir: Path, name: str) -> eval_checks.Corpus:
    chosen = eval_checks.corpus(name, shared_dir)
    if not chosen.files.is_dir():
        pytest.skip(f"../shared/{name} is absent: its manifests are not in this checkout")
    return chosen


def test_realworld_split_names_real_repositories(shared_dir: Path) -> None:
    chosen = _corpus(shared_dir, "realworld")
    repositories = {path.name for path in chosen.files.iterdir() if path.is_dir()}
    assert chosen.heldout() <= repositories
    assert len(chosen.heldout()) >= 0.3 * len(repositories)


def test_realworld_judged_checks_have_all_their_findings_judged(shared_dir: Path) -> None:
    chosen = _corpus(shared_dir, "realworld")
    judgements = eval_checks.load_judgements(chosen.judgements)
    failures = eval_checks.scan_failures(chosen.files.resolve())
    evaluation = eval_checks.evaluate(failures, judgements, chosen.heldout())
    assert [(f.check, f.file, f.object) for f in evaluation.unjudged] == []
    assert evaluation.stale == []


@pytest.mark.parametrize("part", ["dev", "heldout"])
def test_evalset_every_fail_is_judged(shared_dir: Path, part: str) -> None:
    """A new fail on either part fails here: dev fails are judged by whoever changes a check, held-out
    fails only by someone who did not tune (bench/check_eval/README.md)."""
    chosen = _corpus(shared_dir, "evalset")
    judgements = eval_checks.load_judgements(chosen.judgements)
    dev = chosen.dev()
    assert dev is not None and not dev & chosen.heldout()
    repositories = dev if part == "dev" else chosen.heldout()
    failures = eval_checks.scan_failures(chosen.files.resolve(), repositories)
    evaluation = eval_checks.evaluate(failures, judgements, chosen.heldout(), True, (part,))
    assert [(f.check, f.file, f.object) for f in evaluation.unjudged] == []


def test_judgement_files_are_checked_for_shape(tmp_path: Path) -> None:
    (tmp_path / "some-check.yaml").write_text(
        "check: some-check\nfindings:\n  - {file: a/b.yaml, object: Pod/x, verdict: maybe, reason: r}\n",
        encoding="utf-8",
    )
    with pytest.raises(SystemExit, match="verdict must be one of"):
        eval_checks.load_judgements(tmp_path)


def test_a_fail_of_a_check_without_judgements_is_unjudged_on_the_evalset() -> None:
    failures = (eval_checks.FoundFailure("new-check", "dev/a.yaml", "Pod/a"),)
    assert eval_checks.evaluate(failures, {}, frozenset()).unjudged == []
    assert eval_checks.evaluate(failures, {}, frozenset(), every_fail_judged=True).unjudged == list(failures)


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
