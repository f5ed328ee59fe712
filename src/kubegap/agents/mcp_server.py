"""`kubegap mcp`: the read-only MCP server for Claude Code, Codex and other MCP hosts (stdio).

Each tool is a typed function with a docstring that calls the same plain functions as the CLI
(`run_scan`, the Library, the check registry). Three rules hold for every tool:

- read-only: every tool is annotated read-only, idempotent and not destructive; only the live scan
  reaches outside (open world), through the GET-only client that never reads Secrets;
- bounded and redacted: results are summaries with capped lists and truncation notes, and every
  outgoing string passes `kubegap.redaction` in one middleware (`agents/mcp_redaction.py`);
- one-sentence errors: a KubegapError becomes a tool error with its one line, never a traceback.

Importing this module must stay light (the host waits for `initialize`): the checker, the library
and the kubernetes client are imported inside the tools.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from kubegap.agents import mcp_resources  # noqa: F401  (registers the resources and the prompt)
from kubegap.agents.mcp_app import (
    ID_CHARS,
    PATH_CHARS,
    READS_CLUSTER,
    CheckIds,
    FacetFilter,
    Lang,
    MinSeverity,
    server,
    tool,
)
from kubegap.agents.mcp_language import server_lang
from kubegap.agents.mcp_models import (
    CheckExplanation,
    CheckList,
    ErrorExplanations,
    FindingsPage,
    IncidentDetail,
    IncidentSearch,
    ScanSummary,
)
from kubegap.errors import ClusterError

if TYPE_CHECKING:
    from kubegap.checker.scan_report import ScanReport

__all__ = ["serve_stdio", "server"]


# ---- scans ---------------------------------------------------------------------------------------------


@tool("Scan the live cluster (read-only)", READS_CLUSTER)
def scan_cluster(
    context: Annotated[
        str | None,
        Field(max_length=253, description="a context of the kubeconfig in use; default its current-context"),
    ] = None,
    kubeconfig: Annotated[
        str | None,
        Field(
            max_length=PATH_CHARS,
            description="usually leave out: the user's own kubeconfig is used. Only a file the server "
            "already reads is accepted (one started with `kubegap mcp --kubeconfig PATH`); any other path "
            "is refused",
        ),
    ] = None,
    namespaces: Annotated[
        list[Annotated[str, Field(max_length=63)]] | None,
        Field(max_length=100, description="only these namespaces; default all (cluster-wide kinds always)"),
    ] = None,
    checks: CheckIds = None,
    min_severity: MinSeverity = None,
    lang: Lang = None,
    scan_timeout: Annotated[
        int | None,
        Field(
            ge=5,
            le=1800,
            description="seconds the whole read may take; default sized to the cluster, 120 to 280 s",
        ),
    ] = None,
) -> ScanSummary:
    """Scan the live Kubernetes cluster of a kubeconfig context for gaps behind public AI-infrastructure
    incidents. Read-only: GET/LIST requests only, never Secrets. Reads only the user's own kubeconfig
    ($KUBECONFIG, else ~/.kube/config, else the pod's service account) or the files the server was
    started with (`kubegap mcp --kubeconfig PATH`), never a kubeconfig path a call invents; a
    credential plugin (exec) in those files runs as kubectl runs it, with no input and within the scan's
    time budget, and credentials go only to the API server of the chosen context. Returns a summary
    (counts by status and severity, unreadable kinds, the worst findings, the kubeconfig file and
    context used) and a scan_id for get_findings."""
    from kubegap.agents import mcp_scans
    from kubegap.checker.scanning import LiveTarget, ScanRequest, run_scan

    severity = mcp_scans.check_severity(min_severity)
    target = LiveTarget(**mcp_scans.live_options(kubeconfig, context, scan_timeout), progress=False)
    request = ScanRequest(live=target, check_ids=checks or None, namespaces=tuple(namespaces or ()))
    try:
        report = run_scan(request)
    except ClusterError as error:
        raise ToolError(mcp_scans.agent_hint(error.one_line())) from None
    return _summarize(report, severity, server_lang(lang))


@tool("Scan snapshot or manifest files")
def scan_files(
    paths: Annotated[
        list[Annotated[str, Field(max_length=PATH_CHARS)]],
        Field(max_length=50, description="files or folders; absolute paths are safest"),
    ],
    kind: Annotated[
        Literal["manifests", "snapshot"],
        Field(
            description="manifests: YAML/JSON you would kubectl apply; snapshot: kubectl get -o json "
            "output or a kubegap snapshot file"
        ),
    ] = "manifests",
    checks: CheckIds = None,
    min_severity: MinSeverity = None,
    lang: Lang = None,
) -> ScanSummary:
    """Scan Kubernetes manifest files (Helm or kustomize output, plain YAML) or a cluster snapshot for the
    same gaps as scan_cluster, without any cluster access. Reads only the files and folders named (real
    paths, symlinks resolved); refuses the filesystem root, the home folder or above it, system folders
    (/proc, /sys, /dev, /etc, ...) and credential folders (~/.kube, ~/.ssh, ~/.aws, ...); runs nothing.
    Returns the same summary and scan_id."""
    from kubegap.agents import mcp_paths, mcp_scans
    from kubegap.checker.scanning import ScanRequest, run_scan

    severity = mcp_scans.check_severity(min_severity)
    found = mcp_paths.existing_paths(paths)
    request = (
        ScanRequest(manifest_paths=found, check_ids=checks or None)
        if kind == "manifests"
        else ScanRequest(snapshot_paths=found, check_ids=checks or None)
    )
    return _summarize(run_scan(request), severity, server_lang(lang))


def _summarize(report: ScanReport, severity: str, lang: str) -> ScanSummary:
    """Keep the scan (only the findings at or above min_severity) and summarise it."""
    from kubegap.agents import mcp_scans
    from kubegap.checker.finding import Severity as SeverityLevel

    shown = report.filtered(min_severity=SeverityLevel(severity)) if severity else report
    scan_id = mcp_scans.scans.keep(shown)
    return mcp_scans.summarize_scan(scan_id, shown, severity, lang)


@tool("Page through the findings of a scan")
def get_findings(
    scan_id: Annotated[str, Field(max_length=40, description="the scan_id a scan returned")],
    check_id: Annotated[
        str | None, Field(max_length=ID_CHARS, description="only this check's findings")
    ] = None,
    status: Annotated[
        Literal["fail", "exempted", "unknown", "pass", "not-applicable"] | None,
        Field(description="only findings with this status"),
    ] = None,
    offset: Annotated[int, Field(ge=0, le=10_000_000, description="findings to skip")] = 0,
    limit: Annotated[int, Field(ge=1, le=100, description="findings to return (at most 100)")] = 20,
    lang: Lang = None,
) -> FindingsPage:
    """The findings of a recent scan (kept in memory, the last 8 scans), optionally of one check and one
    status, a page at a time, worst first: object, message, evidence and the check's remediation. Reads
    only those kept scans: no file, no cluster."""
    from kubegap.agents import mcp_scans

    report = mcp_scans.scans.get(scan_id.strip())
    return mcp_scans.findings_page(
        scan_id.strip(), report, check_id, status, offset, limit, server_lang(lang)
    )


# ---- checks --------------------------------------------------------------------------------------------


@tool("List kubegap's checks")
def list_checks(
    area: Annotated[
        str | None,
        Field(
            max_length=40,
            description="gpu-health, gpu-stack, training-jobs, fleet-change, control-plane or networking",
        ),
    ] = None,
    lang: Lang = None,
) -> CheckList:
    """Every check kubegap runs: id, title, severity, area, whether it works on manifest files, and how
    many public incidents it cites. Reads only kubegap's built-in checks."""
    from kubegap.agents.mcp_checks import list_checks as listed

    return listed(area, lang)


@tool("Explain one check")
def explain_check(
    check_id: Annotated[str, Field(max_length=ID_CHARS, description="a check id from list_checks or a scan")],
    lang: Lang = None,
) -> CheckExplanation:
    """Why a check matters, how it decides, how to fix a failure, which Kubernetes kinds it reads, and the
    public incidents it guards against (with links). Reads only kubegap's built-in checks and library."""
    from kubegap.agents.mcp_checks import explain_check as explained

    return explained(check_id, lang)


# ---- incidents -----------------------------------------------------------------------------------------


@tool("Search public AI-infrastructure incidents")
def search_incidents(
    query: Annotated[
        str, Field(max_length=1000, description="words in English or Korean; empty lists everything")
    ] = "",
    cause: FacetFilter = None,
    component: FacetFilter = None,
    symptom: FacetFilter = None,
    contributing_factor: FacetFilter = None,
    organization: Annotated[
        list[Annotated[str, Field(max_length=200)]] | None,
        Field(
            max_length=20,
            description="organisation ids or names, OR-ed; a parent includes its parts (microsoft: GitHub)",
        ),
    ] = None,
    scope: Annotated[
        list[Literal["ai-infra", "platform"]] | None,
        Field(
            max_length=2,
            description="ai-infra: failures of the infrastructure that trains or serves models; platform: "
            "Kubernetes and cloud incidents outside AI workloads; omit for both",
        ),
    ] = None,
    since: Annotated[
        str | None,
        Field(
            max_length=10,
            description="only incidents that began on or after this day: YYYY, YYYY-MM or YYYY-MM-DD",
        ),
    ] = None,
    until: Annotated[
        str | None,
        Field(
            max_length=10,
            description="only incidents that began on or before this day: YYYY, YYYY-MM or YYYY-MM-DD",
        ),
    ] = None,
    lang: Lang = None,
    page: Annotated[int, Field(ge=1, le=100_000, description="result page, 10 incidents each")] = 1,
) -> IncidentSearch:
    """Search the library of public incident reports (GPU faults, NCCL hangs, InfiniBand, Kubernetes
    control plane, inference serving) by words, facet filters, organisation, scope and date range.
    Returns one page of short cases plus the most frequent facet values among all matches (term ids
    usable as filters, organisation ids included). Reads only kubegap's bundled library: no file of
    yours, no network."""
    from kubegap.agents.mcp_library import search_incidents as searched

    filters = {
        "cause": cause or [],
        "component": component or [],
        "symptom": symptom or [],
        "contributing-factor": contributing_factor or [],
        "organization": organization or [],
        "scope": [str(value) for value in scope or []],
    }
    return searched(query, filters, lang, page, since=since, until=until)


@tool("Read one incident")
def get_incident(
    incident_id: Annotated[
        str, Field(max_length=ID_CHARS, description="an incident id from a search or a check")
    ],
    lang: Lang = None,
) -> IncidentDetail:
    """One public incident in full: symptom, trigger, cause, contributing factors, detection, actions,
    follow-ups and lessons, tags, sources, the kubegap checks that guard against it, and similar cases.
    Reads only kubegap's bundled library."""
    from kubegap.agents.mcp_library import incident_detail

    return incident_detail(incident_id, lang)


@tool("Find incidents by a pasted error")
def find_incidents_by_error(
    error_text: Annotated[
        str,
        Field(
            max_length=20_000,
            description="a pasted log or error line, e.g. an NCCL watchdog timeout or an Xid",
        ),
    ],
    lang: Lang = None,
) -> IncidentSearch:
    """Find public incidents whose quoted error messages occur in a pasted log or error text (exact
    signatures first, then word matches). Use get_incident on the best match. Reads only the text given
    and kubegap's bundled library."""
    from kubegap.agents.mcp_library import find_by_error

    if not error_text.strip():
        raise ToolError("error_text is empty; paste the error or log line")
    return find_by_error(error_text, lang)


@tool("Explain an error code or message")
def explain_error(
    error: Annotated[
        str,
        Field(
            max_length=20_000,
            description='an Xid code ("Xid 79"), a pasted log line, or a catalog id such as xid-94',
        ),
    ],
    lang: Lang = None,
) -> ErrorExplanations:
    """What an error means and the usual action, from kubegap's catalog of GPU, NCCL, CUDA/NVML,
    InfiniBand, Kubernetes and etcd errors (sourced from NVIDIA, PyTorch, etcd and Kubernetes
    documentation), with the public incidents and fleet-study rows that involve it and the kubegap
    checks that guard against it. Reads only the text given and kubegap's bundled catalog."""
    from kubegap.agents.mcp_library import explain_error as explained

    if not error.strip():
        raise ToolError("error is empty; paste the error code or log line")
    return explained(error, lang)


def serve_stdio() -> None:
    """Serve on stdin/stdout until the host closes the pipe. Nothing else may write to stdout: the SDK
    logs to stderr (warnings and worse), live scans run without a progress bar, and while serving the
    SDK points file descriptor 1 at stderr so even a stray print cannot corrupt the protocol.

    Nothing is preloaded before `initialize` is answered: a warm-up at import was measured and made
    `initialize` slower (its imports compete with the SDK's). Once the host confirms the handshake,
    the tools' imports and the library index load in a daemon thread (`mcp_warmup.py`), so the first
    search costs what a later one does. The Korean analyser (Kiwi, about a second, holding the
    interpreter while it loads) loads only when a query has a Korean word that neither the corpus
    nor the per-user word cache knows (see library/word_cache.py)."""
    server.run("stdio")
