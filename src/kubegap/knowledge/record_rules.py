"""Per-record and per-list rules: the organisation list is sound, ids carry their year, sections are in order.

Kept apart from crosscheck.py (which walks the records and references between files) so each stays
small; every rule appends Problems with the file and line an editor jumps to.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from kubegap.knowledge.collection import Taxonomy
from kubegap.knowledge.model import SECTION_ORDER, Incident
from kubegap.knowledge.problems import Problem
from kubegap.knowledge.yaml_positions import PositionedDocument


def check_organizations(
    taxonomy: Taxonomy, path: Path, document: PositionedDocument, problems: list[Problem]
) -> None:
    """Ids and names are unique, parents exist and never loop: one spelling per organisation."""
    seen_ids: set[str] = set()
    spellings: dict[str, str] = {}
    for index, organization in enumerate(taxonomy.organizations):
        where = ("organizations", index)
        if organization.id in seen_ids:
            problems.append(
                Problem(
                    path,
                    document.line_of((*where, "id")),
                    f"organizations.{index}.id",
                    f"organization {organization.id!r} is listed twice",
                )
            )
        seen_ids.add(organization.id)
        for spelling in dict.fromkeys(organization.spellings()):
            owner = spellings.setdefault(spelling, organization.id)
            if owner != organization.id:
                problems.append(
                    Problem(
                        path,
                        document.line_of(where),
                        f"organizations.{index}",
                        f"{spelling!r} already names organization {owner!r}",
                    )
                )
    for index, organization in enumerate(taxonomy.organizations):
        if organization.parent is None:
            continue
        line = document.line_of(("organizations", index, "parent"))
        field_name = f"organizations.{index}.parent"
        if taxonomy.organization(organization.parent) is None:
            problems.append(Problem(path, line, field_name, f"unknown parent {organization.parent!r}"))
        elif organization.parent not in {earlier.id for earlier in taxonomy.organizations[:index]}:
            # Facet values are listed in file order and renderers draw parents before their parts.
            problems.append(
                Problem(
                    path,
                    line,
                    field_name,
                    f"list {organization.parent!r} before its part {organization.id!r}",
                )
            )
        elif organization.id in taxonomy.ancestors("organization", organization.id):
            problems.append(Problem(path, line, field_name, f"{organization.id!r} is its own ancestor"))


def check_section_order(path: Path, document: PositionedDocument, problems: list[Problem]) -> None:
    """Sections written in the order a reader meets them, so every file reads the same way."""
    written = sorted(
        (line, name)
        for name in _SECTION_NAMES
        if (line := document.lines.get(("sections", name))) is not None
    )
    names = [name for _, name in written]
    if names != sorted(names, key=_SECTION_NAMES.index):
        problems.append(
            Problem(
                path,
                document.line_of(("sections",)),
                "sections",
                f"sections are out of order; write them as {', '.join(_SECTION_NAMES)}",
            )
        )


_SECTION_NAMES = tuple(name for name in SECTION_ORDER if name != "components")


def check_id_year(
    path: Path, incident: Incident, document: PositionedDocument, problems: list[Problem]
) -> None:
    """An incident id carries the year it began (`<org>-<yyyy>-...`): a reader sorts and cites by it."""
    years = re.findall(r"(?:^|-)((?:19|20)\d\d)(?=-|$)", incident.id)
    if not years:
        problems.append(
            Problem(
                path,
                document.line_of(("id",)),
                "id",
                f"id should carry the year, e.g. ...-{incident.date.year}-...",
            )
        )
    elif int(years[0]) != incident.date.year:
        problems.append(
            Problem(
                path,
                document.line_of(("id",)),
                "id",
                f"id year {years[0]} differs from date {incident.date.isoformat()}; rename the file and id "
                "and keep the old id under former_ids",
            )
        )


def check_source_dates(
    path: Path, incident: Incident, document: PositionedDocument, problems: list[Problem]
) -> None:
    """A source cannot be read before it was published, nor on a day that has not come yet."""
    today = dt.date.today()
    for index, source in enumerate(incident.sources):
        if source.accessed is None:
            continue
        line = document.line_of(("sources", index, "accessed"))
        field_name = f"sources.{index}.accessed"
        if source.accessed > today:
            problems.append(
                Problem(path, line, field_name, f"accessed {source.accessed} is after today ({today})")
            )
        elif source.published is not None and source.accessed < source.published:
            problems.append(
                Problem(
                    path,
                    line,
                    field_name,
                    f"accessed {source.accessed} is before published {source.published}",
                )
            )
