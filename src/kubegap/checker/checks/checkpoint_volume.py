"""A multi-node run with nowhere durable to checkpoint restarts from step 0 after every failure."""

from __future__ import annotations

import re
from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import (
    failed,
    gpu_workloads,
    is_benchmark,
    merged_env,
    text,
    workload_verdicts,
)
from kubegap.checker.extract import WORKLOAD_KINDS, containers, items, strings
from kubegap.checker.extract.workloads import Workload
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot

DURABLE_VOLUMES = (
    "persistentVolumeClaim",
    "csi",
    "nfs",
    "ephemeral",
    "azureFile",
    "cephfs",
    "glusterfs",
    "fc",
    "iscsi",
)
STORE_ENV = re.compile(r"CHECKPOINT|CKPT|S3|BUCKET|GCS|AZURE_STORAGE|BLOB|OUTPUT_DIR|SAVE_DIR", re.IGNORECASE)
STORE_WORDS = (
    "s3://",
    "gs://",
    "az://",
    "abfs://",
    "wasbs://",
    "hdfs://",
    "checkpoint",
    "ckpt",
    "--save",
    "--output_dir",
)

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
        "GPU를 모두 8개 이상 쓰는 여러 노드 GPU 학습 워크로드의 파드 템플릿에 PVC·CSI·NFS 같은 영구 "
        "볼륨도, 오브젝트 스토리지나 체크포인트 경로를 가리키는 env·인자도 없으면 실패입니다(추정 검사). "
        "이름·명령·이미지에 benchmark나 burn이 든 작업과, 다시 돌려도 잃을 것이 적은 GPU 8개 미만 작업은 "
        "뺍니다.",
        "Fails a multi-node GPU training workload using 8 or more GPUs in all whose pod templates have no "
        "PVC, CSI or NFS volume and no env or argument pointing at object storage or a checkpoint path (a "
        "heuristic). Left out: workloads whose name, command or image says benchmark or burn, and runs "
        "under 8 GPUs, which lose little when restarted.",
    ),
    incidents=(
        "bloom-2022-03-21-gpu-crash-lost-7h",
        "llama3-2024-54-day-interruptions",
        "bloom-2022-03-22-emergency-maintenance-save-interval",
    ),
    needs=(),
    optional=WORKLOAD_KINDS,
    components=("checkpoint-storage", "storage"),
    references=(
        "https://arxiv.org/abs/2407.21783",
        "https://kubernetes.io/docs/concepts/storage/persistent-volumes/",
    ),
)


def has_durable_target(workload: Workload) -> bool:
    for template in workload.templates:
        if any(key in volume for volume in items(template.spec.get("volumes")) for key in DURABLE_VOLUMES):
            return True
        for container in containers(template.spec, include_init=False):
            words = " ".join(strings(container.get("command")) + strings(container.get("args"))).lower()
            if any(word in words for word in STORE_WORDS):
                return True
    return any(STORE_ENV.search(name) for name in merged_env(workload, gpu_only=False))


def total_gpus(workload: Workload) -> int:
    return sum(template.gpus * template.replicas for template in workload.templates)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    chosen = [
        workload
        for workload in gpu_workloads(snapshot, training_only=True, distributed_only=True)
        if total_gpus(workload) >= MIN_RUN_GPUS
    ]
    problems = [
        failed(
            CHECK,
            workload.owner,
            message(
                "체크포인트를 남길 영구 볼륨도, 오브젝트 스토리지 경로도 없습니다",
                "no durable volume or object-store target for checkpoints",
            ),
        )
        for workload in chosen
        if not has_durable_target(workload) and not is_benchmark(workload)
    ]
    subject = text("여러 노드 GPU 학습 워크로드", "multi-node GPU training workloads")
    yield from workload_verdicts(CHECK, snapshot, problems, len(chosen), subject)
