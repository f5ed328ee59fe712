"""Rules that span files: ids match file names, tags and organisations name real entries, no duplicates."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from kubegap.knowledge.collection import Knowledge, Taxonomy
from kubegap.knowledge.model import Incident, SourceKind, Study, Tags
from kubegap.knowledge.organizations import FILE_NAME as ORGANIZATIONS_FILE
from kubegap.knowledge.problems import Problem
from kubegap.knowledge.record_rules import (
    check_id_year,
    check_organizations,
    check_section_order,
    check_source_dates,
)
from kubegap.knowledge.sources import check_sources
from kubegap.knowledge.yaml_positions import PositionedDocument


def cross_check(
    knowledge: Knowledge,
    incidents: list[tuple[Path, Incident, PositionedDocument]],
    studies: list[tuple[Path, Study, PositionedDocument]],
    organizations: PositionedDocument | None = None,
    secondary_sites: dict[str, SourceKind] | None = None,
) -> None:
    """Append a Problem for every broken cross-reference; drop records whose id clashes."""
    problems = knowledge.problems
    _check_taxonomy(knowledge.taxonomy, knowledge.root, problems)
    if organizations is not None:
        check_organizations(knowledge.taxonomy, knowledge.root / ORGANIZATIONS_FILE, organizations, problems)
    seen: dict[str, Path] = {}
    clashing: set[int] = set()
    records: list[tuple[Path, Incident | Study, PositionedDocument]] = [*incidents, *studies]
    for path, record, document in records:
        line = document.line_of(("id",))
        if record.id != path.stem:
            problems.append(
                Problem(path, line, "id", f"id {record.id!r} differs from file name {path.stem!r}")
            )
        if record.id in seen:
            problems.append(
                Problem(path, line, "id", f"id {record.id!r} is also used by {seen[record.id].name}")
            )
            clashing.add(id(record))
        seen.setdefault(record.id, path)
    for path, incident, document in incidents:
        for index, former in enumerate(incident.former_ids):
            if former in seen:
                problems.append(
                    Problem(
                        path,
                        document.line_of(("former_ids", index)),
                        f"former_ids.{index}",
                        f"{former!r} is a current id ({seen[former].name}), not a former one",
                    )
                )
            seen.setdefault(former, path)
        check_id_year(path, incident, document, problems)
        check_source_dates(path, incident, document, problems)
        check_sources(path, incident, document, secondary_sites or {}, problems)
        check_section_order(path, document, problems)
    knowledge.incidents = [incident for incident in knowledge.incidents if id(incident) not in clashing]
    knowledge.studies = [study for study in knowledge.studies if id(study) not in clashing]
    if organizations is not None:
        for path, record, document in records:
            if knowledge.taxonomy.organization(record.organization) is None:
                problems.append(
                    Problem(
                        path,
                        document.line_of(("organization",)),
                        "organization",
                        f"unknown organization {record.organization!r} (add it to {ORGANIZATIONS_FILE})",
                    )
                )
    for path, incident, document in incidents:
        _check_tags(incident.tags, ("tags",), knowledge.taxonomy, path, document, problems)
        if not incident.tags.cause:
            problems.append(
                Problem(path, document.line_of(("tags",)), "tags.cause", "an incident needs a cause tag")
            )
    for path, study, document in studies:
        for index, row in enumerate(study.rows):
            _check_tags(row.tags, ("rows", index, "tags"), knowledge.taxonomy, path, document, problems)
    _check_duplicates(incidents, knowledge.taxonomy, problems)


def _check_taxonomy(taxonomy: Taxonomy, root: Path, problems: list[Problem]) -> None:
    for name, facet in taxonomy.facets.items():
        path = root / "taxonomy" / f"{name}.yaml"
        ids: set[str] = set()
        labels: dict[tuple[str, str], str] = {}
        for index, term in enumerate(facet.terms):
            where = f"terms.{index}"
            if term.id in ids:
                problems.append(Problem(path, 1, f"{where}.id", f"term {term.id!r} is defined twice"))
            ids.add(term.id)
            for key in (("ko", term.label.ko.casefold()), ("en", term.label.en.casefold())):
                if key in labels:
                    problems.append(
                        Problem(
                            path,
                            1,
                            f"{where}.label",
                            f"label {key[1]!r} is also the label of {labels[key]!r}",
                        )
                    )
                labels.setdefault(key, term.id)
        for index, term in enumerate(facet.terms):
            for former in term.former_ids:
                if former in ids:
                    problems.append(
                        Problem(
                            path,
                            1,
                            f"terms.{index}.former_ids",
                            f"{former!r} is a current term, not a former one",
                        )
                    )
        for index, term in enumerate(facet.terms):
            if term.parent is None:
                continue
            if term.parent not in ids:
                problems.append(Problem(path, 1, f"terms.{index}.parent", f"unknown parent {term.parent!r}"))
            elif term.id in taxonomy.ancestors(name, term.id):
                problems.append(Problem(path, 1, f"terms.{index}.parent", f"{term.id!r} is its own ancestor"))


def _check_tags(
    tags: Tags,
    where: tuple[str | int, ...],
    taxonomy: Taxonomy,
    path: Path,
    document: PositionedDocument,
    problems: list[Problem],
) -> None:
    for facet, term_ids in tags.by_facet().items():
        field_name = ".".join(str(part) for part in (*where, facet))
        for index, term_id in enumerate(term_ids):
            term = taxonomy.term(facet, term_id)
            line = document.line_of((*where, facet, index))
            if term is None:
                problems.append(Problem(path, line, field_name, f"unknown {facet} term {term_id!r}"))
            elif term.id != term_id:
                problems.append(
                    Problem(
                        path,
                        line,
                        field_name,
                        f"{facet} term {term_id!r} was merged into {term.id!r}; use it",
                    )
                )
        if len(set(term_ids)) != len(term_ids):
            problems.append(
                Problem(path, document.line_of((*where, facet)), field_name, "a term is listed twice")
            )


def _check_duplicates(
    incidents: list[tuple[Path, Incident, PositionedDocument]], taxonomy: Taxonomy, problems: list[Problem]
) -> None:
    """One start date, one organisation group and a shared component: likely one incident written twice.

    Within one organisation a shared cause is also required, which keeps apart distinct lessons one
    write-up reports under its publication date (one scaling post can describe an etcd quota failure and
    an etcd disk-latency problem that share only the component). Across two organisations of one group
    (GitHub and Azure under Microsoft) a shared component is enough: that is one event told from both
    sides, as the July 2024 Azure OpenAI cleanup was by Azure and by GitHub Copilot.
    """
    groups: dict[tuple[str, object], list[tuple[Path, Incident]]] = defaultdict(list)
    for path, incident, _ in incidents:
        chain = taxonomy.ancestors("organization", incident.organization)
        root = chain[-1] if chain else incident.organization
        groups[(root.casefold(), incident.date)].append((path, incident))
    for group in groups.values():
        for position, (path, incident) in enumerate(group):
            for _, earlier in group[:position]:
                shared = set(incident.tags.component) & set(earlier.tags.component)
                same_organization = incident.organization == earlier.organization
                if not shared or (
                    same_organization and not set(incident.tags.cause) & set(earlier.tags.cause)
                ):
                    continue
                where = "same organization" if same_organization else "organizations of one group"
                problems.append(
                    Problem(
                        path,
                        1,
                        "id",
                        f"looks like a duplicate of {earlier.id!r} ({where}, same date, "
                        f"shared components: {', '.join(sorted(shared))})",
                    )
                )
