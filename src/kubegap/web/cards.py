"""An incident as the reader meets it: the nine sections in order, each already in one language.

The list page and the case page both show cards built here, so a section reads the same everywhere.
Tags become term links: on the case page to the term's page, on the list page to the same list with
that value added as a filter (`FilterLink`), so a chip narrows the search in place instead of leaving
it. Cause and contributing factors carry their basis. The compact row of the list page (title, date,
organisation, summary, component chips, source count, the search's words marked) comes from the same
card.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kubegap.knowledge.loader import Taxonomy
from kubegap.knowledge.model import SECTION_ORDER, Bilingual, Incident, ReasonedText
from kubegap.text import Lang
from kubegap.web import urls
from kubegap.web.highlight import Segment, marked
from kubegap.web.labels import t

# (facet, term id) -> (URL, selected): where a chip leads on the list page
FilterLink = Callable[[str, str], tuple[str, bool]]


@dataclass(frozen=True, slots=True)
class TermLink:
    facet: str
    id: str
    label: str
    url: str
    selected: bool = False
    hint: str = ""


@dataclass(frozen=True, slots=True)
class Item:
    """A line of a section; `basis` is 'stated' or 'inferred' for reasoned text, else empty.

    `unstated` marks the note that the sources say nothing on this section (a template may dim it).
    """

    text: str
    basis: str = ""
    basis_label: str = ""
    unstated: bool = False


@dataclass(frozen=True, slots=True)
class Section:
    key: str
    title: str
    items: tuple[Item, ...]
    terms: tuple[TermLink, ...]
    is_list: bool


@dataclass(frozen=True, slots=True)
class IncidentCard:
    id: str
    url: str
    title: str
    summary: str
    date: str
    end_date: str
    organization: str
    sections: tuple[Section, ...]
    matched_signatures: tuple[str, ...] = ()
    title_marks: tuple[Segment, ...] = ()
    summary_marks: tuple[Segment, ...] = ()
    components: tuple[TermLink, ...] = ()
    source_count: int = 0
    source_label: str = ""


# section key -> facet whose tags are shown with it
_SECTION_FACET = {
    "symptom": "symptom",
    "cause": "cause",
    "components": "component",
    "contributing_factors": "contributing-factor",
}
_LIST_SECTIONS = frozenset({"contributing_factors", "actions", "follow_ups"})


def term_link(
    taxonomy: Taxonomy, lang: Lang, facet: str, term_id: str, link: FilterLink | None = None
) -> TermLink:
    term = taxonomy.term(facet, term_id)
    label = term.label.get(lang) if term is not None else term_id
    if link is None:
        return TermLink(facet, term_id, label, urls.term_url(lang, facet, term_id))
    url, selected = link(facet, term_id)
    hint = t("chip.remove" if selected else "chip.add", lang, name=label)
    return TermLink(facet, term_id, label, url, selected, hint)


def build_card(
    incident: Incident,
    taxonomy: Taxonomy,
    lang: Lang,
    matched_signatures: tuple[str, ...] = (),
    *,
    link: FilterLink | None = None,
    marks: tuple[str, ...] = (),
) -> IncidentCard:
    """A card; `link` makes its chips filter the list, `marks` are the search's words to highlight."""
    title, summary = incident.title.get(lang), incident.summary.get(lang)
    sections = build_sections(incident, taxonomy, lang, link)
    components = next((section.terms for section in sections if section.key == "components"), ())
    return IncidentCard(
        id=incident.id,
        url=urls.incident_url(lang, incident.id),
        title=title,
        summary=summary,
        date=incident.date.isoformat(),
        end_date=incident.end_date.isoformat() if incident.end_date else "",
        organization=taxonomy.organization_name(incident.organization, lang),
        sections=sections,
        matched_signatures=matched_signatures,
        title_marks=marked(title, marks),
        summary_marks=marked(summary, marks),
        components=components,
        source_count=len(incident.sources),
        source_label=t(
            "card.source" if len(incident.sources) == 1 else "card.sources", lang, count=len(incident.sources)
        ),
    )


def build_sections(
    incident: Incident, taxonomy: Taxonomy, lang: Lang, link: FilterLink | None = None
) -> tuple[Section, ...]:
    """The sections the sources cover, in SECTION_ORDER; absent ones are left out, not shown empty."""
    tags = incident.tags.by_facet()
    built: list[Section] = []
    for key in SECTION_ORDER:
        items = _items(getattr(incident.sections, key, None), lang)
        facet = _SECTION_FACET.get(key)
        terms = tuple(term_link(taxonomy, lang, facet, term, link) for term in tags[facet]) if facet else ()
        if items or terms:
            built.append(Section(key, t(f"section.{key}", lang), items, terms, key in _LIST_SECTIONS))
    return tuple(built)


def _items(value: object, lang: Lang) -> tuple[Item, ...]:
    if value is None:
        return ()
    values = value if isinstance(value, list) else [value]
    return tuple(_item(entry, lang) for entry in values if isinstance(entry, Bilingual))


def _item(text: Bilingual, lang: Lang) -> Item:
    unstated = bool(getattr(text, "unstated", False))
    if isinstance(text, ReasonedText) and text.basis is not None:
        return Item(text.get(lang), text.basis.value, t(f"basis.{text.basis.value}", lang), unstated)
    return Item(text.get(lang), unstated=unstated)
