"""Scans for the MCP tools: run one through the shared `run_scan`, keep it, and show it in bounded pieces.

An agent reads a summary first (counts, coverage, the worst findings) and asks for details by scan id
and check id. Scans are kept in a small in-memory LRU, so a big cluster's 10,000 findings are never
sent at once and never read from the cluster twice.
"""

from __future__ import annotations

import itertools
import re
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from kubegap.agents.mcp_models import CheckOutcome, CoverageProblem, FindingsPage, FindingView, ScanSummary
from kubegap.errors import NotFoundError, UsageError

if TYPE_CHECKING:
    from kubegap.checker.finding import Finding
    from kubegap.checker.scan_report import ScanReport

KEPT_SCANS = 8
MCP_SCAN_CEILING = 280.0  # seconds; the automatic live-scan budget of scan_cluster never grows past it
TOP_FINDINGS = 10
LISTED_CHECKS = 15
LISTED_COVERAGE = 15
LISTED_NOTES = 10
DEFAULT_PAGE = 20
MAX_PAGE = 100
MESSAGE_CHARS = 400
EVIDENCE_CHARS = 300
SEVERITIES = ("critical", "high", "medium", "low", "info")
STATUSES = ("fail", "exempted", "unknown", "pass", "not-applicable")
# Coverage statuses that keep a check from passing (kubegap.checker.snapshot.UNREADABLE, as strings:
# this module imports the checker lazily so the server starts fast).
_UNREADABLE = frozenset({"forbidden", "failed", "malformed", "partial", "not-collected"})


class ScanStore:
    """The last few scans by id, least recently used dropped first; shared by the server's worker threads."""

    def __init__(self, size: int = KEPT_SCANS) -> None:
        self._size = size
        self._scans: OrderedDict[str, ScanReport] = OrderedDict()
        self._lock = threading.Lock()
        self._numbers = itertools.count(1)

    def keep(self, report: ScanReport) -> str:
        with self._lock:
            scan_id = f"scan-{next(self._numbers)}"
            self._scans[scan_id] = report
            while len(self._scans) > self._size:
                self._scans.popitem(last=False)
            return scan_id

    def get(self, scan_id: str) -> ScanReport:
        with self._lock:
            report = self._scans.get(scan_id)
            if report is None:
                kept = ", ".join(self._scans) or "none"
                raise NotFoundError(
                    f"no scan {scan_id[:60]!r} is kept (kept: {kept}); run scan_cluster or scan_files again"
                )
            self._scans.move_to_end(scan_id)
            return report


scans = ScanStore()


def check_severity(value: str | None) -> str:
    """'' for no threshold; a known severity name; anything else a one-line usage error."""
    chosen = (value or "").strip().lower()
    if chosen and chosen not in SEVERITIES:
        raise UsageError(f"unknown severity {chosen[:40]!r}; use one of {', '.join(SEVERITIES)}")
    return chosen


def summarize_scan(scan_id: str, report: ScanReport, min_severity: str, lang: str) -> ScanSummary:
    """The summary an agent reads first; every list is capped and every cut is announced."""
    from kubegap.checker.finding import Severity, Status

    truncated: list[str] = []
    # A check's place and severity come from the findings shown (a check may fail one object at high and
    # another at low; min_severity may have hidden some), not from the check's default severity.
    worst: dict[str, Severity] = {}
    for finding in report.findings:
        if finding.status in (Status.failed, Status.unknown):
            known = worst.get(finding.check_id)
            if known is None or finding.severity.rank > known.rank:
                worst[finding.check_id] = finding.severity
    attention = [
        summary
        for summary in report.checks
        if summary.status in (Status.failed, Status.unknown) and summary.meta.id in worst
    ]
    attention.sort(
        key=lambda item: (item.status is not Status.failed, -worst[item.meta.id].rank, item.meta.id)
    )
    if len(attention) > LISTED_CHECKS:
        truncated.append(
            f"{len(attention) - LISTED_CHECKS} more checks need attention; call get_findings"
            f"(scan_id='{scan_id}') to page through every finding"
        )
    # Kinds only some checks use when present (CRDs) are left out when absent: that decides nothing.
    # Unreadable ones are in: they keep those checks from passing.
    problems = [
        row
        for row in report.coverage
        if row.status != "read" and (row.needed_by or (row.optional_for and row.status in _UNREADABLE))
    ]
    if len(problems) > LISTED_COVERAGE:
        truncated.append(f"{len(problems) - LISTED_COVERAGE} more unread kinds are not listed")
    worth = [finding for finding in report.findings if finding.status in (Status.failed, Status.unknown)]
    if len(worth) > TOP_FINDINGS:
        truncated.append(
            f"showing {TOP_FINDINGS} of {len(worth)} fail/unknown findings; call get_findings"
            f"(scan_id='{scan_id}', check_id=..., offset=..., limit=...) for the rest"
        )
    if len(report.notes) > LISTED_NOTES:
        truncated.append(f"{len(report.notes) - LISTED_NOTES} more notes are not listed")
    return ScanSummary(
        scan_id=scan_id,
        source=report.source,
        mode=report.mode,
        kubeconfig=report.kubeconfig,
        context=report.context,
        namespaces=list(report.namespaces),
        min_severity=min_severity,
        api_requests=report.requests,
        counts=report.counts,
        fail_by_severity=report.severity_counts,
        checks_run=len(report.checks),
        unknown_from_unreadable_kinds=report.unreadable.checks,
        unreadable_note=_short(report.unreadable.sentence(lang), MESSAGE_CHARS * 2),
        checks_needing_attention=[
            CheckOutcome(
                id=item.meta.id,
                title=item.meta.title.get(lang),
                severity=worst[item.meta.id].value,
                status=item.status.value,
                counts={key: value for key, value in item.counts.items() if value},
            )
            for item in attention[:LISTED_CHECKS]
        ],
        coverage_problems=[
            CoverageProblem(
                kind=row.kind,
                status=row.status,
                detail=_short(row.detail, MESSAGE_CHARS),
                needed_by=list(row.needed_by),
                optional_for=list(row.optional_for) if row.status in _UNREADABLE else [],
            )
            for row in problems[:LISTED_COVERAGE]
        ],
        top_findings=[finding_view(finding) for finding in worth[:TOP_FINDINGS]],
        notes=[_short(note, MESSAGE_CHARS) for note in report.notes[:LISTED_NOTES]],
        truncated=truncated,
        next_step=_next_step(scan_id, attention[0].meta.id if attention else ""),
    )


def findings_page(
    scan_id: str,
    report: ScanReport,
    check_id: str | None,
    status: str | None,
    offset: int,
    limit: int,
    lang: str,
) -> FindingsPage:
    """One page of a kept scan's findings, optionally for one check and one status."""
    from kubegap.checker.scan_report import count_key

    chosen_status = (status or "").strip().lower()
    if chosen_status and chosen_status not in STATUSES:
        raise UsageError(f"unknown status {chosen_status[:40]!r}; use one of {', '.join(STATUSES)}")
    meta = None
    if check_id:
        meta = report.meta(check_id)
        if meta is None:
            ran = ", ".join(summary.meta.id for summary in report.checks)
            raise NotFoundError(f"check {check_id[:80]!r} did not run in {scan_id} (it ran: {ran})")
    matching = [
        finding
        for finding in report.findings
        if (not check_id or finding.check_id == check_id)
        and (not chosen_status or count_key(finding) == chosen_status)
    ]
    offset = max(0, offset)
    limit = max(1, min(limit, MAX_PAGE))
    shown = matching[offset : offset + limit]
    end = offset + len(shown)
    more = end < len(matching)
    arguments = f"scan_id='{scan_id}'" + (f", check_id='{check_id}'" if check_id else "")
    return FindingsPage(
        scan_id=scan_id,
        check_id=check_id or "",
        status=chosen_status,
        total=len(matching),
        offset=offset,
        findings=[finding_view(finding) for finding in shown],
        next_offset=end if more else None,
        remediation=meta.remediation.get(lang) if meta else "",
        truncated=(
            f"showing {offset + 1}-{end} of {len(matching)}; call get_findings({arguments}, offset={end}) "
            "for the next page"
            if more
            else ""
        ),
    )


def finding_view(finding: Finding) -> FindingView:
    from kubegap.checker.reports._common import evidence_text, object_text
    from kubegap.checker.scan_report import count_key

    ref = finding.object
    return FindingView(
        check_id=finding.check_id,
        status=count_key(finding),
        severity=finding.severity.value,
        object=object_text(ref),  # each part redacted on its own, as every report does
        message=_short(finding.message, MESSAGE_CHARS),
        evidence=evidence_text(finding, limit=EVIDENCE_CHARS),
        reason=finding.reason,
        file=f"{ref.source_file}:{ref.source_line}" if ref.source_file else "",
    )


def _next_step(scan_id: str, worst_check: str) -> str:
    if not worst_check:
        return "Nothing failed or stayed unknown; explain_check describes what each check looked for."
    return (
        f"Call explain_check(check_id='{worst_check}') for why it matters and the incidents behind it, "
        f"and get_findings(scan_id='{scan_id}', check_id='{worst_check}') for every affected object."
    )


def _short(text: str, limit: int) -> str:
    """One line of at most `limit` characters, redacted before it is cut (a halved token is not
    recognised by the middleware's pass any more)."""
    from kubegap.redaction import redact_text

    return redact_text(" ".join(str(text).split()), limit=limit)


_CLI_HINT = re.compile(r"; try `kubegap scan --demo`.*$")


def agent_hint(message: str) -> str:
    """A cluster error's CLI hint (`kubegap scan --demo`) replaced by what an agent can do instead."""
    return _CLI_HINT.sub(
        "; the user can set KUBECONFIG for the server (Codex forwards it only with env_vars) or start it "
        "with `kubegap mcp --kubeconfig PATH`, or use scan_files on manifests or a snapshot.",
        message,
    )


def live_options(
    kubeconfig: str | None, context: str | None, scan_timeout: float | None = None
) -> dict[str, Any]:
    """The live target of a call: a kubeconfig the server may use (see mcp_kubeconfigs), or None for
    kubectl's own choice ($KUBECONFIG, then ~/.kube/config, then the pod's service account)."""
    from kubegap.agents.mcp_kubeconfigs import choose
    from kubegap.checker.live.limits import LiveLimits

    return {
        "kubeconfig": choose(kubeconfig),
        "context": (context or None),
        # Without scan_timeout the budget is sized to the cluster but ends before a host's usual
        # 300 s tool timeout, so the agent gets the partial answer rather than a timeout.
        "limits": LiveLimits(
            scan_timeout=float(scan_timeout) if scan_timeout else None, scan_ceiling=MCP_SCAN_CEILING
        ),
    }
