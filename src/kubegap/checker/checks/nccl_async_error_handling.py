"""With NCCL async error handling off, a dead rank leaves the others blocked in a collective forever."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import role_workloads, text, workload_failed, workload_verdicts
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.workload import WORKLOAD_KINDS, Role

CHECK = CheckMeta(
    id="nccl-async-error-handling",
    area="training-jobs",
    severity=Severity.high,
    title=text("NCCL 비동기 오류 처리", "NCCL async error handling"),
    why=text(
        "TORCH_NCCL_ASYNC_ERROR_HANDLING=0이면 한 rank가 죽어도 나머지 rank는 collective 안에서 영원히 "
        "기다리고, 프로세스가 끝나지 않으니 작업 관리자는 실패를 모릅니다. BLOOM 팀은 GPU가 죽을 때마다 "
        "작업이 종료 대신 멈춰 사람이 24시간 지켜봐야 했고, NCCL_ASYNC_ERROR_HANDLING=1이 실제 "
        "해결책이었습니다.",
        "With TORCH_NCCL_ASYNC_ERROR_HANDLING=0, when one rank dies the others wait in the collective "
        "forever; no process exits, so the job manager never sees a failure. BLOOM's job hung instead of "
        "exiting whenever a GPU died, needing a human watching 24/7; NCCL_ASYNC_ERROR_HANDLING=1 was the "
        "real fix.",
    ),
    remediation=text(
        "변수를 지우거나(최근 PyTorch 기본값은 켜짐) TORCH_NCCL_ASYNC_ERROR_HANDLING=1(또는 3)로 두세요. "
        "옛 이름 NCCL_ASYNC_ERROR_HANDLING=0도 함께 지우세요.",
        "Remove the variable (recent PyTorch turns it on by default) or set "
        "TORCH_NCCL_ASYNC_ERROR_HANDLING=1 (or 3). Remove the legacy NCCL_ASYNC_ERROR_HANDLING=0 as well.",
    ),
    decides=text(
        "GPU를 요청하는 워크로드의 컨테이너 env에서 TORCH_NCCL_ASYNC_ERROR_HANDLING(없으면 "
        "NCCL_ASYNC_ERROR_HANDLING)이 0이면 실패입니다.",
        "Fails when a GPU workload's container env sets TORCH_NCCL_ASYNC_ERROR_HANDLING (or, if unset, the "
        "legacy NCCL_ASYNC_ERROR_HANDLING) to 0.",
    ),
    incidents=(
        "bloom-2022-04-weekly-gpu-failures-hang-instead-of-exit",
        "pytorch-2023-nccl-watchdog-fails-to-crash",
        "pithtrain-2026-torchrun-shutdown-hang",
    ),
    needs=(),
    optional=WORKLOAD_KINDS,
    components=("nccl", "training-framework"),
    references=(
        "https://pytorch.org/docs/stable/torch_nccl_environment_variables.html",
        "https://github.com/pytorch/pytorch/issues/46874",
    ),
    roles=(
        Role.multi_node_training,
        Role.single_node_training,
        Role.serving,
        Role.batch,
        Role.other,
    ),
)


def setting(env: dict[str, str]) -> tuple[str, str] | None:
    for name in ("TORCH_NCCL_ASYNC_ERROR_HANDLING", "NCCL_ASYNC_ERROR_HANDLING"):
        if env.get(name):
            return name, env[name]
    return None


def run(snapshot: Snapshot) -> Iterator[Finding]:
    selection = role_workloads(CHECK, snapshot)
    chosen = selection.chosen
    problems = []
    for workload in chosen:
        found = setting(workload.env())
        if found and found[1].strip() == "0":
            problems.append(
                workload_failed(
                    CHECK,
                    workload,
                    message(
                        "{variable}=0: 죽은 랭크 하나가 나머지를 멈춘 채로 둡니다",
                        "{variable}=0: a dead rank leaves the others hanging",
                        variable=found[0],
                    ),
                    {found[0]: "0"},
                )
            )
    yield from workload_verdicts(
        CHECK,
        snapshot,
        problems,
        len(chosen),
        text("GPU 워크로드", "GPU workloads"),
        undecided=selection.undecided,
    )
