"""A pod can be Running without the secondary network it asked for; NCCL then uses whatever is left."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import failed, not_applicable, passed, sample, text
from kubegap.checker.extract._fields import annotations_of, name_of, namespace_of
from kubegap.checker.extract.jobs import RunningJob, running_gpu_pods
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import KubeObject, Snapshot

REQUESTED = "k8s.v1.cni.cncf.io/networks"
STATUS = ("k8s.v1.cni.cncf.io/network-status", "k8s.v1.cni.cncf.io/networks-status")  # new, old name

CHECK = CheckMeta(
    id="multus-network-missing",
    area="networking",
    severity=Severity.high,
    title=text("여러 노드 GPU 파드의 Multus 네트워크", "Multus networks of multi-node GPU pods"),
    why=text(
        "노드 재부팅 직후처럼 CNI 순서가 어긋나면 파드가 보조 인터페이스 없이 Running으로 뜰 수 있습니다. "
        "한 클러스터에서는 워커를 강제로 재부팅한 뒤 다섯 번에 한 번꼴로 파드가 Multus 인터페이스 없이 "
        "떴습니다. 분산 학습 파드라면 NCCL이 RDMA 대신 기본 파드 네트워크로 통신하거나 초기화에서 멈추고, "
        "파드 상태에는 아무것도 나타나지 않습니다.",
        "When CNI ordering goes wrong, as right after a node reboot, a pod can reach Running without its "
        "secondary interface. In one cluster, after an ungraceful reboot of the workers, a pod came up "
        "without its Multus interface roughly one time in five. For distributed training that means NCCL "
        "talks over the default pod network instead of RDMA, or stalls at start-up, and the pod status "
        "shows nothing.",
    ),
    remediation=text(
        "빠진 파드를 지워 다시 만들게 하고(작업은 보통 처음부터 다시 뜹니다), Multus DaemonSet이 노드의 "
        "기본 CNI보다 먼저 준비되는지 확인하세요. NetworkAttachmentDefinition 이름과 네임스페이스가 "
        "요청과 맞는지도 보세요.",
        "Delete the affected pods so they are recreated (the job usually restarts as a whole), and make sure "
        "the Multus DaemonSet is ready before the node's default CNI takes pods. Also check that the "
        "NetworkAttachmentDefinition names and namespaces match the request.",
    ),
    decides=text(
        "두 노드 이상에 걸친 작업에 속한 Running GPU 파드 중 k8s.v1.cni.cncf.io/networks로 네트워크를 "
        "요청한 파드마다, Multus가 남긴 network-status 어노테이션에 요청한 네트워크(네임스페이스/이름, 같은 "
        "네트워크를 여러 번 요청하면 그 수만큼)가 다 있는지 봅니다. 하나라도 없거나 network-status가 "
        "아예 없으면 그 작업이 실패입니다.",
        "For each Running GPU pod of a job spanning two or more nodes that requests networks with "
        "k8s.v1.cni.cncf.io/networks, compares the request with the network-status annotation Multus "
        "writes (namespace/name, counted as often as requested). A job fails when one of its pods lacks a "
        "requested network or has no network-status at all.",
    ),
    incidents=("containerd-2023-09-reboot-pod-missing-multus-interface",),
    needs=("Pod",),
    components=("cni", "infiniband-rdma", "nccl"),
    references=(
        "https://github.com/k8snetworkplumbingwg/multi-net-spec",
        "https://github.com/k8snetworkplumbingwg/multus-cni/issues/1387",
    ),
    manifests=False,
)


def requested_networks(pod: KubeObject) -> Counter[str]:
    """'namespace/name' of each network the pod asks for: comma list ('a, ns/b@net2') or JSON list."""
    raw = annotations_of(pod).get(REQUESTED, "").strip()
    namespace = namespace_of(pod) or "default"
    found: Counter[str] = Counter()
    if not raw:
        return found
    if raw.startswith("["):
        try:
            entries = json.loads(raw)
        except ValueError:
            return found
        for entry in entries if isinstance(entries, list) else []:
            if isinstance(entry, dict) and entry.get("name"):
                found[f"{entry.get('namespace') or namespace}/{entry['name']}"] += 1
        return found
    for item in raw.split(","):
        name = item.strip().split("@", 1)[0]
        if name:
            found[name if "/" in name else f"{namespace}/{name}"] += 1
    return found


def attached_networks(pod: KubeObject) -> Counter[str] | None:
    """Networks Multus reports attached ('namespace/name'), or None when it wrote no status at all."""
    annotations = annotations_of(pod)
    raw = next((annotations[key] for key in STATUS if key in annotations), None)
    if raw is None:
        return None
    try:
        entries: Any = json.loads(raw)
    except ValueError:
        return Counter()
    namespace = namespace_of(pod) or "default"
    found: Counter[str] = Counter()
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, dict) and entry.get("name") and not entry.get("default"):
            name = str(entry["name"])
            found[name if "/" in name else f"{namespace}/{name}"] += 1
    return found


def run(snapshot: Snapshot) -> Iterator[Finding]:
    examined: set[int] = set()
    broken: dict[int, tuple[RunningJob, list[str], set[str]]] = {}
    for pod, job in running_gpu_pods(snapshot):
        wanted = requested_networks(pod)
        if not job.multi_node or not wanted:
            continue
        examined.add(id(job))
        attached = attached_networks(pod)
        missing = set(wanted) if attached is None else {net for net, n in wanted.items() if attached[net] < n}
        if missing:
            entry = broken.setdefault(id(job), (job, [], set()))
            entry[1].append(name_of(pod))
            entry[2].update(missing)
    if not examined:
        said = message(
            "Multus 네트워크를 요청한 여러 노드 GPU 작업이 없습니다",
            "no multi-node GPU job requests Multus networks",
        )
        yield not_applicable(CHECK, said)
        return
    for job, pods, missing in broken.values():
        said = message(
            "작업 {job}의 파드 {count}개에 요청한 네트워크 {networks:이} 붙지 않았습니다: {pods}",
            "{count} pods of job {job} run without the requested networks {networks}: {pods}",
            job=job.ref.display(),
            count=len(pods),
            networks=", ".join(sorted(missing)),
            pods=", ".join(sample(pods, 5)),
        )
        yield failed(CHECK, job.ref, said, {"pods": sample(pods), "missing": sorted(missing)})
    if not broken:
        said = message(
            "Multus 네트워크를 쓰는 여러 노드 GPU 작업 {count}개의 파드에 요청한 네트워크가 모두 붙었습니다",
            "the pods of all {count} multi-node GPU jobs on Multus networks have every network "
            "they requested",
            count=len(examined),
        )
        yield passed(CHECK, None, said)
