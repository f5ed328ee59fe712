"""Which container of a serving pod answers requests, on which port, and which engine it runs.

A model server does not always declare a containerPort: vLLM is often told `--port=8080` in its args,
TGI reads `PORT` from env, an image's entrypoint listens where its docs say (vLLM 8000, SGLang 30000,
Ollama 11434), and sometimes only the Service that targets the pod names the port. Each of these
counts as taking requests, so a check on serving does not skip a server for the way its port is
written.

Each engine also has health endpoints that ask the engine itself (vLLM's `/health` checks the engine
core, SGLang's `/health_generate` runs a one-token generation, TGI's `/health` runs a prefill on the
shards), while some paths are answered by the API process from static state (the model list, the
version, metrics, Ray's raylet and GCS health): a probe on those stays green while the engine hangs.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from kubegap.checker.extract._fields import dig, integer, items, mapping
from kubegap.checker.extract.podspec import container_env, containers
from kubegap.checker.extract.words import first_phrase, image_path, tokens
from kubegap.checker.workload.shell import Commands, commands_of

if TYPE_CHECKING:
    from kubegap.checker.workload.model import PodTemplate, Workload


@dataclass(frozen=True)
class Engine:
    name: str
    port: int  # where it listens when nothing else says
    health: str  # the path a liveness probe should ask: it reaches the engine


# Matched by program (with the sub-command that serves), by Python module prefix, or by image name.
_ENGINES = (
    (Engine("vLLM", 8000, "/health"), ("vllm",), ("vllm.entrypoints",), ("vllm-openai", "vllm")),
    (Engine("SGLang", 30000, "/health_generate"), ("sglang",), ("sglang.launch_server",), ("sglang",)),
    (
        Engine("TGI", 80, "/health"),
        ("text-generation-launcher",),
        ("text_generation_server",),
        ("text-generation-inference",),
    ),
    (Engine("Triton", 8000, "/v2/health/live"), ("tritonserver",), (), ("tritonserver",)),
    (Engine("TensorRT-LLM", 8000, "/health"), ("trtllm-serve",), ("tensorrt_llm.serve",), ()),
    (Engine("NIM", 8000, "/v1/health/live"), (), (), ("nim",)),
    (Engine("Ollama", 11434, "/"), ("ollama",), (), ("ollama",)),
    (Engine("llama.cpp", 8080, "/health"), ("llama-server",), (), ("llama.cpp", "llamacpp")),
    (
        Engine("TEI", 80, "/health"),
        ("text-embeddings-router",),
        (),
        ("text-embeddings-inference",),
    ),
    (Engine("LMDeploy", 23333, "/health"), ("lmdeploy",), ("lmdeploy.serve",), ("lmdeploy",)),
    (Engine("TorchServe", 8080, "/ping"), ("torchserve",), (), ("torchserve",)),
    (
        Engine("TensorFlow Serving", 8501, "/v1/models"),
        ("tensorflow_model_server",),
        (),
        ("tensorflow-serving",),
    ),
    (Engine("Dynamo", 8000, "/health"), ("dynamo",), ("dynamo.frontend", "dynamo.vllm", "dynamo.sglang"), ()),
)
# Programs that serve only under a sub-command (`vllm serve`, `ollama serve`, `lmdeploy serve`).
_SUBCOMMAND = {"vllm": "serve", "sglang": "serve", "ollama": "serve", "lmdeploy": "serve", "dynamo": "run"}
# GPU-only engines: a template running one is a GPU server even where another file adds the GPU
# (a KServe ServingRuntime, a kustomize base).
GPU_ENGINES = frozenset({"vLLM", "SGLang", "TGI", "TensorRT-LLM", "LMDeploy", "Dynamo"})

PORT_FLAGS = ("--port", "--http-port", "--http_port", "--grpc-port", "--grpc_port", "--server-port")
PORT_VARIABLES = frozenset(
    {"PORT", "SERVER_PORT", "HTTP_PORT", "NIM_SERVER_PORT", "OLLAMA_HOST", "SERVICE_PORT"}
)
# Paths the API process answers from its own state, without asking the engine.
INFO_PATHS = frozenset(
    {
        "/v1/models",
        "/models",
        "/version",
        "/v1/version",
        "/metrics",
        "/info",
        "/get_model_info",
        "/get_server_info",
        "/server_info",
        "/model_info",
        "/api/version",
        "/api/tags",
        "/api/local_raylet_healthz",
        "/api/gcs_healthz",
        "/-/healthz",
        "/-/routes",
    }
)


def _module(commands: Commands) -> str:
    for argv in commands.argvs:
        if "-m" in argv[:-1]:
            return argv[argv.index("-m") + 1]
    return ""


def engine_of(container: dict[str, Any], by_image: bool = True) -> Engine | None:
    """The model server this container runs: by program, module, or (no command) by image.

    `by_image=False` where an operator replaces the entrypoint (KubeRay starts Ray in every container
    whose command is not given), so the image does not say what runs."""
    commands = commands_of(container)
    module = _module(commands)
    for engine, programs, modules, _ in _ENGINES:
        for argv in commands.argvs:
            program = argv[0].rsplit("/", 1)[-1] if argv else ""
            sub = _SUBCOMMAND.get(program)
            if program in programs and (sub is None or sub in argv[1:3]):
                return engine
        if module and any(module.startswith(prefix) for prefix in modules):
            return engine
    if not by_image or container.get("command") or not container.get("image"):
        return None  # the command replaces the image's entrypoint: the image says nothing
    words = tokens(image_path(str(container["image"])))
    for engine, _, _, image_names in _ENGINES:
        if image_names and first_phrase(words, image_names):
            return engine
    return None


# How an engine build for CPUs says so: vLLM's `--device cpu` and its CPU images, SGLang's `--device cpu`,
# TGI's `*-cpu` images (https://docs.vllm.ai/en/latest/getting_started/installation/cpu.html).
_DEVICE_FLAGS = ("--device",)
_DEVICE_VARIABLES = ("VLLM_TARGET_DEVICE",)


def runs_on_cpu(container: dict[str, Any]) -> bool:
    """The engine is a CPU build or told to run on the CPU: it serves without a GPU."""
    if str(commands_of(container).flag(*_DEVICE_FLAGS) or "").lower() == "cpu":
        return True
    env = container_env(container)
    if any(str(env.get(name) or "").lower() == "cpu" for name in _DEVICE_VARIABLES):
        return True
    return "cpu" in tokens(str(container.get("image") or "").rsplit("@", 1)[0])


def _port_value(value: Any) -> int:
    text = str(value or "")
    if text.startswith(("http://", "https://")) or ":" in text:  # OLLAMA_HOST=0.0.0.0:11434
        text = text.rsplit(":", 1)[-1]
    return integer(text.strip('"'), 0)


def listening_ports(container: dict[str, Any]) -> set[int]:
    """Ports this container says it listens on: containerPorts, port flags, PORT-like env."""
    ports = {integer(port.get("containerPort"), 0) for port in items(container.get("ports"))}
    commands = commands_of(container)
    value = commands.flag(*PORT_FLAGS)
    if value is not None:
        ports.add(_port_value(value))
    env = container_env(container)
    ports |= {_port_value(env[name]) for name in PORT_VARIABLES if name in env}
    ports.discard(0)
    return ports


def takes_requests(container: dict[str, Any], worker: bool = False, by_image: bool = True) -> bool:
    """It answers callers: a declared or flagged port, a port env, a readiness probe, or a model server
    (not a worker of a leader/worker group, which joins its leader instead of serving)."""
    if mapping(container.get("readinessProbe")) or listening_ports(container):
        return True
    return not worker and engine_of(container, by_image) is not None


def ray_based(workload: Workload) -> bool:
    """Pods KubeRay runs: Ray clusters, jobs and services, and fleets of them."""
    return workload.kind_key.startswith(("ray.io/", "orchestration.aibrix.ai/RayClusterFleet"))


def named_ports(spec: dict[str, Any]) -> dict[str, int]:
    return {
        str(port.get("name")): integer(port.get("containerPort"), 0)
        for container in containers(spec, include_init=False)
        for port in items(container.get("ports"))
        if port.get("name")
    }


def probe_port(probe: dict[str, Any], spec: dict[str, Any]) -> int:
    """The numeric port an httpGet/tcpSocket/grpc probe targets (named ports resolved), 0 unknown."""
    for handler in ("httpGet", "tcpSocket", "grpc"):
        port = dig(probe, handler, "port")
        if port is not None:
            if isinstance(port, str) and not port.isdigit():
                return named_ports(spec).get(port, 0)
            return integer(port, 0)
    return 0


def exec_urls(probe: dict[str, Any]) -> list[str]:
    """URL paths an exec probe asks with curl, wget or python (`curl -f localhost:8000/health`)."""
    command = [str(word) for word in (dig(probe, "exec", "command") or []) if isinstance(word, str | int)]
    found = []
    for word in " ".join(command).split():
        word = word.strip("'\"")
        if word.startswith(("http://", "https://")):
            found.append(urlsplit(word).path or "/")
        elif word.startswith(("localhost:", "127.0.0.1:", "0.0.0.0:")) and "/" in word:
            found.append("/" + word.split("/", 1)[1])
    return found


def normal_path(path: Any) -> str:
    return "/" + str(path or "/").split("?", 1)[0].strip().strip("/")


def blind_paths(paths: Iterable[str]) -> list[str]:
    return [path for path in (normal_path(p) for p in paths) if path in INFO_PATHS]


def worker_group(workload: Workload, template: PodTemplate) -> bool:
    """A template whose pods join a leader instead of serving: LeaderWorkerSet-shaped workers beside a
    leader template, KServe worker specs, Ray worker groups."""
    groups = {t.group for t in workload.templates}
    if template.group == "worker" and "leader" in groups:
        return True
    if template.group.endswith("-worker"):
        return True
    return (
        "head" in groups
        and template.group != "head"
        and workload.kind_key.startswith(("ray.io/", "orchestration.aibrix.ai/RayClusterFleet"))
    )
