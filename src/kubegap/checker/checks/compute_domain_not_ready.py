"""A GB200-class ComputeDomain that stays NotReady holds every pod that needs its IMEX channel.

On multi-node NVLink systems the NVIDIA DRA driver forms an IMEX domain per ComputeDomain: one daemon
per node writes itself into the domain's status, and the domain turns Ready once all expected nodes
have joined. Until then the workload pods that claim the domain's IMEX channel wait in Pending. A
domain that never converges (a lost status update, a daemon that cannot start) looks from the
workload side like a job that simply does not start. The domain's status and the waiting pods are
both visible to a read-only reader.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import failed, not_applicable, passed, sample, text
from kubegap.checker.extract import dig, integer, items, mapping, ref
from kubegap.checker.extract._fields import name_of, namespace_of
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import KubeObject, Snapshot

KIND = "resource.nvidia.com/ComputeDomain"

CHECK = CheckMeta(
    id="compute-domain-not-ready",
    area="gpu-stack",
    severity=Severity.high,
    title=text(
        "워크로드가 기다리는 ComputeDomain의 준비 상태", "Readiness of the ComputeDomains workloads wait on"
    ),
    why=text(
        "GB200 같은 멀티 노드 NVLink 시스템에서 NVIDIA DRA 드라이버는 ComputeDomain마다 "
        "IMEX 도메인을 만들고, "
        "기대한 노드가 모두 합류해야 도메인을 Ready로 바꿉니다. 그 전까지 IMEX 채널을 요청한 파드는 "
        "Pending에서 기다립니다. 실제 클러스터에서 노드 데몬 두 개가 상태를 동시에 덮어써 노드 항목 "
        "하나가 사라졌고, 두 노드가 다 떴는데도 도메인은 NotReady에 머물렀습니다. 작업 쪽에서는 그저 "
        "시작하지 않는 작업으로만 보입니다.",
        "On multi-node NVLink systems such as GB200, the NVIDIA DRA driver builds an IMEX domain per "
        "ComputeDomain and marks it Ready only once every expected node has joined; until then pods that "
        "claim its IMEX channel wait in Pending. On a real cluster two node daemons overwrote the status "
        "at the same time, one node entry was lost, and the domain stayed NotReady with both nodes up. "
        "From the job's side it only looks like a job that never starts.",
    ),
    remediation=text(
        "NotReady인 ComputeDomain의 status.nodes를 실제로 뜬 compute-domain 데몬 파드와 numNodes에 맞춰 "
        "보세요. 빠진 노드가 있으면 그 노드의 데몬 로그(IMEX 시작 오류, 호스트의 nvidia-imex 서비스 "
        "충돌)를 확인하고, 상태 갱신을 잃은 경우라면 데몬 파드를 다시 띄우거나 수정된 드라이버로 "
        "올리세요. 도메인이 오래 NotReady이면 경보를 거세요.",
        "Compare a NotReady ComputeDomain's status.nodes with numNodes and with the compute-domain daemon "
        "pods actually running. For a missing node read its daemon's log (IMEX start errors, a host "
        "nvidia-imex service in the way); for a lost status update restart the daemon pods or move to a "
        "driver release with the fix. Alert when a domain stays NotReady.",
    ),
    decides=text(
        "ComputeDomain마다 spec.channel.resourceClaimTemplate.name을 같은 네임스페이스의 파드 "
        "resourceClaims와 이어, 그 채널을 요청한 Pending 파드가 있는데 status.status가 Ready가 아니면 "
        "실패입니다. 기다리는 파드가 없는 NotReady 도메인은 아직 워크로드가 배치되기 전일 수 있으므로 "
        "실패로 보지 않습니다.",
        "Links each ComputeDomain's spec.channel.resourceClaimTemplate.name to the resourceClaims of pods "
        "in its namespace; fails when pods claiming that channel are Pending and status.status is not "
        "Ready. A NotReady domain with no pod waiting may simply not have its workload placed yet, so it "
        "does not fail.",
    ),
    incidents=("nvidia-dra-2026-04-compute-domain-lost-status-update-stays-notready",),
    needs=("Pod",),
    optional=(KIND,),
    components=("nvlink-nvswitch", "node-agent"),
    references=(
        "https://github.com/kubernetes-sigs/dra-driver-nvidia-gpu",
        "https://kubernetes.io/docs/concepts/scheduling-eviction/dynamic-resource-allocation/",
    ),
    manifests=False,
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    # An unread ComputeDomain list becomes unknown in the runner (optional kinds never pass unread).
    domains = snapshot.of(KIND)
    if not domains:
        yield not_applicable(
            CHECK,
            message(
                "ComputeDomain이 없습니다(NVIDIA DRA 드라이버의 IMEX 도메인을 쓰지 않음)",
                "no ComputeDomains (the NVIDIA DRA driver's IMEX domains are not in use)",
            ),
        )
        return
    waiting = _pending_pods_by_template(snapshot)
    problems = 0
    for domain in domains:
        template = str(dig(domain, "spec", "channel", "resourceClaimTemplate", "name") or "")
        pods = waiting.get((namespace_of(domain), template), []) if template else []
        state = str(dig(domain, "status", "status") or "")
        if state == "Ready" or not pods:
            continue
        problems += 1
        nodes = items(dig(domain, "status", "nodes"))
        ready_nodes = sum(1 for node in nodes if node.get("status") == "Ready")
        yield failed(
            CHECK,
            ref(domain),
            message(
                "ComputeDomain {name:이} {state} 상태라 파드 {count}개가 IMEX 채널을 기다립니다"
                "(노드 {expected}대 중 상태에 {listed}대, 그중 Ready {ready}대)",
                "ComputeDomain {name} is {state} and {count} pods wait for its IMEX channel "
                "({listed} of {expected} nodes in its status, {ready} Ready)",
                name=name_of(domain),
                state=state or "NotReady",
                count=len(pods),
                expected=integer(dig(domain, "spec", "numNodes")),
                listed=len(nodes),
                ready=ready_nodes,
            ),
            {"state": state or "(none)", "waiting_pods": sample(pods), "claim_template": template},
        )
    if not problems:
        yield passed(
            CHECK,
            None,
            message(
                "ComputeDomain {count}개 중 워크로드를 붙잡고 있는 NotReady 도메인이 없습니다",
                "none of the {count} ComputeDomains is NotReady with workloads waiting on it",
                count=len(domains),
            ),
        )


def _pending_pods_by_template(snapshot: Snapshot) -> dict[tuple[str, str], list[str]]:
    """(namespace, ResourceClaimTemplate name) -> Pending pods that claim from it, in one pass over pods."""
    found: dict[tuple[str, str], list[str]] = defaultdict(list)
    for pod in snapshot.of("Pod"):
        if dig(pod, "status", "phase") != "Pending" or dig(pod, "metadata", "deletionTimestamp"):
            continue
        for template in _claim_templates(pod):
            found[(namespace_of(pod), template)].append(name_of(pod))
    return found


def _claim_templates(pod: KubeObject) -> set[str]:
    """Template names of a pod's resourceClaims: the v1 field, or the older `source` form."""
    names = set()
    for claim in items(dig(pod, "spec", "resourceClaims")):
        name = claim.get("resourceClaimTemplateName") or mapping(claim.get("source")).get(
            "resourceClaimTemplateName"
        )
        if isinstance(name, str) and name:
            names.add(name)
    return names
