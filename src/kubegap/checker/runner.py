"""Run checks honestly: a check never runs on data that was not read, and never crashes a scan.

For each check, a needed kind that is not `read` becomes one `unknown` finding saying why (forbidden,
kind-absent, failed, malformed, partial, not-collected), and of what the check then says only the
fails that hold whatever that kind contains are kept (`Finding.holds_without`: one CoreDNS replica is
a gap whatever PodDisruptionBudgets exist). A check that runs
while one of its optional kinds was unreadable keeps its fails, but its passes and not-applicables
become `unknown` naming the kind (see `verdicts`): the rule lives here, once, and checks need no code
for it. A check that raises becomes one `unknown` finding with reason `check-error`. Then exemptions
mark accepted fails, the namespace selection drops findings about objects in other namespaces
(cluster-scoped findings always stay), and findings are sorted worst first.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import replace

from kubegap import __version__
from kubegap.checker.exemptions import ExemptionSet, apply_exemptions
from kubegap.checker.finding import CLUSTER, Finding, Status
from kubegap.checker.registry import CheckModule, select_checks
from kubegap.checker.scan_report import CoverageRow, ScanReport, finding_sort_key, summarize
from kubegap.checker.snapshot import Coverage, KindCoverage, Snapshot, kind_key
from kubegap.checker.symptoms.events import EVENT_KINDS
from kubegap.checker.verdicts import coverage_reason, hold_back, unread_kind_finding, unreadable_kinds
from kubegap.redaction import redact_text

__all__ = ["coverage_reason", "coverage_table", "run_checks", "run_one"]

SECRET_COVERAGE = KindCoverage(Coverage.not_collected, "never read: kubegap does not read Secrets")


def _now() -> str:
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _unread_needs(check: CheckModule, snapshot: Snapshot) -> list[Finding]:
    """One unknown per needed kind not read; when there is one, unreadable optional kinds are named too,
    so the reasons (and the `kubegap rbac` fix for a 403) are complete before anyone re-runs."""
    findings = []
    for need in check.meta.needs:
        coverage = snapshot.status_of(need)
        if coverage.status is not Coverage.read:
            findings.append(unread_kind_finding(check.meta, need, coverage, "cannot decide"))
    if findings:
        for kind, coverage in unreadable_kinds(check.meta, snapshot).items():
            if kind not in check.meta.needs:
                findings.append(unread_kind_finding(check.meta, kind, coverage, "cannot decide"))
    return findings


def _not_for_manifests(check: CheckModule) -> Finding:
    return Finding(
        check_id=check.id,
        status=Status.not_applicable,
        severity=check.meta.severity,
        object=CLUSTER,
        message="needs live cluster state (such as node status); manifest files cannot show it",
        reason="manifests-mode",
    )


def _check_error(check: CheckModule, error: BaseException) -> Finding:
    first_line = (str(error).strip().splitlines() or [""])[0]
    message = f"the check failed: {type(error).__name__}" + (f": {first_line}" if first_line else "")
    return Finding(
        check_id=check.id,
        status=Status.unknown,
        severity=check.meta.severity,
        object=CLUSTER,
        message=redact_text(message, limit=300),
        reason="check-error",
    )


def _fails_that_hold(check: CheckModule, snapshot: Snapshot, unread: list[Finding]) -> list[Finding]:
    """With a needed kind not read, the check still runs; the fails it declares to hold whatever that
    kind contains (`Finding.holds_without`) are kept beside the unknowns, nothing else is."""
    missing = {need for need in check.meta.needs if snapshot.status_of(need).status is not Coverage.read}
    try:
        found = list(check.run(snapshot))
    except Exception:
        return unread
    kept = [
        finding
        for finding in found
        if isinstance(finding, Finding)
        and finding.status is Status.failed
        and missing <= set(finding.holds_without)
    ]
    return [*kept, *unread]


def run_one(check: CheckModule, snapshot: Snapshot) -> list[Finding]:
    """The findings of one check, with the honesty rules applied; never raises on a check's bug."""
    if snapshot.mode == "manifests" and not check.meta.manifests:
        return [_not_for_manifests(check)]
    unread = _unread_needs(check, snapshot)
    if unread:
        return _fails_that_hold(check, snapshot, unread)
    try:
        findings = list(check.run(snapshot))
        for finding in findings:
            if not isinstance(finding, Finding):
                raise TypeError(f"run() yielded {type(finding).__name__}, not Finding")
    except Exception as error:
        return [_check_error(check, error)]
    return hold_back(check.meta, findings, unreadable_kinds(check.meta, snapshot))


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
                moved = replace(ref, source_file=place[0], source_line=place[1], source_document=place[2])
                finding = replace(finding, object=moved)
        located.append(finding)
    return located


def _in_namespaces(finding: Finding, namespaces: frozenset[str]) -> bool:
    return not finding.object.namespace or finding.object.namespace in namespaces


def coverage_table(
    snapshot: Snapshot,
    checks: Sequence[CheckModule],
    findings: Iterable[Finding] = (),
    understood: Iterable[str] = (),
) -> list[CoverageRow]:
    """Every kind the checks wanted or the source reported, with its status and object count.

    A kind is `checked` when a check declares it (one of `checks`, or of `understood`: the kinds every
    shipped check reads, so `--check X` does not call the rest unchecked) or a finding is about one of
    its objects (a check may find pod templates in any CRD); the rest were read but understood by no
    check.
    """
    about = {kind_key(finding.object.api_version, finding.object.kind) for finding in findings}
    about |= {finding.object.kind for finding in findings} | set(understood)
    about |= set(EVENT_KINDS)  # no check reads Events, but the symptoms section does
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
                checked=kind in needed or kind in optional or kind in about,
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
    understood = (
        {kind for check in select_checks(None) for kind in (*check.meta.needs, *check.meta.optional)}
        if checks is None
        else set()
    )
    summaries = []
    findings: list[Finding] = []
    for check in selected:
        produced = run_one(check, snapshot)
        produced = apply_exemptions(_locate(produced, snapshot), snapshot, exemptions, honour_annotations)
        if selection:
            produced = [finding for finding in produced if _in_namespaces(finding, selection)]
        unread = {
            kind: coverage.status.value for kind, coverage in unreadable_kinds(check.meta, snapshot).items()
        }
        summaries.append(summarize(check.meta, produced, unread))
        findings.extend(produced)
    findings.sort(key=finding_sort_key)
    notes = list(snapshot.notes) + (exemptions.notes() if exemptions else [])
    return ScanReport(
        findings=findings,
        checks=summaries,
        coverage=coverage_table(snapshot, selected, findings, understood),
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
        skipped_files=list(snapshot.skipped_files),
    )
