"""GPU Operator auto-upgrades with no parallelism cap reload the driver under the whole fleet at once."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import joined, message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import crd_state, failed, not_applicable, passed, text
from kubegap.checker.extract import dig, integer, mapping, percent_or_count, ref
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import KubeObject, Snapshot

POLICY_KINDS = ("nvidia.com/ClusterPolicy", "nvidia.com/NVIDIADriver")

CHECK = CheckMeta(
    id="gpu-driver-upgrade-policy",
    area="fleet-change",
    severity=Severity.high,
    title=text(
        "GPU 드라이버 자동 업그레이드의 동시 실행 한도", "Parallelism cap of GPU driver auto-upgrades"
    ),
    why=text(
        "드라이버 업그레이드는 노드의 모든 GPU 파드를 내리고 커널 모듈을 다시 올립니다. "
        "maxParallelUpgrades가 0(무제한)이거나 maxUnavailable이 절반 이상이면 한 번의 버전 변경이 GPU 풀 "
        "전체를 동시에 비웁니다. 같은 모양의 일괄 변경이 Datadog과 OpenAI에서 전 노드를 한꺼번에 "
        "쓰러뜨렸습니다.",
        "A driver upgrade evicts every GPU pod on the node and reloads the kernel module. With "
        "maxParallelUpgrades 0 (unlimited) or maxUnavailable at half or more, one version bump empties the "
        "whole GPU pool at once. Fleet-wide changes of this shape took every node down together at Datadog "
        "and OpenAI.",
    ),
    remediation=text(
        "upgradePolicy.maxParallelUpgrades를 1~몇 대로, maxUnavailable을 25% 이하로 두고, drain 또는 "
        "podDeletion을 켜서 GPU 파드를 먼저 비우세요. 큰 풀은 NVIDIADriver CR을 나눠 단계적으로 올리세요.",
        "Set upgradePolicy.maxParallelUpgrades to one or a few nodes and maxUnavailable to 25% or less, "
        "and enable drain or podDeletion so GPU pods leave first. For large pools, split NVIDIADriver CRs "
        "and upgrade in stages.",
    ),
    decides=text(
        "ClusterPolicy(spec.driver.upgradePolicy)와 NVIDIADriver(spec.upgradePolicy)에서 autoUpgrade가 "
        "켜져 있고 maxParallelUpgrades가 0이거나 maxUnavailable이 50% 이상이면 실패입니다.",
        "Fails when ClusterPolicy spec.driver.upgradePolicy or NVIDIADriver spec.upgradePolicy has "
        "autoUpgrade on with maxParallelUpgrades 0 or maxUnavailable of 50% or more.",
    ),
    incidents=(
        "gpu-operator-2022-driver-upgrade-stale-references",
        "datadog-2023-03-systemd-networkd-unattended-upgrade",
        "openai-2025-06-gpu-host-os-update-network-loss",
    ),
    needs=(),
    optional=POLICY_KINDS,
    components=("gpu-operator", "gpu-driver"),
    references=(
        "https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/gpu-driver-upgrades.html",
        "https://github.com/NVIDIA/gpu-operator/blob/main/deployments/gpu-operator/values.yaml",
    ),
)


def _policy(obj: KubeObject) -> dict[str, object]:
    if obj.get("kind") == "ClusterPolicy":
        return mapping(dig(obj, "spec", "driver", "upgradePolicy"))
    return mapping(dig(obj, "spec", "upgradePolicy"))


def _judge(obj: KubeObject) -> Finding:
    policy = _policy(obj)
    if policy.get("autoUpgrade") is not True:
        return passed(
            CHECK,
            ref(obj),
            message(
                "드라이버 자동 업그레이드가 꺼져 있어 업그레이드는 사람이 합니다",
                "driver auto-upgrade is off: upgrades are done by hand",
            ),
            {"autoUpgrade": False},
        )
    problems = []
    if "maxParallelUpgrades" in policy and integer(policy.get("maxParallelUpgrades"), 1) == 0:
        problems.append(
            message("maxParallelUpgrades가 0입니다(제한 없음)", "maxParallelUpgrades is 0 (no limit)")
        )
    unavailable = policy.get("maxUnavailable", "25%")
    fraction = percent_or_count(unavailable, 100) if isinstance(unavailable, str) else None
    if fraction is not None and fraction >= 0.5:
        problems.append(
            message("maxUnavailable이 {value}입니다", "maxUnavailable is {value}", value=str(unavailable))
        )
    evidence: dict[str, object] = {
        "maxParallelUpgrades": policy.get("maxParallelUpgrades", "(default 1)"),
        "maxUnavailable": unavailable,
    }
    if problems:
        return failed(CHECK, ref(obj), joined(problems), evidence)
    said = message("드라이버 자동 업그레이드 속도가 제한되어 있습니다", "driver auto-upgrade is rate-limited")
    return passed(CHECK, ref(obj), said, evidence)


def _manages_driver(obj: KubeObject) -> bool:
    return not (obj.get("kind") == "ClusterPolicy" and dig(obj, "spec", "driver", "enabled") is False)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    read = [kind for kind in POLICY_KINDS if crd_state(snapshot, kind) == "read"]
    managed = [obj for kind in read for obj in snapshot.of(kind) if _manages_driver(obj)]
    for obj in managed:
        yield _judge(obj)
    if not managed:
        yield not_applicable(
            CHECK,
            message(
                "드라이버를 관리하는 GPU Operator ClusterPolicy나 NVIDIADriver가 없습니다",
                "no GPU Operator ClusterPolicy or NVIDIADriver that manages the driver",
            ),
        )
