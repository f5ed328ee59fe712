"""A GPU pool with every node busy has no spare to swap in when one fails: the job waits for a human."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import GPU_NODE_NOTE, failed, not_applicable, passed, text
from kubegap.checker.extract import dig, gpu_nodes, gpus_requested, mapping, pod_index
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot

MIN_POOL = 4  # below this a pool is a dev sandbox, not a training fleet

CHECK = CheckMeta(
    id="gpu-pool-no-spare-nodes",
    area="gpu-health",
    severity=Severity.low,
    title=text("GPU 풀의 교체용 여유 노드", "Spare nodes in GPU pools"),
    why=text(
        "대형 학습에서 노드 고장은 며칠마다 일어나고, 재시작은 고장 난 노드를 바꿔 끼울 여유 노드가 있어야 "
        "빨라집니다. OPT-175B 팀은 호스트 다섯 대가 한꺼번에 죽었을 때 여유 노드가 네 대뿐이라 막혔고, "
        "여유 18대를 받은 뒤에야 복구가 크게 빨라졌습니다. Gemini는 대기 장비를 따로 두고 그 위에서 고장 "
        "진단 도구를 미리 돌렸습니다.",
        "In large training runs nodes fail every few days, and a restart is quick only if a spare node can "
        "take the failed one's place. OPT-175B was stuck when five hosts died at once with only four "
        "spares, and recovery sped up sharply once 18 buffer hosts arrived. Gemini kept hot-standby "
        "machines and ran fault scanners on them ahead of time.",
    ),
    remediation=text(
        "큰 GPU 풀마다 1~2%(최소 한 대)의 노드를 비워 두거나, 빠르게 늘어나는 오토스케일링 풀을 두고, 비어 "
        "있는 노드에서 능동 진단을 돌려 바로 투입할 수 있게 하세요.",
        "Keep 1-2% of each large GPU pool (at least one node) idle, or a pool that scales up quickly, and "
        "run active diagnostics on idle nodes so they are ready to take over.",
    ),
    decides=text(
        "GPU 노드가 4대 이상인 풀마다, 스케줄 가능하고 GPU를 요청한 파드가 하나도 없는 노드가 한 대도 "
        "없으면 실패입니다. 오토스케일러가 새 노드를 더할 수 있는지는 보이지 않으므로 심각도는 낮습니다.",
        "For each pool of 4 or more GPU nodes, fails when no schedulable node is free of GPU-requesting "
        "pods. Whether an autoscaler could add nodes is not visible, hence the low severity.",
    ),
    incidents=(
        "opt-2021-12-06-buffer-pool-exhausted",
        "opt-2021-11-thanksgiving-restarts-buffer-nodes",
        "gemini-2023-sdc-every-week-or-two",
    ),
    needs=("Node", "Pod"),
    components=("gpu", "job-scheduler"),
    references=("https://arxiv.org/abs/2205.01068", "https://arxiv.org/abs/2312.11805"),
    manifests=False,
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    nodes = gpu_nodes(snapshot)
    if not nodes:
        yield not_applicable(CHECK, GPU_NODE_NOTE)
        return
    by_node = pod_index(snapshot).by_node
    pools: dict[str, list[str]] = defaultdict(list)
    spare: dict[str, list[str]] = defaultdict(list)
    for node in nodes:
        pool = node.pool or f"nvidia.com/gpu.product={node.labels.get('nvidia.com/gpu.product', '?')}"
        pools[pool].append(node.name)
        busy = any(gpus_requested(mapping(dig(pod, "spec"))) > 0 for pod in by_node.get(node.name, []))
        if not busy and not node.fenced:
            spare[pool].append(node.name)
    judged = {pool: members for pool, members in pools.items() if len(members) >= MIN_POOL}
    if not judged:
        yield not_applicable(
            CHECK,
            message(
                "노드가 {count}대 이상인 GPU 풀이 없습니다",
                "no GPU pool with {count} or more nodes",
                count=MIN_POOL,
            ),
        )
        return
    for pool, members in sorted(judged.items()):
        evidence: dict[str, object] = {"pool": pool, "nodes": len(members), "spare": len(spare[pool])}
        if spare[pool]:
            yield passed(
                CHECK,
                None,
                message(
                    "풀 {pool}의 노드 {total}대 중 {spare}대가 비어 있습니다",
                    "pool {pool} has {spare} spare of {total} nodes",
                    pool=pool,
                    spare=len(spare[pool]),
                    total=len(members),
                ),
                evidence,
            )
        else:
            yield failed(
                CHECK,
                None,
                message(
                    "풀 {pool}의 노드 {total}대가 모두 일하고 있거나 격리되어 예비 노드가 없습니다",
                    "all {total} nodes of pool {pool} are busy or fenced: no spare",
                    pool=pool,
                    total=len(members),
                ),
                evidence,
            )
