"""The case page: every section, sources, impact figures, error signatures, terms, similar cases, checks.

Near the top: the sources (publication and access dates, archived copies), the case's short id, when
its record was added and last changed, and how to cite it (plain text and BibTeX); the head carries a
description and social-preview tags. The checks that cite the incident are shown when there are
some; when none do, the incident's own `cluster_visibility` note says what a cluster can and cannot
show, or we say plainly that no kubegap check covers it yet. Either way the reader learns whether
kubegap can help with this one.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from kubegap.errors import NotFoundError
from kubegap.knowledge.model import FACETS, Incident, Source, in_language
from kubegap.text import Lang
from kubegap.web import urls
from kubegap.web.cards import IncidentCard, TermLink, build_card, term_link
from kubegap.web.checkbox import CheckLink, RunHow, check_link, run_instructions
from kubegap.web.citation import Citation, build_citation, short_id
from kubegap.web.labels import t
from kubegap.web.site import Site

SIMILAR_LIMIT = 5


@dataclass(frozen=True, slots=True)
class SourceLink:
    title: str
    url: str
    publisher: str
    kind: str
    kind_label: str
    published: str
    archive_url: str
    accessed: str = ""
    dates_label: str = ""  # "published 2024-06-01 · accessed 2025-01-10", what the record knows


def source_links(sources: Sequence[Source], lang: Lang) -> tuple[SourceLink, ...]:
    links = []
    for source in sources:
        published = source.published.isoformat() if source.published else ""
        accessed = source.accessed.isoformat() if source.accessed else ""
        dates = [t("source.published", lang, date=published)] if published else []
        dates += [t("source.accessed", lang, date=accessed)] if accessed else []
        links.append(
            SourceLink(
                source.title,
                source.url,
                source.publisher,
                source.kind.value,
                t(f"source.{source.kind.value}", lang),
                published,
                source.archive_url or "",
                accessed,
                " · ".join(dates),
            )
        )
    return tuple(links)


@dataclass(frozen=True, slots=True)
class Figure:
    key: str
    label: str
    value: str


@dataclass(frozen=True, slots=True)
class Signature:
    text: str
    note: str


@dataclass(frozen=True, slots=True)
class TermGroup:
    facet: str
    label: str
    terms: tuple[TermLink, ...]


@dataclass(frozen=True, slots=True)
class SimilarCase:
    id: str
    title: str
    date: str
    url: str
    reasons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class IncidentPage:
    kind: str
    lang: str
    title: str
    card: IncidentCard
    environment: tuple[Figure, ...]
    sources: tuple[SourceLink, ...]
    impact: tuple[Figure, ...]
    impact_notes: str
    signatures: tuple[Signature, ...]
    taxonomy: tuple[TermGroup, ...]
    similar: tuple[SimilarCase, ...]
    checks: tuple[CheckLink, ...]
    cluster_visibility: str
    run: tuple[RunHow, ...]
    short_id: str = ""
    canonical_url: str = ""
    meta_description: str = ""
    added: str = ""
    updated: str = ""
    citation: Citation | None = None
    og_locale: str = ""


META_DESCRIPTION_CHARS = 200


def build_incident_page(
    site: Site, incident_id: str, lang: Lang, base_url: str = "", today: dt.date | None = None
) -> IncidentPage | None:
    try:
        incident = site.library.incident(incident_id)
    except NotFoundError:
        return None
    if incident is None:
        return None
    taxonomy = site.knowledge.taxonomy
    checks = tuple(
        link for check in site.checks_citing(incident.id) if (link := check_link(site, check.id, lang))
    )
    visibility = (
        incident.cluster_visibility.get(lang) if incident.cluster_visibility else t("case.no-check", lang)
    )
    tags = incident.tags.by_facet()
    dates = site.incident_dates(incident.id)
    canonical = base_url + urls.incident_url(lang, incident.id)
    short = short_id(incident.id)
    citation = build_citation(
        incident, lang, canonical, base_url + urls.short_url(short), dates.updated, today or dt.date.today()
    )
    return IncidentPage(
        kind="incident",
        lang=lang,
        title=incident.title.get(lang),
        card=build_card(incident, taxonomy, lang),
        environment=_environment(incident, lang),
        sources=source_links(incident.sources, lang),
        impact=_impact(incident, lang),
        impact_notes=incident.impact.notes.get(lang) if incident.impact.notes else "",
        signatures=tuple(
            Signature(signature.text, signature.note.get(lang) if signature.note else "")
            for signature in incident.error_signatures
        ),
        taxonomy=tuple(
            TermGroup(
                facet,
                t(f"facet.{facet}", lang),
                tuple(term_link(taxonomy, lang, facet, i) for i in tags[facet]),
            )
            for facet in FACETS
            if tags[facet]
        ),
        similar=_similar(site, incident.id, lang),
        checks=checks,
        cluster_visibility="" if checks else visibility,
        run=run_instructions(lang),
        short_id=short,
        canonical_url=canonical,
        meta_description=_clipped(incident.summary.get(lang), META_DESCRIPTION_CHARS),
        added=dates.added,
        updated=dates.updated,
        citation=citation,
        og_locale="ko_KR" if lang == "ko" else "en_US",
    )


def _clipped(text: str, limit: int) -> str:
    """One line of at most `limit` characters, cut at a word with an ellipsis."""
    line = " ".join(text.split())
    if len(line) <= limit:
        return line
    return line[: limit - 1].rsplit(" ", 1)[0] + "…"


def _similar(site: Site, incident_id: str, lang: Lang) -> tuple[SimilarCase, ...]:
    found = site.library.similar(incident_id, SIMILAR_LIMIT, lang=lang)
    return tuple(
        SimilarCase(
            item.incident.id,
            item.incident.title.get(lang),
            item.incident.date.isoformat(),
            urls.incident_url(lang, item.incident.id),
            tuple(item.reasons(lang)),
        )
        for item in found
    )


def _number(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.1f}"


_IMPACT_UNITS = {
    "duration_hours": "unit.hours",
    "gpus_affected": "unit.gpus",
    "restarts": "unit.times",
    "training_time_lost_hours": "unit.hours",
    "error_rate_percent": "unit.percent",
}


def _impact(incident: Incident, lang: Lang) -> tuple[Figure, ...]:
    figures: list[Figure] = []
    for key, unit in _IMPACT_UNITS.items():
        value = getattr(incident.impact, key)
        if value is not None:
            figures.append(Figure(key, t(f"impact.{key}", lang), t(unit, lang, value=_number(value))))
    return tuple(figures)


def _known(key: str, lang: Lang) -> str | None:
    """The label of an enum value, or None for 'unknown' (which says nothing worth a row)."""
    return None if key.endswith(".unknown") else t(key, lang)


def _environment(incident: Incident, lang: Lang) -> tuple[Figure, ...]:
    environment = incident.environment
    values = {
        "deployment": _known(f"deployment.{environment.deployment.value}", lang),
        "orchestrator": _known(f"orchestrator.{environment.orchestrator.value}", lang),
        "accelerator": in_language(environment.accelerator, lang),
        "scale_gpus": f"{environment.scale_gpus:,}" if environment.scale_gpus else None,
        "provider": in_language(environment.provider, lang),
    }
    return tuple(Figure(key, t(f"env.{key}", lang), value) for key, value in values.items() if value)
