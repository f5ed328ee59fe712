"""The typed results of kubegap's MCP tools: their JSON Schemas are the tools' output schemas.

Every list here is bounded by the code that fills it; a `truncated` note says what was left out and
which call brings the rest, so an agent never has to guess whether it saw everything. Field names
avoid words such as "token" or "secret": the redaction chokepoint hides values kept under such names.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class _Out(BaseModel):
    """Output models are plain data; fields keep their declared order in the schema and in JSON."""


# ---- scans ---------------------------------------------------------------------------------------------


class FindingView(_Out):
    check_id: str
    status: str = Field(description="fail | exempted | unknown | pass | not-applicable")
    severity: str = Field(description="critical | high | medium | low | info")
    object: str = Field(description="Kind/namespace/name, or Cluster/cluster for cluster-wide findings")
    message: str
    evidence: str = Field(default="", description="key=value facts behind the verdict, shortened")
    reason: str = Field(default="", description="why an unknown is unknown (forbidden, kind-absent, ...)")
    file: str = Field(default="", description="manifests only: the file and line the object came from")


class CheckOutcome(_Out):
    id: str
    title: str
    severity: str = Field(description="the worst severity among this check's fail/unknown findings")
    status: str = Field(description="the worst status among this check's findings")
    counts: dict[str, int]


class CoverageProblem(_Out):
    kind: str
    status: str = Field(description="forbidden | absent | failed | malformed | partial | not-collected")
    detail: str
    needed_by: list[str] = Field(description="checks that cannot decide without this kind")
    optional_for: list[str] = Field(
        default_factory=list,
        description="checks that read this kind when it exists: while it is unreadable they cannot pass",
    )


class ScanSummary(_Out):
    """What a scan found, summary first; drill in with get_findings(scan_id=..., check_id=...)."""

    scan_id: str = Field(description="pass to get_findings to see every finding of this scan")
    source: str
    mode: str = Field(description="live | snapshot | manifests | demo")
    kubeconfig: str = Field(description="live scans: the kubeconfig file read ('' otherwise)")
    context: str = Field(description="live scans: the kubeconfig context used ('' otherwise)")
    namespaces: list[str] = Field(description="the namespaces selected; empty means all")
    min_severity: str = Field(description="findings below this severity were left out ('' for none)")
    api_requests: int = Field(description="HTTP GET requests sent to the cluster (live scans)")
    counts: dict[str, int] = Field(description="findings by status; exempted fails are counted apart")
    fail_by_severity: dict[str, int] = Field(description="open fails by severity")
    checks_run: int
    unknown_from_unreadable_kinds: int = Field(
        description="checks that are unknown because kinds they read were forbidden, failed, malformed, "
        "partial or not collected"
    )
    unreadable_note: str = Field(
        description="which kinds kept those checks unknown, and the fix (`kubegap rbac` when the cause is "
        "403); '' when none"
    )
    checks_needing_attention: list[CheckOutcome] = Field(
        description="checks that failed or could not decide, worst first"
    )
    coverage_problems: list[CoverageProblem] = Field(
        description="kinds the scan could not read, and the checks that therefore answer unknown"
    )
    top_findings: list[FindingView] = Field(description="the worst open fails (then unknowns) first")
    notes: list[str]
    truncated: list[str] = Field(description="what was left out of this summary and how to get it")
    next_step: str


class FindingsPage(_Out):
    scan_id: str
    check_id: str = Field(description="'' when the page covers every check")
    status: str = Field(description="the status filter, '' for all")
    total: int = Field(description="findings matching the filters")
    offset: int
    findings: list[FindingView]
    next_offset: int | None = Field(description="pass as offset for the next page; null at the end")
    remediation: str = Field(default="", description="how to fix a failing check (when check_id is given)")
    truncated: str = Field(default="", description="set when more findings exist than this page shows")


# ---- checks --------------------------------------------------------------------------------------------


class CheckBrief(_Out):
    id: str
    title: str
    severity: str
    area: str
    works_on_manifests: bool
    incidents_cited: int


class CheckList(_Out):
    total: int
    areas: list[str] = Field(description="every area, for the area filter")
    checks: list[CheckBrief]


class CheckExplanation(_Out):
    id: str
    title: str
    severity: str
    area: str
    why: str
    decides: str = Field(description="how the check reaches its verdict")
    remediation: str
    reads: list[str] = Field(description="Kubernetes kinds the check needs (read-only LIST)")
    reads_when_present: list[str]
    works_on_manifests: bool
    incidents: list[IncidentLink] = Field(description="public incidents this check guards against")
    references: list[str]
    resource_uri: str


# ---- incidents -----------------------------------------------------------------------------------------


class FacetCount(_Out):
    term: str = Field(description="the term id, usable as a filter value")
    label: str
    count: int


class IncidentLink(_Out):
    id: str
    title: str
    url: str


class ErrorBrief(_Out):
    id: str
    title: str
    meaning: str


class ErrorExplanation(_Out):
    id: str
    family: str
    code: str
    title: str
    patterns: list[str]
    meaning: str
    usual_action: str
    incidents: list[IncidentLink]
    study_rows: list[str] = Field(description="fleet-study rows that count this error")
    guarded_by_checks: list[str] = Field(description="ids of kubegap checks that guard against it")
    related: list[str] = Field(description="ids of related catalog entries")
    sources: list[dict[str, str]]
    url: str


class ErrorExplanations(_Out):
    text: str
    entries: list[ErrorExplanation]
    note: str = ""


class IncidentBrief(_Out):
    id: str
    title: str
    date: str
    organization: str
    organization_id: str = Field(description="usable as an organization filter value")
    scope: str = Field(description="ai-infra or platform, usable as a scope filter value")
    summary: str
    causes: list[str]
    matched_error_signatures: list[str] = Field(
        description="error lines from the case that occur in the pasted text"
    )
    url: str


class IncidentSearch(_Out):
    query: str
    filters: dict[str, list[str]]
    since: str = Field(default="", description="the first day searched, when limited")
    until: str = Field(default="", description="the last day searched, when limited")
    ignored_filters: list[str] = Field(
        description="facet values the taxonomy does not know and dates that are not dates (ignored)"
    )
    range: str = Field(description="'1-10 of 23' or '23건 중 1~10번째'")
    total: int
    page: int
    page_count: int
    incidents: list[IncidentBrief]
    facets: dict[str, list[FacetCount]] = Field(
        description="the most frequent values of each facet among all matches, for narrowing"
    )
    recurring_components: list[FacetCount]
    note: str = Field(default="", description="how the text was matched when the whole of it matched nothing")
    truncated: str = Field(default="", description="how to get the next page, when there is one")
    error_catalog: list[ErrorBrief] = Field(
        default_factory=list, description="catalog entries whose patterns the text contains (explain_error)"
    )
    nearby_terms: list[str] = Field(
        default_factory=list, description="library words close to the query, when nothing matched"
    )


class SimilarCase(_Out):
    id: str
    title: str
    reasons: list[str]


class IncidentDetail(_Out):
    id: str
    title: str
    date: str
    end_date: str
    organization: str
    organization_id: str
    summary: str
    environment: dict[str, Any]
    sections: dict[str, Any] = Field(
        description="symptom, trigger, cause, contributing_factors, detection, actions, follow_ups, lessons"
    )
    tags: dict[str, list[FacetCount]]
    impact: dict[str, Any]
    error_signatures: list[str]
    sources: list[dict[str, str]]
    guarded_by_checks: list[CheckBrief] = Field(description="kubegap checks that cite this incident")
    similar: list[SimilarCase]
    url: str


# ---- symptoms ------------------------------------------------------------------------------------------


class SymptomView(_Out):
    symptom: str = Field(
        description="the error-catalog entry (xid-79) or a Kubernetes signal (k8s:oom-killed)"
    )
    title: str
    catalog_entry: bool = Field(description="true when the error catalog matched; explain_error says more")
    place: str = Field(description="'node NAME', or the workload ('Job ns/name', 'Deployment ns/name')")
    distinct: int = Field(description="distinct events or signals, each counted once")
    occurrences: int = Field(description="times the events happened (their counts added up)")
    first_seen: str
    last_seen: str
    incidents: list[str] = Field(
        description="public incidents that share this symptom: get_incident reads one"
    )
    checks: list[str] = Field(description="checks whose gaps let this symptom spread: explain_check says why")
    open_gaps: list[str] = Field(description="those checks the scan found failing (scan_id answers only)")
    example: str = Field(description="one message of the group, redacted and shortened")


class SymptomsAnswer(_Out):
    """What the cluster is already showing, most telling first (catalog matches, then by count)."""

    status: str = Field(description="read, or unknown when Events could not be read (never 'no symptoms')")
    reason: str = Field(description="why unknown ('' when read)")
    window: str = Field(description="the time window Events were counted in")
    symptom_events: int = Field(description="distinct events in the window that are symptoms")
    symptoms: list[SymptomView]
    unread_signals: dict[str, str] = Field(
        description="signal kinds not read, so their symptoms may be missing"
    )
    truncated: list[str] = Field(description="what was left out and how to get it")
