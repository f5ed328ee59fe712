"""Primary sources first: every record rests on the operator's own account, or says why it cannot.

A source is primary when the people who ran the system wrote it (postmortem, status page, engineering
blog, paper, logbook, talk, issue tracker, documentation) and secondary when someone else retells it
(news, forum, mirror, aggregator, commentary; `SECONDARY_SOURCE_KINDS`). Two rules:

1. A source on a site listed in `secondary-sources.yaml` (a news site, a status-page mirror, an
   aggregator...) carries the kind the list gives that site, so a news article cannot pass as a blog.
   The list is data: a new mirror or news site is one line there, not a code change.
2. A record whose every source is secondary says in `no_primary_source` why no primary source exists or
   could be read; a record with a primary source has no such note.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kubegap.knowledge.model import SECONDARY_SOURCE_KINDS, Incident, SourceKind
from kubegap.knowledge.problems import Problem
from kubegap.knowledge.yaml_positions import PositionedDocument

FILE_NAME = "secondary-sources.yaml"
BUNDLED_LIST = Path(__file__).parent / "data" / FILE_NAME


class SecondarySite(BaseModel):
    """A site whose pages retell other people's incidents, and the kind its pages are."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    host: str = Field(pattern=r"^[a-z0-9.-]+\.[a-z]{2,}$")
    kind: SourceKind
    note: str | None = None


class SecondarySiteList(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    sites: list[SecondarySite]


def secondary_sites(root: Path | None = None) -> dict[str, SourceKind]:
    """host -> kind from the knowledge root's list, else the bundled one; an unreadable list is empty
    here (the loader reports it with its line)."""
    path = root / FILE_NAME if root is not None and (root / FILE_NAME).is_file() else BUNDLED_LIST
    try:
        loaded = SecondarySiteList.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
    except (OSError, yaml.YAMLError, ValidationError):
        return {}
    return {site.host: site.kind for site in loaded.sites}


def listed_kind(url: str, sites: dict[str, SourceKind]) -> tuple[str, SourceKind] | None:
    """The listed site a URL is on (the host itself or a parent domain) and the kind it dictates."""
    host = (urlparse(url).hostname or "").lower()
    parts = host.split(".")
    for start in range(len(parts) - 1):
        candidate = ".".join(parts[start:])
        if candidate in sites:
            return candidate, sites[candidate]
    return None


def check_sources(
    path: Path,
    incident: Incident,
    document: PositionedDocument,
    sites: dict[str, SourceKind],
    problems: list[Problem],
) -> None:
    """Both rules above, each problem at the line an editor fixes."""
    for index, source in enumerate(incident.sources):
        listed = listed_kind(source.url, sites)
        if listed is not None and source.kind != listed[1]:
            problems.append(
                Problem(
                    path,
                    document.line_of(("sources", index, "kind")),
                    f"sources.{index}.kind",
                    f"{listed[0]} is listed in {FILE_NAME} as {listed[1].value}; set kind: {listed[1].value}",
                )
            )
    primary = [
        index for index, source in enumerate(incident.sources) if source.kind not in SECONDARY_SOURCE_KINDS
    ]
    if not primary and incident.no_primary_source is None:
        kinds = ", ".join(sorted(kind.value for kind in SECONDARY_SOURCE_KINDS))
        problems.append(
            Problem(
                path,
                document.line_of(("sources",)),
                "sources",
                f"every source is secondary ({kinds}); cite the operator's postmortem, status page, "
                "engineering blog, paper or issue tracker, or say in no_primary_source why none exists",
            )
        )
    if primary and incident.no_primary_source is not None:
        problems.append(
            Problem(
                path,
                document.line_of(("no_primary_source",)),
                "no_primary_source",
                f"sources.{primary[0]} is a primary source ({incident.sources[primary[0]].kind.value}); "
                "remove this note",
            )
        )
