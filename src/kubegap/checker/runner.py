"""Run checks honestly: a check never runs on data that was not read, and never crashes a scan.

For each check, a needed kind that is not `read` becomes one `unknown` finding saying why (forbidden,
kind-absent, failed, not-collected) and the check is skipped. A check that raises becomes one `unknown`
finding with reason `check-error`. Then exemptions mark accepted fails, the namespace selection drops
findings about objects in other namespaces (cluster-scoped findings always stay), and findings are
sorted worst first.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import replace

from kubegap import __version__
from kubegap.bilingual import message
from kubegap.checker.coverage_text import MANIFESTS_MESSAGE, coverage_message
from kubegap.checker.exemptions import ExemptionSet, apply_exemptions
from kubegap.checker.finding import CLUSTER, Finding, ObjectRef, Status
from kubegap.checker.registry import CheckModule, select_checks
from kubegap.checker.scan_report import CoverageRow, ScanReport, finding_sort_key, summarize
from kubegap.checker.snapshot import Coverage, KindCoverage, Snapshot, kind_key
from kubegap.redaction import redact_text

SECRET_COVERAGE = KindCoverage(Coverage.not_collected, "never read: kubegap does not read Secrets")

_REASONS = {
    Coverage.forbidden: "forbidden",
    Coverage.absent: "kind-absent",
    Coverage.failed: "failed",
    Coverage.not_collected: "not-collected",
}


def coverage_reason(coverage: KindCoverage) -> str:
    """The `unknown` reason for a kind that was not read; a failed read that timed out says so."""
    if coverage.status is Coverage.failed and "timed out" in coverage.detail.lower():
        return "timed-out"
    return _REASONS.get(coverage.status, coverage.status.value)


def _now() -> str:
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _unread_needs(check: CheckModule, snapshot: Snapshot) -> list[Finding]:
    findings = []
    for need in check.meta.needs:
        coverage = snapshot.status_of(need)
        if coverage.status is Coverage.read:
            continue
        said = coverage_message(need, coverage)
        findings.append(
            Finding(
                check_id=check.id,
                status=Status.unknown,
                severity=check.meta.severity,
                object=CLUSTER,
                message=said,
                evidence={"kind": need, "coverage": coverage.status.value, "detail": coverage.detail},
                reason=coverage_reason(coverage),
            )
        )
    return findings


def _not_for_manifests(check: CheckModule) -> Finding:
    return Finding(
        check_id=check.id,
        status=Status.not_applicable,
        severity=check.meta.severity,
        object=CLUSTER,
        message=MANIFESTS_MESSAGE,
        reason="manifests-mode",
    )


def _check_error(check: CheckModule, error: BaseException) -> Finding:
    first_line = redact_text((str(error).strip().splitlines() or [""])[0], limit=200)
    said = message(
        "점검 코드가 실패했습니다: {error}",
        "the check failed: {error}",
        error=type(error).__name__ + (f": {first_line}" if first_line else ""),
    )
    return Finding(
        check_id=check.id,
        status=Status.unknown,
        severity=check.meta.severity,
        object=CLUSTER,
        message=said,
        reason="check-error",
    )


def run_one(check: CheckModule, snapshot: Snapshot) -> list[Finding]:
    """The findings of one check, with the honesty rules applied; never raises on a check's bug."""
    if snapshot.mode == "manifests" and not check.meta.manifests:
        return [_not_for_manifests(check)]
    unread = _unread_needs(check, snapshot)
    if unread:
        return unread
    try:
        findings = list(check.run(snapshot))
        for finding in findings:
            if not isinstance(finding, Finding):
                raise TypeError(f"run() yielded {type(finding).__name__}, not Finding")
    except Exception as error:
        return [_check_error(check, error)]
    return findings


def _locate(findings: list[Finding], snapshot: Snapshot) -> list[Finding]:
    """Give findings about manifest objects their file and line (for SARIF), if the check did not."""
    if not snapshot.locations:
        return findings
    located = []
    for finding in findings:
        ref = finding.object
        if not ref.source_file:
            keys = [(kind_key(ref.api_version, ref.kind), ref.namespace, ref.name)] if ref.api_version else []
            keys.append((ref.kind, ref.namespace, ref.name))
            place = next((snapshot.locations[key] for key in keys if key in snapshot.locations), None)
            if place is not None:
                moved = ObjectRef(ref.kind, ref.name, ref.namespace, ref.api_version, place[0], place[1])
                finding = replace(finding, object=moved)
        located.append(finding)
    return located


def _in_namespaces(finding: Finding, namespaces: frozenset[str]) -> bool:
    return not finding.object.namespace or finding.object.namespace in namespaces


def coverage_table(snapshot: Snapshot, checks: Sequence[CheckModule]) -> list[CoverageRow]:
    """Every kind the checks wanted or the source reported, with its status and object count."""
    needed: dict[str, list[str]] = {}
    optional: dict[str, list[str]] = {}
    for check in checks:
        for kind in check.meta.needs:
            needed.setdefault(kind, []).append(check.id)
        for kind in check.meta.optional:
            optional.setdefault(kind, []).append(check.id)
    kinds = sorted(set(needed) | set(optional) | set(snapshot.coverage) | set(snapshot.kinds()))
    rows = []
    for kind in kinds:
        coverage = snapshot.status_of(kind)
        rows.append(
            CoverageRow(
                kind=kind,
                status=coverage.status.value,
                detail=coverage.detail,
                objects=len(snapshot.of(kind)),
                needed_by=tuple(needed.get(kind, ())),
                optional_for=tuple(optional.get(kind, ())),
            )
        )
    if "Secret" not in kinds:
        rows.append(CoverageRow("Secret", SECRET_COVERAGE.status.value, SECRET_COVERAGE.detail, 0))
    return rows


def run_checks(
    snapshot: Snapshot,
    check_ids: Iterable[str] | None = None,
    namespaces: Iterable[str] | None = None,
    exemptions: ExemptionSet | None = None,
    honour_annotations: bool = True,
    checks: Sequence[CheckModule] | None = None,
) -> ScanReport:
    """Run the selected checks (default: all registered; `checks` overrides discovery) into a ScanReport."""
    started_at = _now()
    selected = list(checks) if checks is not None else select_checks(check_ids)
    if checks is not None and check_ids:
        wanted = set(check_ids)
        selected = [check for check in selected if check.id in wanted]
    selection = frozenset(namespaces or ())
    summaries = []
    findings: list[Finding] = []
    for check in selected:
        produced = run_one(check, snapshot)
        produced = apply_exemptions(_locate(produced, snapshot), snapshot, exemptions, honour_annotations)
        if selection:
            produced = [finding for finding in produced if _in_namespaces(finding, selection)]
        summaries.append(summarize(check.meta, produced))
        findings.extend(produced)
    findings.sort(key=finding_sort_key)
    notes = list(snapshot.notes) + (exemptions.notes() if exemptions else [])
    return ScanReport(
        findings=findings,
        checks=summaries,
        coverage=coverage_table(snapshot, selected),
        source=snapshot.source,
        mode=snapshot.mode,
        kubegap_version=__version__,
        started_at=started_at,
        finished_at=_now(),
        requests=snapshot.requests,
        kubeconfig=snapshot.kubeconfig,
        context=snapshot.context,
        snapshot_created_at=snapshot.created_at,
        namespaces=tuple(sorted(selection)),
        notes=notes,
    )
