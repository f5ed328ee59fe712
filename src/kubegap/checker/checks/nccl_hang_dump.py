"""Without the NCCL flight recorder, a hang leaves no trace of which rank stopped where."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import role_workloads, text, workload_failed, workload_verdicts
from kubegap.checker.extract import integer
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.workload import WORKLOAD_KINDS, Role, uses_pytorch_nccl

TRUE = ("1", "true", "True", "TRUE")

CHECK = CheckMeta(
    id="nccl-hang-dump",
    area="training-jobs",
    severity=Severity.low,
    title=text("분산 학습이 멈췄을 때의 덤프", "Hang dump for distributed training"),
    why=text(
        "멈춘 학습에서 가장 어려운 일은 어느 rank가 어디서 멈췄는지 찾는 것입니다. BLOOM 팀은 전체 "
        "규모에서 py-spy가 듣지 않아 2노드에서 재현해야 했고, Llama 3 팀은 NCCL flight recorder 덕분에 "
        "멈춤을 빠르게 진단했습니다.",
        "The hard part of a hung run is finding which rank stopped where. BLOOM could not get py-spy to "
        "work at full scale and had to reproduce on 2 nodes; the Llama 3 team diagnosed hangs quickly "
        "thanks to the NCCL flight recorder.",
    ),
    remediation=text(
        "TORCH_NCCL_TRACE_BUFFER_SIZE를 0보다 크게(예: 2000), TORCH_NCCL_DUMP_ON_TIMEOUT=1로 두고, "
        "TORCH_NCCL_DEBUG_INFO_TEMP_FILE을 영구 볼륨 경로로 지정하세요.",
        "Set TORCH_NCCL_TRACE_BUFFER_SIZE above 0 (e.g. 2000) and TORCH_NCCL_DUMP_ON_TIMEOUT=1, and point "
        "TORCH_NCCL_DEBUG_INFO_TEMP_FILE at a persistent volume.",
    ),
    decides=text(
        "여러 노드에 걸친 PyTorch(NCCL) GPU 학습 워크로드에서 TORCH_NCCL_DUMP_ON_TIMEOUT이 켜져 있지 "
        "않거나 TORCH_NCCL_TRACE_BUFFER_SIZE가 0이면 실패입니다. PyTorch인지는 종류·이미지·명령으로 "
        "추정하고, gloo 백엔드는 뺍니다.",
        "Fails a multi-node PyTorch (NCCL) GPU training workload whose env does not turn on "
        "TORCH_NCCL_DUMP_ON_TIMEOUT or sets TORCH_NCCL_TRACE_BUFFER_SIZE to 0. PyTorch is inferred from "
        "the kind, images and commands; gloo backends are left out.",
    ),
    incidents=("llama3-2024-54-day-interruptions", "bloom-2022-04-30-eval-hang-deepspeed-deadlock"),
    needs=(),
    optional=WORKLOAD_KINDS,
    components=("nccl", "training-framework"),
    references=(
        "https://pytorch.org/docs/stable/torch_nccl_environment_variables.html",
        "https://arxiv.org/abs/2407.21783",
    ),
    roles=(Role.multi_node_training,),
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    selection = role_workloads(CHECK, snapshot)
    chosen = [w for w in selection.chosen if uses_pytorch_nccl(w)]
    problems = []
    for workload in chosen:
        env = workload.env()
        dump = env.get("TORCH_NCCL_DUMP_ON_TIMEOUT", "")
        buffer = integer(env.get("TORCH_NCCL_TRACE_BUFFER_SIZE"), -1)
        if dump not in TRUE or buffer == 0:
            evidence: dict[str, object] = {
                "TORCH_NCCL_DUMP_ON_TIMEOUT": dump or "(unset)",
                "TORCH_NCCL_TRACE_BUFFER_SIZE": env.get("TORCH_NCCL_TRACE_BUFFER_SIZE", "(unset)"),
            }
            problems.append(
                workload_failed(
                    CHECK,
                    workload,
                    message(
                        "행이 걸려도 NCCL 플라이트 레코더 덤프가 남지 않습니다",
                        "a hang would leave no NCCL flight-recorder dump",
                    ),
                    evidence,
                )
            )
    yield from workload_verdicts(
        CHECK,
        snapshot,
        problems,
        len(chosen),
        text("여러 노드 PyTorch GPU 학습 워크로드", "multi-node PyTorch GPU training workloads"),
        undecided=selection.undecided,
    )
