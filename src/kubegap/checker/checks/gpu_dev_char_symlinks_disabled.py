"""/dev/char symlinks keep GPUs attached when systemd re-applies cgroups; disabling them revives the bug."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import crd_state, failed, not_applicable, passed, text
from kubegap.checker.extract import classify, container_env, containers, daemonsets, dig, items, ref
from kubegap.checker.finding import Finding, ObjectRef, Severity
from kubegap.checker.snapshot import Snapshot

VARIABLE = "DISABLE_DEV_CHAR_SYMLINK_CREATION"
TRUE = ("true", "1", "yes")
SYMLINK_ROLES = frozenset({"operator-validator", "driver"})

CHECK = CheckMeta(
    id="gpu-dev-char-symlinks-disabled",
    area="gpu-stack",
    severity=Severity.medium,
    title=text("GPU 장치의 /dev/char 심볼릭 링크 생성", "/dev/char symlink creation for GPU devices"),
    why=text(
        "systemd가 컨테이너 cgroup을 관리하면 systemctl daemon-reload 한 번에 실행 중인 컨테이너의 GPU "
        "접근이 사라지고 'Failed to initialize NVML: Unknown Error'가 납니다. 최신 runc는 주입된 장치마다 "
        "/dev/char 심볼릭 링크를 요구하는데 NVIDIA 장치에 그것이 없었기 때문입니다. GPU Operator의 "
        "validator가 이 링크를 만들어 주는데, 그 기능을 끄면 문제가 되살아나고 컨테이너를 지웠다 다시 "
        "만들어야만 GPU가 돌아옵니다.",
        "When systemd manages container cgroups, a single systemctl daemon-reload detaches GPUs from "
        "running containers ('Failed to initialize NVML: Unknown Error'): newer runc needs a /dev/char "
        "symlink for every injected device and NVIDIA device nodes lacked them. The GPU Operator's "
        "validator creates those symlinks; switching that off brings the bug back, and only recreating the "
        "container restores the GPU.",
    ),
    remediation=text(
        "ClusterPolicy의 validator.driver.env에서 DISABLE_DEV_CHAR_SYMLINK_CREATION을 지우세요. 링크 "
        "생성이 실패해서 껐다면 그 원인을 고치거나, 컨테이너 런타임을 cgroupfs 드라이버로 바꾸거나, "
        "노드에서 nvidia-ctk system create-dev-char-symlinks를 실행하는 udev 규칙을 두세요.",
        "Remove DISABLE_DEV_CHAR_SYMLINK_CREATION from the ClusterPolicy's validator.driver.env. If it was "
        "turned off because creation failed, fix that cause, switch the runtime to the cgroupfs driver, or "
        "add a udev rule that runs nvidia-ctk system create-dev-char-symlinks on the node.",
    ),
    decides=text(
        "ClusterPolicy의 validator.driver.env나 validator·드라이버 DaemonSet(초기화 컨테이너 포함)의 "
        "env에서 DISABLE_DEV_CHAR_SYMLINK_CREATION이 true이면 실패입니다.",
        "Fails when DISABLE_DEV_CHAR_SYMLINK_CREATION is true in the ClusterPolicy's validator.driver.env "
        "or in the env of a validator or driver DaemonSet (init containers included).",
    ),
    incidents=("nvidia-ctk-2022-06-daemon-reload-containers-lose-gpus",),
    needs=("apps/DaemonSet",),
    optional=("nvidia.com/ClusterPolicy",),
    components=("container-toolkit", "gpu-operator"),
    references=(
        "https://github.com/NVIDIA/nvidia-docker/issues/1730",
        "https://github.com/NVIDIA/gpu-operator/issues/430",
    ),
)


def _judge(obj: ObjectRef, value: str | None) -> Finding:
    if value is not None and value.strip().lower() in TRUE:
        said = message(
            "{variable}={value}: daemon-reload 한 번에 컨테이너에서 GPU가 떨어져 나갈 수 있습니다",
            "{variable}={value}: a daemon-reload can detach GPUs from containers",
            variable=VARIABLE,
            value=value,
        )
        return failed(CHECK, obj, said)
    return passed(
        CHECK,
        obj,
        message(
            "NVIDIA 장치의 /dev/char 심볼릭 링크가 만들어집니다",
            "/dev/char symlinks for NVIDIA devices are created",
        ),
    )


def run(snapshot: Snapshot) -> Iterator[Finding]:
    seen = 0
    for ds in daemonsets(snapshot):
        # By name only: DRA kubelet plugins reuse the validator image in an init container and switch
        # creation off there because the operator-validator DaemonSet already makes the symlinks.
        if classify(ds.ref.name, {}, {}) not in SYMLINK_ROLES:
            continue
        seen += 1
        values = [container_env(c).get(VARIABLE) for c in containers(ds.spec)]
        yield _judge(ds.ref, next((v for v in values if v is not None), None))
    if crd_state(snapshot, "nvidia.com/ClusterPolicy") == "read":
        for policy in snapshot.of("nvidia.com/ClusterPolicy"):
            seen += 1
            env = {
                str(e.get("name")): str(e.get("value"))
                for e in items(dig(policy, "spec", "validator", "driver", "env"))
            }
            yield _judge(ref(policy), env.get(VARIABLE))
    if not seen:
        yield not_applicable(
            CHECK,
            message(
                "GPU Operator validator도, 드라이버 DaemonSet도, ClusterPolicy도 없습니다",
                "no GPU Operator validator, driver DaemonSet or ClusterPolicy",
            ),
        )
