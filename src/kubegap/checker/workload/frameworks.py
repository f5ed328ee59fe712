"""Which collective stack a workload uses, read from what it runs (programs, flags, env), not from words.

`gloo` in a name or a comment does not make a job use gloo; `--backend gloo` or `DIST_BACKEND=gloo`
does. PyTorch over NCCL is a PyTorch launcher (torchrun, deepspeed, accelerate, `python -m
torch.distributed.run`), a PyTorch-only training kind (PyTorchJob, HyperPod), or a TORCH_NCCL_ variable
set for the GPU pods. A TrainJob or runtime runs whatever its image runs (MPI, JAX, LAMMPS), so its kind
alone is not evidence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kubegap.checker.workload.model import Workload

NCCL_TESTS = frozenset(
    {
        "all_reduce_perf",
        "all_gather_perf",
        "alltoall_perf",
        "broadcast_perf",
        "reduce_scatter_perf",
        "reduce_perf",
        "sendrecv_perf",
        "gather_perf",
        "scatter_perf",
        "hypercube_perf",
    }
)
_PYTORCH_LAUNCHERS = frozenset(
    {"torchrun", "deepspeed", "accelerate", "tune", "composer", "llamafactory-cli"}
)
_PYTORCH_MODULES = ("torch.distributed.run", "torch.distributed.launch", "deepspeed.launcher", "accelerate")
_PYTORCH_KINDS = frozenset(
    {
        "kubeflow.org/PyTorchJob",
        "sagemaker.amazonaws.com/HyperPodPyTorchJob",
    }
)
_BACKEND_FLAGS = ("--backend", "--dist-backend", "--dist_backend", "--ddp-backend", "--ddp_backend")


def uses_nccl_tests(workload: Workload) -> bool:
    words = (word.rsplit("/", 1)[-1] for commands in workload.commands for word in commands.words())
    return any(word in NCCL_TESTS for word in words)


def uses_gloo(workload: Workload) -> bool:
    """The job picks the gloo backend in a flag or an env variable: no NCCL, no NCCL shared memory."""
    if any((commands.flag(*_BACKEND_FLAGS) or "").lower() == "gloo" for commands in workload.commands):
        return True
    return any("BACKEND" in name and value.lower() == "gloo" for name, value in workload.env(False).items())


def uses_pytorch_nccl(workload: Workload) -> bool:
    """PyTorch over NCCL, from the kind, the launcher or the module run (gloo backends excluded)."""
    if uses_gloo(workload):
        return False
    if workload.kind_key in _PYTORCH_KINDS:
        return True
    for commands in workload.commands:
        if any(program in _PYTORCH_LAUNCHERS for program in commands.programs()):
            return True
        module = commands.flag("-m") or ""
        if module.startswith(_PYTORCH_MODULES):
            return True
    return any(name.startswith("TORCH_NCCL_") or name == "TORCH_DISTRIBUTED_DEBUG" for name in workload.env())


# Benchmarks that run a fixed, short measurement (seconds to minutes) and exit: bandwidth, collective
# and burn-in tools. A training benchmark (tf_cnn_benchmarks, MLPerf training) is not one of them.
BOUNDED_BENCHMARKS = frozenset(
    {
        *NCCL_TESTS,
        "nvbandwidth",
        "ib_write_bw",
        "ib_read_bw",
        "ib_send_bw",
        "ib_write_lat",
        "ib_read_lat",
        "gpu_burn",
        "gpu-burn",
        "gpuburn",
        "dcgmproftester",
        "dcgmproftester11",
        "dcgmproftester12",
    }
)


def runs_bounded_benchmark(workload: Workload) -> bool:
    """The workload runs a short fixed-length measurement tool (nvbandwidth, nccl-tests, ib_write_bw)."""
    words = (word.rsplit("/", 1)[-1] for commands in workload.commands for word in commands.words())
    return any(word in BOUNDED_BENCHMARKS for word in words)
