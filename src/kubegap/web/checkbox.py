"""The "check it in my cluster" box: recurring components, the checks that guard them, how to run kubegap.

It sits beside the results on the list page and on facet pages, so the step from reading about an
outage to looking for the same gap in one's own cluster is one click or one command away.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kubegap.library.query import FacetValue
from kubegap.text import Lang, count_label
from kubegap.web import urls
from kubegap.web.cluster_status import ClusterBadge, cluster_badges
from kubegap.web.labels import t
from kubegap.web.site import Site

CLAUDE_COMMAND = "claude mcp add kubegap -- kubegap mcp"
CODEX_CONFIG = '[mcp_servers.kubegap]\ncommand = "kubegap"\nargs = ["mcp"]\nenv_vars = ["KUBECONFIG"]'
CLI_COMMAND = "kubegap scan"
MAX_COMPONENTS = 5


@dataclass(frozen=True, slots=True)
class ComponentCount:
    id: str
    label: str
    count: int
    url: str


@dataclass(frozen=True, slots=True)
class CheckLink:
    id: str
    title: str
    severity: str
    severity_label: str
    url: str
    cluster: ClusterBadge | None = None  # the check's status in the scanned cluster, when there is a report


@dataclass(frozen=True, slots=True)
class RunHow:
    label: str
    code: str


@dataclass(frozen=True, slots=True)
class CheckBox:
    recurring_label: str
    components: tuple[ComponentCount, ...]
    checks: tuple[CheckLink, ...]
    run: tuple[RunHow, ...]


def check_link(
    site: Site, check_id: str, lang: Lang, badges: dict[str, ClusterBadge] | None = None
) -> CheckLink | None:
    """A check as a link with its severity, and its cluster status when `badges` (or the site) has one."""
    check = site.check(check_id)
    if check is None:
        return None
    severity = check.severity.value
    found = cluster_badges(site, lang) if badges is None else badges
    return CheckLink(
        check.id,
        check.title.get(lang),
        severity,
        t(f"severity.{severity}", lang),
        urls.check_url(lang, check.id),
        found.get(check.id),
    )


def run_instructions(lang: Lang) -> tuple[RunHow, ...]:
    return (
        RunHow(t("run.claude", lang), CLAUDE_COMMAND),
        RunHow(t("run.codex", lang), CODEX_CONFIG),
        RunHow(t("run.cli", lang), CLI_COMMAND),
    )


def build_check_box(site: Site, recurring: Sequence[FacetValue], total: int, lang: Lang) -> CheckBox:
    shown = [value for value in recurring if value.count > 0][:MAX_COMPONENTS]
    components = tuple(
        ComponentCount(
            value.term_id, value.label, value.count, urls.term_url(lang, "component", value.term_id)
        )
        for value in shown
    )
    guarding = site.checks_guarding([value.term_id for value in shown])
    badges = cluster_badges(site, lang)
    links = tuple(
        link for check in guarding if (link := check_link(site, check.id, lang, badges)) is not None
    )
    return CheckBox(
        recurring_label=t("checkbox.recurring", lang, count=count_label(total, lang)),
        components=components,
        checks=links,
        run=run_instructions(lang),
    )
