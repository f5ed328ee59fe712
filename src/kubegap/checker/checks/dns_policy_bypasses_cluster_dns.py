"""Workloads resolving names through the node's resolver miss cluster DNS and break on cluster changes."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import Message, message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import role_workloads, text, workload_failed, workload_verdicts
from kubegap.checker.extract import containers, dig
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.workload import USER_ROLES, WORKLOAD_KINDS, Workload

# DNS servers and node-local caches must use the node resolver: that is where they forward to.
_DNS_SERVER_IMAGES = ("coredns", "k8s-dns", "dnsmasq", "node-cache", "unbound", "bind9")
_DNS_SERVER_NAMES = frozenset({"coredns", "kube-dns", "node-local-dns", "nodelocaldns"})

CHECK = CheckMeta(
    id="dns-policy-bypasses-cluster-dns",
    area="networking",
    severity=Severity.medium,
    title=text("워크로드의 클러스터 DNS 사용", "Cluster DNS use by workloads"),
    why=text(
        "dnsPolicy가 Default인 파드는 클러스터 DNS 대신 노드의 resolv.conf를 물려받습니다. 서비스 이름이 "
        "풀리지 않고, 노드 이미지나 VPC 설정에 따라 동작이 달라지므로 클러스터 업그레이드 때 숨어 있던 "
        "차이가 드러납니다. 오슬로시의 백엔드는 dnsPolicy Default와 보안 그룹 하나가 빠진 설정으로 EKS "
        "1.20 업그레이드 직후 멈췄고, 팀은 세 배포에서 이 값을 지웠습니다. hostNetwork 파드는 dnsPolicy를 "
        "비워 두거나 ClusterFirst로 두어도 같은 노드의 이름 풀이 설정으로 떨어집니다.",
        "A pod with dnsPolicy Default inherits the node's resolv.conf instead of cluster DNS: Service "
        "names do not resolve, and behaviour follows the node image and VPC settings, so a cluster "
        "upgrade exposes the hidden difference. The City of Oslo's backend, configured with dnsPolicy "
        "Default and missing one security group, stopped right after an EKS 1.20 upgrade, and the "
        "team removed the value from three Deployments. A hostNetwork pod falls back to the same node "
        "resolver when dnsPolicy is left empty or set to ClusterFirst.",
    ),
    remediation=text(
        "dnsPolicy: Default를 지워 기본값 ClusterFirst를 쓰세요. hostNetwork 파드라면 dnsPolicy: "
        "ClusterFirstWithHostNet을 두세요. 외부 이름만 쓰는 특별한 경우라면 dnsConfig로 그 뜻을 드러내세요.",
        "Remove dnsPolicy: Default so the ClusterFirst default applies; for hostNetwork pods set dnsPolicy: "
        "ClusterFirstWithHostNet. Where only external names are really wanted, say so with dnsConfig.",
    ),
    decides=text(
        "DaemonSet이 아닌 워크로드(파드, Deployment, StatefulSet, Job, 학습 작업 등)의 파드 템플릿이 "
        "dnsPolicy Default이거나, hostNetwork인데 dnsPolicy가 없거나 ClusterFirst이면 실패입니다. DNS 서버 "
        "자신(CoreDNS, kube-dns, NodeLocal DNSCache)과 노드 에이전트인 DaemonSet은 노드 resolver를 써야 "
        "하므로 건너뜁니다. 노드 하나에 묶인 hostNetwork 진단 파드·Job(노드 에이전트 역할)도 "
        "그 노드를 살피는 것이라 건너뜁니다. GPU를 요청하는 워크로드는 심각도를 높입니다.",
        "Fails a pod template of a workload other than a DaemonSet (pods, Deployments, StatefulSets, Jobs, "
        "training jobs...) whose dnsPolicy is Default, or that is hostNetwork with dnsPolicy unset or "
        "ClusterFirst. DNS servers themselves (CoreDNS, kube-dns, NodeLocal DNSCache) and DaemonSet node "
        "agents need the node resolver and are skipped, as are hostNetwork diagnostic pods and Jobs "
        "pinned to one node (role node agent), which examine that node. Workloads requesting GPUs are "
        "reported at higher severity.",
    ),
    incidents=("oslo-2022-06-13-eks-120-upgrade-dnspolicy-security-group-policy",),
    needs=(),
    optional=WORKLOAD_KINDS,
    components=("dns",),
    references=("https://kubernetes.io/docs/concepts/services-networking/dns-pod-service/#pod-s-dns-policy",),
    roles=USER_ROLES,
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    selection = role_workloads(CHECK, snapshot, gpus=False)
    chosen = [w for w in selection.chosen if not _is_dns_server(w)]
    problems = []
    for workload in chosen:
        for template in workload.templates:
            said = _bypass(template.spec)
            if said is None:
                continue
            problems.append(
                workload_failed(
                    CHECK,
                    workload,
                    said,
                    {
                        "group": template.group,
                        "dnsPolicy": template.spec.get("dnsPolicy") or "",
                        "hostNetwork": template.spec.get("hostNetwork") is True,
                        "gpus": template.gpus,
                    },
                    severity=Severity.high if workload.requests_gpus else None,
                )
            )
            break
    yield from workload_verdicts(
        CHECK,
        snapshot,
        problems,
        len(chosen),
        text("DaemonSet이 아닌 워크로드", "non-DaemonSet workloads"),
        undecided=selection.undecided,
    )


def _bypass(spec: dict[str, object]) -> Message | None:
    policy = spec.get("dnsPolicy")
    if policy == "Default":
        return message(
            "dnsPolicy가 {policy}라 클러스터 DNS 대신 노드의 이름 풀이 설정(resolv.conf)을 씁니다",
            "dnsPolicy is {policy}, so it uses the node's resolver instead of cluster DNS",
            policy="Default",
        )
    if spec.get("hostNetwork") is True and policy in (None, "", "ClusterFirst"):
        return message(
            "hostNetwork 파드에 ClusterFirstWithHostNet이 없어 노드의 이름 풀이 설정으로 떨어집니다",
            "hostNetwork pod without ClusterFirstWithHostNet falls back to the node's resolver",
        )
    return None


def _is_dns_server(workload: Workload) -> bool:
    name = workload.owner.name.lower()
    labels = dig(workload.obj, "spec", "template", "metadata", "labels")
    if name in _DNS_SERVER_NAMES or (isinstance(labels, dict) and labels.get("k8s-app") == "kube-dns"):
        return True
    images = [
        str(container.get("image") or "").lower()
        for template in workload.templates
        for container in containers(template.spec, include_init=False)
    ]
    return any(word in image for image in images for word in _DNS_SERVER_IMAGES)
