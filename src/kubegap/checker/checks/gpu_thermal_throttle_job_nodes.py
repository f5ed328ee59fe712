"""One throttled node sets the pace of a whole synchronous job: thermal signals on a job's nodes matter."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import failed, not_applicable, passed, sample, text, unknown
from kubegap.checker.extract import nodes
from kubegap.checker.extract.conditions import bad_thermal_signals, thermal_conditions
from kubegap.checker.extract.jobs import running_gpu_jobs
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot

CHECK = CheckMeta(
    id="gpu-thermal-throttle-job-nodes",
    area="gpu-health",
    severity=Severity.medium,
    title=text(
        "여러 노드 작업이 도는 노드의 열·클럭 스로틀",
        "Thermal and clock throttling on nodes of multi-node jobs",
    ),
    why=text(
        "동기식 분산 작업은 가장 느린 노드의 속도로 돕니다. GPU 하나가 과열로 클럭을 낮추면 작업 전체가 "
        "그만큼 느려지지만 아무 오류도 나지 않습니다. Llama 3 학습은 한낮 기온이 GPU 전압·주파수 조절에 "
        "영향을 줘 처리량이 1~2% 오르내렸고, BLOOM은 느린 GPU 하나 때문에 GPU당 처리량이 149에서 140 "
        "TFLOPs로 떨어진 채 머물렀습니다.",
        "A synchronous distributed job runs at the pace of its slowest node. When one GPU lowers its clocks "
        "because it is hot, the whole job slows by as much, with no error anywhere. Llama 3's throughput "
        "moved 1-2% with mid-day temperatures that affected GPU voltage and frequency scaling, and BLOOM "
        "stayed at 140 instead of 149 TFLOPs per GPU because of one slow GPU.",
    ),
    remediation=text(
        "스로틀 신호가 난 노드의 냉각·전력 상태(nvidia-smi -q -d PERFORMANCE의 clocks event reasons, "
        "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS)를 확인하고, 다음 체크포인트에서 그 노드를 빼고 작업을 다시 "
        "배치하세요. 노드를 cordon해 새 작업이 그 노드에 오지 않게 하세요.",
        "Check cooling and power on the flagged node (clock event reasons in nvidia-smi -q -d PERFORMANCE, "
        "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS), and at the next checkpoint reschedule the job without that "
        "node. Cordon the node so no new job lands on it.",
    ),
    decides=text(
        "Running 상태의 GPU 파드를 작업(JobSet, Kubeflow 작업, Volcano·Ray·LeaderWorkerSet, Job) 레이블과 "
        "소유자로 묶고, 두 노드 이상에 걸친 작업만 봅니다. 그 노드 중 열·클럭 스로틀 condition "
        "(NVSentinel의 GpuThermalWatch처럼 이름이 열·스로틀·온도·감속을 가리키는 것)이 나쁜 "
        "상태이면 실패입니다. 작업의 노드가 이런 condition을 하나도 내지 않으면 스로틀을 볼 수 없으므로 "
        "알 수 없음입니다.",
        "Groups Running GPU pods into jobs by their job labels and owners (JobSet, Kubeflow jobs, Volcano, "
        "Ray, LeaderWorkerSet, Job) and keeps jobs that span two or more nodes. It fails when one of those "
        "nodes has a thermal or clock-throttle condition (NVSentinel's GpuThermalWatch and any type naming "
        "thermal, throttle, temperature or slowdown) in its bad state. When none of a job's nodes publishes "
        "such a condition, throttling cannot be seen and the result is unknown.",
    ),
    incidents=("llama3-2024-diurnal-throughput-and-power-swings", "bloom-2022-04-28-slow-gpu-straggler"),
    needs=("Node", "Pod"),
    components=("gpu", "power-and-cooling", "gpu-health-monitoring"),
    references=(
        "https://docs.nvidia.com/nvsentinel/configuration/gpu-health-monitor/",
        "https://docs.nvidia.com/datacenter/dcgm/latest/user-guide/feature-overview.html",
    ),
    manifests=False,
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    jobs = [job for job in running_gpu_jobs(snapshot) if job.multi_node]
    if not jobs:
        said = message(
            "두 노드 이상에 걸쳐 도는 GPU 작업이 없습니다", "no GPU job runs across two or more nodes"
        )
        yield not_applicable(CHECK, said)
        return
    by_name = {node.name: node for node in nodes(snapshot)}
    watched = 0
    failing = 0
    for job in jobs:
        job_nodes = [by_name[name] for name in sorted(job.nodes) if name in by_name]
        if not any(thermal_conditions(node) for node in job_nodes):
            continue
        watched += 1
        hot = {node.name: signals for node in job_nodes if (signals := bad_thermal_signals(node))}
        if hot:
            failing += 1
            said = message(
                "{count}개 노드에 걸친 작업 {job}의 노드 {hot}에서 열·클럭 스로틀 신호가 났습니다",
                "job {job} spans {count} nodes and node {hot} reports thermal or clock throttling",
                job=job.ref.display(),
                count=len(job.nodes),
                hot=", ".join(sample(list(hot), 5)),
            )
            yield failed(CHECK, job.ref, said, {"signals": hot, "nodes": len(job.nodes)})
    if failing:
        return
    if watched < len(jobs):
        said = message(
            "여러 노드 GPU 작업 {unseen}개의 노드는 열·클럭 상태를 내지 않아 스로틀을 볼 수 없습니다",
            "the nodes of {unseen} multi-node GPU jobs publish no thermal or clock state, so throttling "
            "cannot be seen",
            unseen=len(jobs) - watched,
        )
        yield unknown(CHECK, None, said, {"jobs": len(jobs), "watched": watched})
    else:
        said = message(
            "여러 노드 GPU 작업 {count}개의 노드에 스로틀 신호가 없습니다",
            "no throttling reported on the nodes of {count} multi-node GPU jobs",
            count=len(jobs),
        )
        yield passed(CHECK, None, said)
