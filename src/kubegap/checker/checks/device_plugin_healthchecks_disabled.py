"""DP_DISABLE_HEALTHCHECKS=all keeps handing out GPUs that throw XIDs."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import crd_state, failed, not_applicable, passed, text
from kubegap.checker.extract import container_env, containers, daemonsets, dig, items, ref
from kubegap.checker.finding import Finding, ObjectRef, Severity
from kubegap.checker.snapshot import Snapshot

VARIABLE = "DP_DISABLE_HEALTHCHECKS"

CHECK = CheckMeta(
    id="device-plugin-healthchecks-disabled",
    area="gpu-health",
    severity=Severity.high,
    title=text("디바이스 플러그인의 GPU 상태 점검", "Device-plugin GPU health checks"),
    why=text(
        "DP_DISABLE_HEALTHCHECKS를 all이나 xids로 두면 디바이스 플러그인이 XID를 무시하고 고장 난 GPU를 "
        "계속 파드에 줍니다. 'GPU가 영구히 unhealthy로 남는' 문제를 피하려고 끄는 경우가 많지만, 그러면 "
        "진짜 고장도 함께 가려집니다.",
        "With DP_DISABLE_HEALTHCHECKS set to all or xids, the device plugin ignores XIDs and keeps handing "
        "broken GPUs to pods. Teams often switch it off to escape the 'GPU unhealthy forever' problem, and "
        "real faults are hidden along with the false ones.",
    ),
    remediation=text(
        "전체를 끄지 말고, 여러분의 장비에서 무해하다고 확인한 XID 번호만 DP_DISABLE_HEALTHCHECKS에 "
        "나열하세요(플러그인은 13, 31, 43, 45, 68을 이미 건너뜁니다). GPU Operator라면 ClusterPolicy의 "
        "devicePlugin.env에서 고치세요.",
        "Do not switch it off wholesale: list in DP_DISABLE_HEALTHCHECKS only the extra XID numbers you "
        "have confirmed harmless on your hardware (the plugin already skips 13, 31, 43, 45 and 68). With "
        "the GPU Operator, fix it in the ClusterPolicy's devicePlugin.env.",
    ),
    decides=text(
        "디바이스 플러그인 DaemonSet의 컨테이너 env와 ClusterPolicy의 devicePlugin.env에서 "
        "DP_DISABLE_HEALTHCHECKS가 all 또는 xids를 포함하면 실패입니다.",
        "Fails when DP_DISABLE_HEALTHCHECKS in a device-plugin DaemonSet's container env or in the "
        "ClusterPolicy's devicePlugin.env contains all or xids.",
    ),
    incidents=(
        "k8s-device-plugin-2021-gpu-unhealthy-forever",
        "k8s-device-plugin-2024-xid94-allocatable-not-recovered",
    ),
    needs=("apps/DaemonSet",),
    optional=("nvidia.com/ClusterPolicy",),
    components=("device-plugin", "gpu-health-monitoring"),
    references=("https://github.com/NVIDIA/k8s-device-plugin/blob/main/internal/rm/health.go",),
)


def _disabled(value: str) -> bool:
    words = {word.strip().lower() for word in value.split(",")}
    return bool(words & {"all", "xids"})


def _judge(obj: ObjectRef, value: str | None) -> Finding:
    if value is not None and _disabled(value):
        said = message(
            "{variable}={value} 설정이 XID 상태 점검을 끕니다",
            "{variable}={value} turns off XID health checks",
            variable=VARIABLE,
            value=value,
        )
        return failed(CHECK, obj, said, {VARIABLE: value})
    shown = "unset" if value is None else value
    said = message(
        "device-plugin 상태 점검이 켜져 있습니다({variable} {ko_value})",
        "device-plugin health checks are on ({variable} {value})",
        variable=VARIABLE,
        value=shown,
        ko_value="미설정" if value is None else value,
    )
    return passed(CHECK, obj, said, {VARIABLE: shown})


def run(snapshot: Snapshot) -> Iterator[Finding]:
    seen = 0
    for ds in daemonsets(snapshot):
        if ds.role != "device-plugin":
            continue
        seen += 1
        values = [container_env(c).get(VARIABLE) for c in containers(ds.spec, include_init=False)]
        set_values = [value for value in values if value is not None]
        yield _judge(ds.ref, set_values[0] if set_values else None)
    if crd_state(snapshot, "nvidia.com/ClusterPolicy") == "read":
        for policy in snapshot.of("nvidia.com/ClusterPolicy"):
            seen += 1
            env = {
                str(e.get("name")): str(e.get("value") or "")
                for e in items(dig(policy, "spec", "devicePlugin", "env"))
            }
            yield _judge(ref(policy), env.get(VARIABLE))
    if not seen:
        yield not_applicable(
            CHECK,
            message(
                "NVIDIA device-plugin DaemonSet도, ClusterPolicy도 없습니다",
                "no NVIDIA device-plugin DaemonSet or ClusterPolicy",
            ),
        )
