"""The MCP resources (an incident or a check as Markdown) and the `cluster_gap_review` prompt."""

from __future__ import annotations

from collections.abc import Callable

from mcp.server.mcpserver.exceptions import ResourceNotFoundError

from kubegap.agents.mcp_app import ID_CHARS, ensure_backends, server
from kubegap.agents.mcp_language import server_lang
from kubegap.errors import KubegapError, UsageError


@server.resource(
    "kubegap://incidents/{incident_id}",
    name="incident",
    title="A public incident (Markdown)",
    description="One public AI-infrastructure incident report, all nine sections, in Markdown.",
    mime_type="text/markdown",
)
def incident_resource(incident_id: str) -> str:
    from kubegap.agents.mcp_library import incident_markdown

    return _resource(lambda: incident_markdown(_bounded_id("incident", incident_id)))


@server.resource(
    "kubegap://checks/{check_id}",
    name="check",
    title="A kubegap check (Markdown)",
    description="What one check looks for, why, how to fix it, and the incidents it cites, in Markdown.",
    mime_type="text/markdown",
)
def check_resource(check_id: str) -> str:
    from kubegap.agents.mcp_checks import check_markdown

    return _resource(lambda: check_markdown(_bounded_id("check", check_id)))


def _bounded_id(what: str, value: str) -> str:
    """Ids in resource URIs are bounded like tool arguments, before any lookup or pattern sees them."""
    if len(value) > ID_CHARS:
        raise UsageError(f"the {what} id in the URI is too long: at most {ID_CHARS} characters")
    return value


def _resource(render: Callable[[], str]) -> str:
    try:
        ensure_backends()
        return render()
    except KubegapError as error:
        raise ResourceNotFoundError(error.one_line(server_lang())) from None


@server.prompt(title="Review a cluster for known outage gaps")
def cluster_gap_review(context: str = "", namespace: str = "") -> str:
    """Walk through a read-only kubegap review of a cluster and explain each gap with real incidents."""
    target = f"the kubeconfig context {context!r}" if context else "the current kubeconfig context"
    scope = f" in namespace {namespace!r}" if namespace else ""
    arguments = ", ".join(
        part
        for part in (
            f"context={context!r}" if context else "",
            f"namespaces=[{namespace!r}]" if namespace else "",
        )
        if part
    )
    return (
        f"Review {target}{scope} with kubegap, which only reads (GET requests, never Secrets).\n"
        f"1. Call scan_cluster({arguments}) without a kubeconfig path (it reads my own kubeconfig). If it "
        "says no kubeconfig was found, ask me which context to use, or offer scan_files on a snapshot or "
        "manifests folder.\n"
        "2. Summarise the counts, the kubeconfig and context used, and any kinds that could not be read "
        "(say which permission is missing; never call an unknown a pass).\n"
        "3. For each failed check, worst first, call explain_check and get_findings, then tell me what "
        "happened in the cited incidents and why the same gap matters here.\n"
        "4. Propose the remediation as a manifest change for me to review; do not apply anything."
    )
