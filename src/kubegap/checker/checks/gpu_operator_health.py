"""A GPU Operator that is not ready, or a node whose driver upgrade failed, leaves GPUs half-installed."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import crd_state, failed, not_applicable, passed, text, unknown
from kubegap.checker.extract import dig, nodes, ref
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot

UPGRADE_LABEL = "nvidia.com/gpu-driver-upgrade-state"
POLICY_KINDS = ("nvidia.com/ClusterPolicy", "nvidia.com/NVIDIADriver")

CHECK = CheckMeta(
    id="gpu-operator-health",
    area="gpu-stack",
    severity=Severity.high,
    title=text(
        "GPU Operator의 준비 상태와 드라이버 업그레이드", "GPU Operator readiness and driver upgrades"
    ),
    why=text(
        "ClusterPolicy가 ready가 아니면 드라이버, 툴킷, 디바이스 플러그인 중 무언가가 일부 노드에서 "
        "설치되지 않은 상태입니다. 업그레이드가 실패한 노드는 이전 드라이버를 붙든 파드 때문에 새 "
        "드라이버가 제대로 뜨지 않는 일이 있었습니다.",
        "A ClusterPolicy that is not ready means the driver, toolkit or device plugin is missing on some "
        "nodes. Nodes whose upgrade failed have been seen unable to start the new driver because pods "
        "still held the old one.",
    ),
    remediation=text(
        "kubectl get clusterpolicy -o yaml의 status와 gpu-operator 네임스페이스의 파드 로그를 확인하고, "
        "upgrade-failed 노드는 GPU 파드를 비운(drain) 뒤 드라이버 파드를 다시 띄우세요.",
        "Read the status of kubectl get clusterpolicy -o yaml and the pod logs in the gpu-operator "
        "namespace; drain GPU pods from upgrade-failed nodes and restart their driver pod.",
    ),
    decides=text(
        "ClusterPolicy·NVIDIADriver의 status.state가 ready가 아니거나, 노드 레이블 "
        "nvidia.com/gpu-driver-upgrade-state가 upgrade-failed이면 실패입니다.",
        "Fails when a ClusterPolicy or NVIDIADriver has status.state other than ready, or a node is "
        "labelled nvidia.com/gpu-driver-upgrade-state=upgrade-failed.",
    ),
    incidents=(
        "gpu-operator-2022-driver-upgrade-stale-references",
        "gpu-operator-2024-eviction-crashloop-missing-driver",
    ),
    needs=("Node",),
    optional=POLICY_KINDS,
    components=("gpu-operator", "gpu-driver"),
    references=(
        "https://github.com/NVIDIA/gpu-operator",
        "https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/gpu-driver-upgrades.html",
    ),
    manifests=False,
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    states = {kind: crd_state(snapshot, kind) for kind in POLICY_KINDS}
    policies = [obj for kind in POLICY_KINDS if states[kind] == "read" for obj in snapshot.of(kind)]
    failed_nodes = [node for node in nodes(snapshot) if node.labels.get(UPGRADE_LABEL) == "upgrade-failed"]
    for node in failed_nodes:
        yield failed(
            CHECK,
            node.ref,
            message(
                "{name}에서 드라이버 업그레이드가 실패했습니다",
                "driver upgrade failed on {name}",
                name=node.name,
            ),
            {UPGRADE_LABEL: "upgrade-failed"},
        )
    for policy in policies:
        state = str(dig(policy, "status", "state") or "")
        kind = str(policy.get("kind"))
        if state == "ready":
            yield passed(CHECK, ref(policy), message("{kind:이} ready입니다", "{kind} is ready", kind=kind))
        elif not state:
            said = message(
                "{kind}에 아직 status.state가 없습니다", "{kind} has no status.state yet", kind=kind
            )
            yield unknown(CHECK, ref(policy), said)
        else:
            said = message("{kind} 상태가 {state}입니다", "{kind} state is {state}", kind=kind, state=state)
            yield failed(CHECK, ref(policy), said, {"state": state})
    if not policies and not failed_nodes:
        if states["nvidia.com/ClusterPolicy"] == "unread":
            yield unknown(
                CHECK,
                None,
                message(
                    "ClusterPolicy 오브젝트를 읽지 못했습니다", "ClusterPolicy objects could not be read"
                ),
            )
        else:
            yield not_applicable(
                CHECK,
                message(
                    "NVIDIA GPU Operator가 설치되어 있지 않습니다", "the NVIDIA GPU Operator is not installed"
                ),
            )
