"""Facet values as the list page shows them: one group per facet the library returns, each an indented
tree whose every count is the number of results its link leads to.

Nothing here names a facet: the groups follow `SearchResult.facet_choices` in its order, so a facet
the library starts returning (an organisation, a date range) appears on the page and in its JSON twin
without a template or a list to edit. A value's depth is the number of its ancestors shown above it,
so a child whose parent is hidden still sits at the left edge rather than under a stranger.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from kubegap.library.query import FacetValue
from kubegap.text import Lang, count_label, has_label
from kubegap.web.labels import t

# (facet, term id) -> the URL of the list with that value toggled
ToggleUrl = Callable[[str, str], str]


@dataclass(frozen=True, slots=True)
class FacetValueView:
    """`count` is what a click on `url` gives (the value added, or removed when selected);
    `in_results` is how many of the current results carry it."""

    facet: str
    id: str
    label: str
    count: int
    selected: bool
    url: str
    parent: str | None
    depth: int
    in_results: int
    action_label: str


@dataclass(frozen=True, slots=True)
class Branch:
    """A top-level value and every value under it, so a column break never splits a family."""

    root: FacetValueView
    descendants: tuple[FacetValueView, ...]


@dataclass(frozen=True, slots=True)
class FacetGroup:
    """One facet's tree. The JSON twin carries the branches only; `values` is the same rows flat."""

    key: str
    title: str
    selected_count: int
    branches: tuple[Branch, ...] = ()

    @property
    def values(self) -> tuple[FacetValueView, ...]:
        return tuple(row for branch in self.branches for row in (branch.root, *branch.descendants))


def facet_title(facet: str, lang: Lang) -> str:
    """A facet's name; a facet without a label yet shows its key rather than nothing."""
    key = f"facet.{facet}"
    return t(key, lang) if has_label(key) else facet.replace("-", " ").replace("_", " ")


def build_groups(
    choices: Mapping[str, tuple[FacetValue, ...]], toggle: ToggleUrl, lang: Lang
) -> tuple[FacetGroup, ...]:
    """Every facet of the result as a group of tree rows, in the order the library gives them."""
    groups = []
    for facet, values in choices.items():
        rows = _rows(facet, values, toggle, lang)
        selected = sum(row.selected for row in rows)
        groups.append(FacetGroup(facet, facet_title(facet, lang), selected, _branches(rows)))
    return tuple(groups)


def _branches(rows: tuple[FacetValueView, ...]) -> tuple[Branch, ...]:
    """Rows come parents first (taxonomy order), so each depth-0 row starts a branch."""
    branches: list[Branch] = []
    for row in rows:
        if row.depth == 0 or not branches:
            branches.append(Branch(row, ()))
        else:
            last = branches[-1]
            branches[-1] = Branch(last.root, (*last.descendants, row))
    return tuple(branches)


def _rows(
    facet: str, values: tuple[FacetValue, ...], toggle: ToggleUrl, lang: Lang
) -> tuple[FacetValueView, ...]:
    parents = {value.term_id: value.parent for value in values}
    rows = []
    for value in values:
        depth, parent = 0, value.parent
        seen = {value.term_id}
        while parent is not None and parent in parents and parent not in seen:
            depth, seen = depth + 1, seen | {parent}
            parent = parents[parent]
        results = count_label(value.toggle_count, lang)
        action = "facet.action.remove" if value.selected else "facet.action.add"
        rows.append(
            FacetValueView(
                facet=facet,
                id=value.term_id,
                label=value.label,
                count=value.toggle_count,
                selected=value.selected,
                url=toggle(facet, value.term_id),
                parent=value.parent,
                depth=depth,
                in_results=value.count,
                action_label=t(action, lang, name=value.label, results=results),
            )
        )
    return tuple(rows)
