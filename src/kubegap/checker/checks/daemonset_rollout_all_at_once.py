"""A DaemonSet rollout with maxUnavailable near 100% restarts a node agent on every node together."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import failed, not_applicable, passed, text
from kubegap.checker.extract import GPU_STACK_ROLES, daemonsets, dig, integer, percent_or_count
from kubegap.checker.extract.agents import is_cluster_network
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot

THRESHOLD = 0.5

CHECK = CheckMeta(
    id="daemonset-rollout-all-at-once",
    area="fleet-change",
    severity=Severity.medium,
    title=text("노드 에이전트의 롤아웃 속도", "Rollout pace of node agents"),
    why=text(
        "DaemonSet의 maxUnavailable이 절반 이상이면 잘못된 새 버전이 거의 모든 노드에 동시에 퍼집니다. "
        "OpenAI의 CNI 설정 변경은 그 클러스터에만 있던 하드웨어 종류에서 깨져 GPU 클러스터 전체의 "
        "네트워크를 끊었습니다. 클러스터 안에서도 처음 몇 노드 뒤에 멈추는 롤아웃이었다면 피해를 그 "
        "노드들로 줄일 수 있었습니다.",
        "With maxUnavailable at half or more, a bad new version reaches almost every node at once. "
        "OpenAI's CNI change broke on a hardware variant found only in one cluster and cut networking for "
        "that whole GPU cluster; a rollout that paused after the first few nodes of the cluster would have "
        "limited the damage to those nodes.",
    ),
    remediation=text(
        "노드 에이전트 DaemonSet은 updateStrategy.rollingUpdate.maxUnavailable을 1이나 작은 비율(예: "
        "10%)로 두고, CNI·GPU 스택은 카나리아 노드 풀에서 먼저 굴리세요.",
        "Set updateStrategy.rollingUpdate.maxUnavailable to 1 or a small percentage (e.g. 10%) on "
        "node-agent DaemonSets, and roll CNI and GPU-stack changes to a canary node pool first.",
    ),
    decides=text(
        "RollingUpdate DaemonSet의 maxUnavailable이 50% 이상이거나 desiredNumberScheduled의 절반 이상이면 "
        "실패입니다. CNI와 GPU 스택 에이전트는 심각도를 높여 보고합니다.",
        "Fails when a RollingUpdate DaemonSet's maxUnavailable is 50% or more, or at least half of "
        "desiredNumberScheduled. CNI and GPU stack agents are reported at higher severity.",
    ),
    incidents=(
        "openai-2023-01-cni-change-gpu-cluster",
        "datadog-2023-03-systemd-networkd-unattended-upgrade",
    ),
    needs=("apps/DaemonSet",),
    components=("node-agent", "cni", "deployment-pipeline"),
    references=("https://kubernetes.io/docs/tasks/manage-daemon/update-daemon-set/",),
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    views = daemonsets(snapshot)
    if not views:
        yield not_applicable(CHECK, message("DaemonSet이 없습니다", "no DaemonSets"))
        return
    risky = 0
    for ds in views:
        strategy = dig(ds.obj, "spec", "updateStrategy") or {}
        if isinstance(strategy, dict) and strategy.get("type") == "OnDelete":
            continue
        value = dig(strategy, "rollingUpdate", "maxUnavailable")
        if value is None:
            continue
        desired = integer(ds.status.get("desiredNumberScheduled"), 0)
        # A percentage judges itself; an absolute count needs the number of nodes the DaemonSet runs on.
        is_percent = isinstance(value, str) and value.strip().endswith("%")
        fraction = percent_or_count(value, 1 if is_percent else desired)
        if fraction is None or fraction < THRESHOLD:
            continue
        risky += 1
        critical_agent = ds.role in GPU_STACK_ROLES or is_cluster_network(ds.ref.name)
        yield failed(
            CHECK,
            ds.ref,
            message(
                "롤아웃 한 번에 {name}의 파드 {value}가 동시에 내려갈 수 있습니다",
                "rollout may take down {value} of {name}'s pods at once",
                value=str(value),
                name=ds.ref.name,
            ),
            {"maxUnavailable": value, "desired": desired, "role": ds.role or "other"},
            severity=Severity.high if critical_agent else None,
        )
    if not risky:
        yield passed(
            CHECK,
            None,
            message(
                "DaemonSet {count}개 모두 조금씩 롤아웃합니다",
                "all {count} DaemonSets roll out gradually",
                count=len(views),
            ),
        )
