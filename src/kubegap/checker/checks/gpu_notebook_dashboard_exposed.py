"""GPU notebooks and dashboards reachable without authentication: anyone who reaches them runs code."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import (
    failed,
    not_applicable,
    passed,
    text,
    unknown,
    unread_kinds,
    unread_message,
)
from kubegap.checker.extract import containers, items
from kubegap.checker.extract._fields import annotations_of, dig, integer, mapping, name_of
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import KubeObject, Snapshot
from kubegap.checker.workload import ALL_ROLES, WORKLOAD_KINDS, PodTemplate, Workload, commands_of, workloads
from kubegap.checker.workload.services import (
    INGRESS_KINDS,
    Publication,
    published,
    selected_templates,
    services,
)

_RAY_CLUSTERS = {
    "ray.io/RayCluster": ("spec",),
    "ray.io/RayJob": ("spec", "rayClusterSpec"),
    "ray.io/RayService": ("spec", "rayClusterConfig"),
}
# Ingress annotations that put an authentication step in front of the backend.
_AUTH_ANNOTATIONS = (
    "nginx.ingress.kubernetes.io/auth-url",
    "nginx.ingress.kubernetes.io/auth-type",
    "nginx.ingress.kubernetes.io/auth-signin",
    "alb.ingress.kubernetes.io/auth-type",
    "traefik.ingress.kubernetes.io/router.middlewares",
    "konghq.com/plugins",
    "ingress.kubernetes.io/auth-type",
)
_EMPTY_TOKEN_FLAGS = (
    "--NotebookApp.token",
    "--ServerApp.token",
    "--IdentityProvider.token",
)

CHECK = CheckMeta(
    id="gpu-notebook-dashboard-exposed",
    area="networking",
    severity=Severity.high,
    title=text(
        "GPU 노트북·대시보드의 인증과 노출 범위",
        "Authentication and exposure of GPU notebooks and dashboards",
    ),
    why=text(
        "Jupyter, Ray 대시보드, TensorBoard는 들어온 사람에게 코드 실행이나 데이터를 내줍니다. Ray "
        "대시보드의 작업 제출 API에는 인증이 없고, 토큰을 비운 Jupyter는 누구에게나 셸을 줍니다. ShadowRay "
        "공격에서는 인터넷에 열린 Ray 대시보드의 작업 API로 코드가 실행되어 자격 증명이 털리고 서버가 "
        "원격으로 조종됐습니다.",
        "Jupyter, the Ray dashboard and TensorBoard hand whoever reaches them code execution or data. The "
        "Ray dashboard's job submission API has no authentication, and a Jupyter server with an empty token "
        "gives anyone a shell. In the ShadowRay campaign attackers ran code "
        "through the job API of Ray dashboards open to the internet, stole credentials and took remote "
        "control of the servers.",
    ),
    remediation=text(
        "대시보드와 노트북은 ClusterIP로 두고 kubectl port-forward나 인증 프록시(oauth2-proxy, Ingress의 "
        "인증 설정, Kubeflow·JupyterHub의 인증)를 거쳐서만 여세요. Jupyter에는 토큰이나 비밀번호를 두고, "
        "LoadBalancer가 꼭 필요하면 내부 로드 밸런서와 loadBalancerSourceRanges로 좁히세요.",
        "Keep dashboards and notebooks on ClusterIP and reach them through kubectl port-forward or an "
        "authenticating proxy (oauth2-proxy, the Ingress controller's auth settings, Kubeflow's or "
        "JupyterHub's login). Give Jupyter a token or password, and if a LoadBalancer is unavoidable make it "
        "internal and narrow it with loadBalancerSourceRanges.",
    ),
    decides=text(
        "GPU를 요청하는 워크로드에서 콘솔을 찾습니다: Ray 헤드의 대시보드(8265), Jupyter(8888), "
        "code-server, TensorBoard(6006), MLflow(5000). 그 포트가 외부 LoadBalancer, NodePort, 인증 "
        "어노테이션 없는 Ingress로 공개되거나, KubeRay의 headGroupSpec이 serviceType LoadBalancer·NodePort나 "
        "enableIngress를 쓰면 실패입니다. 토큰을 비운 Jupyter(--NotebookApp.token='' 등)나 --auth none인 "
        "code-server는 공개되지 않았어도 실패로 보되 심각도를 낮춥니다(Kubeflow Notebook은 게이트웨이가 "
        "인증하므로 제외). ClusterIP Service만으로는 공개로 보지 않고, 내부 로드 밸런서도 제외합니다. "
        "Gradio·Streamlit 데모처럼 공개가 목적인 앱은 보지 않습니다.",
        "Finds consoles in workloads that request GPUs: the Ray head's dashboard (8265), Jupyter (8888), "
        "code-server, TensorBoard (6006) and MLflow (5000). Fails when such a port is published through an "
        "external LoadBalancer, a NodePort or an Ingress without auth annotations, or when a KubeRay "
        "headGroupSpec uses serviceType LoadBalancer or NodePort or enableIngress. Jupyter with an empty "
        "token (--NotebookApp.token='' and the like) and code-server with --auth none fail even unpublished, "
        "at a lower severity (Kubeflow Notebooks are left out: their gateway authenticates). A ClusterIP "
        "Service alone is not exposure, nor is an internal load balancer. Apps meant to be public, such as "
        "Gradio or Streamlit demos, are not judged.",
    ),
    incidents=("oligo-2024-03-shadowray-exposed-ray-dashboards",),
    needs=(),
    optional=(*WORKLOAD_KINDS, "Service", "networking.k8s.io/Ingress"),
    components=("training-framework", "inference-serving"),
    references=(
        "https://docs.ray.io/en/latest/ray-security/index.html",
        "https://jupyter-server.readthedocs.io/en/latest/operators/security.html",
        "https://docs.ray.io/en/latest/cluster/kubernetes/user-guides/config.html",
    ),
    roles=ALL_ROLES,
)


@dataclass(frozen=True)
class Console:
    name: str  # Ray dashboard, Jupyter, TensorBoard ...
    port: int
    open: bool  # no authentication of its own (Ray, TensorBoard, Jupyter with an empty token)


def _empty_token(argv_words: list[str]) -> bool:
    for index, word in enumerate(argv_words):
        for flag in _EMPTY_TOKEN_FLAGS:
            if word.startswith(flag + "="):
                return word[len(flag) + 1 :].strip("'\"") == ""
            if word == flag and index + 1 < len(argv_words):
                return argv_words[index + 1].strip("'\"") == ""
    return False


def _consoles(workload: Workload, template: PodTemplate) -> list[Console]:
    found: list[Console] = []
    ray = workload.kind_key in _RAY_CLUSTERS or workload.kind_key.endswith("RayClusterFleet")
    if ray and template.group == "head":
        found.append(Console("Ray dashboard", 8265, True))
    for container in containers(template.spec, include_init=False):
        commands = commands_of(container)
        words = commands.words()
        programs = commands.programs()
        port = commands.flag("--port", "--ServerApp.port", "--NotebookApp.port")
        if any(program.startswith(("jupyter", "start-notebook", "start-singleuser")) for program in programs):
            found.append(Console("Jupyter", integer(port, 8888), _empty_token(words)))
        if "code-server" in programs:
            bind = commands.flag("--bind-addr") or ""
            found.append(
                Console(
                    "code-server", integer(bind.rsplit(":", 1)[-1], 8080), commands.flag("--auth") == "none"
                )
            )
        if "tensorboard" in programs:
            found.append(Console("TensorBoard", integer(port, 6006), True))
        if "mlflow" in programs and ("server" in words or "ui" in words):
            found.append(Console("MLflow", integer(port, 5000), commands.flag("--app-name") != "basic-auth"))
        if "ray" in programs and "--head" in words and not found:
            found.append(Console("Ray dashboard", integer(commands.flag("--dashboard-port"), 8265), True))
        for entry in items(container.get("ports")):
            if str(entry.get("name") or "") == "dashboard" and integer(entry.get("containerPort")) > 0:
                found.append(Console("Ray dashboard", integer(entry.get("containerPort")), True))
    return found


def _gpu(workload: Workload) -> bool:
    return workload.requests_gpus or bool(workload.unrendered_in("resources."))


def _targets(service: KubeObject, template: PodTemplate, port: int) -> bool:
    names = {
        str(entry.get("name"))
        for container in containers(template.spec)
        for entry in items(container.get("ports"))
        if integer(entry.get("containerPort")) == port and entry.get("name")
    }
    for entry in items(dig(service, "spec", "ports")):
        target = entry.get("targetPort", entry.get("port"))
        if integer(target, -1) == port or (isinstance(target, str) and target in names):
            return True
    return False


def _ingress_authenticated(snapshot: Snapshot, name: str) -> bool:
    for key in [kind for kind in INGRESS_KINDS if kind in set(snapshot.kinds())]:
        for ingress in snapshot.of(key):
            if isinstance(ingress, dict) and name_of(ingress) == name:
                annotations = annotations_of(ingress)
                return any(key in annotations for key in _AUTH_ANNOTATIONS)
    return False


def _ray_head_published(workload: Workload) -> str:
    path = _RAY_CLUSTERS.get(workload.kind_key)
    if path is None:
        return ""
    head = mapping(dig(workload.obj, *path, "headGroupSpec"))
    kind = str(head.get("serviceType") or "")
    if kind in ("LoadBalancer", "NodePort"):
        return f"headGroupSpec.serviceType {kind}"
    if head.get("enableIngress") is True:
        return "headGroupSpec.enableIngress"
    return ""


def run(snapshot: Snapshot) -> Iterator[Finding]:
    problems: list[Finding] = []
    examined = 0
    flagged: set[tuple[str, str]] = set()
    gpu_workloads = [workload for workload in workloads(snapshot) if _gpu(workload)]
    published_consoles: dict[tuple[str, str], tuple[Console, str]] = {}
    for service in services(snapshot):
        publication = published(snapshot, service)
        if not publication.kind:
            continue
        if publication.kind == "Ingress" and _ingress_authenticated(snapshot, publication.via):
            continue
        for workload, template in selected_templates(snapshot, service):
            if not _gpu(workload):
                continue
            for console in _consoles(workload, template):
                if console.open and _targets(service, template, console.port):
                    where = _where(publication, name_of(service))
                    published_consoles.setdefault((workload.owner.display(), console.name), (console, where))
    for workload in gpu_workloads:
        consoles = [console for template in workload.templates for console in _consoles(workload, template)]
        if not consoles:
            continue
        examined += 1
        head = _ray_head_published(workload)
        if head and any(console.name == "Ray dashboard" for console in consoles):
            published_consoles.setdefault((workload.owner.display(), "Ray dashboard"), (consoles[0], head))
        for (owner, name), (_console, where) in published_consoles.items():
            if owner != workload.owner.display() or (owner, name) in flagged:
                continue
            flagged.add((owner, name))
            said = message(
                "GPU 워크로드의 {console:가} 인증 없이 밖으로 열려 있습니다({where}). 들어온 누구나 코드를 "
                "실행할 수 있습니다",
                "the {console} of this GPU workload is published without authentication ({where}): anyone "
                "who reaches it can run code",
                console=name,
                where=where,
            )
            problems.append(
                failed(
                    CHECK, workload.owner, said, {**workload.evidence, "console": name, "published": where}
                )
            )
        for console in consoles:
            if (workload.owner.display(), console.name) in flagged or console.name not in (
                "Jupyter",
                "code-server",
            ):
                continue
            if not console.open or workload.kind_key == "kubeflow.org/Notebook":
                continue
            flagged.add((workload.owner.display(), console.name))
            said = message(
                "GPU 워크로드의 {console:가} 토큰·비밀번호 없이 뜹니다. 파드에 닿는 누구나 코드를 실행할 수 "
                "있습니다",
                "the {console} of this GPU workload starts with no token or password: anyone who reaches "
                "the pod can run code",
                console=console.name,
            )
            problems.append(
                failed(
                    CHECK,
                    workload.owner,
                    said,
                    {**workload.evidence, "console": console.name},
                    Severity.medium,
                )
            )
    yield from problems
    if problems:
        return
    missing = unread_kinds(snapshot, ("Service", "networking.k8s.io/Ingress"))
    if missing:
        yield unknown(CHECK, None, unread_message(missing))
    elif examined == 0:
        yield not_applicable(
            CHECK,
            message(
                "이 입력에는 GPU 노트북·대시보드가 없습니다", "no GPU notebooks or dashboards in this input"
            ),
        )
    else:
        yield passed(
            CHECK,
            None,
            message(
                "GPU 노트북·대시보드 {count}개 모두 인증 없이 공개되지 않았습니다",
                "none of the {count} GPU notebooks and dashboards is open without authentication",
                count=examined,
            ),
        )


def _where(publication: Publication, service: str) -> str:
    if publication.kind == "Ingress":
        return f"Ingress {publication.via} -> Service {service}"
    return f"Service {service} type {publication.kind}"
