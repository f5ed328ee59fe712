"""Check modules and snapshots built in code, so engine tests never depend on the shipped checks."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from kubegap.checker.check import CheckMeta
from kubegap.checker.finding import Finding, ObjectRef, Severity, Status
from kubegap.checker.registry import CheckModule
from kubegap.checker.snapshot import Snapshot
from kubegap.knowledge.model import Bilingual

INCIDENT = "openai-2025-06-gpu-host-os-update-network-loss"


def text(en: str) -> Bilingual:
    return Bilingual(ko=f"{en} (ko)", en=en)


def make_meta(
    check_id: str = "sample-check",
    *,
    needs: Sequence[str] = ("Node",),
    optional: Sequence[str] = (),
    severity: Severity = Severity.high,
    incidents: Sequence[str] = (INCIDENT,),
    manifests: bool = True,
) -> CheckMeta:
    return CheckMeta(
        id=check_id,
        area="gpu-health",
        severity=severity,
        title=text(f"Title of {check_id}"),
        why=text(f"Why {check_id} matters"),
        remediation=text(f"Fix {check_id} like this"),
        decides=text(f"How {check_id} decides"),
        incidents=tuple(incidents),
        needs=tuple(needs),
        optional=tuple(optional),
        manifests=manifests,
    )


def make_check(meta: CheckMeta, run: Callable[[Snapshot], Iterable[Finding]] | None = None) -> CheckModule:
    return CheckModule(meta=meta, run=run or per_node_check(meta))


def per_node_check(meta: CheckMeta) -> Callable[[Snapshot], Iterable[Finding]]:
    """Fails every node labelled gap=yes, passes the others: a stand-in for a real check."""

    def run(snapshot: Snapshot) -> Iterable[Finding]:
        for node in snapshot.of("Node"):
            name = node["metadata"]["name"]
            bad = (node["metadata"].get("labels") or {}).get("gap") == "yes"
            yield Finding(
                check_id=meta.id,
                status=Status.failed if bad else Status.passed,
                severity=meta.severity,
                object=ObjectRef("Node", name, api_version="v1"),
                message=f"node {name} {'has' if bad else 'has no'} gap",
                evidence={"labels": node["metadata"].get("labels") or {}},
            )

    return run


def node(name: str, gap: bool = False, annotations: dict[str, str] | None = None) -> dict[str, object]:
    metadata: dict[str, object] = {"name": name, "labels": {"gap": "yes" if gap else "no"}}
    if annotations:
        metadata["annotations"] = annotations
    return {"apiVersion": "v1", "kind": "Node", "metadata": metadata}


def pod(name: str, namespace: str) -> dict[str, object]:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": namespace}}


def snapshot_of(*objects: dict[str, object], mode: str = "snapshot") -> Snapshot:
    snapshot = Snapshot(mode=mode, source="test")
    for obj in objects:
        snapshot.add(obj)
    return snapshot
