"""A Service in front of a GPU model server whose selector also picks workers that do not serve its port."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import failed, not_applicable, passed, sample, text, unknown
from kubegap.checker.extract import containers, items
from kubegap.checker.extract._fields import dig, integer, mapping, name_of, ref
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import KubeObject, Snapshot
from kubegap.checker.workload import WORKLOAD_KINDS, PodTemplate, Role, Workload, commands_of
from kubegap.checker.workload.services import selected_templates, services
from kubegap.checker.workload.serving import PORT_FLAGS, engine_of, listening_ports, probe_port, worker_group
from kubegap.checker.workload.unrendered import is_placeholder

CHECK = CheckMeta(
    id="service-selects-non-serving-pods",
    area="networking",
    severity=Severity.medium,
    title=text(
        "GPU 모델 서버 앞 Service가 고르는 파드",
        "Pods selected by Services in front of GPU model servers",
    ),
    why=text(
        "여러 노드에 걸친 추론에서는 API 서버를 띄우는 파드(헤드, 리더)와 계산만 하는 워커가 모델 이름 같은 "
        "레이블을 함께 다는 일이 흔합니다. Service가 그 레이블로만 고르면 워커도 엔드포인트가 되고, 워커는 "
        "그 포트를 열지 않으므로 요청 일부가 연결 거부로 실패합니다. AIBrix에서는 파드 그룹의 모든 파드가 "
        "모델 레이블을 달아 API 서버가 없는 워커로 요청이 갔고, 라우터가 워커 파드를 빼도록 고쳐야 했습니다.",
        "In multi-node inference the pod that runs the API server (head, leader) and the workers that only "
        "compute often share a label such as the model name. A Service that selects by that label alone "
        "makes the workers endpoints too; they do not open the port, so part of the requests fail with "
        "connection refused. In AIBrix every pod of a pod group carried the model label, requests went to "
        "workers with no API server, and the router had to be changed to leave worker pods out.",
    ),
    remediation=text(
        "Service 선택자에 서빙하는 파드만 가진 레이블을 더하세요(KubeRay는 ray.io/node-type: head, "
        'LeaderWorkerSet은 leaderworkerset.sigs.k8s.io/worker-index: "0" 또는 리더 템플릿의 레이블). '
        "targetPort를 서빙 컨테이너에만 있는 포트 이름으로 적어도 워커가 엔드포인트에서 빠집니다.",
        "Add a label only the serving pods carry to the Service's selector (ray.io/node-type: head for "
        'KubeRay, leaderworkerset.sigs.k8s.io/worker-index: "0" or a leader-template label for '
        "LeaderWorkerSet). A targetPort given as a port name that only the serving container declares also "
        "keeps workers out of the endpoints.",
    ),
    decides=text(
        "선택자가 있는 Service마다 선택자에 걸리는 파드 템플릿(템플릿 레이블과 오퍼레이터가 붙이는 레이블)을 "
        "모읍니다. 그중 GPU 서빙 워크로드의 템플릿이 숫자 targetPort를 containerPort·포트 플래그·포트 환경 "
        "변수로 열고 있을 때, 같은 Service가 워커 템플릿(Ray 워커 그룹, 리더 옆 워커, -worker 그룹)도 "
        "고르는데 그 워커의 컨테이너가 그 포트를 열지 않고, 모델 서버를 띄우지 않고, 그 포트를 보는 준비 "
        "상태 프로브도 없으면 실패입니다. 워커가 아닌 템플릿이 포트를 밝히지 않으면 unknown, 이름으로 적은 "
        "targetPort는 그 이름의 포트가 없는 파드를 쿠버네티스가 빼므로 통과입니다.",
        "For each Service with a selector, collects the pod templates it matches (template labels plus the "
        "labels operators add). When a GPU serving template among them opens a numeric targetPort (a "
        "containerPort, a port flag or a port variable) and the same Service also matches a worker template "
        "(a Ray worker group, workers beside a leader, a -worker group) whose containers neither open that "
        "port nor run a model server nor have a readiness probe on it, the check fails. A non-worker "
        "template that does not say its ports gives unknown; a named targetPort passes, because Kubernetes "
        "leaves out pods that lack a port of that name.",
    ),
    incidents=("aibrix-2026-04-pod-group-workers-receive-model-traffic",),
    needs=(),
    optional=("Service", *WORKLOAD_KINDS),
    components=("inference-serving", "load-balancer"),
    references=(
        "https://kubernetes.io/docs/concepts/services-networking/service/#defining-a-service",
        "https://docs.ray.io/en/latest/cluster/kubernetes/user-guides/config.html",
    ),
    roles=(Role.serving,),
)


def _target_ports(service: KubeObject) -> tuple[list[tuple[int, str]], list[str]]:
    """(numeric target port, the port's name) of each Service port, and the targets given by name
    (templated values are left out)."""
    numbers: list[tuple[int, str]] = []
    names: list[str] = []
    for port in items(dig(service, "spec", "ports")):
        target = port.get("targetPort", port.get("port"))
        if isinstance(target, str) and is_placeholder(target):
            continue
        if isinstance(target, str) and not target.isdigit():
            names.append(target)  # endpoints hold only pods that declare a port of this name
            continue
        number = integer(target, 0)
        if number:
            numbers.append((number, str(port.get("name") or number)))
    return numbers, names


def _ports(container: dict[str, Any]) -> set[int]:
    """Every port the container says it opens: a script may start two programs (`ray start --port=6379;
    vllm serve --port 8080`), so each program's port flag counts, not only the first."""
    ports = listening_ports(container)
    for argv in commands_of(container).argvs:
        for index, word in enumerate(argv):
            name, equals, value = word.partition("=")
            if name not in PORT_FLAGS:
                continue
            if not equals:
                value = argv[index + 1] if index + 1 < len(argv) else ""
            ports.add(integer(value, 0))
    ports.discard(0)
    return ports


def _opens(spec: dict[str, Any], port: int) -> bool:
    return any(port in _ports(container) for container in containers(spec, include_init=False))


def _declares(spec: dict[str, Any], name: str) -> bool:
    return any(
        port.get("name") == name
        for container in containers(spec, include_init=False)
        for port in items(container.get("ports"))
    )


def _serves(workload: Workload, template: PodTemplate, port: int) -> bool:
    """A GPU serving template whose containers open the port."""
    return workload.role is Role.serving and template.gpus > 0 and _opens(template.spec, port)


def _clearly_idle(workload: Workload, template: PodTemplate, port: int) -> bool:
    """A worker template that does not open the port, runs no model server and has no readiness probe on
    it (a probe on the port keeps the pod out of the endpoints)."""
    if not worker_group(workload, template) or _opens(template.spec, port):
        return False
    if _ray_serve(workload):
        return False  # Ray Serve starts an HTTP proxy on worker nodes too
    for container in containers(template.spec, include_init=False):
        if engine_of(container, by_image=False) is not None:
            return False
        probe = mapping(container.get("readinessProbe"))
        if probe and probe_port(probe, template.spec) == port:
            return False  # never ready, so never an endpoint
    return True


def _ray_serve(workload: Workload) -> bool:
    """A RayService, or a Ray cluster whose containers start Ray Serve (`serve run`, `serve deploy`)."""
    if workload.kind_key == "ray.io/RayService" or "serveConfigV2" in str(workload.obj.get("spec", "")):
        return True
    return any("serve" in commands.programs() for commands in workload.commands)


def _label(workload: Workload, template: PodTemplate) -> str:
    return f"{workload.owner.display()} ({template.group})" if template.group else workload.owner.display()


def run(snapshot: Snapshot) -> Iterator[Finding]:
    examined = failures = 0
    undecided: list[str] = []
    for service in services(snapshot):
        matched = selected_templates(snapshot, service)
        if len(matched) < 2:
            continue
        refused: list[str] = []
        serving_labels: set[str] = set()
        idle_labels: set[str] = set()
        numbers, names = _target_ports(service)
        examined += sum(
            any(w.role is Role.serving and t.gpus > 0 and _declares(t.spec, name) for w, t in matched)
            for name in names
        )
        for port, port_name in numbers:
            serving = [(w, t) for w, t in matched if _serves(w, t, port)]
            if not serving:
                continue
            examined += 1
            others = [(w, t) for w, t in matched if not _opens(t.spec, port)]
            idle = [_label(w, t) for w, t in others if _clearly_idle(w, t, port)]
            unclear = sorted({_label(w, t) for w, t in others if not _clearly_idle(w, t, port)})
            if idle:
                refused.append(f"{port} ({port_name})" if port_name != str(port) else str(port))
                serving_labels |= {_label(w, t) for w, t in serving}
                idle_labels |= set(idle)
            elif unclear:
                undecided.append(f"{name_of(service)}:{port} ({', '.join(unclear)})")
        if refused:
            failures += 1
            yield failed(
                CHECK,
                ref(service),
                message(
                    "Service {name:이} 포트 {ports:을} GPU 모델 서버 {serving:에} 보내는데, 같은 "
                    "선택자가 그 포트를 열지 않는 워커 파드 {idle:도} 고릅니다. 워커로 간 요청은 연결 "
                    "거부로 실패합니다",
                    "Service {name} sends port {ports} to the GPU model server {serving}, but its selector "
                    "also picks worker pods {idle} that do not open it; requests sent to them are refused",
                    name=name_of(service),
                    ports=", ".join(refused),
                    serving=", ".join(sorted(serving_labels)),
                    idle=", ".join(sorted(idle_labels)),
                ),
                {
                    "selector": dict(mapping(dig(service, "spec", "selector"))),
                    "ports": refused,
                    "serving_templates": sorted(serving_labels),
                    "non_serving_templates": sorted(idle_labels),
                },
            )
    if undecided:
        said = message(
            "Service가 GPU 모델 서버와 함께 포트를 밝히지 않은 파드도 고릅니다. 그 파드가 포트를 "
            "여는지 알 수 없습니다: {services}",
            "Services select GPU model servers together with pods that do not declare the port, so "
            "whether those pods serve it is unknown: {services}",
            services="; ".join(sample(undecided)),
        )
        yield unknown(CHECK, None, said)
    if examined == 0:
        said = message(
            "여러 파드 템플릿을 고르는 GPU 모델 서버 앞 Service가 없습니다",
            "no Service in front of a GPU model server selects more than one pod template",
        )
        yield not_applicable(CHECK, said)
    elif not undecided and not failures:
        said = message(
            "GPU 모델 서버 앞 Service 포트 {count}개가 고르는 파드는 모두 그 포트를 엽니다",
            "every pod template behind {count} Service ports in front of GPU model servers opens the port",
            count=examined,
        )
        yield passed(CHECK, None, said)
