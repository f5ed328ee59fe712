"""A hung inference engine keeps its port open: only a liveness probe that reaches the engine restarts it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kubegap.bilingual import Message, message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import role_workloads, text, workload_failed, workload_verdicts
from kubegap.checker.extract import container_env, containers, mapping
from kubegap.checker.extract.podspec import is_gpu_resource
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.workload import Role

SERVING_KINDS = ("apps/Deployment", "apps/StatefulSet", "leaderworkerset.x-k8s.io/LeaderWorkerSet")
# Paths the API process answers from its own state, without asking the engine (model list, version).
_PROCESS_ONLY_PATHS = frozenset({"/v1/models", "/version", "/v1/version"})

CHECK = CheckMeta(
    id="gpu-serving-liveness-probe",
    area="gpu-stack",
    severity=Severity.medium,
    title=text("GPU 서빙 컨테이너의 livenessProbe", "Liveness probes of GPU serving containers"),
    why=text(
        "추론 엔진이 교착에 빠지거나 CUDA·NCCL 호출에서 멈춰도 API 서버 프로세스는 살아서 "
        "포트를 열어 둡니다. livenessProbe가 없거나 TCP 연결만 보거나 모델 목록처럼 API "
        "프로세스가 혼자 답하는 경로를 보면, 쿠버네티스는 멈춘 파드를 재시작하지 않습니다. 한 "
        "자체 호스팅 vLLM 백엔드는 엔진이 멈춘 뒤에도 /v1/models 점검을 통과해 85분 동안 요청을 "
        "받아 모두 실패시켰습니다.",
        "When an inference engine deadlocks or stalls in a CUDA or NCCL call, the API server process stays "
        "up and keeps its port open. With no liveness probe, a TCP-only probe, or a probe on a path the API "
        "process answers on its own (the model list), Kubernetes never restarts the hung pod. A self-hosted "
        "vLLM backend kept passing a /v1/models check after its engine froze and took, and failed, traffic "
        "for 85 minutes.",
    ),
    remediation=text(
        "GPU 서빙 컨테이너에 엔진까지 닿는 경로(vLLM·SGLang의 /health, TGI의 /health, Triton의 "
        "/v2/health/live, 또는 짧은 생성 요청을 보내는 exec 프로브)로 livenessProbe를 두세요. 모델 "
        "로딩이 길면 startupProbe로 시작 시간을 따로 주고, failureThreshold와 timeoutSeconds는 바쁜 엔진이 "
        "재시작되지 않을 만큼 넉넉히 잡으세요.",
        "Give GPU serving containers a liveness probe on a path that reaches the engine (/health on vLLM, "
        "SGLang and TGI, /v2/health/live on Triton, or an exec probe that sends a short generation). Cover "
        "long model loads with a startupProbe, and set failureThreshold and timeoutSeconds loose enough that "
        "a busy engine is not restarted.",
    ),
    decides=text(
        "역할이 서빙인 GPU Deployment·StatefulSet·LeaderWorkerSet에서, GPU를 요청하고 포트를 "
        "열거나(containerPort, 또는 PORT 같은 env로만 정한 포트) readinessProbe가 있는(즉 요청을 받는) "
        "컨테이너마다 봅니다. livenessProbe가 "
        "없거나, TCP 프로브뿐이거나, HTTP 경로가 /v1/models·/version이면 실패입니다. 포트도 "
        "프로브도 없는 GPU 컨테이너(큐 소비자, Ray 워커, LeaderWorkerSet 워커)와 벤치마크는 "
        "건너뜁니다. exec·gRPC 프로브와 다른 HTTP 경로는 통과로 봅니다.",
        "Looks at each container of a GPU Deployment, StatefulSet or LeaderWorkerSet whose role is serving "
        "that requests GPUs and takes requests (declares a port, sets one only by env such as PORT, or has a "
        "readiness probe). It fails when the container has no "
        "liveness probe, only a TCP probe, or an HTTP probe on /v1/models or /version. GPU containers with "
        "neither ports nor probes (queue consumers, Ray workers, LeaderWorkerSet workers) and benchmarks are "
        "skipped; exec and gRPC probes and other HTTP paths pass.",
    ),
    incidents=("fastllm-proxy-2026-09-vllm-engine-deadlock-probe-blind",),
    needs=(),
    optional=SERVING_KINDS,
    components=("inference-serving",),
    references=(
        "https://kubernetes.io/docs/tasks/configure-pod-container/configure-liveness-readiness-startup-probes/",
        "https://github.com/vllm-project/vllm/pull/36451",
    ),
    roles=(Role.serving,),
)


def _requests_gpus(container: dict[str, Any]) -> bool:
    resources = mapping(container.get("resources"))
    chosen = mapping(resources.get("limits")) or mapping(resources.get("requests"))
    return any(is_gpu_resource(str(name)) for name in chosen)


# Env variables model servers read their listening port from (vLLM, TGI, Triton wrappers, NIM, Ollama).
PORT_VARIABLES = frozenset(
    {"PORT", "SERVER_PORT", "HTTP_PORT", "NIM_SERVER_PORT", "OLLAMA_HOST", "SERVICE_PORT"}
)


def _takes_requests(container: dict[str, Any]) -> bool:
    """Declares a port, a readiness probe, or a port set only by env: it answers callers, so a hang is
    felt by someone."""
    if container.get("ports") or mapping(container.get("readinessProbe")):
        return True
    return any(name in PORT_VARIABLES for name in container_env(container))


def _probe_gap(container: dict[str, Any]) -> str:
    """'' when the liveness probe can see the engine, else 'missing', 'tcp' or the blind HTTP path."""
    probe = mapping(container.get("livenessProbe"))
    if not probe:
        return "missing"
    if mapping(probe.get("exec")) or mapping(probe.get("grpc")):
        return ""
    http = mapping(probe.get("httpGet"))
    if http:
        path = "/" + str(http.get("path") or "/").strip().strip("/")
        return path if path in _PROCESS_ONLY_PATHS else ""
    return "tcp" if mapping(probe.get("tcpSocket")) else "missing"


def _gap_message(name: str, gap: str) -> Message:
    if gap == "missing":
        return message(
            "GPU 서빙 컨테이너 {name}에 livenessProbe가 없습니다",
            "GPU serving container {name} has no liveness probe",
            name=name,
        )
    if gap == "tcp":
        return message(
            "GPU 서빙 컨테이너 {name}의 livenessProbe는 TCP 연결만 봅니다",
            "GPU serving container {name} has only a TCP liveness probe",
            name=name,
        )
    return message(
        "GPU 서빙 컨테이너 {name}의 livenessProbe는 엔진을 거치지 않는 경로 {path:을} 봅니다",
        "GPU serving container {name} probes {path}, which the API process answers without the engine",
        name=name,
        path=gap,
    )


def run(snapshot: Snapshot) -> Iterator[Finding]:
    selection = role_workloads(CHECK, snapshot, kinds=SERVING_KINDS)
    problems = []
    examined = 0
    for workload in selection.chosen:
        serving = [
            container
            for template in workload.templates
            for container in containers(template.spec, include_init=False)
            if _requests_gpus(container) and _takes_requests(container)
        ]
        if not serving:
            continue
        examined += 1
        for container in serving:
            gap = _probe_gap(container)
            if gap:
                name = str(container.get("name") or "")
                problems.append(workload_failed(CHECK, workload, _gap_message(name, gap), {"liveness": gap}))
                break
    subject = text("요청을 받는 GPU 서빙 워크로드", "GPU serving workloads that take requests")
    yield from workload_verdicts(
        CHECK, snapshot, problems, examined, subject, SERVING_KINDS, selection.undecided
    )
