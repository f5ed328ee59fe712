"""Who may LIST/WATCH what cluster-wide: ClusterRoleBindings resolved to ServiceAccounts.

Only ClusterRoleBindings count: a RoleBinding to a ClusterRole is confined to one namespace and
cannot fan out over the whole cluster. Aggregated ClusterRoles are read through their own rules.
"""

from __future__ import annotations

from collections import defaultdict

from kubegap.checker.extract._fields import dig, items, name_of, strings
from kubegap.checker.extract._memo import memo
from kubegap.checker.snapshot import Snapshot

# Resources whose cluster-wide LIST/WATCH from every node grows with cluster size.
HEAVY_RESOURCES = frozenset(
    {"pods", "nodes", "endpoints", "endpointslices", "services", "events", "secrets", "configmaps"}
)
_READ_VERBS = frozenset({"list", "watch", "*"})


def _heavy_grants(rules: list[dict[str, object]]) -> set[str]:
    granted: set[str] = set()
    for rule in rules:
        groups = set(strings(rule.get("apiGroups")))
        if not groups & {"", "*", "discovery.k8s.io"}:
            continue
        if not set(strings(rule.get("verbs"))) & _READ_VERBS:
            continue
        if strings(rule.get("resourceNames")):
            continue
        resources = set(strings(rule.get("resources")))
        granted |= HEAVY_RESOURCES if "*" in resources else resources & HEAVY_RESOURCES
    return granted


def cluster_wide_reads(snapshot: Snapshot) -> dict[tuple[str, str], set[str]]:
    """(namespace, serviceaccount) -> heavy resources it may LIST/WATCH in every namespace."""

    def build(snap: Snapshot) -> dict[tuple[str, str], set[str]]:
        role_grants = {
            name_of(role): _heavy_grants(items(role.get("rules")))
            for role in snap.of("rbac.authorization.k8s.io/ClusterRole")
        }
        result: dict[tuple[str, str], set[str]] = defaultdict(set)
        for binding in snap.of("rbac.authorization.k8s.io/ClusterRoleBinding"):
            if dig(binding, "roleRef", "kind") != "ClusterRole":
                continue
            granted = role_grants.get(str(dig(binding, "roleRef", "name") or ""), set())
            if not granted:
                continue
            for subject in items(binding.get("subjects")):
                if subject.get("kind") == "ServiceAccount":
                    result[(str(subject.get("namespace") or ""), str(subject.get("name") or ""))] |= granted
        return dict(result)

    return memo(snapshot, "cluster_wide_reads", build)
