"""The NCCL watchdog is what turns a stuck collective into a crash; disabling or stretching it hides hangs."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import role_workloads, text, workload_failed, workload_verdicts
from kubegap.checker.extract import quantity
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.workload import WORKLOAD_KINDS, Role

MAX_HEARTBEAT_SECONDS = 1800

CHECK = CheckMeta(
    id="nccl-watchdog-disabled",
    area="training-jobs",
    severity=Severity.medium,
    title=text("NCCL 워치독", "NCCL watchdog"),
    why=text(
        "ProcessGroupNCCL 워치독과 그 감시(heartbeat) 스레드는 멈춘 collective를 프로세스 종료로 바꾸는 "
        "마지막 장치입니다. PyTorch 개발자는 워치독이 타임아웃에도 프로그램을 내리지 못해 작업이 아무도 "
        "모르게 멈춘 채 머신을 붙들고 있는 사례를 보였습니다. 감시를 끄거나 몇 시간짜리 heartbeat를 주면 "
        "그 상태가 그대로 이어집니다.",
        "The ProcessGroupNCCL watchdog and its heartbeat monitor are the last line that turns a stuck "
        "collective into a process exit. A PyTorch developer showed the watchdog failing to bring the "
        "program down on a timeout, leaving a job stuck unnoticed while holding its machines; disabling "
        "the monitor or giving it an hours-long heartbeat keeps that state going.",
    ),
    remediation=text(
        "TORCH_NCCL_ENABLE_MONITORING=0을 지우고, TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC는 기본값(480초)이나 "
        "30분 이하로 두세요.",
        "Remove TORCH_NCCL_ENABLE_MONITORING=0 and keep TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC at its default "
        "(480 s) or under 30 minutes.",
    ),
    decides=text(
        "GPU 워크로드의 env에서 TORCH_NCCL_ENABLE_MONITORING=0이거나 TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC가 "
        "1800초를 넘으면 실패입니다.",
        "Fails when a GPU workload's env sets TORCH_NCCL_ENABLE_MONITORING=0 or "
        "TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC above 1800.",
    ),
    incidents=(
        "pytorch-2023-nccl-watchdog-fails-to-crash",
        "pithtrain-2026-torchrun-shutdown-hang",
        "llama3-2024-54-day-interruptions",
    ),
    needs=(),
    optional=WORKLOAD_KINDS,
    components=("nccl", "training-framework"),
    references=("https://pytorch.org/docs/stable/torch_nccl_environment_variables.html",),
    roles=(
        Role.multi_node_training,
        Role.single_node_training,
        Role.serving,
        Role.batch,
        Role.other,
    ),
)


def problems_in(env: dict[str, str]) -> list[str]:
    found = []
    if env.get("TORCH_NCCL_ENABLE_MONITORING", "").strip() == "0":
        found.append("TORCH_NCCL_ENABLE_MONITORING=0")
    heartbeat = quantity(env.get("TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC", ""))
    if heartbeat is not None and heartbeat > MAX_HEARTBEAT_SECONDS:
        found.append(f"TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC={int(heartbeat)}")
    return found


def run(snapshot: Snapshot) -> Iterator[Finding]:
    selection = role_workloads(CHECK, snapshot)
    chosen = selection.chosen
    problems = []
    for workload in chosen:
        found = problems_in(workload.env())
        if found:
            problems.append(
                workload_failed(
                    CHECK,
                    workload,
                    message(
                        "NCCL 워치독이 약해졌습니다: {settings}",
                        "NCCL watchdog weakened: {settings}",
                        settings=", ".join(found),
                    ),
                    {"settings": found},
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
