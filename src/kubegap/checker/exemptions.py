"""Accepted risks: a fail the owner has decided to live with stays visible, marked with who exempted it.

Two ways to exempt. A YAML file (reviewed like code, every entry with a reason and maybe an expiry):

    exemptions:
      - check: gpu-health-agent      # a check id, or "*"
        namespace: "research-*"      # glob, default "*"
        name: "*"                    # glob, default "*"
        kind: DaemonSet              # optional
        reason: "burn-in pool, health agent comes with the next image"
        expires: 2026-03-31          # optional; after it the entry is ignored and reported

and the annotation `kubegap.io/ignore: <check-id>,<check-id>` (or `all`) on the object itself, which a
flag can switch off. An exempted fail keeps status fail and gains `exempted_by`; nothing is dropped.
"""

from __future__ import annotations

import datetime as dt
import fnmatch
import os
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from kubegap.bilingual import message
from kubegap.checker.finding import Finding, ObjectRef, Status
from kubegap.checker.snapshot import KubeObject, Snapshot, kind_key
from kubegap.errors import InputError

ANNOTATION = "kubegap.io/ignore"


class Exemption(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    check: str = Field(min_length=1)
    namespace: str = "*"
    name: str = "*"
    kind: str = ""
    reason: str = Field(min_length=1)
    expires: dt.date | None = None

    def matches(self, finding: Finding) -> bool:
        ref = finding.object
        return (
            (self.check == "*" or self.check == finding.check_id)
            and fnmatch.fnmatchcase(ref.namespace, self.namespace)
            and fnmatch.fnmatchcase(ref.name, self.name)
            and (not self.kind or self.kind in {ref.kind, kind_key(ref.api_version, ref.kind)})
        )

    def describe(self) -> str:
        until = f", until {self.expires.isoformat()}" if self.expires else ""
        return f"exemption ({self.check} {self.namespace}/{self.name}): {self.reason}{until}"


class _ExemptionFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    exemptions: list[Exemption] = Field(default_factory=list)


@dataclass
class ExemptionSet:
    """The entries in force, and those that expired (reported, not applied)."""

    rules: list[Exemption] = field(default_factory=list)
    expired: list[Exemption] = field(default_factory=list)
    source: str = ""

    def notes(self) -> list[str]:
        """One note per expired exemption, in both languages (the rule itself is the user's text)."""
        return [
            message(
                "{source}: {date}에 만료되어 무시한 예외: {check} {namespace}/{name}: {reason}",
                "{source}: expired on {date} and ignored: {rule}",
                source=self.source,
                date=str(rule.expires),
                rule=rule.describe(),
                check=rule.check,
                namespace=rule.namespace,
                name=rule.name,
                reason=rule.reason,
            )
            for rule in self.expired
            if rule.expires is not None
        ]


def _first_problem(path: Path, error: ValidationError) -> str:
    problem = error.errors()[0]
    location = ".".join(str(part) for part in problem["loc"])
    if location.startswith("exemptions."):
        index = location.split(".")[1]
        rest = ".".join(location.split(".")[2:])
        if index.isdigit():
            location = f"entry {int(index) + 1}" + (f": {rest}" if rest else "")
    return f"{path}: {location}: {problem['msg']}"


def parse_exemptions(text: str, path: Path, today: dt.date | None = None) -> ExemptionSet:
    """Parse exemption YAML; any problem is one InputError line naming the file and the entry."""
    from kubegap.checker.sources._files import iter_yaml

    return _exemption_set(_one_document(list(iter_yaml(path, text)), path), path, today)


def _one_document(documents: list[Any], path: Path) -> Any:
    if len(documents) > 1:
        raise InputError(
            message(
                "{path}: YAML 문서가 {count}개입니다. 예외는 모두 한 문서에 두세요",
                "{path}: holds {count} YAML documents; put every exemption in one",
                path=str(path),
                count=len(documents),
            )
        )
    return documents[0].data if documents else None


def _exemption_set(data: Any, path: Path, today: dt.date | None) -> ExemptionSet:
    if data is None:
        data = {"exemptions": []}
    if isinstance(data, list):
        data = {"exemptions": data}
    if not isinstance(data, dict):
        raise InputError(
            message(
                "{path}: 'exemptions' 목록을 담은 매핑이어야 합니다",
                "{path}: expected a mapping with an 'exemptions' list",
                path=str(path),
            )
        )
    try:
        parsed = _ExemptionFile.model_validate(data)
    except ValidationError as error:
        raise InputError(_first_problem(path, error)) from None
    today = today or dt.datetime.now(dt.UTC).date()
    active = [rule for rule in parsed.exemptions if rule.expires is None or rule.expires >= today]
    expired = [rule for rule in parsed.exemptions if rule.expires is not None and rule.expires < today]
    return ExemptionSet(rules=active, expired=expired, source=str(path))


def load_exemptions(path: str | Path, today: dt.date | None = None) -> ExemptionSet:
    """Read an exemptions file through the same bounded intake as manifests: a regular file under the
    size limit (gzip allowed), YAML or JSON checked for alias bombs, depth and size before it is built,
    so a FIFO, `/dev/zero`, a 2 GB file or an alias bomb is one error line, never a hang."""
    from kubegap.checker.sources._files import read_documents

    path = Path(path)
    try:
        os.stat(path)
    except OSError as error:  # the common mistake, said as before: a path that is not there
        raise InputError(
            message(
                "{path}: 예외 파일을 읽을 수 없습니다({reason})",
                "{path}: cannot read exemptions file: {reason}",
                path=str(path),
                reason=error.strerror or type(error).__name__,
            )
        ) from None
    return _exemption_set(_one_document(read_documents(path), path), path, today)


class _AnnotationIndex:
    """(kind, namespace, name) -> the object's ignore annotation, built once per kind and only when asked."""

    def __init__(self, snapshot: Snapshot) -> None:
        self._snapshot = snapshot
        self._by_kind: dict[str, dict[tuple[str, str], str]] = {}

    def _index(self, key: str) -> dict[tuple[str, str], str]:
        found = self._by_kind.get(key)
        if found is None:
            found = {}
            for obj in self._snapshot.of(key):
                value = _ignore_annotation(obj)
                if value:
                    metadata = obj.get("metadata") or {}
                    found[(str(metadata.get("namespace") or ""), str(metadata.get("name") or ""))] = value
            self._by_kind[key] = found
        return found

    def annotation(self, ref: ObjectRef) -> str:
        keys = [kind_key(ref.api_version, ref.kind)] if ref.api_version else []
        keys += [key for key in self._snapshot.kinds() if key.rsplit("/", 1)[-1] == ref.kind]
        for key in dict.fromkeys(keys):
            value = self._index(key).get((ref.namespace, ref.name))
            if value:
                return value
        return ""


def _ignore_annotation(obj: KubeObject) -> str:
    metadata = obj.get("metadata")
    annotations = metadata.get("annotations") if isinstance(metadata, dict) else None
    value = annotations.get(ANNOTATION) if isinstance(annotations, dict) else None
    return value if isinstance(value, str) else ""


def _annotation_covers(value: str, check_id: str) -> bool:
    wanted = {part.strip() for part in value.split(",")}
    return "all" in wanted or "*" in wanted or check_id in wanted


def apply_exemptions(
    findings: Iterable[Finding],
    snapshot: Snapshot,
    exemptions: ExemptionSet | None = None,
    honour_annotations: bool = True,
) -> list[Finding]:
    """Mark fails covered by a file entry or an annotation; other findings pass through unchanged."""
    index = _AnnotationIndex(snapshot) if honour_annotations else None
    rules = exemptions.rules if exemptions else []
    result: list[Finding] = []
    for finding in findings:
        if finding.status is not Status.failed or finding.exempted_by:
            result.append(finding)
            continue
        by = next((rule.describe() for rule in rules if rule.matches(finding)), "")
        if not by and index is not None:
            value = index.annotation(finding.object)
            if value and _annotation_covers(value, finding.check_id):
                by = f"annotation {ANNOTATION}: {value}"
        result.append(replace(finding, exempted_by=by) if by else finding)
    return result
