"""Elastic training that rendezvouses through one unreplicated pod: lose that pod and every worker stops."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import role_workloads, text, workload_failed, workload_verdicts
from kubegap.checker.extract import items
from kubegap.checker.extract._fields import dig, name_of
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.workload import TRAINING, WORKLOAD_KINDS, Workload, is_placeholder
from kubegap.checker.workload.services import selected_templates, service_for_host

CHECK = CheckMeta(
    id="elastic-rendezvous-single-replica",
    area="training-jobs",
    severity=Severity.medium,
    title=text(
        "복제본 하나짜리 랑데부 서버에 기대는 탄력적 학습",
        "Elastic training that rendezvouses through a single unreplicated server",
    ),
    why=text(
        "torchrun의 탄력적 학습은 노드가 빠지고 들어올 때마다 랑데부 서버(etcd나 c10d 저장소)에서 다시 "
        "모입니다. 그 서버가 복제본 하나에 영구 볼륨도 없는 파드라면, 그 파드 하나가 재시작되거나 축출되는 "
        "순간 랑데부 상태가 사라져 모든 워커가 다시 모이지 못하고 작업 전체가 멈춥니다. 노드 장애를 견디려고 "
        "고른 탄력성이 오히려 새 단일 장애점을 만듭니다. DLRover 팀은 c10d 랑데부 상태를 가진 노드 하나를 "
        "잃자 쿠버네티스 위 LLM 학습의 모든 에이전트가 "
        "실패하는 것을 보고했습니다.",
        "Elastic torchrun training re-forms through a rendezvous server (etcd or a c10d store) every time a "
        "node leaves or joins. When that server is one pod with no replica and no persistent volume, a "
        "single restart or eviction of it loses the rendezvous state, the workers cannot re-form and the "
        "whole run stops: the elasticity chosen to survive node failures adds a new single point of failure. "
        "The DLRover team reported that losing the one node holding the c10d rendezvous state failed "
        "every agent of their LLM training on Kubernetes.",
    ),
    remediation=text(
        "랑데부용 etcd는 복제본 3개 이상의 StatefulSet과 영구 볼륨으로 두거나 관리형 etcd를 쓰세요. c10d "
        "저장소는 어디에 두든 그 호스트 하나에 상태가 있으므로, 그 파드를 잃었을 때 작업 전체가 멈춰 있지 "
        "않고 다시 시작되도록 작업의 재시작 정책(JobSet의 failurePolicy, --max-restarts)을 함께 두세요.",
        "Run the rendezvous etcd as a StatefulSet of three or more replicas with persistent volumes, or use "
        "a managed etcd. A c10d store keeps its state on its one host wherever it runs, so pair it with a "
        "restart policy for the whole job (a JobSet failurePolicy, --max-restarts) so that losing that pod "
        "restarts the run instead of leaving it stuck.",
    ),
    decides=text(
        "학습 워크로드의 랑데부 엔드포인트(--rdzv-endpoint, --rdzv_endpoint, PET_RDZV_ENDPOINT, "
        "PyTorchJob의 elasticPolicy.rdzvHost)를 입력 안의 Service로 풀고, 그 Service가 고르는 파드가 학습 "
        "작업 밖의 워크로드 하나뿐이며 파드 수가 1이고 영구 볼륨(PVC, volumeClaimTemplates)이 없으면 "
        "실패입니다. 엔드포인트가 변수이거나 입력에 없는 주소면 판단하지 않습니다.",
        "Resolves a training workload's rendezvous endpoint (--rdzv-endpoint, --rdzv_endpoint, "
        "PET_RDZV_ENDPOINT, a PyTorchJob's elasticPolicy.rdzvHost) to a Service in the input, and fails when "
        "that Service selects only one workload outside the training job, with a single pod and no "
        "persistent volume (PVC or volumeClaimTemplates). An endpoint held in a variable or pointing outside "
        "the input is not judged.",
    ),
    incidents=("dlrover-2023-06-torchelastic-rendezvous-host-single-point",),
    needs=(),
    optional=(*WORKLOAD_KINDS, "Service"),
    components=("training-framework",),
    references=(
        "https://pytorch.org/docs/stable/elastic/run.html",
        "https://www.kubeflow.org/docs/components/trainer/legacy-v1/user-guides/pytorch/",
    ),
    roles=TRAINING,
)


def _endpoint(workload: Workload) -> tuple[str, str]:
    """(endpoint, backend) the workload rendezvouses through; ('', '') when it names none."""
    for commands in workload.commands:
        endpoint = commands.flag("--rdzv-endpoint", "--rdzv_endpoint")
        if endpoint:
            return endpoint, commands.flag("--rdzv-backend", "--rdzv_backend") or "static"
    env = workload.env()
    if env.get("PET_RDZV_ENDPOINT"):
        return env["PET_RDZV_ENDPOINT"], env.get("PET_RDZV_BACKEND", "")
    policy = dig(workload.obj, "spec", "elasticPolicy")
    host = dig(policy, "rdzvHost")
    if isinstance(host, str) and host:
        return host, str(dig(policy, "rdzvBackend") or "")
    return "", ""


def _persistent(workload: Workload) -> bool:
    if items(dig(workload.obj, "spec", "volumeClaimTemplates")):
        return True
    return any(
        volume.get("persistentVolumeClaim") or volume.get("ephemeral")
        for template in workload.templates
        for volume in items(template.spec.get("volumes"))
    )


def run(snapshot: Snapshot) -> Iterator[Finding]:
    selection = role_workloads(CHECK, snapshot, gpus=False)
    problems = []
    examined = 0
    for workload in selection.chosen:
        endpoint, backend = _endpoint(workload)
        if not endpoint or is_placeholder(endpoint) or "$(" in endpoint or backend == "static":
            continue
        service = service_for_host(snapshot, endpoint, workload.owner.namespace)
        if service is None:
            continue
        servers = {
            server.owner: server
            for server, _ in selected_templates(snapshot, service)
            if server.owner != workload.owner
        }
        if len(servers) != 1:
            continue
        examined += 1
        server = next(iter(servers.values()))
        if server.pods != 1 or _persistent(server):
            continue
        said = message(
            "랑데부 엔드포인트 {endpoint}({backend})가 파드 하나에 영구 볼륨도 없는 {server}에 있어, 그 "
            "파드를 잃으면 모든 워커가 다시 모이지 못합니다",
            "rendezvous endpoint {endpoint} ({backend}) is served by {server}, one pod with no persistent "
            "volume: losing that pod stops every worker",
            endpoint=endpoint,
            backend=backend or "c10d",
            server=server.owner.display(),
        )
        evidence: dict[str, object] = {
            "endpoint": endpoint,
            "backend": backend,
            "server": server.owner.display(),
        }
        evidence["service"] = name_of(service)
        problems.append(workload_failed(CHECK, workload, said, evidence))
    subject = text(
        "외부 랑데부 서버를 쓰는 학습 워크로드", "training workloads with a separate rendezvous server"
    )
    yield from workload_verdicts(
        CHECK, snapshot, problems, examined, subject, (*WORKLOAD_KINDS, "Service"), selection.undecided
    )
