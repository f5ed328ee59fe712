"""Agents that read cluster-wide from every node need their own bounded APF priority level."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import failed, not_applicable, passed, text
from kubegap.checker.checks.node_agent_cluster_wide_reads import RBAC_KINDS, heavy_agents
from kubegap.checker.extract.flowcontrol import FLOW_SCHEMA, PRIORITY_LEVEL, dedicated_level_for
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot

CHECK = CheckMeta(
    id="node-agent-apf-guard",
    area="control-plane",
    severity=Severity.high,
    title=text(
        "클러스터 전체를 읽는 노드 에이전트의 APF 제한",
        "APF guard for per-node agents that read cluster-wide",
    ),
    why=text(
        "API Priority and Fairness의 기본 설정에서 ServiceAccount 요청은 workload-low·workload-high처럼 "
        "다른 컨트롤러와 함께 쓰는 priority level로 갑니다. 수천 노드의 에이전트가 한꺼번에 LIST를 "
        "쏟아내면 그 몫을 다 먹고 API 서버를 쓰러뜨립니다. OpenAI 2024년 12월 장애에서는 운영자가 "
        "에이전트를 지우려 해도 그 API 서버에 닿지 못했습니다.",
        "By default API Priority and Fairness sends ServiceAccount requests to shared levels such as "
        "workload-low or workload-high. Thousands of agents listing at once eat that share and overload "
        "the API server; in OpenAI's December 2024 outage operators could not even reach the API server to "
        "remove the agent.",
    ),
    remediation=text(
        "그 에이전트의 ServiceAccount만 고르는 FlowSchema를 만들고, nominalConcurrencyShares가 작은 "
        "Limited priority level(예: node-agents)로 보내세요. 그러면 에이전트가 폭주해도 대기열에서 기다릴 "
        "뿐 다른 요청을 밀어내지 못합니다.",
        "Create a FlowSchema that matches only that agent's ServiceAccount and routes it to a Limited "
        "priority level with small nominalConcurrencyShares (e.g. node-agents). A stampede then queues "
        "there instead of crowding out everything else.",
    ),
    decides=text(
        "node-agent-cluster-wide-reads에서 걸린 DaemonSet마다, 그 ServiceAccount를 기본이 아닌 priority "
        "level로 보내는 사용자 FlowSchema가 있는지 봅니다. 없으면 실패입니다.",
        "For each DaemonSet flagged by node-agent-cluster-wide-reads, looks for a custom FlowSchema "
        "routing its ServiceAccount to a non-default priority level; none means fail.",
    ),
    incidents=(
        "openai-2024-12-telemetry-kube-apiserver-overload",
        "openai-2024-11-namespace-labels-gpu-cluster-control-plane",
    ),
    needs=("apps/DaemonSet", *RBAC_KINDS, FLOW_SCHEMA),
    optional=(PRIORITY_LEVEL,),
    components=("kube-apiserver", "kubernetes-control-plane"),
    references=("https://kubernetes.io/docs/concepts/cluster-administration/flow-control/",),
    manifests=False,
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    heavy = heavy_agents(snapshot)
    if not heavy:
        yield not_applicable(
            CHECK,
            message(
                "클러스터 전체의 파드나 엔드포인트를 읽는 DaemonSet이 없습니다",
                "no DaemonSet reads pods or endpoints cluster-wide",
            ),
        )
        return
    for ds, resources in heavy:
        schema = dedicated_level_for(snapshot, ds.namespace, ds.service_account)
        account = f"{ds.namespace}/{ds.service_account}"
        if schema is not None:
            evidence: dict[str, object] = {"flowSchema": schema.name, "priorityLevel": schema.priority_level}
            yield passed(
                CHECK,
                ds.ref,
                message(
                    "{account:은} 우선순위 수준 {level:로} 보내집니다",
                    "{account} is routed to priority level {level}",
                    account=account,
                    level=schema.priority_level,
                ),
                evidence,
            )
        else:
            evidence = {"serviceAccount": account, "resources": resources}
            yield failed(
                CHECK,
                ds.ref,
                message(
                    "모든 노드에서 {resources:을} 나열하는 {account:을} 묶어 두는 FlowSchema가 없습니다",
                    "no FlowSchema bounds {account}, which lists {resources} from every node",
                    account=account,
                    resources=", ".join(resources),
                ),
                evidence,
            )
