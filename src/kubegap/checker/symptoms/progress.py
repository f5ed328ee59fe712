"""A GPU Job with no visible progress: running long, and nothing about it has changed for as long.

A hung collective (an NCCL all-reduce waiting forever, a rank stuck in a dead GPU) leaves a Job whose
pods look perfectly healthy to the API: Running, Ready, no restart, no event. What the API can show
without logs or metrics is only the absence of change, so the signal is deliberately narrow. A
batch/v1 Job that requests GPUs is reported when, at the time the input was read:

* it is neither finished (Complete, Failed, SuccessCriteriaMet, FailureTarget) nor suspended, has
  active pods, and started (`status.startTime`) more than NO_PROGRESS_SECONDS ago;
* its pods are in the input, every one still running is Running, and none of them started, restarted,
  became ready or not ready, or ended (pod `startTime`, condition transitions, container `startedAt`
  and `finishedAt`, the last termination included) within NO_PROGRESS_SECONDS;
* no kept event about the Job or its pods falls within NO_PROGRESS_SECONDS (where Events were read:
  Warning events and catalog matches are kept, routine Normal events are not).

What it cannot know: whether the processes inside are still computing. A healthy training run of a
week changes nothing the API sees either, so this is a symptom to look at (its logs, its step
counter, its GPU utilisation), never a verdict; the checks it links (a deadline, the NCCL watchdog,
hang dumps) are what would have turned a silent hang into a failed Job that says so. Jobs run by
other controllers without batch/v1 Jobs (a PyTorchJob's own pods) are not judged here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from kubegap.checker.extract._fields import controller_owner, dig, items, mapping, name_of, namespace_of
from kubegap.checker.snapshot import KubeObject, Snapshot
from kubegap.checker.symptoms.events import EventFields, epoch, iso
from kubegap.checker.symptoms.signals import Signal, job_requests_gpus

NO_PROGRESS_SECONDS = 24 * 3600
_FINISHED = frozenset({"Complete", "Failed", "SuccessCriteriaMet", "FailureTarget", "Suspended"})


def stalled_job_signals(
    snapshot: Snapshot, events: Iterable[EventFields], until: float, threshold: float = NO_PROGRESS_SECONDS
) -> Iterator[Signal]:
    """One `k8s:job-no-progress` signal per GPU Job that shows no change for `threshold` seconds."""
    since = until - threshold
    pods_of: dict[tuple[str, str], list[KubeObject]] = {}
    for pod in snapshot.of("Pod"):
        owner = controller_owner(pod) if isinstance(pod, dict) else None
        if owner and owner.get("kind") == "Job" and owner.get("name"):
            pods_of.setdefault((namespace_of(pod), str(owner["name"])), []).append(pod)
    recent = {
        (fields.kind, fields.namespace, fields.name)
        for fields in events
        if fields.last is not None and fields.last >= since
    }
    for job in snapshot.of("batch/Job"):
        if not isinstance(job, dict):
            continue
        key = (namespace_of(job), name_of(job))
        signal = _stalled(job, pods_of.get(key, []), recent, since, until)
        if signal is not None:
            yield signal


def _stalled(
    job: KubeObject, pods: list[KubeObject], recent: set[tuple[str, str, str]], since: float, until: float
) -> Signal | None:
    status = mapping(job.get("status"))
    namespace, name = namespace_of(job), name_of(job)
    if dig(job, "spec", "suspend") is True or not job_requests_gpus(job):
        return None
    if any(
        condition.get("type") in _FINISHED and condition.get("status") == "True"
        for condition in items(status.get("conditions"))
    ):
        return None
    started = epoch(status.get("startTime"))
    active = status.get("active")
    if started is None or started >= since or not isinstance(active, int) or active < 1 or not pods:
        return None
    running = [pod for pod in pods if dig(pod, "status", "phase") not in ("Succeeded", "Failed")]
    if not running or any(dig(pod, "status", "phase") != "Running" for pod in running):
        return None
    if ("Job", namespace, name) in recent or any(("Pod", namespace, name_of(pod)) in recent for pod in pods):
        return None
    changes = [moment for pod in pods for moment in _change_times(pod)]
    newest = max(changes, default=None)
    if newest is None or newest >= since:
        return None  # a change inside the threshold, or no time to judge by
    hours = (until - newest) / 3600
    text = (
        f"NoProgress {len(running)} running pods of {active} active; no pod started, restarted or ended "
        f"and no event for {hours:.0f} h (since {iso(newest)}); the Job started {iso(started)}"
    )
    return Signal(
        "job",
        "NoProgress",
        text,
        "k8s:job-no-progress",
        f"Job {namespace}/{name}",
        "",
        True,
        first=newest,
        last=until,
    )


def _change_times(pod: KubeObject) -> Iterator[float]:
    """Every time the API records a pod changing: start, condition transitions, container start and end."""
    status = mapping(pod.get("status"))
    moments: list[object] = [status.get("startTime")]
    moments += [condition.get("lastTransitionTime") for condition in items(status.get("conditions"))]
    for container in [*items(status.get("initContainerStatuses")), *items(status.get("containerStatuses"))]:
        for state in ("state", "lastState"):
            moments.append(dig(container, state, "running", "startedAt"))
            moments.append(dig(container, state, "terminated", "startedAt"))
            moments.append(dig(container, state, "terminated", "finishedAt"))
    for value in moments:
        moment = epoch(value)
        if moment is not None:
            yield moment
