"""API Priority and Fairness: which FlowSchema routes a ServiceAccount, and to what priority level."""

from __future__ import annotations

from dataclasses import dataclass

from kubegap.checker.extract._fields import dig, integer, items, name_of
from kubegap.checker.extract._memo import memo
from kubegap.checker.snapshot import Snapshot

FLOW_SCHEMA = "flowcontrol.apiserver.k8s.io/FlowSchema"
PRIORITY_LEVEL = "flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration"
# Shipped with every API server; routing to these means 'shares a pool with everything else'.
DEFAULT_FLOW_SCHEMAS = frozenset(
    {
        "exempt",
        "probes",
        "system-leader-election",
        "endpoint-controller",
        "workload-leader-election",
        "system-node-high",
        "system-nodes",
        "kube-controller-manager",
        "kube-scheduler",
        "kube-system-service-accounts",
        "service-accounts",
        "global-default",
        "catch-all",
    }
)
DEFAULT_PRIORITY_LEVELS = frozenset(
    {
        "exempt",
        "system",
        "node-high",
        "leader-election",
        "workload-high",
        "workload-low",
        "global-default",
        "catch-all",
    }
)


@dataclass(frozen=True)
class FlowSchemaView:
    name: str
    priority_level: str
    precedence: int
    service_accounts: frozenset[tuple[str, str]]  # (namespace, name); name '*' means any in the namespace
    all_service_accounts: bool


def _view(obj: dict[str, object]) -> FlowSchemaView:
    accounts: set[tuple[str, str]] = set()
    everyone = False
    for rule in items(dig(obj, "spec", "rules")):
        for subject in items(rule.get("subjects")):
            kind = subject.get("kind")
            if kind == "ServiceAccount":
                account = dig(subject, "serviceAccount") or {}
                accounts.add((str(dig(account, "namespace") or ""), str(dig(account, "name") or "")))
            elif kind == "Group":
                group = str(dig(subject, "group", "name") or "")
                if group in ("system:serviceaccounts", "system:authenticated"):
                    everyone = True
                elif group.startswith("system:serviceaccounts:"):
                    accounts.add((group.rsplit(":", 1)[-1], "*"))
            elif kind == "User":
                user = str(dig(subject, "user", "name") or "")
                parts = user.split(":")
                if len(parts) == 4 and parts[:2] == ["system", "serviceaccount"]:
                    accounts.add((parts[2], parts[3]))
    return FlowSchemaView(
        name=name_of(obj),
        priority_level=str(dig(obj, "spec", "priorityLevelConfiguration", "name") or ""),
        precedence=integer(dig(obj, "spec", "matchingPrecedence"), 1000),
        service_accounts=frozenset(accounts),
        all_service_accounts=everyone,
    )


def flow_schemas(snapshot: Snapshot) -> list[FlowSchemaView]:
    """FlowSchemas sorted by matching precedence (lowest first, as the API server evaluates them)."""
    return memo(
        snapshot,
        "flow_schemas",
        lambda snap: sorted((_view(fs) for fs in snap.of(FLOW_SCHEMA)), key=lambda v: v.precedence),
    )


def routes(schema: FlowSchemaView, namespace: str, account: str) -> bool:
    return (
        schema.all_service_accounts
        or (namespace, account) in schema.service_accounts
        or (namespace, "*") in schema.service_accounts
    )


def dedicated_level_for(snapshot: Snapshot, namespace: str, account: str) -> FlowSchemaView | None:
    """The custom FlowSchema routing this ServiceAccount to a custom (bounded) priority level, if any."""
    for schema in flow_schemas(snapshot):
        if schema.name in DEFAULT_FLOW_SCHEMAS or schema.all_service_accounts:
            continue
        if routes(schema, namespace, account) and schema.priority_level not in DEFAULT_PRIORITY_LEVELS:
            return schema
    return None
