"""The GPU stack must outrank the workloads it serves, or node pressure evicts it first."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import crd_state, failed, not_applicable, passed, text, unknown
from kubegap.checker.extract import GPU_STACK_ROLES, daemonsets, dig, integer
from kubegap.checker.extract.podspec import is_patch_fragment
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot

CRITICAL = frozenset({"system-node-critical", "system-cluster-critical"})
HIGH_PRIORITY = 1_000_000

CHECK = CheckMeta(
    id="gpu-stack-priority-class",
    area="gpu-stack",
    severity=Severity.medium,
    title=text("GPU 스택 파드의 priority class", "Priority class of GPU stack pods"),
    why=text(
        "드라이버, 디바이스 플러그인, DCGM 같은 GPU 스택 파드의 우선순위가 일반 작업과 같으면 메모리 "
        "압박이나 선점 때 먼저 쫓겨날 수 있습니다. 드라이버가 사라진 노드에 GPU 파드가 다시 뜨면 "
        "CrashLoopBackOff에 빠집니다.",
        "If driver, device-plugin and DCGM pods have the same priority as ordinary work, memory pressure "
        "or preemption can evict them first. GPU pods rescheduled onto a node whose driver is gone then "
        "crash-loop.",
    ),
    remediation=text(
        "GPU 스택 DaemonSet에 priorityClassName: system-node-critical을 지정하세요(GPU Operator는 "
        "기본값으로 설정합니다).",
        "Set priorityClassName: system-node-critical on the GPU stack DaemonSets (the GPU Operator does "
        "this by default).",
    ),
    decides=text(
        "드라이버, 디바이스 플러그인, DCGM, dcgm-exporter, 컨테이너 툴킷, NPD DaemonSet이 "
        "system-node-critical·system-cluster-critical이나 값이 1,000,000 이상인 PriorityClass를 쓰지 "
        "않으면 실패입니다.",
        "Fails when a driver, device-plugin, DCGM, dcgm-exporter, container-toolkit or NPD DaemonSet uses "
        "neither system-node-critical, system-cluster-critical nor a PriorityClass valued 1,000,000 or "
        "more.",
    ),
    incidents=("gpu-operator-2024-eviction-crashloop-missing-driver",),
    needs=("apps/DaemonSet",),
    optional=("scheduling.k8s.io/PriorityClass",),
    components=("gpu-operator", "device-plugin", "gpu-driver"),
    references=(
        "https://kubernetes.io/docs/tasks/administer-cluster/guaranteed-scheduling-critical-addon-pods/",
    ),
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    values = {
        str(dig(pc, "metadata", "name") or ""): integer(pc.get("value"))
        for pc in snapshot.of("scheduling.k8s.io/PriorityClass")
    }
    stack = [ds for ds in daemonsets(snapshot) if ds.role in GPU_STACK_ROLES]
    if not stack:
        yield not_applicable(
            CHECK,
            message(
                "GPU 스택 DaemonSet(드라이버, device plugin, DCGM, NPD)이 없습니다",
                "no GPU stack DaemonSet (driver, device plugin, DCGM, NPD)",
            ),
        )
        return
    for ds in stack:
        name = str(ds.spec.get("priorityClassName") or "")
        evidence: dict[str, object] = {"role": ds.role, "priorityClassName": name or "(none)"}
        if not name and is_patch_fragment(ds.spec):
            said = message(
                "{name:은} 패치 조각이라(이미지 없는 컨테이너) 병합될 기본 매니페스트의 PriorityClass를 "
                "볼 수 없습니다",
                "{name} is a patch fragment (containers without an image): the priority class of the base "
                "it merges into is not in this input",
                name=ds.ref.name,
            )
            yield unknown(CHECK, ds.ref, said, evidence)
            continue
        if name in CRITICAL or values.get(name, 0) >= HIGH_PRIORITY:
            said = message(
                "{role:은} PriorityClass {name:로} 돕니다",
                "{role} runs at priority class {name}",
                role=ds.role,
                name=name,
            )
            yield passed(CHECK, ds.ref, said, evidence)
        elif name and name not in values and crd_state(snapshot, "scheduling.k8s.io/PriorityClass") != "read":
            yield unknown(
                CHECK,
                ds.ref,
                message(
                    "{role:은} PriorityClass {name:을} 쓰지만 그 값을 읽지 못했습니다",
                    "{role} uses priority class {name}, whose value was not read",
                    role=ds.role,
                    name=name,
                ),
                evidence,
            )
        else:
            said = message(
                "{role} {name}에 높은 PriorityClass가 없습니다",
                "{role} {name} has no high priority class",
                role=ds.role,
                name=ds.ref.name,
            )
            yield failed(CHECK, ds.ref, said, evidence)
