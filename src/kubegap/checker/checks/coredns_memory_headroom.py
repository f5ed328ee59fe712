"""CoreDNS with a tight memory limit is OOM-killed on every replica at once when queries spike."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import failed, not_applicable, passed, text
from kubegap.checker.checks.coredns_redundancy import is_dns
from kubegap.checker.extract import containers, dig, mapping, quantity, ref
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot

UPSTREAM_LIMIT = 170 * 1024**2  # the memory limit of the upstream CoreDNS manifest

CHECK = CheckMeta(
    id="coredns-memory-headroom",
    area="control-plane",
    severity=Severity.medium,
    title=text("CoreDNS 메모리 여유", "CoreDNS memory headroom"),
    why=text(
        "DNS 질의는 장애 때 가장 가파르게 늘어납니다. Zalando에서는 하위 호출 시간 초과로 재시도가 "
        "폭증하자 CoreDNS 메모리가 치솟아 100Mi 한도에 걸린 모든 파드가 함께 OOM으로 죽었고, 다시 떠도 "
        "곧바로 죽기를 되풀이해 클러스터 DNS와 모니터링이 함께 사라졌습니다.",
        "DNS queries rise fastest during an incident. At Zalando, retries after downstream timeouts drove "
        "CoreDNS memory up until every pod hit its 100Mi limit and was OOM-killed together; restarted pods "
        "died again at once, and cluster DNS went dark along with monitoring.",
    ),
    remediation=text(
        "CoreDNS 메모리 한도를 업스트림 기본값(170Mi) 이상으로, 클러스터 크기와 질의량에 맞게 늘리고, "
        "캐시·동시 질의 한도(max_concurrent)를 두세요. 노드가 많으면 NodeLocal DNSCache로 부하를 "
        "분산하세요.",
        "Raise the CoreDNS memory limit to at least the upstream default (170Mi) and in line with cluster "
        "size and query load, and set cache and max_concurrent limits. On large clusters spread load with "
        "NodeLocal DNSCache.",
    ),
    decides=text(
        "CoreDNS(kube-dns) Deployment의 coredns 컨테이너 메모리 한도가 업스트림 기본값 170Mi보다 작으면 "
        "실패입니다.",
        "Fails when the coredns container of the CoreDNS (kube-dns) Deployment has a memory limit below "
        "the upstream default of 170Mi.",
    ),
    incidents=("zalando-2019-01-coredns-oom-dns-outage",),
    needs=("apps/Deployment",),
    components=("dns",),
    references=(
        "https://github.com/coredns/deployment/blob/master/kubernetes/coredns.yaml.sed",
        "https://coredns.io/plugins/cache/",
    ),
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    dns = [d for d in snapshot.of("apps/Deployment") if is_dns(d)]
    if not dns:
        yield not_applicable(
            CHECK, message("CoreDNS/kube-dns Deployment가 없습니다", "no CoreDNS/kube-dns Deployment")
        )
        return
    for deployment in dns:
        limits = [
            quantity(mapping(dig(container, "resources", "limits")).get("memory"))
            for container in containers(
                mapping(dig(deployment, "spec", "template", "spec")), include_init=False
            )
        ]
        tight = [limit for limit in limits if limit is not None and limit < UPSTREAM_LIMIT]
        if tight:
            shown = f"{int(min(tight) / 1024**2)}Mi"
            said = message(
                "CoreDNS 메모리 한도가 {limit}입니다", "CoreDNS memory limit is {limit}", limit=shown
            )
            yield failed(CHECK, ref(deployment), said, {"memory_limit": shown})
        else:
            yield passed(
                CHECK,
                ref(deployment),
                message(
                    "CoreDNS 메모리 한도가 업스트림 기본값 이상입니다",
                    "CoreDNS has at least the upstream memory limit",
                ),
            )
