"""Pod logs, only when the user asks (`--logs`), only for pods already showing a symptom, bounded.

A crash-looping or OOMKilled container, or a failed pod of a GPU Job, often says why only in its log
(an Xid in the CUDA error, an NCCL watchdog line). With `--logs`, at most LogLimits.pods such pods get
one GET each of the `pods/log` subresource (the container with the symptom, its previous run when it
restarted), `tailLines` and `limitBytes` bounded. Each line is cut to MESSAGE_CHARS and goes through
the catalog's one matcher; only a line that names a catalog entry becomes a signal, and it is kept
redacted and cut (KEPT_CHARS). Nothing raw is kept: the log text is dropped as soon as it is matched,
the signals live on the in-memory snapshot only (a snapshot file never holds them), and MCP never
reads logs.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from kubegap.checker.extract._fields import controller_owner, dig, items, mapping, name_of, namespace_of
from kubegap.checker.snapshot import KubeObject, Snapshot
from kubegap.checker.symptoms.events import KEPT_CHARS, MESSAGE_CHARS, Matcher
from kubegap.checker.symptoms.signals import PodPlace, Signal, pod_places
from kubegap.redaction import redact_text

DEFAULT_LOG_PODS = 5
DEFAULT_TAIL_LINES = 200
DEFAULT_LIMIT_BYTES = 256 * 1024


@dataclass(frozen=True)
class LogLimits:
    pods: int = DEFAULT_LOG_PODS
    tail_lines: int = DEFAULT_TAIL_LINES
    limit_bytes: int = DEFAULT_LIMIT_BYTES


@dataclass(frozen=True)
class LogTarget:
    namespace: str
    pod: str
    container: str
    previous: bool  # read the run that ended (crash loop, OOMKilled) rather than the current one
    why: str  # CrashLoopBackOff | OOMKilled | Failed


def log_targets(snapshot: Snapshot, limit: int) -> list[LogTarget]:
    """At most `limit` containers already showing a symptom, in the snapshot's pod order."""
    found: list[LogTarget] = []
    places = pod_places(snapshot)
    for pod in snapshot.of("Pod"):
        if len(found) >= limit:
            break
        if isinstance(pod, dict):
            place = places.get((namespace_of(pod), name_of(pod)))
            target = _target(pod, gpu=place is not None and place.gpu)
            if target is not None:
                found.append(target)
    return found


def _target(pod: KubeObject, *, gpu: bool) -> LogTarget | None:
    status = mapping(pod.get("status"))
    namespace, name = namespace_of(pod), name_of(pod)
    for container in items(status.get("containerStatuses")):
        container_name = str(container.get("name") or "")
        if not container_name:
            continue
        waiting = str(dig(container, "state", "waiting", "reason") or "")
        ended = str(dig(container, "lastState", "terminated", "reason") or "")
        now_ended = str(dig(container, "state", "terminated", "reason") or "")
        if waiting == "CrashLoopBackOff" or ended == "OOMKilled":
            return LogTarget(namespace, name, container_name, True, waiting or ended)
        if now_ended == "OOMKilled":
            return LogTarget(namespace, name, container_name, False, now_ended)
    owner = controller_owner(pod)
    first = next(iter(items(status.get("containerStatuses"))), {})
    failed_job_pod = status.get("phase") == "Failed" and owner and owner.get("kind") == "Job"
    if failed_job_pod and gpu and first.get("name"):
        return LogTarget(namespace, name, str(first["name"]), False, "Failed")
    return None


def log_signals(
    places: dict[tuple[str, str], PodPlace], target: LogTarget, text: str, matcher: Matcher, read_at: float
) -> Iterator[Signal]:
    """A signal per log line that names a catalog entry; the line kept redacted and cut."""
    place = places.get((target.namespace, target.pod))
    if place is None:
        return
    for line in text.splitlines():
        cut = line[:MESSAGE_CHARS]
        matched = matcher(cut) if cut.strip() else ()
        if matched:
            kept = redact_text(cut, limit=KEPT_CHARS)
            yield Signal(
                "log",
                "PodLog",
                kept,
                matched[0],
                place.place,
                place.node,
                place.gpu,
                first=read_at,
                last=read_at,
            )
