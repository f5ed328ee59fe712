"""Small builders so every check writes findings the same way, with the check's own severity by default."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from kubegap.bilingual import Message, message
from kubegap.checker.check import CheckMeta
from kubegap.checker.finding import CLUSTER, Finding, ObjectRef, Severity, Status
from kubegap.checker.snapshot import UNREADABLE, Coverage, Snapshot
from kubegap.checker.workload import TRAINING, WORKLOAD_KINDS, PodTemplate, Role, Workload, workloads
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
    undecided: list[Finding] | None = None,
) -> Iterator[Finding]:
    """Fails as found; otherwise one pass, or unknown when the workload kinds judged could not be read.

    `undecided` (unknowns for workloads with unrendered values) are always reported; with nothing
    examined they replace "not applicable", since the templated workload may well be one to judge.

    `subject` names what was examined in both languages ("여러 노드 GPU 학습 워크로드" / "multi-node
    GPU training workloads"), so the three verdict sentences read naturally in each.
    """
    yield from problems
    yield from undecided or ()
    if problems or (undecided and examined == 0):
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
    """Judges each pod template of every workload of the check's roles (node agents are left out by
    declaring roles without them).

    `judge` returns the problem it sees in one template (a message and its evidence) or None; a
    workload fails on its first problem, and the verdicts follow `workload_verdicts` over all kinds.
    """
    selection = role_workloads(meta, snapshot, gpus=False)
    problems = []
    for workload in selection.chosen:
        for template in workload.templates:
            problem = judge(workload, template)
            if problem is not None:
                said, evidence = problem
                problems.append(workload_failed(meta, workload, said, evidence))
                break
    subject = text("워크로드", "workloads")
    yield from workload_verdicts(
        meta, snapshot, problems, len(selection.chosen), subject, WORKLOAD_KINDS, selection.undecided
    )


def unread_message(missing: list[str]) -> Message:
    """'Nothing wrong in what was read, but these kinds could not be read' in both languages."""
    return message(
        "읽은 범위에서는 문제가 없지만 {kinds:를} 읽지 못했습니다",
        "no problem in what was read, but {kinds} could not be read",
        kinds=", ".join(missing),
    )


@dataclass(frozen=True)
class Selection:
    """The workloads a check judges, and unknowns for those it cannot place (unrendered values)."""

    chosen: list[Workload]
    undecided: list[Finding]


_COUNT_FIELDS = (
    "replicas",
    "parallelism",
    "numNodes",
    "size",
    "numOfHosts",
    "nodeCount",
    "pipelineParallelSize",
)


def unrendered_unknown(meta: CheckMeta, workload: Workload, paths: list[str]) -> Finding:
    """`unknown: unrendered template value (field)` for a workload whose deciding field is templated."""
    shown = ", ".join(paths[:3]) + (", ..." if len(paths) > 3 else "")
    said = message(
        "렌더링되지 않은 템플릿 값이 있어 판단할 수 없습니다({field})",
        "unrendered template value ({field})",
        field=shown,
    )
    return unknown(meta, workload.owner, said, {**workload.evidence, "unrendered": paths[:10]})


def role_workloads(
    meta: CheckMeta,
    snapshot: Snapshot,
    *,
    gpus: bool = True,
    kinds: Iterable[str] | None = None,
    fields: tuple[str, ...] = (),
) -> Selection:
    """The workloads of the roles `meta.roles` declares (and of `kinds`, when given).

    `gpus`: only workloads that request accelerators. A workload whose accelerator request or count
    (replicas, parallelism, nodes), or one of the check's own deciding `fields`, was left for a
    template engine is not skipped and not passed: it becomes an `unknown` naming the field.
    """
    allowed = frozenset(kinds) if kinds is not None else None
    chosen: list[Workload] = []
    undecided: list[Finding] = []
    for workload in workloads(snapshot):
        if allowed is not None and workload.kind_key not in allowed:
            continue
        accelerators = workload.unrendered_in("resources.")
        counts = workload.unrendered_in(*_COUNT_FIELDS)
        own = workload.unrendered_in(*fields) if fields else []
        in_role = workload.role in meta.roles
        # A training run whose size is templated may be multi-node: a multi-node check cannot place it.
        maybe_role = workload.role in TRAINING and Role.multi_node_training in meta.roles and bool(counts)
        if not (in_role or maybe_role):
            continue
        if gpus and not workload.requests_gpus:
            if accelerators:
                undecided.append(unrendered_unknown(meta, workload, accelerators))
            continue
        blocking = own + (counts if maybe_role and not in_role else [])
        if blocking:
            undecided.append(unrendered_unknown(meta, workload, blocking))
            continue
        chosen.append(workload)
    return Selection(chosen, undecided)


def workload_failed(
    meta: CheckMeta,
    workload: Workload,
    said: Message,
    evidence: dict[str, object] | None = None,
    severity: Severity | None = None,
) -> Finding:
    """A fail on a workload, its evidence carrying the role the check assumed and why."""
    return failed(meta, workload.owner, said, {**workload.evidence, **(evidence or {})}, severity)
