"""What a check module declares. One module per check under `checker/checks/`, discovered by listing.

A check module defines a module-level `CHECK = CheckMeta(...)` and a pure function
`run(snapshot: Snapshot) -> Iterable[Finding]`. The runner turns missing or forbidden `needs` into
`unknown` before `run` is called, so `run` may assume every needed kind was read. An `optional` kind
may be unread when `run` is called; if it exists but was not read whole (forbidden, failed,
malformed, partial, not collected), the runner turns the check's passes and not-applicables into
`unknown` afterwards (see `verdicts`), so `run` needs no code for that either. A check on workloads
declares the roles it applies to (`roles`) and picks its workloads with `_common.role_workloads`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kubegap.checker.finding import Severity
from kubegap.checker.workload.roles import Role
from kubegap.knowledge.model import Bilingual


@dataclass(frozen=True)
class CheckMeta:
    id: str  # stable, kebab-case, equal to the module name with '-' for '_'
    area: str  # gpu-health | gpu-stack | training-jobs | fleet-change | control-plane | networking
    severity: Severity
    title: Bilingual
    why: Bilingual
    remediation: Bilingual
    decides: Bilingual  # how it decides, in a sentence or two
    incidents: tuple[str, ...]  # ids of incidents in the knowledge base that motivate it
    needs: tuple[str, ...]  # kind keys it reads, e.g. ("Node", "apps/DaemonSet")
    optional: tuple[str, ...] = ()  # kind keys it uses when present (CRDs) but can do without
    components: tuple[str, ...] = ()  # component term ids it guards, for the library's check box
    references: tuple[str, ...] = field(default_factory=tuple)  # public docs URLs
    manifests: bool = True  # meaningful on manifest files (False: needs live state such as node status)
    # Workload roles the check judges (see checker/workload/roles.py); () for checks that read no
    # workloads. `checks._common.role_workloads` selects by it, so a check never re-decides what a
    # workload is for, and every finding on a workload carries the role it assumed.
    roles: tuple[Role, ...] = ()
