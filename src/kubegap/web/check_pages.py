"""The check catalog: every kubegap check with why it exists, what it reads, how it decides, how to fix.

Built from each check's `CheckMeta`, the same metadata the scanner and the generated docs use, so the
catalog cannot disagree with what `kubegap scan` does. Cited incidents link to their case pages.
"""

from __future__ import annotations

from dataclasses import dataclass

from kubegap.checker.check import CheckMeta
from kubegap.errors import NotFoundError
from kubegap.text import Lang
from kubegap.web import urls
from kubegap.web.cards import TermLink, term_link
from kubegap.web.checkbox import RunHow, run_instructions
from kubegap.web.cluster_status import ClusterBadge, cluster_badges
from kubegap.web.labels import t
from kubegap.web.site import Site


@dataclass(frozen=True, slots=True)
class CheckSummary:
    id: str
    title: str
    why: str
    severity: str
    severity_label: str
    area: str
    area_label: str
    url: str
    cluster: ClusterBadge | None = None  # the check's status in the scanned cluster, when there is a report


@dataclass(frozen=True, slots=True)
class AreaGroup:
    area: str
    label: str
    checks: tuple[CheckSummary, ...]


@dataclass(frozen=True, slots=True)
class ChecksPage:
    kind: str
    lang: str
    title: str
    areas: tuple[AreaGroup, ...]
    run: tuple[RunHow, ...]


@dataclass(frozen=True, slots=True)
class CitedIncident:
    id: str
    title: str
    date: str
    url: str


@dataclass(frozen=True, slots=True)
class CheckPage:
    kind: str
    lang: str
    title: str
    summary: CheckSummary
    decides: str
    remediation: str
    needs: tuple[str, ...]
    optional: tuple[str, ...]
    manifests: bool
    incidents: tuple[CitedIncident, ...]
    components: tuple[TermLink, ...]
    references: tuple[str, ...]
    run: tuple[RunHow, ...]


def _summary(check: CheckMeta, lang: Lang, badges: dict[str, ClusterBadge]) -> CheckSummary:
    severity = check.severity.value
    return CheckSummary(
        check.id,
        check.title.get(lang),
        check.why.get(lang),
        severity,
        t(f"severity.{severity}", lang),
        check.area,
        t(f"area.{check.area}", lang),
        urls.check_url(lang, check.id),
        badges.get(check.id),
    )


def build_checks_page(site: Site, lang: Lang) -> ChecksPage:
    areas: dict[str, list[CheckSummary]] = {}
    badges = cluster_badges(site, lang)
    for check in site.checks:
        areas.setdefault(check.area, []).append(_summary(check, lang, badges))
    groups = tuple(
        AreaGroup(area, t(f"area.{area}", lang), tuple(found)) for area, found in sorted(areas.items())
    )
    return ChecksPage("checks", lang, t("checks.title", lang), groups, run_instructions(lang))


def build_check_page(site: Site, check_id: str, lang: Lang) -> CheckPage | None:
    check = site.check(check_id)
    if check is None:
        return None
    taxonomy = site.knowledge.taxonomy
    cited: list[CitedIncident] = []
    for incident_id in check.incidents:
        try:
            incident = site.library.incident(incident_id)
        except NotFoundError:
            cited.append(CitedIncident(incident_id, incident_id, "", ""))
            continue
        cited.append(
            CitedIncident(
                incident.id,
                incident.title.get(lang),
                incident.date.isoformat(),
                urls.incident_url(lang, incident.id),
            )
        )
    return CheckPage(
        kind="check",
        lang=lang,
        title=check.title.get(lang),
        summary=_summary(check, lang, cluster_badges(site, lang)),
        decides=check.decides.get(lang),
        remediation=check.remediation.get(lang),
        needs=check.needs,
        optional=check.optional,
        manifests=check.manifests,
        incidents=tuple(cited),
        components=tuple(term_link(taxonomy, lang, "component", component) for component in check.components),
        references=check.references,
        run=run_instructions(lang),
    )
