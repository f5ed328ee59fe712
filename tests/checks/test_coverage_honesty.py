"""Honest verdicts, for every check x fixture x kind it reads x way of not reading that kind.

New checks and fixtures are walked as soon as they exist (the lists come from the registry and the
fixture folders). A second test takes the rule out of the runner and expects the walk to catch it,
so this test cannot pass by walking nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from check_fixture_loader import fixture_paths, load_fixture
from coverage_walk import walk_fixture

from kubegap.checker import runner
from kubegap.checker.finding import Finding
from kubegap.checker.registry import all_checks, get_check
from kubegap.checker.snapshot import KindCoverage, Snapshot
from kubegap.checker.workload import WORKLOAD_KINDS

# Checks whose shared extractor lists every workload kind, after which the check keeps only the kinds
# it declares (serving Deployments and StatefulSets; diagnostic Jobs, CronJobs and DaemonSets): those
# undeclared reads cannot change a verdict. Any other undeclared read fails the test below.
_EXTRACTOR_READS = {
    "gpu-active-diagnostics": set(WORKLOAD_KINDS),
    "gpu-serving-pdb-missing": set(WORKLOAD_KINDS),
}


class _Recording(Snapshot):
    """A snapshot that notes every kind a check asks about (in `asked`)."""

    @property
    def asked(self) -> set[str]:
        found: set[str] = self.__dict__.setdefault("_asked", set())
        return found

    def of(self, key: str) -> list[dict[str, object]]:
        self.asked.add(key)
        return super().of(key)

    def status_of(self, key: str) -> KindCoverage:
        self.asked.add(key)
        return super().status_of(key)


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


@pytest.mark.parametrize("path", fixture_paths(), ids=_id)
def test_no_pass_or_not_applicable_when_a_kind_read_was_unreadable(path: Path) -> None:
    result = walk_fixture(path)
    assert result.runs > 0, "every check reads at least one kind, so every fixture is walked"
    assert not result.violations, "\n".join(result.violations[:20])


def test_every_check_has_fixtures_walked() -> None:
    walked = {path.parent.name for path in fixture_paths()}
    assert {check.id for check in all_checks()} <= walked


def test_the_walk_catches_a_runner_without_the_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the rule, an unreadable PyTorchJob list lets the NCCL checks pass (the bug this prevents)."""

    def no_rule(meta: object, findings: list[Finding], unreadable: object) -> list[Finding]:
        return findings

    monkeypatch.setattr(runner, "hold_back", no_rule)
    broken = [path for path in fixture_paths() if path.parent.name == "nccl-async-error-handling"]
    assert broken
    violations = [violation for path in broken for violation in walk_fixture(path).violations]
    assert any("kubeflow.org/PyTorchJob=forbidden" in violation for violation in violations), violations[:5]


@pytest.mark.parametrize("path", fixture_paths(), ids=_id)
def test_every_kind_a_check_reads_is_declared(path: Path) -> None:
    """The rule only covers declared kinds: a kind read but not declared could hide a counter-example."""
    check = get_check(path.parent.name)
    loaded = load_fixture(path, check.meta)
    recording = _Recording(objects=loaded.objects, coverage=loaded.coverage, mode=loaded.mode)
    list(check.run(recording))
    undeclared = recording.asked - {*check.meta.needs, *check.meta.optional}
    # The workload model also searches the kinds no extractor knows for pod templates by shape; it only
    # looks at kinds already in the snapshot (read), so such a read cannot hide an unread kind.
    by_shape = {key for key in loaded.objects if "/" in key and key not in WORKLOAD_KINDS}
    assert not undeclared - _EXTRACTOR_READS.get(check.id, set()) - by_shape, sorted(undeclared)
