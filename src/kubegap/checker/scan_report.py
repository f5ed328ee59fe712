"""The result of one scan: findings plus everything a reader needs to trust them (coverage, source, counts).

Every renderer (table, JSON, Markdown, SARIF, MCP, web) reads this one object. It is plain data; the
runner builds it and `filtered()` narrows what is shown without changing the summaries.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from kubegap.checker.check import CheckMeta
from kubegap.checker.finding import Finding, Severity, Status
from kubegap.checker.symptoms import SymptomReport

# 1.1: summary.unreadable, coverage malformed/partial; 1.2: summary.skippedFiles; 1.3: summary.checkCounts,
# unknownGroups and readNotChecked, coverage[].checked, findings[].object.document; 1.4: symptoms
SCHEMA_VERSION = "1.4"

# Worst first: the status a check shows in the summary is the worst of its findings.
STATUS_ORDER: tuple[Status, ...] = (Status.failed, Status.unknown, Status.passed, Status.not_applicable)
_STATUS_RANK = {status: index for index, status in enumerate(STATUS_ORDER)}
COUNT_KEYS = ("fail", "exempted", "unknown", "pass", "not-applicable")


def count_key(finding: Finding) -> str:
    """The counter a finding falls in; an exempted fail is counted apart from open fails."""
    if finding.status is Status.failed and finding.exempted_by:
        return "exempted"
    return finding.status.value


def is_open_fail(finding: Finding) -> bool:
    return finding.status is Status.failed and not finding.exempted_by


def finding_sort_key(finding: Finding) -> tuple[int, int, int, str, str]:
    return (
        _STATUS_RANK[finding.status],
        1 if finding.exempted_by else 0,
        -finding.severity.rank,
        finding.check_id,
        finding.object.display(),
    )


@dataclass(frozen=True)
class CheckSummary:
    """One check's outcome: its worst status and how many findings of each kind it produced."""

    meta: CheckMeta
    status: Status
    counts: dict[str, int]
    # Kinds the check reads that were not read whole, with their coverage status: why it cannot pass.
    unread: dict[str, str] = field(default_factory=dict)

    @property
    def check_id(self) -> str:
        return self.meta.id

    @property
    def unknown_from_coverage(self) -> bool:
        """Unknown (not fail) and unreadable kinds are among the reasons: reading more would decide it."""
        return self.status is Status.unknown and bool(self.unread)


def worst_first(summaries: Iterable[CheckSummary]) -> list[CheckSummary]:
    """Checks ordered for reading: fails before unknowns before passes, higher severity first, then id."""
    return sorted(
        summaries, key=lambda item: (_STATUS_RANK[item.status], -item.meta.severity.rank, item.meta.id)
    )


@dataclass(frozen=True)
class CoverageRow:
    """What the scan could read of one kind, and which checks wanted it."""

    kind: str
    status: str  # a Coverage value
    detail: str
    objects: int
    needed_by: tuple[str, ...] = ()
    optional_for: tuple[str, ...] = ()
    # A check reads this kind (it needs it, uses it when present, or found something about one of its
    # objects). False for a kind the input held that no check understands: "read, not checked".
    checked: bool = True


@dataclass(frozen=True)
class UnreadableSummary:
    """How many checks stayed unknown because kinds could not be read, and which kinds, for the summary."""

    checks: int = 0
    forbidden_checks: int = 0  # of those, the ones a forbidden kind held back: `kubegap rbac` fixes these
    kinds: dict[str, str] = field(default_factory=dict)  # kind -> coverage status, over those checks

    @property
    def fix(self) -> str:
        return "kubegap rbac" if self.forbidden_checks else ""

    def sentence(self, lang: str = "en") -> str:
        """One line for the summary of every face: how many, which kinds, and the fix for a 403."""
        if not self.checks:
            return ""
        by_status: dict[str, list[str]] = {}
        for kind, status in self.kinds.items():
            by_status.setdefault(status, []).append(kind)
        listed = "; ".join(f"{status}: {_few(kinds)}" for status, kinds in sorted(by_status.items()))
        ko = lang == "ko"
        if ko:
            line = f"읽지 못한 종류(kind)가 있어 점검 항목 {self.checks}개가 판단 불가입니다({listed})."
        else:
            checks = "1 check is" if self.checks == 1 else f"{self.checks} checks are"
            line = f"{checks} unknown because kinds they read could not be read in full ({listed})."
        advice = [_ADVICE[status][0 if ko else 1] for status in _ADVICE if status in by_status]
        if not advice:
            advice = [_AGAIN[0 if ko else 1]]
        return " ".join([line, *advice])


# What to do about each cause, in the order shown (ko, en); the fix for a 403 comes first.
_ADVICE = {
    "forbidden": (
        "해결: `kubegap rbac` 명령으로 읽기 전용 ClusterRole을 만들어 적용한 뒤 다시 스캔하세요.",
        "Fix: `kubegap rbac` prints the read-only ClusterRole they need; apply it and scan again.",
    ),
    "not-collected": (
        "kubectl 출력에는 설치되지 않은 CRD가 드러나지 않으니, "
        "`kubegap snapshot -o FILE`로 받은 스냅숏을 쓰세요.",
        "A kubectl dump cannot show which CRDs are not installed; "
        "a `kubegap snapshot -o FILE` file records it.",
    ),
}
_AGAIN = ("전부 읽을 수 있을 때 다시 스캔하세요.", "Scan again once they can be read in full.")


def _few(kinds: list[str], limit: int = 6) -> str:
    shown = ", ".join(kinds[:limit])
    return shown + (f" (+{len(kinds) - limit})" if len(kinds) > limit else "")


def summarize(
    meta: CheckMeta, findings: Iterable[Finding], unread: dict[str, str] | None = None
) -> CheckSummary:
    counts = Counter(count_key(finding) for finding in findings)
    if counts.get("fail"):
        status = Status.failed
    elif counts.get("unknown"):
        status = Status.unknown
    elif counts.get("pass") or counts.get("exempted"):
        status = Status.passed
    else:
        status = Status.not_applicable
    return CheckSummary(
        meta=meta,
        status=status,
        counts={key: counts.get(key, 0) for key in COUNT_KEYS},
        unread=dict(unread or {}),
    )


@dataclass
class ScanReport:
    findings: list[Finding]
    checks: list[CheckSummary]
    coverage: list[CoverageRow]
    source: str
    mode: str
    kubegap_version: str
    started_at: str
    finished_at: str
    requests: int = 0
    kubeconfig: str = ""  # live only
    context: str = ""  # live only
    snapshot_created_at: str = ""
    namespaces: tuple[str, ...] = ()  # the namespace selection, empty for all
    notes: list[str] = field(default_factory=list)  # skipped inputs, expired exemptions, ...
    skipped_files: list[str] = field(default_factory=list)  # input files that could not be read
    symptoms: SymptomReport | None = None  # what the cluster already shows (None: manifests, not asked)
    schema_version: str = SCHEMA_VERSION

    @property
    def counts(self) -> dict[str, int]:
        """Findings by status (open fails and exempted fails apart), over the findings shown."""
        counted = Counter(count_key(finding) for finding in self.findings)
        return {key: counted.get(key, 0) for key in COUNT_KEYS}

    @property
    def objects_read(self) -> int:
        """Objects the scan read (of every kind it read); 0 for input that held no Kubernetes object."""
        return sum(row.objects for row in self.coverage if row.status == "read")

    @property
    def severity_counts(self) -> dict[str, int]:
        """Open fails by severity."""
        counted = Counter(finding.severity.value for finding in self.findings if is_open_fail(finding))
        return {severity.value: counted.get(severity.value, 0) for severity in Severity}

    @property
    def unreadable(self) -> UnreadableSummary:
        """Checks unknown because kinds they read were forbidden, failed, malformed, partial or unread."""
        held = [summary for summary in self.checks if summary.unknown_from_coverage]
        kinds: dict[str, str] = {}
        for summary in held:
            kinds.update(summary.unread)
        forbidden = sum(1 for summary in held if "forbidden" in summary.unread.values())
        return UnreadableSummary(
            checks=len(held), forbidden_checks=forbidden, kinds=dict(sorted(kinds.items()))
        )

    def meta(self, check_id: str) -> CheckMeta | None:
        return next((summary.meta for summary in self.checks if summary.meta.id == check_id), None)

    def failing(self, threshold: Severity) -> list[Finding]:
        """Open (not exempted) fails at or above the threshold: what makes the exit code 1."""
        return [f for f in self.findings if is_open_fail(f) and f.severity.rank >= threshold.rank]

    def exit_code(self, fail_on: Severity | None, *, skipped_ok: bool = False) -> int:
        """2 when input files were skipped (the scan saw less than it was given), else 1 on fails."""
        if self.skipped_files and not skipped_ok:
            return 2
        if fail_on is None:
            return 0
        return 1 if self.failing(fail_on) else 0

    def filtered(
        self, statuses: Iterable[str] | None = None, min_severity: Severity | None = None
    ) -> ScanReport:
        """A copy showing only some findings (e.g. fails of high and above); summaries stay whole."""
        wanted = {str(status) for status in statuses} if statuses else None
        kept = [
            finding
            for finding in self.findings
            if (wanted is None or finding.status.value in wanted or count_key(finding) in wanted)
            and (min_severity is None or finding.severity.rank >= min_severity.rank)
        ]
        return replace(self, findings=kept)
