"""Cluster DNS is the path every service lookup takes; one replica or no PDB makes it a single point."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from kubegap.bilingual import Message, message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import failed, not_applicable, passed, text
from kubegap.checker.extract import daemonsets, dig, integer, mapping, nodes, ref, selector_matches
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Coverage, KubeObject, Snapshot

LARGE_CLUSTER = 100

CHECK = CheckMeta(
    id="coredns-redundancy",
    area="control-plane",
    severity=Severity.medium,
    title=text("클러스터 DNS 이중화", "Cluster DNS redundancy"),
    why=text(
        "서비스 디스커버리는 클러스터 DNS를 거칩니다. RebelMouse에서는 보안 패치를 위한 EKS 노드 교체가 "
        "CoreDNS 파드 하나를 내리자 남은 파드가 부하를 받아내지 못해 DNS가 느려지고 시간 초과가 났습니다. "
        "Zalando에서는 요청 폭증에 모든 CoreDNS 파드가 한꺼번에 OOM으로 죽었고, OpenAI 2024년 12월 "
        "장애에서는 DNS가 무너지자 파드가 돌고 있어도 서비스가 멈췄습니다. CoreDNS가 한 개뿐이거나 PDB가 "
        "없으면 노드 하나의 drain으로도 같은 경로가 끊깁니다. Preply에서는 DNS 엔드포인트가 바뀐 뒤 "
        "kube-proxy가 낡은 conntrack 항목을 지우지 못해 질의가 사라진 파드로 계속 갔는데, NodeLocal "
        "DNSCache가 줄이는 경로입니다.",
        "Service discovery goes through cluster DNS. At RebelMouse, an EKS node reroll for security "
        "patches took down one CoreDNS pod and the rest could not absorb the load, so DNS slowed and timed "
        "out. At Zalando a query spike OOM-killed every CoreDNS pod at once, and in OpenAI's December 2024 "
        "outage services stopped when DNS failed even though pods kept running. With a single CoreDNS "
        "replica or no PDB, draining one node cuts the same path. At Preply, kube-proxy failed to clear "
        "stale conntrack entries after the DNS endpoints changed and queries kept going to a pod that was "
        "gone, a path NodeLocal DNSCache takes out.",
    ),
    remediation=text(
        "CoreDNS를 2개 이상(노드 수에 따라 cluster-proportional-autoscaler로)으로 늘리고, 서로 다른 "
        "노드·존에 퍼뜨리고, minAvailable 1 이상의 PDB를 두세요. 노드가 100대를 넘으면 NodeLocal "
        "DNSCache를 검토하세요.",
        "Run at least two CoreDNS replicas (scaled with cluster-proportional-autoscaler), spread over "
        "nodes and zones, with a PDB of minAvailable 1 or more. Above 100 nodes consider NodeLocal "
        "DNSCache.",
    ),
    decides=text(
        "kube-system의 CoreDNS(kube-dns) Deployment에서 replicas가 2 미만이면, 그 파드를 고르는 PDB가 "
        "없으면 실패입니다. 노드가 100대 이상인데 NodeLocal DNSCache DaemonSet이 없으면 낮은 심각도로 "
        "실패입니다.",
        "Fails when the CoreDNS (kube-dns) Deployment has fewer than 2 replicas or no PDB selects its "
        "pods. With 100 or more nodes and no NodeLocal DNSCache DaemonSet, it fails at low severity.",
    ),
    incidents=(
        "rebelmouse-2025-05-coredns-node-reroll",
        "zalando-2019-01-coredns-oom-dns-outage",
        "openai-2024-12-telemetry-kube-apiserver-overload",
        "preply-2020-02-kube-proxy-conntrack-dns",
    ),
    needs=("apps/Deployment", "policy/PodDisruptionBudget"),
    optional=("Node", "apps/DaemonSet"),
    components=("dns", "kubernetes-control-plane"),
    references=(
        "https://kubernetes.io/docs/tasks/administer-cluster/nodelocaldns/",
        "https://kubernetes.io/docs/tasks/administer-cluster/dns-horizontal-autoscaling/",
    ),
)


def is_dns(deployment: KubeObject) -> bool:
    labels = mapping(dig(deployment, "spec", "template", "metadata", "labels"))
    name = str(dig(deployment, "metadata", "name") or "")
    return labels.get("k8s-app") == "kube-dns" or name in ("coredns", "kube-dns")


def _dns_gap(replicas: int, guarded: bool, budgets_read: bool = True) -> Message:
    """What is missing: a second replica, a PodDisruptionBudget, or both (budgets unread: replicas only)."""
    if replicas < 2 and not guarded and budgets_read:
        return message(
            "클러스터 DNS가 복제본 {replicas}개뿐이고 PodDisruptionBudget도 없습니다",
            "cluster DNS has {replicas} replica and no PodDisruptionBudget",
            replicas=replicas,
        )
    if replicas < 2:
        return message(
            "클러스터 DNS가 복제본 {replicas}개뿐입니다",
            "cluster DNS has {replicas} replica",
            replicas=replicas,
        )
    return message("클러스터 DNS에 PodDisruptionBudget이 없습니다", "cluster DNS has no PodDisruptionBudget")


def run(snapshot: Snapshot) -> Iterator[Finding]:
    dns = [d for d in snapshot.of("apps/Deployment") if is_dns(d)]
    if not dns:
        yield not_applicable(
            CHECK,
            message(
                "CoreDNS/kube-dns Deployment가 없습니다(DNS를 클러스터 밖에서 관리할 수 있습니다)",
                "no CoreDNS/kube-dns Deployment (DNS may be managed outside the cluster)",
            ),
        )
        return
    budgets = snapshot.of("policy/PodDisruptionBudget")
    budgets_read = snapshot.status_of("policy/PodDisruptionBudget").status is Coverage.read
    for deployment in dns:
        labels = {
            str(k): str(v)
            for k, v in mapping(dig(deployment, "spec", "template", "metadata", "labels")).items()
        }
        replicas = integer(dig(deployment, "spec", "replicas"), 1)
        namespace = dig(deployment, "metadata", "namespace")
        guarded = any(
            bool(dig(pdb, "spec", "selector"))
            and dig(pdb, "metadata", "namespace") == namespace
            and selector_matches(labels, dig(pdb, "spec", "selector"))
            for pdb in budgets
        )
        evidence: dict[str, object] = {"replicas": replicas, "pdb": guarded}
        if replicas < 2:
            # One replica is a single point of failure whatever PodDisruptionBudgets exist: this fail
            # stands even when they could not be read (the runner keeps it beside the unknown).
            gap = failed(CHECK, ref(deployment), _dns_gap(replicas, guarded, budgets_read), evidence)
            yield replace(gap, holds_without=("policy/PodDisruptionBudget",))
        elif not guarded:
            yield failed(CHECK, ref(deployment), _dns_gap(replicas, guarded), evidence)
        else:
            said = message(
                "클러스터 DNS가 PDB 아래에서 복제본 {replicas}개로 돕니다",
                "cluster DNS runs {replicas} replicas under a PDB",
                replicas=replicas,
            )
            yield passed(CHECK, ref(deployment), said, evidence)
    node_count = len(nodes(snapshot)) if snapshot.status_of("Node").status is Coverage.read else 0
    has_cache = any(ds.role == "nodelocaldns" for ds in daemonsets(snapshot))
    if node_count >= LARGE_CLUSTER and not has_cache:
        yield failed(
            CHECK,
            None,
            message(
                "노드가 {nodes}대인데 NodeLocal DNSCache가 없습니다",
                "{nodes} nodes and no NodeLocal DNSCache",
                nodes=node_count,
            ),
            {"nodes": node_count},
            severity=Severity.low,
        )
