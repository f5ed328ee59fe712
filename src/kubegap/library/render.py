"""The library in the terminal: rich tables and panels. Rich measures East Asian wide characters, so
Korean titles line up in fixed-width columns.
"""

from __future__ import annotations

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from kubegap.knowledge.model import FACETS, SECTION_ORDER, Bilingual, Incident, ReasonedText
from kubegap.knowledge.organizations import LIBRARY_FACETS
from kubegap.library.highlight import segments
from kubegap.library.library import Library
from kubegap.library.query import FacetValue, SearchResult, SimilarIncident
from kubegap.text import count_label, label, result_range

_IMPACT_LABELS = {
    "duration_hours": ("지속 시간(시간)", "Duration (hours)"),
    "gpus_affected": ("영향받은 GPU", "GPUs affected"),
    "restarts": ("재시작 횟수", "Restarts"),
    "training_time_lost_hours": ("잃은 학습 시간(시간)", "Training time lost (hours)"),
    "error_rate_percent": ("오류율(%)", "Error rate (%)"),
}


def _pick(pair: tuple[str, str], lang: str) -> str:
    return pair[0] if lang == "ko" else pair[1]


def search_result(result: SearchResult, library: Library, width: int = 200) -> RenderableType:
    """The results table; at 120 columns or more the id column never wraps, so an id copies whole."""
    lang = result.query.lang
    heading = Text(result_range(result.total, result.start, result.end, lang), style="bold")
    if result.relaxed:
        heading.append("\n" + label("relaxed-search", lang), style="italic")
    for line in _catalog_lines(result):
        heading.append("\n" + line)
    if not result.hits:
        nothing = Text(label("no-results", lang))
        for line in _nearby_lines(result):
            nothing.append("\n" + line)
        return Group(heading, nothing)
    table = Table(show_lines=False, expand=False)
    table.add_column(_pick(("날짜", "Date"), lang), no_wrap=True)
    table.add_column(_pick(("제목", "Title"), lang), ratio=3, overflow="fold")
    table.add_column(label("facet.cause", lang), ratio=1, overflow="fold")
    if width >= 120:
        table.add_column("ID", no_wrap=True)
    else:
        table.add_column("ID", overflow="fold", ratio=2)
    for hit in result.hits:
        incident = hit.incident
        causes = ", ".join(library.term_label("cause", term, lang) for term in incident.tags.cause)
        title = Text()
        for piece, matched in segments(incident.title.get(lang), hit.matched_terms):
            title.append(piece, style="bold" if matched else None)
        if hit.partial:
            title.append(" (일부 단어만 일치)" if lang == "ko" else " (partial match)", style="dim")
        for signature in hit.matched_signatures:
            title.append(f"\n↳ {signature}", style="yellow")
        table.add_row(incident.date.isoformat(), title, causes, incident.id)
    footer = Text(f"{result.query.page}/{result.page_count}", style="dim")
    parts: list[RenderableType] = [heading, table, footer]
    if result.recurring_components:
        names = ", ".join(f"{value.label} ({value.count})" for value in result.recurring_components)
        parts.append(Text(f"{label('recurring-components', lang)}: {names}"))
    return Group(*parts)


def _text(value: Bilingual, lang: str) -> Text:
    text = Text(value.get(lang), style="dim italic" if getattr(value, "unstated", False) else "")
    if isinstance(value, ReasonedText) and value.basis is not None:
        text.append(f"  ({label(f'basis.{value.basis.value}', lang)})", style="dim")
    return text


def _section(incident: Incident, name: str, library: Library, lang: str) -> RenderableType | None:
    if name == "components":
        labels = [library.term_label("component", term, lang) for term in incident.tags.component]
        return Text(", ".join(labels)) if labels else None
    value = getattr(incident.sections, name)
    if isinstance(value, list):
        return Group(*(Text("• ").append_text(_text(item, lang)) for item in value)) if value else None
    return _text(value, lang) if value is not None else None


def incident_detail(incident: Incident, library: Library, lang: str) -> RenderableType:
    when = incident.date.isoformat() + (f" ~ {incident.end_date.isoformat()}" if incident.end_date else "")
    organization = library.taxonomy.organization_name(incident.organization, lang)
    parts: list[RenderableType] = [
        Text(incident.title.get(lang), style="bold"),
        Text(f"{incident.id} · {when} · {organization}", style="dim"),
        Text(incident.summary.get(lang)),
    ]
    for name in SECTION_ORDER:
        body = _section(incident, name, library, lang)
        parts += [Text(""), Text(label(f"section.{name}", lang), style="bold cyan")]
        parts.append(body if body is not None else Text("—", style="dim"))
    tags = Table.grid(padding=(0, 2))
    for facet in FACETS:
        labels = [library.term_label(facet, term, lang) for term in incident.tags.by_facet()[facet]]
        tags.add_row(Text(label(f"facet.{facet}", lang), style="bold"), ", ".join(labels) or "—")
    parts += [Text(""), tags]
    impact = [
        (_pick(names, lang), getattr(incident.impact, key))
        for key, names in _IMPACT_LABELS.items()
        if getattr(incident.impact, key) is not None
    ]
    if impact or incident.impact.notes:
        parts += [Text(""), Text(_pick(("영향", "Impact"), lang), style="bold cyan")]
        parts += [Text(f"{name}: {value:g}") for name, value in impact]
        if incident.impact.notes:
            parts.append(Text(incident.impact.notes.get(lang)))
    if incident.error_signatures:
        parts += [Text(""), Text(_pick(("오류 시그니처", "Error signatures"), lang), style="bold cyan")]
        for signature in incident.error_signatures:
            line = Text(signature.text, style="yellow")
            if signature.note:
                line.append(f"  {signature.note.get(lang)}", style="dim")
            parts.append(line)
    parts += [Text(""), Text(_pick(("출처", "Sources"), lang), style="bold cyan")]
    for source in incident.sources:
        dates = [
            label(f"source.{field}", lang).format(date=day.isoformat())
            for field, day in (("published", source.published), ("accessed", source.accessed))
            if day is not None
        ]
        about = ", ".join([source.publisher, label(f"source.{source.kind.value}", lang), *dates])
        parts.append(Text(f"• {source.title} ({about})\n  {source.url}"))
    return Group(*parts)


def similar_list(similar: list[SimilarIncident], lang: str) -> RenderableType:
    table = Table(_pick(("비슷한 사례", "Similar incidents"), lang), _pick(("이유", "Why"), lang))
    for item in similar:
        table.add_row(f"{item.incident.title.get(lang)}\n{item.incident.id}", "\n".join(item.reasons(lang)))
    return table


def facet_trees(overview: dict[str, tuple[FacetValue, ...]], lang: str) -> RenderableType:
    """Each facet as a tree of its terms (children under parents) with rolled-up counts."""
    trees: list[RenderableType] = []
    for facet in LIBRARY_FACETS:
        values = overview.get(facet, ())
        tree = Tree(Text(label(f"facet.{facet}", lang), style="bold"))
        nodes: dict[str, Tree] = {}
        for value in values:
            parent = nodes.get(value.parent or "", tree)
            line = Text(f"{value.label} ").append(
                f"{count_label(value.count, lang)} · {value.term_id}", style="dim"
            )
            nodes[value.term_id] = parent.add(line)
        trees.append(tree)
    return Group(*trees)


def console(width: int | None = None) -> Console:
    """At `width`, else the terminal's; in a pipe, lines are never broken (ids and links stay whole)."""
    import sys

    piped = not sys.stdout.isatty()
    return Console(highlight=False, soft_wrap=piped and width is None, width=width)


def search_lines(result: SearchResult, library: Library) -> str:
    """A search result for pipes: the range line, then one incident per line (date, id, title, causes,
    and the error signatures it matched), then the page: `grep`, `cut` and `wc -l` see records."""
    lang = result.query.lang
    lines = [result_range(result.total, result.start, result.end, lang)]
    if result.relaxed:
        lines.append(label("relaxed-search", lang))
    lines += _catalog_lines(result)
    if not result.hits:
        lines.append(label("no-results", lang))
        lines += _nearby_lines(result)
    for hit in result.hits:
        incident = hit.incident
        causes = ", ".join(library.term_label("cause", term, lang) for term in incident.tags.cause)
        matched = "  ↳ " + " · ".join(hit.matched_signatures) if hit.matched_signatures else ""
        lines.append(
            f"{incident.date.isoformat()}  {incident.id}  {incident.title.get(lang)}  ({causes}){matched}"
        )
    lines.append(f"{result.query.page}/{result.page_count}")
    return "\n".join(lines)


def similar_lines(similar: list[SimilarIncident], lang: str) -> str:
    """Similar incidents for pipes: one per line, the id, the title and why, never cut."""
    lines = []
    for item in similar:
        reasons = "; ".join(item.reasons(lang))
        lines.append(
            f"{item.incident.id}  {item.incident.title.get(lang)}" + (f"  ({reasons})" if reasons else "")
        )
    return "\n".join(lines) if lines else _pick(("비슷한 사례가 없습니다.", "No similar incidents."), lang)


def _catalog_lines(result: SearchResult) -> list[str]:
    """The error-catalog entries a pasted line or code resolved to, with the command that explains each."""
    lang = result.query.lang
    return [
        f"{entry.title.get(lang)}: {entry.meaning.get(lang)} (kubegap errors show {entry.id})"
        for entry in result.errors[:3]
    ]


def _nearby_lines(result: SearchResult) -> list[str]:
    if not result.suggestions:
        return []
    return [
        ("비슷한 단어: " if result.query.lang == "ko" else "Nearby terms: ") + ", ".join(result.suggestions)
    ]
