"""Fleet study pages: each study's table as a server-drawn SVG bar chart, with period, fleet and sources.

Studies count failures by kind over a fleet and a period; they put the single stories of the library
in proportion. The index is a compact list under a jump table (organisation, study, GPUs): each entry
gives the summary's first sentence, the three largest rows and a link to the study's page, which has
the chart. Bars are sorted and grouped by the rows' cause tags at the second level of the cause tree
(GPU faults together, network faults together), the level at which studies group their own
categories. Every chart has a table twin for screen readers and for copying figures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kubegap.knowledge.loader import Taxonomy
from kubegap.knowledge.model import FACETS, Study, StudyRow
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
    wide_chart: BarChart
    rows: tuple[StudyRowView, ...] = ()
    anchor: str = ""  # the entry's id on the index page, which the jump table links
    lead: str = ""  # the summary's first sentence, for the compact list
    years: str = ""  # '2023' or '2019-2020', for the jump table
    gpus: str = ""  # '16,000 GPUs', or '' when the study does not say
    largest: tuple[StudyRowView, ...] = ()  # the three largest rows, largest first


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
    wide_chart: BarChart | None = None


def _charts(study: Study, taxonomy: Taxonomy, lang: Lang) -> tuple[BarChart, BarChart]:
    """The chart for phones (labels above bars) and for wide screens (a label column)."""
    rows = [
        ChartRow(row.category.get(lang), row.count, row.share_percent, _group(row, taxonomy, lang))
        for row in study.rows
    ]
    title, caption, rest = study.title.get(lang), study.measure.get(lang), t("chart.rest", lang)
    return (
        bar_chart(f"chart-{study.id}", title, caption, rows, study.total, sort=True, rest_label=rest),
        bar_chart(
            f"chart-{study.id}-wide",
            title,
            caption,
            rows,
            study.total,
            layout="columns",
            sort=True,
            rest_label=rest,
        ),
    )


def _group(row: StudyRow, taxonomy: Taxonomy, lang: Lang) -> str:
    """The label of the row's first cause at the second level of the cause tree; '' without a cause."""
    causes = row.tags.by_facet()["cause"]
    if not causes:
        return ""
    chain = [causes[0], *taxonomy.ancestors("cause", causes[0])]
    term = taxonomy.term("cause", chain[-2] if len(chain) >= 2 else chain[-1])
    return term.label.get(lang) if term is not None else ""


def _rows(study: Study, taxonomy: Taxonomy, lang: Lang) -> tuple[StudyRowView, ...]:
    return tuple(
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


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")
_ABBREVIATIONS = ("e.g.", "i.e.", "vs.", "etc.", "al.", "approx.", "no.")


def first_sentence(text: str) -> str:
    """The text up to its first full stop followed by a space ('39.7%' and 'e.g. ' do not end one)."""
    for found in _SENTENCE_END.finditer(text):
        head = text[: found.start()]
        if not head.lower().endswith(_ABBREVIATIONS) and len(head) >= 5:
            return head
    return text


def _years(study: Study) -> str:
    start, end = study.period_start, study.period_end
    if start is None and end is None:
        return ""
    first, last = (start or end), (end or start)
    assert first is not None and last is not None
    return str(first.year) if first.year == last.year else f"{first.year}-{last.year}"


def _gpus(study: Study, lang: Lang) -> str:
    if study.fleet_gpus is None:
        return ""
    return f"GPU {study.fleet_gpus:,}개" if lang == "ko" else f"{study.fleet_gpus:,} GPUs"


def _largest(study: Study, rows: tuple[StudyRowView, ...]) -> tuple[StudyRowView, ...]:
    """The three largest rows by share (or by count where the study gives no shares), largest first."""

    def size(pair: tuple[StudyRow, StudyRowView]) -> float:
        row = pair[0]
        if row.share_percent is not None:
            return row.share_percent
        if row.count is not None and study.total:
            return 100.0 * row.count / study.total
        return float(row.count) if row.count is not None else -1.0

    ranked = sorted(zip(study.rows, rows, strict=True), key=size, reverse=True)
    return tuple(view for _, view in ranked[:3])


def build_studies_page(site: Site, lang: Lang) -> StudiesPage:
    taxonomy = site.knowledge.taxonomy
    studies = []
    for study in site.knowledge.studies:
        chart, wide = _charts(study, taxonomy, lang)
        rows = _rows(study, taxonomy, lang)
        summary = study.summary.get(lang)
        studies.append(
            StudySummary(
                study.id,
                study.title.get(lang),
                summary,
                taxonomy.organization_name(study.organization, lang),
                study.period.get(lang),
                study.fleet.get(lang),
                urls.study_url(lang, study.id),
                chart,
                wide,
                rows,
                anchor=f"study-{study.id}",
                lead=first_sentence(summary),
                years=_years(study),
                gpus=_gpus(study, lang),
                largest=_largest(study, rows),
            )
        )
    return StudiesPage("studies", lang, t("studies.title", lang), tuple(studies))


def build_study_page(site: Site, study_id: str, lang: Lang) -> StudyPage | None:
    study = site.knowledge.study(study_id)
    if study is None:
        return None
    taxonomy = site.knowledge.taxonomy
    rows = _rows(study, taxonomy, lang)
    chart, wide = _charts(study, taxonomy, lang)
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
        chart=chart,
        sources=source_links(study.sources, lang),
        lessons=study.lessons.get(lang) if study.lessons else "",
        wide_chart=wide,
    )
