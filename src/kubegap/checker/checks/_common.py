"""Small builders so every check writes findings the same way, with the check's own severity by default."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from kubegap.bilingual import Message, message
from kubegap.checker.check import CheckMeta
from kubegap.checker.extract import (
    WORKLOAD_KINDS,
    PodTemplate,
    Workload,
    classify,
    containers,
    dig,
    mapping,
    pod_env,
    workloads,
)
from kubegap.checker.extract._fields import labels_of
from kubegap.checker.extract.podspec import command_line
from kubegap.checker.finding import CLUSTER, Finding, ObjectRef, Severity, Status
from kubegap.checker.snapshot import UNREADABLE, Coverage, Snapshot
from kubegap.knowledge.model import Bilingual

GPU_NODE_NOTE = message("이 입력에는 GPU 노드가 없습니다", "no GPU nodes in this snapshot")


def text(ko: str, en: str) -> Bilingual:
    return Bilingual(ko=ko, en=en)


def _finding(
    meta: CheckMeta,
    status: Status,
    obj: ObjectRef | None,
    said: Message,
    evidence: dict[str, object] | None,
    severity: Severity | None,
    reason: str = "",
) -> Finding:
    return Finding(
        check_id=meta.id,
        status=status,
        severity=severity or meta.severity,
        object=obj or CLUSTER,
        message=said,
        evidence=evidence or {},
        reason=reason,
    )


def passed(
    meta: CheckMeta, obj: ObjectRef | None, said: Message, evidence: dict[str, object] | None = None
) -> Finding:
    return _finding(meta, Status.passed, obj, said, evidence, None)


def failed(
    meta: CheckMeta,
    obj: ObjectRef | None,
    said: Message,
    evidence: dict[str, object] | None = None,
    severity: Severity | None = None,
) -> Finding:
    return _finding(meta, Status.failed, obj, said, evidence, severity)


def unknown(
    meta: CheckMeta, obj: ObjectRef | None, said: Message, evidence: dict[str, object] | None = None
) -> Finding:
    """The API cannot show the answer: say what would have been needed."""
    return _finding(meta, Status.unknown, obj, said, evidence, None, reason="not-decidable")


def not_applicable(meta: CheckMeta, said: Message) -> Finding:
    return _finding(meta, Status.not_applicable, None, said, None, None, reason="not-applicable")


def sample(names: list[str], limit: int = 10) -> list[str]:
    """The first names of a long list, so evidence stays small on 5,000-node clusters."""
    return sorted(names)[:limit]


CORE_WORKLOAD_KINDS = (
    "Pod",
    "apps/Deployment",
    "apps/StatefulSet",
    "apps/DaemonSet",
    "batch/Job",
    "batch/CronJob",
)


def unread_kinds(snapshot: Snapshot, kinds: tuple[str, ...]) -> list[str]:
    """Kinds that should have been read but were forbidden, failed, malformed, partial or never collected.

    'absent' is fine: a CRD that is not installed, or a manifest set without that kind, has no objects.
    """
    return [kind for kind in kinds if snapshot.status_of(kind).status in UNREADABLE]


def crd_state(snapshot: Snapshot, key: str) -> str:
    """'read', 'absent' (CRD not installed: not applicable) or 'unread' (could not look: unknown)."""
    status = snapshot.status_of(key).status
    if status is Coverage.read:
        return "read"
    return "absent" if status is Coverage.absent else "unread"


def workload_verdicts(
    meta: CheckMeta,
    snapshot: Snapshot,
    problems: list[Finding],
    examined: int,
    subject: Bilingual,
    kinds: tuple[str, ...] = CORE_WORKLOAD_KINDS,
) -> Iterator[Finding]:
    """Fails as found; otherwise one pass, or unknown when the workload kinds judged could not be read.

    `subject` names what was examined in both languages ("여러 노드 GPU 학습 워크로드" / "multi-node
    GPU training workloads"), so the three verdict sentences read naturally in each.
    """
    yield from problems
    if problems:
        return
    missing = unread_kinds(snapshot, kinds)
    if missing:
        yield unknown(meta, None, unread_message(missing))
    elif examined == 0:
        yield not_applicable(
            meta,
            message("이 입력에는 {ko:가} 없습니다", "no {en} in this input", ko=subject.ko, en=subject.en),
        )
    else:
        said = message(
            "{ko} {examined}개 모두 문제없습니다",
            "all {examined} {en} are fine",
            ko=subject.ko,
            en=subject.en,
            examined=examined,
        )
        yield passed(meta, None, said, {"examined": examined})


TemplateJudge = Callable[[Workload, PodTemplate], tuple[Message, dict[str, Any]] | None]


def judge_user_templates(meta: CheckMeta, snapshot: Snapshot, judge: TemplateJudge) -> Iterator[Finding]:
    """Judges each pod template of every workload but the GPU stack's own agents.

    `judge` returns the problem it sees in one template (a message and its evidence) or None; a
    workload fails on its first problem, and the verdicts follow `workload_verdicts` over all kinds.
    """
    problems = []
    examined = 0
    for workload in workloads(snapshot):
        if is_gpu_agent_workload(workload):
            continue
        examined += 1
        for template in workload.templates:
            problem = judge(workload, template)
            if problem is not None:
                said, evidence = problem
                problems.append(failed(meta, workload.owner, said, evidence))
                break
    subject = text("워크로드", "workloads")
    yield from workload_verdicts(meta, snapshot, problems, examined, subject, kinds=WORKLOAD_KINDS)


def unread_message(missing: list[str]) -> Message:
    """'Nothing wrong in what was read, but these kinds could not be read' in both languages."""
    return message(
        "읽은 범위에서는 문제가 없지만 {kinds:를} 읽지 못했습니다",
        "no problem in what was read, but {kinds} could not be read",
        kinds=", ".join(missing),
    )


def gpu_workloads(
    snapshot: Snapshot, training_only: bool = False, distributed_only: bool = False
) -> list[Workload]:
    """GPU workloads (never DaemonSets: agents are not jobs), optionally only training or multi-node."""
    chosen = []
    for workload in workloads(snapshot):
        if workload.kind_key == "apps/DaemonSet" or not workload.requests_gpus:
            continue
        if training_only and not workload.is_training:
            continue
        if distributed_only and not workload.distributed:
            continue
        chosen.append(workload)
    return chosen


def merged_env(workload: Workload, gpu_only: bool = True) -> dict[str, str]:
    """Env of the workload's (GPU) templates merged: what the training processes would see."""
    env: dict[str, str] = {}
    for template in workload.templates:
        if not gpu_only or template.gpus > 0:
            env.update(pod_env(template.spec))
    return env


_TORCH_WORDS = ("torch", "deepspeed", "megatron", "nemo", "accelerate", "lightning", "fsdp")


def command_words(workload: Workload) -> str:
    """Images, commands, args (and a RayJob entrypoint) of the workload's app containers, lower-cased."""
    spec = workload.obj.get("spec")
    words = [str(spec.get("entrypoint", "")) if isinstance(spec, dict) else ""]
    for template in workload.templates:
        for container in containers(template.spec, include_init=False):
            words += [str(container.get("image") or ""), *command_line(container)]
    return " ".join(words).lower()


def uses_gloo(workload: Workload) -> bool:
    """The job picks the gloo backend: no NCCL, no NCCL shared-memory transport."""
    return "gloo" in command_words(workload)


def uses_pytorch_nccl(workload: Workload) -> bool:
    """PyTorch over NCCL, judged from kind, images, commands and entrypoint (gloo backends excluded)."""
    if uses_gloo(workload):
        return False
    if workload.kind_key == "kubeflow.org/PyTorchJob":
        return True
    return any(word in command_words(workload) for word in _TORCH_WORDS)


def is_benchmark(workload: Workload) -> bool:
    """Benchmarks and burn-in runs keep no state worth checkpointing and read no training data."""
    return any(
        word in command_words(workload) + " " + workload.owner.name.lower() for word in ("benchmark", "burn")
    )


def is_burn_in(workload: Workload) -> bool:
    """GPU stress tests (gpu-burn and the like): each GPU is driven alone, no NCCL, no data loader."""
    return "burn" in command_words(workload) + " " + workload.owner.name.lower()


def is_gpu_agent_workload(workload: Workload) -> bool:
    """Part of the GPU stack or a GPU health agent (by name, labels, image or service account).

    Seeing every GPU of its node, privileged, is the job of the device plugin, the driver, dcgm-exporter
    or the operator's CUDA validator pod, so checks on GPU isolation leave them out.
    """
    if not workload.templates:
        return False
    spec = workload.templates[0].spec
    template_labels = mapping(dig(workload.obj, "spec", "template", "metadata", "labels"))
    labels = labels_of(workload.obj) | {str(key): str(value) for key, value in template_labels.items()}
    account = str(spec.get("serviceAccountName") or spec.get("serviceAccount") or "")
    return bool(classify(workload.owner.name, spec, labels) or (account and classify(account, {}, {})))
