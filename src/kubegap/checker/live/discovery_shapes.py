"""The shapes discovery documents must have before kubegap uses them (APIVersions, APIGroupList,
APIResourceList), checked with pydantic so a server that answers `groups: [1]`, `preferredVersion:
"v1"` or `resources: "x"` is reported as malformed in one line instead of raising AttributeError.

Only the fields kubegap reads are modelled; unknown fields are ignored, as Kubernetes clients do.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, StrictBool, StrictStr, ValidationError


class ShapeError(ValueError):
    """A discovery document that is not of the expected shape; the message names the first bad field."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class _Versions(_Model):
    versions: list[StrictStr] | None = None


class _GroupVersion(_Model):
    version: StrictStr = ""


class _Group(_Model):
    name: StrictStr
    versions: list[_GroupVersion] | None = None
    preferredVersion: _GroupVersion | None = None


class _Groups(_Model):
    groups: list[_Group] | None = None


class ResourceEntry(_Model):
    name: StrictStr
    kind: StrictStr = ""
    namespaced: StrictBool = False
    verbs: list[StrictStr] | None = None


class _Resources(_Model):
    resources: list[ResourceEntry] | None = None


def api_versions(document: dict[str, Any]) -> list[str]:
    """The core group's versions from /api."""
    return [version for version in (_parse(_Versions, document).versions or []) if version]


def api_groups(document: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """(group, versions with the preferred one first) from /apis."""
    found = []
    for group in _parse(_Groups, document).groups or []:
        preferred = group.preferredVersion.version if group.preferredVersion else ""
        others = [
            entry.version for entry in group.versions or [] if entry.version and entry.version != preferred
        ]
        found.append((group.name, [version for version in [preferred, *others] if version]))
    return found


def api_resources(document: dict[str, Any]) -> list[ResourceEntry]:
    """Top-level resources that can be listed (subresources such as pods/log are skipped)."""
    entries = _parse(_Resources, document).resources or []
    return [
        entry for entry in entries if "/" not in entry.name and (entry.verbs is None or "list" in entry.verbs)
    ]


def _parse(model: type[_Model], document: dict[str, Any]) -> Any:
    try:
        return model.model_validate(document)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the document"
        raise ShapeError(f"{where}: {first['msg'].lower()}") from None
