"""Walk one check fixture with each kind the check reads made unreadable in turn, and compare verdicts.

For every needed and optional kind of the check, the fixture is run with that kind absent from the
server (the baseline) and then forbidden, failed, malformed and partial, each once with the kind's
objects dropped (as a live read that got nothing) and once with them kept (a partial or malformed
list whose good objects were kept). The rule under test: with a kind unreadable, no finding is pass
or not-applicable, and no verdict is pass or not-applicable that was not already so with the kind
absent. Only the manifests-mode not-applicable (a check that cannot work on files at all) stays.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from check_fixture_loader import load_fixture

from kubegap.checker.finding import Status
from kubegap.checker.registry import CheckModule, get_check
from kubegap.checker.runner import run_checks
from kubegap.checker.scan_report import summarize
from kubegap.checker.snapshot import Coverage, KindCoverage, Snapshot

MODES = (Coverage.forbidden, Coverage.failed, Coverage.malformed, Coverage.partial)
_OK = (Status.passed, Status.not_applicable)
_DETAIL = {
    Coverage.absent: "the API server does not serve it",
    Coverage.forbidden: "403 Forbidden: list is forbidden",
    Coverage.failed: "500 Internal Server Error after 3 retries",
    Coverage.malformed: "items is not a list of objects",
    Coverage.partial: "stopped after 1 page of 500",
}


@dataclass
class WalkResult:
    """What one fixture's walk did: runs made, verdicts the rule turned to unknown, rule breaks found."""

    runs: int = 0
    downgraded: int = (
        0  # runs whose check verdict was pass/not-applicable on the data, unknown after the rule
    )
    violations: list[str] = field(default_factory=list)


def _with(base: Snapshot, kind: str, status: Coverage, keep_objects: bool) -> Snapshot:
    objects = dict(base.objects)
    if not keep_objects:
        objects.pop(kind, None)
    coverage = dict(base.coverage)
    coverage[kind] = KindCoverage(status, _DETAIL[status])
    return replace(base, objects=objects, coverage=coverage, notes=list(base.notes))


def _statuses(check: CheckModule, snapshot: Snapshot) -> tuple[Status, list[tuple[Status, str, str]]]:
    report = run_checks(snapshot, checks=[check])
    findings = [(finding.status, finding.reason, finding.message) for finding in report.findings]
    return report.checks[0].status, findings


def _raw_verdict(check: CheckModule, snapshot: Snapshot) -> Status | None:
    """The check's own verdict on the data it was given, without the runner (None: the runner skips it)."""
    if snapshot.mode == "manifests" and not check.meta.manifests:
        return None
    if any(snapshot.status_of(kind).status is not Coverage.read for kind in check.meta.needs):
        return None
    return summarize(check.meta, list(check.run(snapshot))).status


def walk_fixture(path: Path) -> WalkResult:
    check = get_check(path.parent.name)
    base = load_fixture(path, check.meta)
    result = WalkResult()
    for kind in dict.fromkeys((*check.meta.needs, *check.meta.optional)):
        baseline, _ = _statuses(check, _with(base, kind, Coverage.absent, keep_objects=False))
        for status in MODES:
            for keep_objects in (False, True):
                snapshot = _with(base, kind, status, keep_objects)
                verdict, findings = _statuses(check, snapshot)
                raw = _raw_verdict(check, snapshot)
                result.runs += 1
                kept = "kept" if keep_objects else "dropped"
                where = f"{check.id} {path.name} {kind}={status.value} objects {kept}"
                if raw in _OK and verdict is Status.unknown:
                    result.downgraded += 1
                if raw is Status.failed and verdict is not Status.failed:
                    result.violations.append(f"{where}: the check failed, the runner said {verdict.value}")
                for finding_status, reason, message in findings:
                    if finding_status in _OK and reason != "manifests-mode":
                        result.violations.append(f"{where}: a {finding_status.value} finding: {message}")
                if verdict in _OK and baseline not in _OK:
                    result.violations.append(f"{where}: {verdict.value}, but {baseline.value} with it absent")
                if verdict is Status.unknown and not any(kind in message for _s, _r, message in findings):
                    result.violations.append(f"{where}: unknown, but no finding names {kind}")
    return result
