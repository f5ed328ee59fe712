"""A scan's outcome counted in one unit (checks), and its unknowns grouped by what would resolve them.

Every face says the same thing from here: the terminal's summary line, the JSON `summary`, the web
page and MCP. A check lands in exactly one bucket, so the numbers add up to the checks run:

* `fail`, `unknown`, `pass`, `not-applicable`: the check's own verdict (worst of its findings);
* `out-of-reach`: the input cannot show what the check reads, so no verdict was possible from it.
  Manifest files hold no Nodes, Pods, FlowSchemas or the cluster's CoreDNS and RBAC (reasons
  `manifests-mode` and `kind-absent`), and a snapshot may lack kinds (`not-collected`). Such a check
  is said once, in one grouped line, not once per check per file.

The unknowns left are grouped by their cause (a 403, a read that failed, a check that raised, a
value nobody rendered, ...), one group per cause, each naming the checks and kinds involved.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from kubegap.checker.finding import Finding, Status
from kubegap.checker.scan_report import COUNT_KEYS, CheckSummary, CoverageRow, ScanReport, count_key

BUCKETS = ("fail", "unknown", "pass", "not-applicable", "out-of-reach")
OUT_OF_REACH = "out-of-reach"
# Reasons that mean "this input cannot show it", by mode. A live scan has none: what it could not
# read is a cause to fix (403, timeout), grouped below.
_OUT_OF_REACH_REASONS = {
    "manifests": frozenset({"manifests-mode", "kind-absent"}),
    "snapshot": frozenset({"not-collected"}),
}
# Causes of unknown, in the order a reader should act on them (a 403 first: `kubegap rbac` fixes it).
_CAUSE_ORDER = (
    "forbidden",
    "timed-out",
    "failed",
    "partial",
    "malformed",
    "not-collected",
    "kind-absent",
    "unrendered",
    "check-error",
    "not-decidable",
)
_UNREADABLE_CAUSES = frozenset({"timed-out", "failed", "partial", "malformed"})


@dataclass(frozen=True)
class UnknownGroup:
    """Checks that share one cause of not deciding, with the kinds involved and one example message."""

    cause: str  # out-of-reach | forbidden | unreadable | not-collected | check-error | unrendered | <reason>
    checks: tuple[str, ...]
    kinds: tuple[str, ...] = ()  # kind keys, the ones most of these checks need first
    statuses: tuple[str, ...] = ()  # coverage statuses behind an `unreadable` group
    example: str = ""  # the first finding's message (a Message when the check wrote one)


def _reasons(findings: Iterable[Finding]) -> set[str]:
    return {finding.reason for finding in findings}


def is_out_of_reach(summary: CheckSummary, findings: list[Finding], mode: str) -> bool:
    """No verdict came from the input: every finding says the input cannot show what it needs."""
    allowed = _OUT_OF_REACH_REASONS.get(mode)
    if not allowed or summary.status not in (Status.unknown, Status.not_applicable) or not findings:
        return False
    return _reasons(findings) <= allowed


def _by_check(report: ScanReport) -> dict[str, list[Finding]]:
    found: dict[str, list[Finding]] = {summary.check_id: [] for summary in report.checks}
    for finding in report.findings:
        found.setdefault(finding.check_id, []).append(finding)
    return found


def bucket_of(summary: CheckSummary, findings: list[Finding], mode: str) -> str:
    if is_out_of_reach(summary, findings, mode):
        return OUT_OF_REACH
    return summary.status.value


def tally(report: ScanReport) -> dict[str, int]:
    """Checks per bucket; the values add up to the number of checks run."""
    by_check = _by_check(report)
    counts = dict.fromkeys(BUCKETS, 0)
    for summary in report.checks:
        counts[bucket_of(summary, by_check[summary.check_id], report.mode)] += 1
    return counts


def finding_counts(report: ScanReport) -> dict[str, int]:
    """Findings by status, leaving out those of out-of-reach checks (placeholders, not verdicts)."""
    by_check = _by_check(report)
    reached = {
        summary.check_id
        for summary in report.checks
        if not is_out_of_reach(summary, by_check[summary.check_id], report.mode)
    }
    counted = Counter(count_key(finding) for finding in report.findings if finding.check_id in reached)
    return {key: counted.get(key, 0) for key in COUNT_KEYS}


# The coverage statuses each cause is about, so a group names only the kinds behind its own cause.
_CAUSE_STATUSES = {
    "forbidden": frozenset({"forbidden"}),
    "unreadable": frozenset({"failed", "partial", "malformed"}),
    "not-collected": frozenset({"not-collected"}),
}


def _kinds_named(summary: CheckSummary, findings: list[Finding], cause: str) -> list[str]:
    """The kinds behind a check's unknowns for this cause: the unread kinds its findings name (for
    a check that cannot work on files, what it needs)."""
    wanted = _CAUSE_STATUSES.get(cause)
    kinds: list[str] = []
    for finding in findings:
        kind = finding.evidence.get("kind")
        coverage = finding.evidence.get("coverage")
        if (
            isinstance(kind, str)
            and finding.status is Status.unknown
            and (wanted is None or coverage in wanted)
        ):
            kinds.append(kind)
        unread = finding.evidence.get("unread")
        if isinstance(unread, dict):
            kinds.extend(str(key) for key, status in unread.items() if wanted is None or status in wanted)
    if not kinds and any(finding.reason == "manifests-mode" for finding in findings):
        kinds.extend(summary.meta.needs or summary.meta.optional[:2])
    kinds.extend(kind for kind, status in summary.unread.items() if wanted is None or status in wanted)
    return list(dict.fromkeys(kinds))


def _cause(findings: list[Finding]) -> str:
    reasons = [finding.reason for finding in findings if finding.status is Status.unknown]
    for cause in _CAUSE_ORDER:
        if cause in reasons or (cause == "unrendered" and any("unrendered" in r for r in reasons)):
            return "unreadable" if cause in _UNREADABLE_CAUSES else cause
    return sorted(set(reasons))[0] if reasons else "unknown"


def unknown_groups(report: ScanReport) -> list[UnknownGroup]:
    """One group per cause: the out-of-reach checks first, then the causes in the order to act on them."""
    by_check = _by_check(report)
    grouped: dict[str, list[tuple[CheckSummary, list[Finding]]]] = {}
    for summary in report.checks:
        findings = by_check[summary.check_id]
        if is_out_of_reach(summary, findings, report.mode):
            grouped.setdefault(OUT_OF_REACH, []).append((summary, findings))
        elif summary.status is Status.unknown:
            grouped.setdefault(_cause(findings), []).append((summary, findings))
    order = [
        OUT_OF_REACH,
        *dict.fromkeys("unreadable" if cause in _UNREADABLE_CAUSES else cause for cause in _CAUSE_ORDER),
    ]
    causes = sorted(grouped, key=lambda cause: (order.index(cause) if cause in order else len(order), cause))
    groups = []
    for cause in causes:
        members = grouped[cause]
        kinds = Counter(
            kind for summary, findings in members for kind in _kinds_named(summary, findings, cause)
        )
        wanted = _CAUSE_STATUSES.get(cause)
        statuses = [
            status
            for summary, _ in members
            for status in summary.unread.values()
            if wanted is None or status in wanted
        ]
        example = next(
            (f.message for _, findings in members for f in findings if f.status is Status.unknown), ""
        )
        groups.append(
            UnknownGroup(
                cause=cause,
                checks=tuple(summary.check_id for summary, _ in members),
                kinds=tuple(sorted(kinds, key=lambda kind: (-kinds[kind], _kind_order(kind)))),
                statuses=tuple(sorted(set(statuses))),
                example=example,
            )
        )
    return groups


def _kind_order(kind: str) -> tuple[int, str]:
    """Among kinds as often needed, core ones (Node, Pod) before grouped ones."""
    return (kind.count("/"), kind)


def read_not_checked(report: ScanReport) -> list[CoverageRow]:
    """Kinds the input held that no check understood: read, but nothing was decided about them."""
    return [row for row in report.coverage if row.status == "read" and row.objects and not row.checked]
