"""What a symptom's signature says: an error-catalog entry, or one of a few Kubernetes signals.

Text goes through the catalog's one matcher (`ErrorMatcher`, the rule `kubegap errors show` uses),
so an event that says `NVRM: Xid (PCI:0000:3b:00): 79` is `xid-79` here as in the library, with the
incidents and checks the entry links. A signal the catalog has no entry for (a container killed for
memory, a pod no GPU node can take, a failed Job) keeps a Kubernetes signature from SIGNALS: its
title in both languages and the checks whose gaps let it spread.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import yaml

from kubegap.knowledge.error_model import ErrorEntry
from kubegap.knowledge.error_text import ErrorMatcher
from kubegap.knowledge.loader import default_root
from kubegap.knowledge.model import Bilingual

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class Signature:
    id: str  # a catalog entry id (xid-79) or a signal id (k8s:oom-killed)
    title: Bilingual
    catalog: bool
    family: str
    incidents: tuple[str, ...] = ()
    checks: tuple[str, ...] = ()
    gpu_checks: tuple[str, ...] = ()  # added when the place runs GPUs


def _signal(
    key: str, ko: str, en: str, checks: tuple[str, ...] = (), gpu_checks: tuple[str, ...] = ()
) -> Signature:
    return Signature(f"k8s:{key}", Bilingual(ko=ko, en=en), False, "kubernetes", (), checks, gpu_checks)


SIGNALS = {
    signature.id: signature
    for signature in (
        _signal(
            "oom-killed",
            "메모리 한도를 넘어 종료된 컨테이너(OOMKilled)",
            "Container killed for memory (OOMKilled)",
            gpu_checks=("gpu-serving-memory-limit", "dev-shm-memory-unbounded"),
        ),
        _signal(
            "crash-loop",
            "재시작을 되풀이하는 컨테이너(CrashLoopBackOff)",
            "Container restarting in a loop (CrashLoopBackOff)",
        ),
        _signal(
            "image-pull",
            "이미지를 받지 못하는 컨테이너(ImagePullBackOff)",
            "Container image not pulled (ImagePullBackOff)",
            gpu_checks=("gpu-image-pull-stall",),
        ),
        _signal("evicted", "축출된 파드(Evicted)", "Pod evicted"),
        _signal(
            "gpu-unschedulable",
            "GPU를 받을 노드가 없어 대기 중인 파드(FailedScheduling)",
            "Pod pending: no node can give it GPUs (FailedScheduling)",
            checks=(
                "gpu-pool-no-spare-nodes",
                "gpu-allocatable-below-capacity",
                "gpu-namespace-quota-exhausted",
            ),
        ),
        _signal(
            "job-backoff-limit",
            "재시도 한도를 넘겨 실패한 작업(BackoffLimitExceeded)",
            "Job failed after its retries (BackoffLimitExceeded)",
            gpu_checks=("gpu-job-pod-failure-policy", "jobset-failure-policy"),
        ),
        _signal(
            "job-deadline",
            "기한을 넘겨 멈춘 작업(DeadlineExceeded)",
            "Job stopped at its deadline (DeadlineExceeded)",
        ),
        _signal(
            "job-no-progress",
            "진행 흔적 없이 오래 실행 중인 GPU 작업(파드 변화·이벤트 없음)",
            "GPU Job running long with no visible progress (no pod change, no event)",
            checks=("gpu-job-no-deadline", "nccl-watchdog-disabled", "nccl-hang-dump"),
        ),
        _signal(
            "node-not-ready",
            "Ready가 아닌 노드",
            "Node not Ready",
            gpu_checks=("unhealthy-gpu-node-schedulable", "gpu-pool-no-spare-nodes"),
        ),
        _signal(
            "gpu-condition",
            "노드가 알린 GPU 장애(condition, taint, 이벤트)",
            "GPU fault reported on a node (condition, taint or event)",
            checks=("gpu-fault-conditions", "unhealthy-gpu-node-schedulable"),
        ),
        _signal(
            "network-condition",
            "노드가 알린 InfiniBand·RDMA 장애(condition, 이벤트)",
            "InfiniBand or RDMA fault reported on a node (condition or event)",
            checks=("ib-link-flap-condition", "rdma-allocatable-zero"),
        ),
        _signal("node-condition", "문제를 알리는 노드 condition", "Node condition reporting a problem"),
        _signal(
            "gpu-allocatable-short",
            "설치된 GPU보다 할당 가능한 GPU가 적은 노드",
            "Node with fewer allocatable GPUs than installed",
            checks=("gpu-allocatable-below-capacity", "device-plugin-healthchecks-disabled"),
        ),
        _signal("warning-event", "경고 이벤트", "Warning event"),
    )
}


@dataclass(frozen=True)
class Catalog:
    matcher: ErrorMatcher
    entries: dict[str, Signature]

    def match(self, text: str) -> tuple[str, ...]:
        return self.matcher.match(text)

    def signature(self, signature_id: str) -> Signature:
        return self.entries.get(signature_id) or SIGNALS.get(signature_id) or SIGNALS["k8s:warning-event"]


@cache
def catalog() -> Catalog:
    """The error catalog as signatures, read from its own folder only (a tenth of the time the whole
    knowledge base takes, which every scan would otherwise pay); an entry that does not load matches
    nothing, and an unreadable folder means no catalog matches, never a failed scan."""
    errors: list[ErrorEntry] = []
    try:
        folder = default_root() / "errors"
        paths = sorted(folder.glob("*.yaml"))
    except OSError:
        paths = []
    for path in paths:
        try:
            errors.append(
                ErrorEntry.model_validate(yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER))
            )
        except (OSError, ValueError, yaml.YAMLError):
            continue
    entries = {
        entry.id: Signature(
            entry.id,
            entry.title,
            True,
            entry.family.value,
            tuple(entry.incidents),
            tuple(entry.checks),
        )
        for entry in errors
    }
    return Catalog(ErrorMatcher((entry.id, entry.patterns) for entry in errors), entries)
