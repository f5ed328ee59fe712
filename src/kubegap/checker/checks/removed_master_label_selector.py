"""Selectors on the removed node-role.kubernetes.io/master label pick nothing after a 1.24+ upgrade."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import failed, not_applicable, passed, text
from kubegap.checker.extract import dig, items, nodes, ref
from kubegap.checker.finding import Finding, ObjectRef, Severity
from kubegap.checker.snapshot import Coverage, Snapshot
from kubegap.checker.workload import WORKLOAD_KINDS, templates

LABEL = "node-role.kubernetes.io/master"
# Judged when present in the input (snapshot or manifest files); not listed live until RBAC knows the kind.
CALICO_PEERS = ("crd.projectcalico.org/BGPPeer", "projectcalico.org/BGPPeer")

CHECK = CheckMeta(
    id="removed-master-label-selector",
    area="fleet-change",
    severity=Severity.high,
    title=text(
        "제거된 node-role.kubernetes.io/master 레이블의 사용",
        "Use of the removed node-role.kubernetes.io/master label",
    ),
    why=text(
        "쿠버네티스 1.24는 node-role.kubernetes.io/master 레이블을 노드에서 뺐습니다. Reddit에서는 Calico "
        "라우트 리플렉터의 BGP 피어 설정이 바로 이 레이블로 노드를 고르고 있어, 업그레이드 몇 분 만에 "
        "라우트 리플렉터가 사라지고 파드 네트워크가 무너져 314분 동안 사이트가 멈췄습니다. 이 레이블을 "
        "고르는 nodeSelector와 affinity도 조용히 아무 노드도 고르지 못하게 됩니다.",
        "Kubernetes 1.24 stopped putting the node-role.kubernetes.io/master label on nodes. At Reddit the "
        "Calico BGP peer configuration for the route reflectors selected nodes by exactly that label; "
        "minutes into the upgrade the route reflectors vanished, pod networking collapsed and the site was "
        "down for 314 minutes. nodeSelectors and affinities on the label silently select no node in the "
        "same way.",
    ),
    remediation=text(
        "선택자를 node-role.kubernetes.io/control-plane으로 바꾸고, 업그레이드 전에 이 점검을 다시 "
        "돌리세요. 한동안 두 레이블을 모두 허용하려면 nodeSelectorTerms를 두 개로 나누세요.",
        "Switch the selectors to node-role.kubernetes.io/control-plane and re-run this check before "
        "upgrading. To accept both labels for a while, split nodeSelectorTerms into two terms.",
    ),
    decides=text(
        "워크로드 파드 템플릿의 nodeSelector·필수 node affinity와 Calico BGPPeer의 "
        "nodeSelector·peerSelector가 node-role.kubernetes.io/master를 쓰면 실패입니다. 노드를 읽었는데 그 "
        "레이블을 가진 노드가 없으면 이미 아무것도 고르지 못하는 상태로, 아직 있으면 다음 업그레이드에서 "
        "깨질 상태로 보고합니다.",
        "Fails when a workload pod template's nodeSelector or required node affinity, or a Calico "
        "BGPPeer's nodeSelector or peerSelector, uses node-role.kubernetes.io/master. With nodes read, it "
        "reports whether the selector already matches no node or will break at the next upgrade.",
    ),
    incidents=("reddit-2023-03-k8s-upgrade-calico-route-reflectors",),
    needs=(),
    optional=(*WORKLOAD_KINDS, "Node", *CALICO_PEERS),
    components=("kubernetes-control-plane", "cni"),
    references=(
        "https://kubernetes.io/blog/2022/04/07/upcoming-changes-in-kubernetes-1-24/",
        "https://docs.tigera.io/calico/latest/reference/resources/bgppeer",
    ),
)


def _template_uses_label(spec: dict[str, Any]) -> bool:
    if LABEL in (dig(spec, "nodeSelector") or {}):
        return True
    terms = dig(
        spec,
        "affinity",
        "nodeAffinity",
        "requiredDuringSchedulingIgnoredDuringExecution",
        "nodeSelectorTerms",
    )
    return any(
        expr.get("key") == LABEL for term in items(terms) for expr in items(term.get("matchExpressions"))
    )


def _users(snapshot: Snapshot) -> list[ObjectRef]:
    found = {template.owner for template in templates(snapshot) if _template_uses_label(template.spec)}
    for kind in CALICO_PEERS:
        for peer in snapshot.of(kind):
            selectors = f"{dig(peer, 'spec', 'nodeSelector') or ''} {dig(peer, 'spec', 'peerSelector') or ''}"
            if LABEL in selectors:
                found.add(ref(peer))
    return sorted(found, key=lambda obj: obj.display())


def run(snapshot: Snapshot) -> Iterator[Finding]:
    users = _users(snapshot)
    if not users:
        if next(templates(snapshot), None) is None and not any(snapshot.of(kind) for kind in CALICO_PEERS):
            yield not_applicable(
                CHECK, message("워크로드도 Calico BGP peer도 없습니다", "no workloads or Calico BGP peers")
            )
        else:
            said = message(
                "{label}로 노드를 고르는 것이 없습니다", "nothing selects nodes by {label}", label=LABEL
            )
            yield passed(CHECK, None, said)
        return
    nodes_read = snapshot.status_of("Node").status is Coverage.read and bool(snapshot.of("Node"))
    labelled = sum(1 for node in nodes(snapshot) if LABEL in node.labels) if nodes_read else -1
    for user in users:
        if labelled == 0:
            said = message(
                "어느 노드에도 없는 {label}로 노드를 골라 아무것도 고르지 못합니다",
                "selects nodes by {label}, which no node carries: it matches nothing",
                label=LABEL,
            )
            yield failed(CHECK, user, said)
        else:
            if labelled > 0:
                state = message(
                    "노드 {count}대에 아직 붙어 있습니다", "{count} node(s) still carry it", count=labelled
                )
            else:
                state = message("노드 레이블을 읽지 못했습니다", "node labels not read")
            said = message(
                "{label}로 노드를 고릅니다({ko_state}). 레이블이 없어지면 깨집니다",
                "selects nodes by {label} ({en_state}); it breaks when the label goes",
                label=LABEL,
                ko_state=state.render("ko"),
                en_state=str(state),
            )
            yield failed(CHECK, user, said, severity=Severity.medium if labelled > 0 else None)
