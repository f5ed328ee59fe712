"""A hung inference engine keeps its port open: only a liveness probe that reaches the engine restarts it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kubegap.bilingual import Message, message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import (
    role_workloads,
    text,
    unknown,
    workload_failed,
    workload_verdicts,
)
from kubegap.checker.extract import containers, dig, integer, items, mapping, selector_matches
from kubegap.checker.extract._fields import namespace_of
from kubegap.checker.extract.podspec import container_requests_gpu
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import KubeObject, Snapshot
from kubegap.checker.workload import WORKLOAD_KINDS, PodTemplate, Role, Workload
from kubegap.checker.workload.operators import LIVENESS, Managed
from kubegap.checker.workload.serving import (
    GPU_ENGINES,
    blind_paths,
    engine_of,
    exec_urls,
    listening_ports,
    normal_path,
    probe_port,
    ray_based,
    runs_on_cpu,
    takes_requests,
    worker_group,
)

SERVICE = "Service"

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
        "GPU 서빙 컨테이너에 엔진까지 닿는 경로(vLLM·TGI·TEI·TensorRT-LLM의 `/health`, SGLang의 "
        "`/health_generate`, Triton의 `/v2/health/live`, NIM의 `/v1/health/live`, 또는 짧은 생성 요청을 "
        "보내는 `exec` 프로브)로 livenessProbe를 두세요. 모델 "
        "로딩이 길면 startupProbe로 시작 시간을 따로 주고, failureThreshold와 timeoutSeconds는 바쁜 엔진이 "
        "재시작되지 않을 만큼 넉넉히 잡으세요.",
        "Give GPU serving containers a liveness probe on a path that reaches the engine (/health on vLLM, "
        "TGI, TEI and TensorRT-LLM, /health_generate on SGLang, /v2/health/live on Triton, /v1/health/live "
        "on NIM, or an exec probe that sends a short generation). Cover "
        "long model loads with a startupProbe, and set failureThreshold and timeoutSeconds loose enough that "
        "a busy engine is not restarted.",
    ),
    decides=text(
        "역할이 서빙인 모든 GPU 워크로드(Deployment, StatefulSet, LeaderWorkerSet, StormService, "
        "RayClusterFleet, NIMService, LLMInferenceService, KServe 런타임 등)에서 요청을 받는 GPU 컨테이너를 "
        "봅니다. 요청을 받는다는 것은 containerPort, --port 같은 플래그, PORT 같은 env, readinessProbe, "
        "알려진 엔진(vLLM, SGLang, TGI, Triton, TensorRT-LLM, NIM, Ollama, llama.cpp, TEI)의 실행, 또는 "
        "파드를 가리키는 Service의 targetPort로 압니다(리더를 따르는 워커와 Ray 워커는 뺍니다). "
        "livenessProbe가 없거나, TCP뿐이거나, 사이드카의 포트를 보거나, "
        "모델 목록·버전·메트릭·raylet 상태처럼 "
        "API 프로세스가 혼자 답하는 경로를 보면 실패입니다. 오퍼레이터가 넣는 프로브(NIM의 /v1/health/live, "
        "KServe LLM 템플릿의 /health, Dynamo의 /live, KubeRay의 raylet 점검)는 넣어진 대로 판단하고, Ray "
        "Serve처럼 오퍼레이터가 엔진을 직접 점검하면 통과, KServe 런타임처럼 다른 객체에 있으면 알 수 "
        "없음입니다. GPU를 다른 파일이 더하는 vLLM·SGLang·TGI 템플릿(런타임, kustomize 베이스)도 보되, CPU "
        "빌드(CPU 이미지, --device cpu)는 GPU 서버가 아니므로 보지 않습니다.",
        "Looks at the GPU containers that take requests in every GPU workload whose role is serving "
        "(Deployment, StatefulSet, LeaderWorkerSet, StormService, RayClusterFleet, NIMService, "
        "LLMInferenceService, KServe runtimes and more). Taking requests means a containerPort, a flag such "
        "as "
        "--port, a PORT-like env variable, a readiness probe, running a known engine (vLLM, SGLang, TGI, "
        "Triton, TensorRT-LLM, NIM, Ollama, llama.cpp, TEI), or a Service in the input targeting a port of "
        "the "
        "pod; workers that join a leader and Ray workers are left out. It fails when the liveness probe is "
        "missing, TCP only, aimed at a sidecar's port, or on a path the API process answers alone (model "
        "list, version, metrics, raylet health). Probes an operator adds (NIM's /v1/health/live, KServe's "
        "LLM template /health, Dynamo's /live, KubeRay's raylet check) are judged as added; where the "
        "operator health-checks the engine itself (Ray Serve) it passes, and where the probe lives in "
        "another "
        "object (a KServe runtime) it is unknown. vLLM, SGLang and TGI templates whose GPUs another file "
        "adds (runtimes, kustomize bases) are judged too, unless they are CPU builds (a CPU image, "
        "--device cpu).",
    ),
    incidents=("fastllm-proxy-2026-09-vllm-engine-deadlock-probe-blind",),
    needs=(),
    optional=(*WORKLOAD_KINDS, SERVICE),
    components=("inference-serving",),
    references=(
        "https://kubernetes.io/docs/tasks/configure-pod-container/configure-liveness-readiness-startup-probes/",
        "https://github.com/vllm-project/vllm/pull/36451",
    ),
    roles=(Role.serving,),
)


def _service_ports(services: list[KubeObject], workload: Workload, template: PodTemplate) -> set[int]:
    """Numeric target ports of Services in the input that select this template's pods."""
    labels = template.labels or dict(mapping(dig(workload.obj, "metadata", "labels")))
    ports: set[int] = set()
    for service in services:
        selector = mapping(dig(service, "spec", "selector"))
        same = namespace_of(service) in ("", workload.owner.namespace) or not workload.owner.namespace
        if not selector or not same or not selector_matches(labels, {"matchLabels": selector}):
            continue
        for port in items(dig(service, "spec", "ports")):
            target = port.get("targetPort", port.get("port"))
            if isinstance(target, int) or str(target).isdigit():
                ports.add(integer(target, 0))
    return ports


def _serving_containers(
    workload: Workload, template: PodTemplate, services: list[KubeObject]
) -> list[dict[str, Any]]:
    """The containers of one template that run the engine and answer requests."""
    listed = containers(template.spec, include_init=False)
    worker = worker_group(workload, template)
    if workload.requests_gpus:
        engines = [c for c in listed if container_requests_gpu(c)]
    else:  # a template for GPU servers whose GPUs another object adds (a runtime, a kustomize base)
        engines = [
            c
            for c in listed
            if (found := engine_of(c)) is not None and found.name in GPU_ENGINES and not runs_on_cpu(c)
        ]
    if workload.managed_for(LIVENESS, template.group) is not None and not ray_based(workload):
        return engines[:1]  # a serving operator builds this container into its model server
    serving = [c for c in engines if takes_requests(c, worker, by_image=not ray_based(workload))]
    if serving or worker:
        return serving
    # Only a Service names the port: the engine serves it unless a sidecar declares that port.
    targeted = _service_ports(services, workload, template)
    others = {port for c in listed if c not in engines for port in listening_ports(c)}
    return engines if targeted - others else []


def _probe_gap(container: dict[str, Any], spec: dict[str, Any]) -> str:
    """'' when the liveness probe can see the engine, else 'missing', 'tcp', 'sidecar' or the blind path."""
    probe = mapping(container.get("livenessProbe"))
    if not probe:
        return "missing"
    if mapping(probe.get("exec")):
        blind = blind_paths(exec_urls(probe))
        return blind[0] if blind and len(blind) == len(exec_urls(probe)) else ""
    if mapping(probe.get("grpc")):
        return ""
    port = probe_port(probe, spec)
    own = listening_ports(container)
    elsewhere = {
        found
        for other in containers(spec, include_init=False)
        if other is not container
        for found in listening_ports(other)
    }
    if port and port in elsewhere and port not in own:
        return "sidecar"
    http = mapping(probe.get("httpGet"))
    if http:
        path = normal_path(http.get("path"))
        return path if blind_paths([path]) else ""
    return "tcp" if mapping(probe.get("tcpSocket")) else "missing"


def _gap_message(gap: str, filled: Managed | None) -> Message:
    if gap == "missing":
        return message(
            "GPU 서빙 컨테이너에 livenessProbe가 없습니다",
            "a GPU serving container has no liveness probe",
        )
    if gap == "tcp":
        return message(
            "GPU 서빙 컨테이너의 livenessProbe는 TCP 연결만 봅니다",
            "a GPU serving container has only a TCP liveness probe",
        )
    if gap == "sidecar":
        return message(
            "GPU 서빙 컨테이너의 livenessProbe는 엔진이 아니라 사이드카의 포트를 봅니다",
            "the liveness probe of a GPU serving container targets a sidecar's port, not the engine",
        )
    if filled is not None and filled.known:
        return message(
            "GPU 서빙 컨테이너에는 {operator:이} 넣는 livenessProbe뿐인데, 그 경로 {path:은} 엔진을 "
            "거치지 않습니다",
            "a GPU serving container has only the liveness probe {operator} adds, and {path} does not "
            "reach the engine",
            operator=filled.operator,
            path=gap,
        )
    return message(
        "GPU 서빙 컨테이너의 livenessProbe는 엔진을 거치지 않는 경로 {path:을} 봅니다",
        "a GPU serving container probes {path}, which the API process answers without the engine",
        path=gap,
    )


def _judge(workload: Workload, services: list[KubeObject]) -> tuple[bool, Finding | None]:
    """(examined, the finding when its liveness is blind or cannot be seen)."""
    examined = False
    hidden: Managed | None = None
    for template in workload.templates:
        for container in _serving_containers(workload, template, services):
            examined = True
            filled = workload.managed_for(LIVENESS, template.group)
            if filled is not None and not filled.known:
                hidden = hidden or filled
                continue
            if filled is not None and filled.restarts_engine:
                continue
            gap = _probe_gap(container, template.spec)
            if gap:
                evidence: dict[str, object] = {
                    "container": str(container.get("name") or "?"),
                    "liveness": gap,
                }
                if template.group:
                    evidence["group"] = template.group
                if filled is not None:
                    evidence |= filled.evidence
                return True, workload_failed(CHECK, workload, _gap_message(gap, filled), evidence)
    if hidden is not None:
        said = message(
            "livenessProbe를 이 입력에서 볼 수 없습니다: {how}",
            "the liveness probe is not in this input: {how_en}",
            how=hidden.ko,
            how_en=hidden.what,
        )
        return examined, unknown(CHECK, workload.owner, said, {**workload.evidence, **hidden.evidence})
    return examined, None


def run(snapshot: Snapshot) -> Iterator[Finding]:
    selection = role_workloads(CHECK, snapshot, gpus=False)
    services = snapshot.of(SERVICE)
    problems = []
    examined = 0
    for workload in selection.chosen:
        if workload.fragment:
            continue
        judged, finding = _judge(workload, services)
        examined += judged
        if finding is not None:
            problems.append(finding)
    undecided = [finding for finding in selection.undecided]
    subject = text("요청을 받는 GPU 서빙 워크로드", "GPU serving workloads that take requests")
    yield from workload_verdicts(CHECK, snapshot, problems, examined, subject, WORKLOAD_KINDS, undecided)
