"""Fleet study pages: each study's table as a server-drawn SVG bar chart, with period, fleet and sources.

Studies count failures by kind over a fleet and a period; they put the single stories of the library
in proportion. The chart has a table twin (in a disclosure) for screen readers and for copying figures.
"""

from __future__ import annotations

from dataclasses import dataclass

from kubegap.knowledge.model import FACETS, Study
from kubegap.text import Lang
from kubegap.web import urls
from kubegap.web.cards import TermLink, term_link
from kubegap.web.chart import BarChart, ChartRow, bar_chart, row_figure
from kubegap.web.incident_page import SourceLink, source_links
from kubegap.web.labels import t
from kubegap.web.site import Site


@dataclass(frozen=True, slots=True)
class StudyRowView:
    category: str
    count: int | None
    count_text: str
    share_percent: float | None
    figure: str
    terms: tuple[TermLink, ...]


@dataclass(frozen=True, slots=True)
class StudySummary:
    id: str
    title: str
    summary: str
    organization: str
    period: str
    fleet: str
    url: str
    chart: BarChart


@dataclass(frozen=True, slots=True)
class StudiesPage:
    kind: str
    lang: str
    title: str
    studies: tuple[StudySummary, ...]


@dataclass(frozen=True, slots=True)
class StudyPage:
    kind: str
    lang: str
    title: str
    summary: str
    organization: str
    period: str
    period_start: str
    period_end: str
    fleet: str
    fleet_gpus: int | None
    measure: str
    total: int | None
    total_label: str
    rows: tuple[StudyRowView, ...]
    chart: BarChart
    sources: tuple[SourceLink, ...]
    lessons: str


def _chart(study: Study, lang: Lang) -> BarChart:
    rows = [ChartRow(row.category.get(lang), row.count, row.share_percent) for row in study.rows]
    return bar_chart(f"chart-{study.id}", study.title.get(lang), study.measure.get(lang), rows, study.total)


def build_studies_page(site: Site, lang: Lang) -> StudiesPage:
    studies = tuple(
        StudySummary(
            study.id,
            study.title.get(lang),
            study.summary.get(lang),
            site.knowledge.taxonomy.organization_name(study.organization, lang),
            study.period.get(lang),
            study.fleet.get(lang),
            urls.study_url(lang, study.id),
            _chart(study, lang),
        )
        for study in site.knowledge.studies
    )
    return StudiesPage("studies", lang, t("studies.title", lang), studies)


def build_study_page(site: Site, study_id: str, lang: Lang) -> StudyPage | None:
    study = site.knowledge.study(study_id)
    if study is None:
        return None
    taxonomy = site.knowledge.taxonomy
    rows = tuple(
        StudyRowView(
            row.category.get(lang),
            row.count,
            f"{row.count:,}" if row.count is not None else "",
            row.share_percent,
            row_figure(row.count, row.share_percent, study.total),
            tuple(
                term_link(taxonomy, lang, facet, term)
                for facet in FACETS
                for term in row.tags.by_facet()[facet]
            ),
        )
        for row in study.rows
    )
    return StudyPage(
        kind="study",
        lang=lang,
        title=study.title.get(lang),
        summary=study.summary.get(lang),
        organization=taxonomy.organization_name(study.organization, lang),
        period=study.period.get(lang),
        period_start=study.period_start.isoformat() if study.period_start else "",
        period_end=study.period_end.isoformat() if study.period_end else "",
        fleet=study.fleet.get(lang),
        fleet_gpus=study.fleet_gpus,
        measure=study.measure.get(lang),
        total=study.total,
        total_label=f"{study.total:,}" if study.total is not None else "",
        rows=rows,
        chart=_chart(study, lang),
        sources=source_links(study.sources, lang),
        lessons=study.lessons.get(lang) if study.lessons else "",
    )
