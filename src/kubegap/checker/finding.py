"""The one finding type every renderer reads: table, JSON, Markdown, SARIF, MCP and the web."""

from __future__ import annotations

import builtins
from dataclasses import dataclass, field
from enum import StrEnum

from kubegap.bilingual import render_any


class Status(StrEnum):
    passed = "pass"
    failed = "fail"
    unknown = "unknown"
    not_applicable = "not-applicable"


class Severity(StrEnum):
    critical = "critical"
    high = "high"
    medium = "medium"
    low = "low"
    info = "info"

    @property
    def rank(self) -> int:
        """Higher is worse; used by --fail-on and sorting."""
        return {"info": 0, "low": 1, "medium": 2, "high": 3, "critical": 4}[self.value]


@dataclass(frozen=True)
class ObjectRef:
    """The Kubernetes object a finding is about ('' namespace for cluster-scoped objects)."""

    kind: str
    name: str
    namespace: str = ""
    api_version: str = ""
    source_file: str = ""  # manifests mode: the file the object came from, for SARIF locations
    source_line: int = 0
    source_document: int = 0  # manifests mode: which document of the file (1-based), 0 unknown

    def display(self) -> str:
        where = f"{self.namespace}/" if self.namespace else ""
        return f"{self.kind}/{where}{self.name}"


CLUSTER = ObjectRef(kind="Cluster", name="cluster")


@dataclass(frozen=True)
class Finding:
    """One verdict of one check about one object (or about the cluster as a whole).

    `message` and `evidence` are English facts for machines and logs (the JSON report keeps them).
    Checks pass a `Message` as `message`: it is that English string and also carries the Korean
    template, which every face that shows text to people renders through `message_in()`. Severity is
    the check's unless the check lowers it for this object.
    """

    check_id: str
    status: Status
    severity: Severity
    object: ObjectRef
    message: str
    evidence: dict[str, builtins.object] = field(default_factory=dict)
    reason: str = ""  # for unknown: forbidden | kind-absent | timed-out | not-decidable | exempted ...
    exempted_by: str = ""  # set when an exemption accepted this fail; the status stays fail
    # Kinds (needed or optional) this fail holds without: it stays a fail whatever they contain, so it
    # is kept when they could not be read ("one CoreDNS replica" holds whatever PDBs exist). A check
    # says so per finding; without it a needed kind that was not read leaves the check unknown.
    holds_without: tuple[str, ...] = ()

    def message_in(self, lang: str) -> str:
        """The message for a person reading `lang`; a message built without a template keeps its text."""
        return render_any(self.message, lang)
