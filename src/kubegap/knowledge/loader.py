"""Read the knowledge base from its folder: every file is checked, a bad file never hides a good one.

Layout under the root:
    taxonomy/<facet>.yaml     one facet and its terms
    incidents/<id>.yaml       one incident, file name equal to its id
    studies/<id>.yaml         one fleet study, file name equal to its id
    errors/<id>.yaml          one error-catalog entry, file name equal to its id
    organizations.yaml        every organisation a record names, by id
    retired.yaml              ids of incidents taken out of the library, with the reason (optional)
    secondary-sources.yaml    sites whose pages are secondary sources (optional; else the bundled list)
    terminology.yaml          one Korean term per concept (optional; else the bundled list)
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from kubegap.knowledge.collection import Knowledge, Taxonomy
from kubegap.knowledge.crosscheck import cross_check
from kubegap.knowledge.error_check import check_errors
from kubegap.knowledge.error_model import ErrorEntry
from kubegap.knowledge.model import FACETS, Facet, Incident, SourceKind, Study
from kubegap.knowledge.organizations import FILE_NAME as ORGANIZATIONS_FILE
from kubegap.knowledge.organizations import Organization, OrganizationList
from kubegap.knowledge.orthography import particle_problems
from kubegap.knowledge.problems import Problem
from kubegap.knowledge.retired import FILE_NAME as RETIRED_FILE
from kubegap.knowledge.retired import RetiredList, check_retired
from kubegap.knowledge.sources import FILE_NAME as SECONDARY_FILE
from kubegap.knowledge.sources import SecondarySiteList, secondary_sites
from kubegap.knowledge.terminology import FILE_NAME as TERMINOLOGY_FILE
from kubegap.knowledge.terminology import Terminology, TerminologyFile, terminology_for
from kubegap.knowledge.yaml_positions import PositionedDocument, YamlSyntaxError, parse_with_positions

BUNDLED_ROOT = Path(__file__).parent / "data"
ROOT_ENV = "KUBEGAP_KNOWLEDGE"

__all__ = ["BUNDLED_ROOT", "ROOT_ENV", "Knowledge", "Taxonomy", "default_root", "load_knowledge"]

ModelT = TypeVar("ModelT", bound=BaseModel)


def default_root() -> Path:
    """The knowledge folder in use: $KUBEGAP_KNOWLEDGE when set, else the one bundled with the package."""
    override = os.environ.get(ROOT_ENV)
    return Path(override) if override else BUNDLED_ROOT


def load_knowledge(root: Path | None = None) -> Knowledge:
    """Load and cross-check the whole knowledge base. Never raises on bad content."""
    root = root or default_root()
    problems: list[Problem] = []
    terminology = _load_terminology(root, problems)
    facets: dict[str, Facet] = {}
    for path, facet, _ in _load_folder(root / "taxonomy", Facet, problems, terminology):
        if facet.facet in facets:
            problems.append(Problem(path, 1, "facet", f"facet {facet.facet!r} is defined twice"))
            continue
        facets[facet.facet] = facet
    for name in FACETS:
        if name not in facets:
            problems.append(Problem(root / "taxonomy" / f"{name}.yaml", 1, "facet", "facet file is missing"))
    organizations, organizations_document = _load_organizations(root, problems, terminology)
    knowledge = Knowledge(root=root, taxonomy=Taxonomy(facets, organizations), problems=problems)
    positioned_incidents = list(_load_folder(root / "incidents", Incident, problems, terminology))
    positioned_studies = list(_load_folder(root / "studies", Study, problems, terminology))
    knowledge.incidents = [incident for _, incident, _ in positioned_incidents]
    knowledge.studies = [study for _, study, _ in positioned_studies]
    sites = _load_secondary_sites(root, problems)
    cross_check(knowledge, positioned_incidents, positioned_studies, organizations_document, sites)
    _load_retired(knowledge, positioned_incidents, terminology)
    positioned_errors = list(_load_folder(root / "errors", ErrorEntry, problems, terminology))
    knowledge.errors = [entry for _, entry, _ in positioned_errors]
    check_errors(knowledge, positioned_errors)
    return knowledge


def _load_terminology(root: Path, problems: list[Problem]) -> Terminology:
    """The root's terminology list (checked like any file, but not against itself), else the bundled one."""
    path = root / TERMINOLOGY_FILE
    if path.is_file():
        load_model_file(path, TerminologyFile, problems, terminology=None)
    return terminology_for(root)


def _load_secondary_sites(root: Path, problems: list[Problem]) -> dict[str, SourceKind]:
    path = root / SECONDARY_FILE
    if path.is_file():
        load_model_file(path, SecondarySiteList, problems, terminology=None)
    return secondary_sites(root)


def _load_retired(
    knowledge: Knowledge,
    incidents: list[tuple[Path, Incident, PositionedDocument]],
    terminology: Terminology,
) -> None:
    path = knowledge.root / RETIRED_FILE
    if not path.is_file():
        return
    loaded = load_model_file(path, RetiredList, knowledge.problems, terminology)
    if loaded is None:
        return
    retired, document = loaded
    current = {incident.id: file for file, incident, _ in incidents}
    current.update({former: file for file, incident, _ in incidents for former in incident.former_ids})
    check_retired(path, retired.retired, document, current, knowledge.problems)
    knowledge.retired = list(retired.retired)


def _load_organizations(
    root: Path, problems: list[Problem], terminology: Terminology
) -> tuple[tuple[Organization, ...], PositionedDocument | None]:
    path = root / ORGANIZATIONS_FILE
    if not path.is_file():
        problems.append(Problem(path, 1, "organizations", "the organisation list is missing"))
        return (), None
    loaded = load_model_file(path, OrganizationList, problems, terminology)
    if loaded is None:
        return (), None
    return tuple(loaded[0].organizations), loaded[1]


def _load_folder(
    folder: Path, model: type[ModelT], problems: list[Problem], terminology: Terminology
) -> Iterable[tuple[Path, ModelT, PositionedDocument]]:
    if not folder.is_dir():
        return
    for path in sorted(folder.glob("*.yaml")):
        loaded = load_model_file(path, model, problems, terminology)
        if loaded is not None:
            yield path, *loaded


def load_model_file(
    path: Path, model: type[ModelT], problems: list[Problem], terminology: Terminology | None
) -> tuple[ModelT, PositionedDocument] | None:
    """Parse and validate one file; on failure append Problems (with lines) and return None.

    Its Korean texts are held to the particle rule and, unless `terminology` is None (the terminology
    list itself, which must name the variants it bans), to the terminology list.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        problems.append(Problem(path, 1, "file", f"cannot read file: {error}"))
        return None
    try:
        document = parse_with_positions(text)
    except YamlSyntaxError as error:
        problems.append(Problem(path, error.line, "yaml", f"not valid YAML: {error}"))
        return None
    if not isinstance(document.data, dict):
        problems.append(Problem(path, 1, "document", "expected a mapping at the top level"))
        return None
    problems.extend(particle_problems(path, document))
    if terminology is not None:
        problems.extend(terminology.problems(path, document))
    try:
        return model.model_validate(document.data), document
    except ValidationError as error:
        problems.extend(_problems_from(path, document, error))
        return None


def _problems_from(path: Path, document: PositionedDocument, error: ValidationError) -> list[Problem]:
    found = []
    for detail in error.errors(include_url=False):
        location = tuple(part for part in detail["loc"] if not str(part).startswith("function-"))
        field_name = ".".join(str(part) for part in location) or "document"
        message = detail["msg"].removeprefix("Value error, ")
        if detail["type"] == "missing":
            message = "required field is missing"
        elif detail["type"] == "extra_forbidden":
            message = "unknown field"
        found.append(Problem(path, document.line_of(location), field_name, message))
    return found
