"""A multi-node run with nowhere durable to checkpoint restarts from step 0 after every failure."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import (
    CORE_WORKLOAD_KINDS,
    role_workloads,
    text,
    workload_failed,
    workload_verdicts,
)
from kubegap.checker.extract import containers
from kubegap.checker.extract.podspec import mounts, volumes
from kubegap.checker.extract.words import tokens
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.workload import WORKLOAD_KINDS, Commands, Role, Workload, commands_of

# Volumes that outlive the pod and its node. emptyDir, hostPath and per-pod `ephemeral` claims do not.
DURABLE_VOLUMES = ("persistentVolumeClaim", "csi", "nfs", "azureFile", "cephfs", "glusterfs", "fc", "iscsi")
OBJECT_STORES = (
    "s3://",
    "gs://",
    "gcs://",
    "az://",
    "abfs://",
    "abfss://",
    "wasbs://",
    "hdfs://",
    "oss://",
    "cos://",
)
# Words in a flag, a `key=value` argument or an env name that make its value a checkpoint location.
_TARGET_WORDS = frozenset({"checkpoint", "checkpoints", "ckpt", "save", "output", "outdir", "root"})
_TARGET_SKIP = frozenset({"steps", "interval", "limit", "total", "strategy", "every", "freq", "epochs"})
# Below a full 8-GPU node a restart from step 0 costs little; the incidents behind this check ran on
# hundreds to thousands of GPUs. Judged on real manifests, the runs under this size were tutorials
# (two-GPU MNIST, a LAMMPS demo), where asking for durable checkpoints is noise.
MIN_RUN_GPUS = 8

CHECK = CheckMeta(
    id="checkpoint-volume",
    area="training-jobs",
    severity=Severity.low,
    title=text("여러 노드 학습의 영구 체크포인트 저장소", "Durable checkpoint target of multi-node training"),
    why=text(
        "대형 학습은 몇 시간마다 하드웨어 고장으로 끊깁니다. BLOOM-176B는 다음 체크포인트를 두 반복 앞두고 "
        "GPU가 죽어 7.3시간을 잃었습니다. 파드 안(emptyDir)에만 저장하면 노드가 사라질 때 체크포인트도 "
        "같이 사라져 0단계부터 다시 시작합니다.",
        "Large runs are cut by hardware faults every few hours; BLOOM-176B lost 7.3 hours when a GPU died "
        "two iterations before a checkpoint. Saving only inside the pod (emptyDir) loses the checkpoint "
        "with the node, and the run restarts from step 0.",
    ),
    remediation=text(
        "체크포인트를 PVC(공유 파일 시스템)나 오브젝트 스토리지에 쓰고, 저장 주기를 잃어도 되는 시간에 "
        "맞추세요.",
        "Write checkpoints to a PVC (shared file system) or object storage, and set the interval to the "
        "work you can afford to lose.",
    ),
    decides=text(
        "역할이 여러 노드 학습이고 GPU를 모두 8개 이상 쓰는 워크로드에서, 체크포인트·출력 경로(인자, "
        "key=value, env, `sh -c` 스크립트 안까지)를 볼륨 마운트에 비추어 봅니다. 경로가 모두 컨테이너 "
        "파일 시스템·emptyDir·hostPath에 떨어지면 실패입니다. 경로가 없으면 GPU 컨테이너에 PVC·CSI·NFS "
        "볼륨이나 오브젝트 스토리지 URI가 하나도 없을 때 실패입니다. 벤치마크·서빙·스모크 테스트와 GPU 8개 "
        "미만 작업은 역할과 크기로 빠집니다.",
        "For workloads whose role is multi-node training using 8 or more GPUs in all, resolves the "
        "checkpoint and output paths (flags, key=value arguments, env, also inside `sh -c` scripts) against "
        "the volume mounts. Fails when every path lands on the container filesystem, an emptyDir or a "
        "hostPath; with no path named, fails when the GPU containers mount no PVC, CSI or NFS volume and "
        "name no object-store URI. Benchmarks, serving, smoke tests and runs under 8 GPUs are left out by "
        "role and size.",
    ),
    incidents=(
        "bloom-2022-03-21-gpu-crash-lost-7h",
        "llama3-2024-54-day-interruptions",
        "bloom-2022-03-22-emergency-maintenance-save-interval",
    ),
    needs=(),
    optional=WORKLOAD_KINDS,
    components=("checkpoint-storage", "storage"),
    roles=(Role.multi_node_training,),
    references=(
        "https://arxiv.org/abs/2407.21783",
        "https://kubernetes.io/docs/concepts/storage/persistent-volumes/",
    ),
)


def _names_target(key: str) -> bool:
    words = set(tokens(key))
    return bool(words & _TARGET_WORDS) and not words & _TARGET_SKIP


def _path_like(value: str) -> bool:
    return value.startswith(("/", "./", "../", "~", "$")) or "://" in value


def _targets(commands: Commands, env: dict[str, str]) -> list[str]:
    """Locations the container is told to write checkpoints or outputs to (flags, key=value, env)."""
    found = []
    for argv in commands.argvs:
        for index, word in enumerate(argv):
            key, equals, value = word.partition("=")
            if key.startswith("-") and not equals and index + 1 < len(argv):
                value = argv[index + 1]
            if (equals or key.startswith("-")) and _names_target(key) and _path_like(value):
                found.append(value)
    found += [value for name, value in env.items() if _names_target(name) and _path_like(value)]
    return found


def _resolve(path: str, container: dict[str, Any], spec: dict[str, Any], env: dict[str, str]) -> str:
    """'durable', 'ephemeral' (container filesystem, emptyDir, hostPath) or 'unknown' (an unset $VAR)."""
    if path.startswith(OBJECT_STORES) or "://" in path:
        return "durable"
    if path.startswith("$"):
        name = path[1:].strip("{}").split("}")[0].split("/")[0]
        if name in env and env[name] and not env[name].startswith("$"):
            return _resolve(env[name] + path[len(name) + 1 :].lstrip("}"), container, spec, env)
        return "unknown"
    if not path.startswith("/"):
        base = str(container.get("workingDir") or "")
        if not base.startswith("/"):
            return "ephemeral"  # a relative path on the image's filesystem
        path = base.rstrip("/") + "/" + path.lstrip("./")
    defined = volumes(spec)
    best = ""
    for mount_path in mounts(container):
        if (path == mount_path or path.startswith(mount_path.rstrip("/") + "/")) and len(mount_path) > len(
            best
        ):
            best = mount_path
    if not best:
        return "ephemeral"
    volume = defined.get(mounts(container)[best], {})
    return "durable" if any(key in volume for key in DURABLE_VOLUMES) else "ephemeral"


def verdict(workload: Workload) -> tuple[str, list[str]]:
    """('durable' | 'ephemeral' | 'unknown', the checkpoint paths read).

    Named checkpoint or output locations are resolved against the container's volume mounts; with
    none named, any durable volume or object-store URI in the GPU containers counts as a target.
    """
    env = workload.env(gpu_only=False)
    named: list[str] = []
    outcomes: list[str] = []
    fallback = False
    for template in workload.templates:
        for container in containers(template.spec, include_init=False):
            commands = commands_of(container)
            container_env = {**env, **commands.exported}
            for path in _targets(commands, container_env):
                named.append(path)
                outcomes.append(_resolve(path, container, template.spec, container_env))
            mounted = volumes(template.spec)
            if any(
                any(key in mounted.get(name, {}) for key in DURABLE_VOLUMES)
                for name in mounts(container).values()
            ):
                fallback = True
            if any(store in word for word in commands.words() for store in OBJECT_STORES):
                fallback = True
    if any(value.startswith(OBJECT_STORES) for value in env.values()):
        fallback = True
    if "durable" in outcomes:
        return "durable", named
    if "unknown" in outcomes:
        return "unknown", named
    if outcomes:
        return "ephemeral", named
    return ("durable" if fallback else "ephemeral"), named


def run(snapshot: Snapshot) -> Iterator[Finding]:
    selection = role_workloads(CHECK, snapshot)
    chosen = [workload for workload in selection.chosen if workload.total_gpus >= MIN_RUN_GPUS]
    problems = []
    for workload in chosen:
        outcome, paths = verdict(workload)
        if outcome != "ephemeral":
            continue
        if paths:
            said = message(
                "체크포인트 경로 {paths}: 파드와 함께 사라지는 곳(컨테이너 파일 시스템, emptyDir, "
                "hostPath)입니다",
                "checkpoint path {paths} is on storage that goes with the pod (container filesystem, "
                "emptyDir, hostPath)",
                paths=", ".join(dict.fromkeys(paths)),
            )
        else:
            said = message(
                "체크포인트를 남길 영구 볼륨도, 오브젝트 스토리지 경로도 없습니다",
                "no durable volume or object-store target for checkpoints",
            )
        problems.append(workload_failed(CHECK, workload, said, {"checkpoint_paths": paths[:5]}))
    subject = text("여러 노드 GPU 학습 워크로드", "multi-node GPU training workloads")
    yield from workload_verdicts(
        CHECK, snapshot, problems, len(chosen), subject, CORE_WORKLOAD_KINDS, selection.undecided
    )
