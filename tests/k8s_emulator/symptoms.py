"""A GPU cluster already in trouble, for the symptoms tests: seeded events and states, and a hostile stream.

`seeded_cluster(now)` holds the symptoms an on-call engineer meets (Xid 48/63/79/94/95, ECC, NCCL
"unhandled system error" and watchdog timeouts, an InfiniBand link going down, an OOMKilled GPU pod,
a pod no node can give GPUs) plus what must not count (an event older than the window, Normal noise)
and a credential planted in a message. EXPECTED says which signature and place each symptom must
reach. `hostile_events(count, now)` is a stream of huge, control-character-laden, credential-bearing
events for the bounds.
"""

from __future__ import annotations

import datetime as dt
import random
import string
from collections.abc import Iterator
from typing import Any

from .factories import gpu_node, job, pod

# Credentials planted in messages: none may reach any output (nor an 8-character piece of them).
rng = random.Random(28)
GITHUB_TOKEN = "ghp_" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(36))
PASSWORD = "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(20))
CREDENTIALS = (GITHUB_TOKEN, PASSWORD)

# (signature, place, distinct): what the seeded cluster must show
EXPECTED = (
    ("xid-48", "node gpu-a", 2),  # the Xid line and the DCGM double-bit ECC event
    ("xid-63", "node gpu-a", 1),
    ("xid-79", "node gpu-b", 3),
    ("xid-94", "node gpu-c", 1),
    ("xid-95", "node gpu-d", 1),
    ("k8s:network-condition", "node gpu-e", 2),  # the IBLinkDown event and the IBLinkFlapping condition
    ("nccl-system-error", "Job team-a/pretrain", 1),
    ("nccl-watchdog-timeout", "Job team-a/pretrain", 1),
    ("k8s:oom-killed", "Deployment serving/llama-serve", 1),
    ("k8s:gpu-unschedulable", "Job team-b/big-train", 2),  # the pod's condition and its event
    ("k8s:job-no-progress", "Job team-c/finetune", 1),  # two pods Running 30 h, nothing changed
)


def stamp(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def event(
    index: int,
    now: dt.datetime,
    reason: str,
    text: str,
    *,
    kind: str = "Node",
    name: str = "gpu-a",
    namespace: str = "",
    type_: str = "Warning",
    count: int = 1,
    age: dt.timedelta = dt.timedelta(minutes=10),
) -> dict[str, Any]:
    when = stamp(now - age)
    return {
        "apiVersion": "v1",
        "kind": "Event",
        "metadata": {
            "name": f"{name}.{index:08x}",
            "namespace": namespace or "default",
            "uid": f"ev-{index}",
        },
        "type": type_,
        "reason": reason,
        "message": text,
        "involvedObject": {"kind": kind, "name": name, "namespace": namespace},
        "source": {"component": "node-problem-detector", "host": name if kind == "Node" else ""},
        "count": count,
        "firstTimestamp": when,
        "lastTimestamp": when,
    }


def _terminated(obj: dict[str, Any], reason: str, text: str, now: dt.datetime) -> dict[str, Any]:
    obj["status"]["containerStatuses"] = [
        {
            "name": "main",
            "ready": False,
            "restartCount": 3,
            "state": {"waiting": {"reason": "CrashLoopBackOff"}},
            "lastState": {
                "terminated": {
                    "reason": reason,
                    "exitCode": 1,
                    "message": text,
                    "finishedAt": stamp(now - dt.timedelta(minutes=3)),
                }
            },
        }
    ]
    return obj


def seeded_cluster(now: dt.datetime) -> list[dict[str, Any]]:
    objects: list[dict[str, Any]] = [gpu_node(name) for name in ("gpu-a", "gpu-b", "gpu-c", "gpu-d", "gpu-e")]
    objects[4]["status"]["conditions"].append(
        {
            "type": "IBLinkFlapping",
            "status": "True",
            "reason": "IBLinkFlapping",
            "message": "mlx5_1 port 1 went down 4 times in 10 minutes",
            "lastTransitionTime": stamp(now - dt.timedelta(minutes=20)),
        }
    )
    events = [
        (
            "XidError",
            "NVRM: Xid (PCI:0000:3b:00): 48, pid=2345, name=python, DBE (double bit error) ECC error",
            "gpu-a",
        ),
        ("GpuEccError", "DCGM_FR_VOLATILE_DBE_DETECTED: Double Bit ECC Error on GPU 3", "gpu-a"),
        ("XidError", "NVRM: Xid (PCI:0000:5d:00): 63, pid=0, Row Remapping event", "gpu-a"),
        ("XidError", "NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus.", "gpu-b"),
        ("XidError", "NVRM: Xid (PCI:0000:3b:00): 79, pid=1240, GPU has fallen off the bus.", "gpu-b"),
        ("XidError", "NVRM: Xid (PCI:0000:bb:00): 79, pid=1301, GPU has fallen off the bus.", "gpu-b"),
        ("XidError", "NVRM: Xid (PCI:0000:9b:00): 94, pid=777, Contained ECC error.", "gpu-c"),
        ("XidError", "NVRM: Xid (PCI:0000:9b:00): 95, pid=778, Uncontained ECC error.", "gpu-d"),
        ("IBLinkDown", "mlx5_1: port 1 link down (physical state Polling)", "gpu-e"),
    ]
    objects += [
        event(index, now, reason, text, name=node, count=2 if node == "gpu-b" else 1)
        for index, (reason, text, node) in enumerate(events)
    ]
    # outside the 24 h window, and Normal noise: neither counts
    objects.append(
        event(100, now, "XidError", "NVRM: Xid (PCI:0000:3b:00): 13, pid=1", age=dt.timedelta(hours=48))
    )
    objects.append(event(101, now, "Scheduled", "Successfully assigned team-a/x to gpu-a", type_="Normal"))
    # a credential an application wrote into an event
    objects.append(
        event(
            102,
            now,
            "FailedPull",
            f"pull failed: Authorization: token {GITHUB_TOKEN} --password={PASSWORD}",
            kind="Pod",
            name="leaky",
            namespace="team-a",
        )
    )
    job_owner = ("batch/v1", "Job", "pretrain")
    objects.append(
        _terminated(
            pod("pretrain-0", "team-a", node="gpu-a", gpus=8, owner=job_owner),
            "Error",
            "[Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=812, OpType=ALLREDUCE, "
            "Timeout(ms)=600000) ran for 600093 milliseconds before timing out.",
            now,
        )
    )
    objects.append(
        _terminated(
            pod("pretrain-1", "team-a", node="gpu-b", gpus=8, owner=job_owner),
            "Error",
            "RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1191, unhandled system error (run with "
            "NCCL_DEBUG=INFO for details), NCCL version 2.18.1",
            now,
        )
    )
    serving = pod(
        "llama-serve-7d9f8-x2x4k",
        "serving",
        node="gpu-c",
        gpus=1,
        owner=("apps/v1", "ReplicaSet", "llama-serve-7d9f8"),
    )
    objects.append(_terminated(serving, "OOMKilled", "", now))
    pending = pod("big-train-0", "team-b", gpus=8, owner=("batch/v1", "Job", "big-train"))
    pending["status"]["conditions"] = [
        {
            "type": "PodScheduled",
            "status": "False",
            "reason": "Unschedulable",
            "message": "0/5 nodes are available: 5 Insufficient nvidia.com/gpu.",
            "lastTransitionTime": stamp(now - dt.timedelta(minutes=30)),
        }
    ]
    objects.append(pending)
    objects.append(
        event(
            103,
            now,
            "FailedScheduling",
            "0/5 nodes are available: 5 Insufficient nvidia.com/gpu. preemption: 0/5 nodes are available.",
            kind="Pod",
            name="big-train-0",
            namespace="team-b",
            count=14,
        )
    )
    objects += stalled_job("finetune", "team-c", now, hours=30)
    return objects


def stalled_job(
    name: str, namespace: str, now: dt.datetime, *, hours: float, pods: int = 2
) -> list[dict[str, Any]]:
    """A GPU Job and its pods, all Running since `hours` ago and unchanged since: no progress to see."""
    since = stamp(now - dt.timedelta(hours=hours))
    stuck = job(name, namespace, completions=pods)
    stuck["status"] = {"active": pods, "startTime": since}
    members = []
    for index in range(pods):
        member = pod(f"{name}-{index}", namespace, node="gpu-d", gpus=8, owner=("batch/v1", "Job", name))
        member["status"]["startTime"] = since
        member["status"]["conditions"] = [{"type": "Ready", "status": "True", "lastTransitionTime": since}]
        member["status"]["containerStatuses"] = [
            {"name": "main", "ready": True, "restartCount": 0, "state": {"running": {"startedAt": since}}}
        ]
        members.append(member)
    return [stuck, *members]


def hostile_events(count: int, now: dt.datetime, *, message_bytes: int = 4096) -> Iterator[dict[str, Any]]:
    """`count` events of many reasons and objects: huge messages, control characters, bidi overrides,
    credentials, Xid lines buried deep; a few carry a huge message far past any cut."""
    controls = "\x1b[31m\r\n\t\u202e\x00\x07"
    filler = "x" * message_bytes
    for index in range(count):
        node = f"gpu-{index % 97}"
        reason = f"Reason{index % 7}" if index % 5 else "XidError"
        text = (
            f"NVRM: Xid (PCI:0000:3b:00): 79, pid={index} {controls} "
            f"token {GITHUB_TOKEN} password={PASSWORD} "
            if index % 5 == 0
            else f"{controls}line {index} Authorization: Bearer {GITHUB_TOKEN} "
        )
        if index % 1000 == 0:
            text += "y" * 1_000_000  # a megabyte message now and then
        yield event(index, now, reason, text + filler[: max(0, message_bytes - len(text))], name=node)


def as_events_v1(core: dict[str, Any]) -> dict[str, Any]:
    """A core/v1 Event as the events.k8s.io/v1 API serves the same stored event (same uid)."""
    metadata = dict(core["metadata"])
    served: dict[str, Any] = {
        "apiVersion": "events.k8s.io/v1",
        "kind": "Event",
        "metadata": metadata,
        "type": core["type"],
        "reason": core["reason"],
        "note": core["message"],
        "regarding": dict(core["involvedObject"]),
        "reportingController": core["source"].get("component", ""),
        "reportingInstance": core["source"].get("host", ""),
        "eventTime": None,
        "deprecatedSource": dict(core["source"]),
        "deprecatedFirstTimestamp": core["firstTimestamp"],
        "deprecatedLastTimestamp": core["lastTimestamp"],
        "deprecatedCount": core["count"],
    }
    return served


def served_by_both_groups(objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The objects plus every core Event again as events.k8s.io/v1 serves it, as an API server does."""
    return [*objects, *(as_events_v1(obj) for obj in objects if obj.get("kind") == "Event")]
