"""Can a pod template land on a node? Label selectors, node affinity, taints and tolerations."""

from __future__ import annotations

from typing import Any

from kubegap.checker.extract._fields import dig, items, mapping, strings

# Tolerations the DaemonSet controller adds to every DaemonSet pod.
DAEMONSET_AUTO_TOLERATIONS = (
    "node.kubernetes.io/not-ready",
    "node.kubernetes.io/unreachable",
    "node.kubernetes.io/disk-pressure",
    "node.kubernetes.io/memory-pressure",
    "node.kubernetes.io/pid-pressure",
    "node.kubernetes.io/unschedulable",
    "node.kubernetes.io/network-unavailable",
)


def expression_matches(labels: dict[str, str], expression: dict[str, Any]) -> bool:
    key = str(expression.get("key") or "")
    operator = str(expression.get("operator") or "")
    values = strings(expression.get("values"))
    present = key in labels
    if operator == "In":
        return present and labels[key] in values
    if operator == "NotIn":
        return not present or labels[key] not in values
    if operator == "Exists":
        return present
    if operator == "DoesNotExist":
        return not present
    if operator in ("Gt", "Lt") and present and values:
        try:
            left, right = int(labels[key]), int(values[0])
        except ValueError:
            return False
        return left > right if operator == "Gt" else left < right
    return False


def selector_matches(labels: dict[str, str], selector: Any) -> bool:
    """A LabelSelector (matchLabels + matchExpressions); an empty or missing selector matches all."""
    selector = mapping(selector)
    for key, value in mapping(selector.get("matchLabels")).items():
        if labels.get(str(key)) != str(value):
            return False
    return all(expression_matches(labels, expr) for expr in items(selector.get("matchExpressions")))


def node_selector_matches(labels: dict[str, str], node_selector: Any) -> bool:
    """A plain pod nodeSelector map."""
    return all(labels.get(str(key)) == str(value) for key, value in mapping(node_selector).items())


def required_affinity_matches(labels: dict[str, str], spec: dict[str, Any]) -> bool:
    """requiredDuringScheduling node affinity: any term matches (terms are ORed, expressions ANDed)."""
    required = dig(spec, "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution")
    terms = items(dig(required, "nodeSelectorTerms"))
    if not terms:
        return True
    return any(
        all(expression_matches(labels, expr) for expr in items(term.get("matchExpressions")))
        for term in terms
    )


def tolerates(tolerations: list[dict[str, Any]], taint: dict[str, Any]) -> bool:
    for toleration in tolerations:
        effect = toleration.get("effect")
        if effect and effect != taint.get("effect"):
            continue
        operator = toleration.get("operator") or "Equal"
        key = toleration.get("key")
        if operator == "Exists" and not key:
            return True
        if key != taint.get("key"):
            continue
        if operator == "Exists" or str(toleration.get("value") or "") == str(taint.get("value") or ""):
            return True
    return False


def blocking_taints(spec: dict[str, Any], taints: list[dict[str, Any]], daemonset: bool) -> list[str]:
    """The NoSchedule/NoExecute taints of a node that the pod does not tolerate, as 'key=value:effect'."""
    tolerations = items(spec.get("tolerations"))
    if daemonset:
        tolerations = tolerations + [{"key": key, "operator": "Exists"} for key in DAEMONSET_AUTO_TOLERATIONS]
    blocked = []
    for taint in taints:
        if taint.get("effect") not in ("NoSchedule", "NoExecute"):
            continue
        if not tolerates(tolerations, taint):
            blocked.append(f"{taint.get('key')}={taint.get('value') or ''}:{taint.get('effect')}")
    return blocked


def placement_blockers(
    spec: dict[str, Any], labels: dict[str, str], taints: list[dict[str, Any]], daemonset: bool = False
) -> list[str]:
    """Why a pod with this spec cannot be scheduled on a node; empty when it can."""
    reasons = []
    if not node_selector_matches(labels, spec.get("nodeSelector")):
        reasons.append("nodeSelector does not match")
    if not required_affinity_matches(labels, spec):
        reasons.append("required node affinity does not match")
    reasons.extend(f"untolerated taint {taint}" for taint in blocking_taints(spec, taints, daemonset))
    return reasons
