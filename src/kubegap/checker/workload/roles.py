"""What a workload is for, decided once from its structure, with the evidence a reader can check.

A check that applies to long multi-node training must not tell a benchmark, a serving pod or a
one-GPU smoke test to keep checkpoints; a check on serving must not read a batch job as a server. The
role is decided here, in this order, and each decision names its evidence:

1. node agent: a DaemonSet, a known GPU-stack agent, or a single hostNetwork pod pinned to a node;
2. benchmark or burn-in: a benchmark program (nccl-tests, nvbandwidth, dcgmi diag, gpu-burn, stress,
   perf tools) or a name or image that says so in whole words;
3. smoke test: every command is a device query or a wait (`nvidia-smi && sleep 10`), or a sample image;
4. notebook / dev environment: Jupyter, code-server, a Kubeflow Notebook;
5. inference / serving: a serving kind or a model server program or image, or a long-running GPU pod
   that listens on a port (a containerPort or a PORT variable);
6. training: a training kind or launcher (torchrun, deepspeed, accelerate, mpirun over a trainer...),
   multi-node when its GPU pods span several nodes or the launcher says `--nnodes` > 1;
7. batch / data: the remaining Jobs, CronJobs, workflows and Ray jobs;
8. other: anything else (controllers, web apps, databases).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from kubegap.checker.extract._fields import integer
from kubegap.checker.extract.words import first_phrase, has_phrase, tokens
from kubegap.checker.workload.shell import Commands
from kubegap.checker.workload.signals import (
    _BATCH_KINDS,
    _BATCH_WORDS,
    _BENCHMARK_PHRASES,
    _BENCHMARK_PROGRAMS,
    _LONG_RUNNING,
    _NOTEBOOK,
    _PROBES,
    _SAMPLE_IMAGES,
    _SERVING_GROUPS,
    _SERVING_IMAGES,
    _SERVING_KINDS,
    _SERVING_MODULES,
    _SERVING_PROGRAMS,
    _TRAINING_KINDS,
    _TRAINING_MODULES,
    _TRAINING_PROGRAMS,
    _TRAINING_WORDS,
    _WAITS,
)


class Role(StrEnum):
    multi_node_training = "multi-node-training"
    single_node_training = "single-node-training"
    serving = "serving"
    benchmark = "benchmark"
    batch = "batch"
    node_agent = "node-agent"
    notebook = "notebook"
    smoke_test = "smoke-test"
    other = "other"


TRAINING = (Role.multi_node_training, Role.single_node_training)
ALL_ROLES = tuple(Role)
# Everything but node agents: what a user deploys to do work.
USER_ROLES = tuple(role for role in Role if role is not Role.node_agent)


@dataclass(frozen=True)
class Facts:
    """What the classifier reads of one workload (built by the model from its templates)."""

    kind_key: str
    name: str
    labels: dict[str, str]
    images: Sequence[str]
    commands: Sequence[Commands]
    env: dict[str, str]
    gpus: int  # GPUs of the biggest template
    gpu_pods: int  # pods that request accelerators
    distributed: bool
    listens: bool  # a containerPort, a PORT variable or a readiness probe
    agent: str  # the GPU-stack agent role by name or image ('' when none)
    node_diagnostic: bool  # one hostNetwork/hostPID pod pinned to a node


def name_signals(facts: Facts) -> tuple[str, str, str, bool]:
    """All that `classify` reads from the workload's name and labels, which it reads through `_words`
    alone: two workloads whose other facts are equal and whose signals are equal get the same role, so
    the model classifies once per template and signals rather than once per pod (keep it so)."""
    words = _words(facts)
    return (
        first_phrase(words, _BENCHMARK_PHRASES),
        first_phrase(words, _TRAINING_WORDS),
        first_phrase(words, _BATCH_WORDS),
        has_phrase(words, "batch"),
    )


def _words(facts: Facts) -> tuple[str, ...]:
    app = " ".join(facts.labels.get(key, "") for key in ("app", "app.kubernetes.io/name", "k8s-app", "name"))
    return tokens(" ".join([facts.name, app]))


def _image_words(facts: Facts) -> list[tuple[str, ...]]:
    from kubegap.checker.extract.words import image_path

    return [tokens(image_path(image)) for image in facts.images if image]


def _programs(facts: Facts) -> list[str]:
    return [program for commands in facts.commands for program in commands.programs()]


def _modules_and_scripts(facts: Facts) -> list[str]:
    """Python modules (`-m x.y`) and script file names (`train.py`) the containers run."""
    found = []
    for commands in facts.commands:
        for argv in commands.argvs:
            for index, word in enumerate(argv):
                if word == "-m" and index + 1 < len(argv):
                    found.append(argv[index + 1])
                elif word.endswith((".py", ".sh")):
                    found.append(word.rsplit("/", 1)[-1])
    return found


def _benchmark(facts: Facts) -> str:
    for commands in facts.commands:
        for argv in commands.argvs:
            program = argv[0].rsplit("/", 1)[-1] if argv else ""
            launched = [word.rsplit("/", 1)[-1] for word in argv]  # mpirun -np 16 /opt/.../all_reduce_perf
            if found := next((word for word in launched if word in _BENCHMARK_PROGRAMS), ""):
                return f"runs {found}"
            if program == "dcgmi" and "diag" in argv:
                return "runs dcgmi diag"
            if program == "vllm" and len(argv) > 1 and argv[1] == "bench":
                return "runs vllm bench"
            if "--benchmark" in argv or "-benchmark" in argv:
                return f"runs {program} --benchmark"
    for script in _modules_and_scripts(facts):
        if phrase := first_phrase(tokens(script), ("benchmark", "bench", "burn", "stress", "perf")):
            return f"runs {script} ({phrase})"
    if phrase := first_phrase(_words(facts), _BENCHMARK_PHRASES):
        return f"name says {phrase}"
    for words in _image_words(facts):
        if phrase := first_phrase(words, _BENCHMARK_PHRASES):
            return f"image says {phrase}"
    return ""


def _smoke(facts: Facts) -> str:
    programs = [program for program in _programs(facts) if program]
    probes = [program for program in programs if program in _PROBES]
    if programs and probes and all(program in _PROBES or program in _WAITS for program in programs):
        return "runs only " + ", ".join(dict.fromkeys(programs))
    if not programs and facts.commands is not None:
        for words in _image_words(facts):
            if phrase := first_phrase(words, _SAMPLE_IMAGES):
                return f"sample image {phrase}"
    return ""


def _notebook(facts: Facts) -> str:
    if facts.kind_key == "kubeflow.org/Notebook":
        return "kind Notebook"
    programs = [program for program in _programs(facts) if program]
    if programs and all(program in _WAITS for program in programs) and "sleep" in programs:
        return "only sleeps (a pod to exec into)"
    if program := next((p for p in _programs(facts) if first_phrase(tokens(p), _NOTEBOOK)), ""):
        return f"runs {program}"
    for words in _image_words(facts):
        if phrase := first_phrase(words, _NOTEBOOK):
            return f"image {phrase}"
    return ""


def _serving(facts: Facts) -> str:
    group = facts.kind_key.split("/", 1)[0] if "/" in facts.kind_key else ""
    if facts.kind_key in _SERVING_KINDS or group in _SERVING_GROUPS:
        return f"kind {facts.kind_key.rsplit('/', 1)[-1]}"
    for commands in facts.commands:
        for argv in commands.argvs:
            program = argv[0].rsplit("/", 1)[-1] if argv else ""
            if program in _SERVING_PROGRAMS and (
                program not in ("vllm", "ollama", "sglang", "serve", "lmdeploy", "dynamo")
                or "serve" in argv[1:3]
                or program == "serve"
            ):
                return f"runs {program}"
    for module in _modules_and_scripts(facts):
        if module.startswith(_SERVING_MODULES):
            return f"runs {module}"
    for words in _image_words(facts):
        if phrase := first_phrase(words, _SERVING_IMAGES):
            return f"model-server image {phrase}"
    if facts.kind_key in _LONG_RUNNING and facts.gpu_pods and facts.listens and facts.kind_key != "Pod":
        return "long-running GPU workload that listens on a port"
    return ""


def _inline_training(facts: Facts) -> bool:
    """`python -c` with a training loop in the string: it calls backward() or steps an optimizer."""
    for commands in facts.commands:
        for argv in commands.argvs:
            if argv and argv[0].rsplit("/", 1)[-1].startswith("python") and "-c" in argv:
                code = " ".join(argv[argv.index("-c") + 1 :])
                if ".backward(" in code or "optimizer.step(" in code or "optim." in code:
                    return True
    return False


def _training(facts: Facts) -> str:
    if _inline_training(facts):
        return "runs an inline Python training loop"
    programs = _programs(facts)
    if program := next((p for p in programs if p in _TRAINING_PROGRAMS), ""):
        return f"runs {program}"
    for module in _modules_and_scripts(facts):
        if module.startswith(_TRAINING_MODULES):
            return f"runs {module}"
        if phrase := first_phrase(tokens(module), _TRAINING_WORDS):
            return f"runs {module}"
    if facts.kind_key in _TRAINING_KINDS:
        return f"kind {facts.kind_key.rsplit('/', 1)[-1]}"
    if phrase := first_phrase(_words(facts), _TRAINING_WORDS):
        return f"name says {phrase}"
    return ""


def _nodes_from_launcher(facts: Facts) -> int:
    for commands in facts.commands:
        value = commands.flag("--nnodes", "--num_nodes", "--num-nodes", "--num_machines")
        if value is not None:
            return integer(value.split(":")[-1], 0)
    return 0


def classify(facts: Facts) -> tuple[Role, tuple[str, ...]]:
    """The workload's role and the evidence for it (short phrases a reader can check)."""
    if facts.kind_key == "apps/DaemonSet" and not _benchmark(facts):
        return Role.node_agent, ("kind DaemonSet",) + ((f"agent {facts.agent}",) if facts.agent else ())
    if facts.agent:
        return Role.node_agent, (f"agent {facts.agent}",)
    if why := _benchmark(facts):
        return Role.benchmark, (why,)
    if why := _smoke(facts):
        return (
            (Role.node_agent, (why, "node diagnostic"))
            if facts.node_diagnostic
            else (Role.smoke_test, (why,))
        )
    if facts.node_diagnostic:
        return Role.node_agent, ("one hostNetwork pod pinned to a node",)
    if why := _notebook(facts):
        return Role.notebook, (why,)
    if why := _serving(facts):
        return Role.serving, (why,)
    if why := _training(facts):
        nodes = _nodes_from_launcher(facts)
        if nodes > 1 or (facts.distributed and facts.gpu_pods > 1):
            spread = f"--nnodes {nodes}" if nodes > 1 else f"{facts.gpu_pods} GPU pods across nodes"
            return Role.multi_node_training, (why, spread)
        return Role.single_node_training, (why,)
    if facts.kind_key in _BATCH_KINDS or facts.kind_key.startswith("batch"):
        batch = first_phrase(_words(facts), _BATCH_WORDS)
        return Role.batch, (f"kind {facts.kind_key.rsplit('/', 1)[-1]}",) + (
            (f"name says {batch}",) if batch else ()
        )
    if has_phrase(_words(facts), "batch"):
        return Role.batch, ("name says batch",)
    return Role.other, (f"kind {facts.kind_key.rsplit('/', 1)[-1]}",)
