"""Only the API server's own traffic belongs in the exempt priority level: it bypasses all limits."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import failed, not_applicable, passed, text
from kubegap.checker.extract import ref
from kubegap.checker.extract.flowcontrol import DEFAULT_FLOW_SCHEMAS, FLOW_SCHEMA, flow_schemas
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot

CHECK = CheckMeta(
    id="flowschema-exempt",
    area="control-plane",
    severity=Severity.high,
    title=text("사용자 FlowSchema의 priority level", "Priority level of custom FlowSchemas"),
    why=text(
        "exempt priority level의 요청은 동시 실행 한도도 대기열도 없이 곧바로 처리됩니다. 사용자 트래픽을 "
        "exempt로 보내면 그 클라이언트가 폭주할 때 API 서버를 지킬 장치가 없습니다. 대형 클러스터의 컨트롤 "
        "플레인이 클라이언트 부하로 무너진 OpenAI 사례들이 이런 보호가 필요한 이유입니다.",
        "Requests at the exempt priority level skip concurrency limits and queues entirely. Routing your "
        "own traffic there leaves nothing to protect the API server when that client misbehaves, which is "
        "the protection OpenAI's large clusters lacked when client load brought their control planes down.",
    ),
    remediation=text(
        "사용자 FlowSchema는 Limited priority level(필요하면 새로 만든 것)로 보내세요. exempt는 "
        "system:masters 같은 기본 FlowSchema에만 남겨 두세요.",
        "Route custom FlowSchemas to a Limited priority level (a new one if needed); leave exempt to the "
        "built-in FlowSchemas such as the one for system:masters.",
    ),
    decides=text(
        "기본 FlowSchema가 아닌 것 중 priorityLevelConfiguration.name이 exempt인 것을 실패로 봅니다.",
        "Fails every FlowSchema that is not one of the built-in ones and names the exempt priority level.",
    ),
    incidents=(
        "openai-2024-12-telemetry-kube-apiserver-overload",
        "openai-2024-11-namespace-labels-gpu-cluster-control-plane",
        "openai-2024-04-k8s-control-plane-memory",
    ),
    needs=(FLOW_SCHEMA,),
    components=("kube-apiserver", "kubernetes-control-plane"),
    references=("https://kubernetes.io/docs/concepts/cluster-administration/flow-control/",),
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    objects = {str((fs.get("metadata") or {}).get("name") or ""): fs for fs in snapshot.of(FLOW_SCHEMA)}
    custom = [schema for schema in flow_schemas(snapshot) if schema.name not in DEFAULT_FLOW_SCHEMAS]
    if not custom:
        yield not_applicable(CHECK, message("직접 만든 FlowSchema가 없습니다", "no custom FlowSchemas"))
        return
    exempt = [schema for schema in custom if schema.priority_level == "exempt"]
    for schema in exempt:
        yield failed(
            CHECK,
            ref(objects[schema.name]),
            message(
                "FlowSchema {name:이} APF를 건너뜁니다(exempt)",
                "FlowSchema {name} bypasses APF (exempt)",
                name=schema.name,
            ),
            {"priorityLevel": "exempt"},
        )
    if not exempt:
        yield passed(
            CHECK,
            None,
            message(
                "직접 만든 FlowSchema {count}개 가운데 exempt는 없습니다",
                "none of {count} custom FlowSchemas is exempt",
                count=len(custom),
            ),
        )
