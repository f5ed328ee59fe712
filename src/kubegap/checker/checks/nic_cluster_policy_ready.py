"""The Network Operator's NicClusterPolicy must be ready, or OFED/RDMA plugins are missing somewhere."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import crd_state, failed, not_applicable, passed, text, unknown
from kubegap.checker.extract import dig, items, ref
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot

KIND = "mellanox.com/NicClusterPolicy"

CHECK = CheckMeta(
    id="nic-cluster-policy-ready",
    area="networking",
    severity=Severity.high,
    title=text("NicClusterPolicy 준비 상태", "NicClusterPolicy readiness"),
    why=text(
        "NicClusterPolicy가 ready가 아니면 MOFED 드라이버, RDMA 디바이스 플러그인, Multus 같은 구성 요소가 "
        "일부 노드에서 돌지 않습니다. 새로 들어온 노드가 NCCL·InfiniBand 문제를 안고 오는 일은 대형 "
        "학습에서 반복되는 재시작 원인이었습니다.",
        "A NicClusterPolicy that is not ready means MOFED, the RDMA device plugin or Multus is not running "
        "on some nodes. Fresh nodes arriving with NCCL or InfiniBand problems were a recurring restart "
        "cause in large runs.",
    ),
    remediation=text(
        "kubectl get nicclusterpolicy -o yaml의 status.appliedStates에서 ready가 아닌 상태를 찾고, "
        "nvidia-network-operator 네임스페이스의 해당 DaemonSet 파드 로그를 보세요.",
        "Find the non-ready entries in status.appliedStates of kubectl get nicclusterpolicy -o yaml and "
        "read the logs of that DaemonSet in the nvidia-network-operator namespace.",
    ),
    decides=text(
        "NicClusterPolicy의 status.state가 ready가 아니면 실패입니다.",
        "Fails when a NicClusterPolicy's status.state is not ready.",
    ),
    incidents=("opt-2021-11-thanksgiving-restarts-buffer-nodes", "imbue-2024-70b-cluster-bringup"),
    needs=(),
    optional=(KIND,),
    components=("infiniband-rdma", "network"),
    references=("https://github.com/Mellanox/network-operator",),
    manifests=False,
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    state = crd_state(snapshot, KIND)
    if state == "unread":
        yield unknown(
            CHECK,
            None,
            message(
                "NicClusterPolicy 오브젝트를 읽지 못했습니다", "NicClusterPolicy objects could not be read"
            ),
        )
        return
    policies = snapshot.of(KIND)
    if not policies:
        yield not_applicable(
            CHECK,
            message(
                "NVIDIA Network Operator가 설치되어 있지 않습니다",
                "the NVIDIA Network Operator is not installed",
            ),
        )
        return
    for policy in policies:
        status = str(dig(policy, "status", "state") or "")
        pending = [
            str(s.get("name"))
            for s in items(dig(policy, "status", "appliedStates"))
            if s.get("state") != "ready"
        ]
        evidence: dict[str, object] = {"state": status or "(none)", "not_ready": pending}
        if status == "ready":
            said = message("NicClusterPolicy가 ready입니다", "NicClusterPolicy is ready")
            yield passed(CHECK, ref(policy), said, evidence)
        elif not status:
            said = message("NicClusterPolicy에 아직 상태 값이 없습니다", "NicClusterPolicy has no status yet")
            yield unknown(CHECK, ref(policy), said, evidence)
        else:
            said = message(
                "NicClusterPolicy 상태가 {state}입니다", "NicClusterPolicy state is {state}", state=status
            )
            yield failed(CHECK, ref(policy), said, evidence)
