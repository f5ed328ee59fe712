"""The coverage rule, applied by the runner to every check: no pass and no not-applicable on unseen data.

A check may say "pass" or "not applicable" only about what it saw. When a kind it reads (needed or
optional) exists on the server but was not read in full (forbidden, failed, malformed, partial, not in
the snapshot), a counter-example may hide in what was not seen, so the runner turns every pass and
not-applicable of that check into `unknown` naming those kinds. Fails stay: they were seen. A kind
the server does not serve at all (`absent`) holds nothing and changes nothing.

Checks need no code for this; the meta-test in tests/checks/test_coverage_honesty.py runs every check
against every fixture with each of its kinds in turn unreadable and holds this module to it.
"""

from __future__ import annotations

from dataclasses import replace

from kubegap.bilingual import Message, message, render_any
from kubegap.checker.check import CheckMeta
from kubegap.checker.coverage_text import detail_text, status_label
from kubegap.checker.finding import CLUSTER, Finding, Status
from kubegap.checker.snapshot import UNREADABLE, Coverage, KindCoverage, Snapshot

# Which reason an unknown carries when several kinds were unreadable: the one the user can fix first
# (a 403 is fixed with `kubegap rbac`), then the ones a retry may fix.
_REASON_ORDER = (
    Coverage.forbidden,
    Coverage.failed,
    Coverage.partial,
    Coverage.malformed,
    Coverage.not_collected,
)
_REASONS = {
    Coverage.forbidden: "forbidden",
    Coverage.absent: "kind-absent",
    Coverage.failed: "failed",
    Coverage.malformed: "malformed",
    Coverage.partial: "partial",
    Coverage.not_collected: "not-collected",
}
# The `reason` of findings the rule produced or changed; reports count checks unknown for these.
COVERAGE_REASONS = frozenset({*(_REASONS[status] for status in UNREADABLE), "timed-out"})
_HELD_BACK = (Status.passed, Status.not_applicable)
_DETAIL_CHARS = 200


def coverage_reason(coverage: KindCoverage) -> str:
    """The `unknown` reason for a kind that was not read; a failed read that timed out says so."""
    if coverage.status is Coverage.failed and "timed out" in coverage.detail.lower():
        return "timed-out"
    return _REASONS.get(coverage.status, coverage.status.value)


def unreadable_kinds(meta: CheckMeta, snapshot: Snapshot) -> dict[str, KindCoverage]:
    """The kinds the check reads (needed or optional) that exist or may exist but were not read whole."""
    found = {}
    for kind in dict.fromkeys((*meta.needs, *meta.optional)):
        coverage = snapshot.status_of(kind)
        if coverage.status in UNREADABLE:
            found[kind] = coverage
    return found


def _described(kind: str, coverage: KindCoverage) -> Message:
    detail = " ".join(coverage.detail.split())
    if len(detail) > _DETAIL_CHARS:
        detail = detail[:_DETAIL_CHARS] + "…"
    status = coverage.status.value
    ko_detail = detail_text(detail, "ko")
    return message(
        "{kind:이} {ko_status} 상태{ko_detail}",
        "{kind} was {status}{detail}",
        kind=kind,
        status=status,
        ko_status=status_label(status, "ko"),
        detail=f" ({detail})" if detail else "",
        ko_detail=f"({ko_detail})" if ko_detail else "",
    )


_VERDICT_KO = {"pass": "통과", "not-applicable": "해당 없음"}
_WHAT_KO = {"cannot decide": "판단할 수 없습니다", "not checked": "확인하지 않았습니다"}


def _first_reason(unreadable: dict[str, KindCoverage]) -> str:
    by_status = {coverage.status: coverage for coverage in unreadable.values()}
    status = next(status for status in _REASON_ORDER if status in by_status)
    return coverage_reason(by_status[status])


def unread_kind_finding(meta: CheckMeta, kind: str, coverage: KindCoverage, what: str) -> Finding:
    """One cluster-wide unknown saying which kind could not be read and why."""
    return Finding(
        check_id=meta.id,
        status=Status.unknown,
        severity=meta.severity,
        object=CLUSTER,
        message=_said(what, _described(kind, coverage)),
        evidence={"kind": kind, "coverage": coverage.status.value, "detail": coverage.detail},
        reason=coverage_reason(coverage),
    )


def hold_back(meta: CheckMeta, findings: list[Finding], unreadable: dict[str, KindCoverage]) -> list[Finding]:
    """Findings with every pass and not-applicable turned into unknown when a kind read was unreadable.

    The changed finding keeps its object and says what it would have been (`evidence.verdictOnWhatWasRead`)
    so nothing the check found is lost. When nothing was changed (the check only failed, or said
    nothing), one cluster-wide unknown per unreadable kind says what was not looked at.
    """
    if not unreadable:
        return findings
    reason = _first_reason(unreadable)
    described = [_described(kind, coverage) for kind, coverage in unreadable.items()]
    named = "; ".join(described)
    ko_named = "; ".join(part.render("ko") for part in described)
    statuses = {kind: coverage.status.value for kind, coverage in unreadable.items()}
    result = []
    changed = False
    for finding in findings:
        if finding.status not in _HELD_BACK:
            result.append(finding)
            continue
        changed = True
        result.append(
            replace(
                finding,
                status=Status.unknown,
                reason=reason,
                message=message(
                    "{ko_status} 판정을 확정할 수 없습니다: {ko_named}. 읽은 것만으로는: {ko_was}",
                    "cannot confirm {status}: {named}; what was read: {was}",
                    status=finding.status.value,
                    ko_status=_VERDICT_KO.get(finding.status.value, finding.status.value),
                    named=named,
                    ko_named=ko_named,
                    was=str(finding.message),
                    ko_was=render_any(finding.message, "ko"),
                ),
                evidence={
                    **finding.evidence,
                    "verdictOnWhatWasRead": finding.status.value,
                    "unread": statuses,
                },
            )
        )
    if not changed:
        what = "not checked" if result else "cannot decide"
        result.extend(
            unread_kind_finding(meta, kind, coverage, what) for kind, coverage in unreadable.items()
        )
    return result


def _said(what: str, described: Message) -> Message:
    return message(
        "{ko_what}: {ko_described}",
        "{what}: {described}",
        what=what,
        ko_what=_WHAT_KO.get(what, what),
        described=str(described),
        ko_described=described.render("ko"),
    )
