"""Read the knowledge base from its folder: every file is checked, a bad file never hides a good one.

Layout under the root:
    taxonomy/<facet>.yaml     one facet and its terms
    incidents/<id>.yaml       one incident, file name equal to its id
    studies/<id>.yaml         one fleet study, file name equal to its id
    errors/<id>.yaml          one error-catalog entry, file name equal to its id
    organizations.yaml        every organisation a record names, by id
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
from kubegap.knowledge.model import FACETS, Facet, Incident, Study
from kubegap.knowledge.organizations import FILE_NAME as ORGANIZATIONS_FILE
from kubegap.knowledge.organizations import Organization, OrganizationList
from kubegap.knowledge.orthography import particle_problems
from kubegap.knowledge.problems import Problem
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
    facets: dict[str, Facet] = {}
    for path, facet, _ in _load_folder(root / "taxonomy", Facet, problems):
        if facet.facet in facets:
            problems.append(Problem(path, 1, "facet", f"facet {facet.facet!r} is defined twice"))
            continue
        facets[facet.facet] = facet
    for name in FACETS:
        if name not in facets:
            problems.append(Problem(root / "taxonomy" / f"{name}.yaml", 1, "facet", "facet file is missing"))
    organizations, organizations_document = _load_organizations(root, problems)
    knowledge = Knowledge(root=root, taxonomy=Taxonomy(facets, organizations), problems=problems)
    positioned_incidents = list(_load_folder(root / "incidents", Incident, problems))
    positioned_studies = list(_load_folder(root / "studies", Study, problems))
    knowledge.incidents = [incident for _, incident, _ in positioned_incidents]
    knowledge.studies = [study for _, study, _ in positioned_studies]
    cross_check(knowledge, positioned_incidents, positioned_studies, organizations_document)
    positioned_errors = list(_load_folder(root / "errors", ErrorEntry, problems))
    knowledge.errors = [entry for _, entry, _ in positioned_errors]
    check_errors(knowledge, positioned_errors)
    return knowledge


def _load_organizations(
    root: Path, problems: list[Problem]
) -> tuple[tuple[Organization, ...], PositionedDocument | None]:
    path = root / ORGANIZATIONS_FILE
    if not path.is_file():
        problems.append(Problem(path, 1, "organizations", "the organisation list is missing"))
        return (), None
    loaded = load_model_file(path, OrganizationList, problems)
    if loaded is None:
        return (), None
    return tuple(loaded[0].organizations), loaded[1]


def _load_folder(
    folder: Path, model: type[ModelT], problems: list[Problem]
) -> Iterable[tuple[Path, ModelT, PositionedDocument]]:
    if not folder.is_dir():
        return
    for path in sorted(folder.glob("*.yaml")):
        loaded = load_model_file(path, model, problems)
        if loaded is not None:
            yield path, *loaded


def load_model_file(
    path: Path, model: type[ModelT], problems: list[Problem]
) -> tuple[ModelT, PositionedDocument] | None:
    """Parse and validate one file; on failure append Problems (with lines) and return None."""
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
