"""Prometheus memory grows with what it watches; unsized, it outgrows its node and monitoring goes first."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import failed, text, workload_verdicts
from kubegap.checker.extract import containers, dig, items, mapping, quantity, ref
from kubegap.checker.extract._fields import controller_owner
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import KubeObject, Snapshot

PROMETHEUS_CR = "monitoring.coreos.com/Prometheus"
_SERVER_KINDS = ("apps/StatefulSet", "apps/Deployment")

CHECK = CheckMeta(
    id="prometheus-memory-unsized",
    area="control-plane",
    severity=Severity.medium,
    title=text("Prometheus 메모리 크기 설정", "Prometheus memory sizing"),
    why=text(
        "Prometheus 서버의 메모리는 네임스페이스, 대상, 규칙이 늘수록 조용히 커집니다. 요청량도 한도도 "
        "없으면 스케줄러는 그 크기를 모른 채 아무 노드에나 올리고, 메모리가 노드를 넘는 날 OOM으로 죽으며 "
        "노드까지 흔듭니다. 영국 법무부 Cloud Platform에서는 Prometheus가 OOMKilled로 거듭 죽고 노드가 "
        "NotReady가 됐으며, 더 큰 인스턴스와 110Gi 메모리 한도로 바꾸고서야 모니터링이 돌아왔습니다. GPU "
        "클러스터에서는 그동안 GPU 오류와 사용률 지표도 함께 사라집니다.",
        "A Prometheus server's memory grows quietly with namespaces, targets and rules. With neither a "
        "request nor a limit the scheduler places it blind, and the day its memory passes the node's it is "
        "OOM-killed and shakes the node too. At the UK Ministry of Justice Cloud Platform, Prometheus was "
        "OOM-killed repeatedly and its node went NotReady; monitoring came back only after a larger "
        "instance and a 110Gi memory limit. On a GPU cluster, GPU error and utilisation metrics vanish "
        "meanwhile as well.",
    ),
    remediation=text(
        "Prometheus 컨테이너(Prometheus CR이면 spec.resources)에 실제 사용량에 맞춘 메모리 requests와 "
        "limits를 두고, 네임스페이스나 규칙이 늘 때마다 다시 보세요. 메모리가 노드 크기에 가까우면 더 큰 "
        "전용 노드로 옮기거나 샤딩하세요. OOMKilled 기록이 있으면 한도부터 올리세요.",
        "Give the Prometheus container (spec.resources on a Prometheus CR) memory requests and limits sized "
        "to real use, and revisit them whenever namespaces or rules grow. When its memory nears the node's "
        "size, move it to a larger dedicated node or shard it. After an OOMKilled restart, raise the limit "
        "first.",
    ),
    decides=text(
        "prometheus-operator의 Prometheus CR이나, 이미지가 prometheus인 컨테이너를 가진 StatefulSet·"
        "Deployment에 메모리 requests도 limits도 없으면 실패입니다. operator가 만든 StatefulSet은 CR로 "
        "판단합니다. 라이브 상태에서 Prometheus 컨테이너의 마지막 종료 사유가 OOMKilled이면 심각도를 높여 "
        "실패입니다.",
        "Fails a prometheus-operator Prometheus CR, or a StatefulSet or Deployment with a container whose "
        "image is prometheus, that sets neither a memory request nor a memory limit; StatefulSets the "
        "operator generates are judged through their CR. On live state a Prometheus container whose last "
        "termination was OOMKilled fails at higher severity.",
    ),
    incidents=("moj-2023-07-25-prometheus-oom-outgrew-node",),
    needs=(),
    optional=(PROMETHEUS_CR, *_SERVER_KINDS, "Pod"),
    components=("monitoring",),
    references=(
        "https://prometheus-operator.dev/docs/api-reference/api/#monitoring.coreos.com/v1.PrometheusSpec",
        "https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/",
    ),
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    problems, examined = [], 0
    for prometheus in snapshot.of(PROMETHEUS_CR):
        if not isinstance(prometheus, dict):
            continue
        examined += 1
        if not _sized(mapping(dig(prometheus, "spec", "resources"))):
            problems.append(_unsized(prometheus))
    for key in _SERVER_KINDS:
        for server in snapshot.of(key):
            if not isinstance(server, dict) or controller_owner(server) is not None:
                continue
            found = _prometheus_containers(mapping(dig(server, "spec", "template", "spec")))
            if not found:
                continue
            examined += 1
            if not all(_sized(mapping(container.get("resources"))) for container in found):
                problems.append(_unsized(server))
    for pod in snapshot.of("Pod"):
        if isinstance(pod, dict) and (killed := _oom_killed(pod)):
            problems.append(
                failed(
                    CHECK,
                    ref(pod),
                    message(
                        "Prometheus 컨테이너 {name}의 마지막 종료 사유가 OOMKilled입니다",
                        "Prometheus container {name} last terminated OOMKilled",
                        name=killed,
                    ),
                    {"container": killed, "reason": "OOMKilled"},
                    severity=Severity.high,
                )
            )
    yield from workload_verdicts(
        CHECK,
        snapshot,
        problems,
        examined,
        text("Prometheus 서버", "Prometheus servers"),
        kinds=(PROMETHEUS_CR, *_SERVER_KINDS),
    )


def _unsized(obj: KubeObject) -> Finding:
    return failed(
        CHECK,
        ref(obj),
        message(
            "Prometheus에 메모리 요청량도 한도도 없습니다",
            "Prometheus has neither a memory request nor a memory limit",
        ),
        {"memory": "unset"},
    )


def _sized(resources: dict[str, Any]) -> bool:
    """A memory request or limit is set: someone decided how much memory Prometheus gets."""
    return any(
        quantity(mapping(resources.get(section)).get("memory")) is not None
        for section in ("requests", "limits")
    )


def _is_prometheus_image(image: object) -> bool:
    """prom/prometheus, quay.io/prometheus/prometheus and mirrors; never the operator or exporters."""
    repository = str(image or "").lower().rsplit("@", 1)[0]
    name = repository.rsplit("/", 1)[-1].split(":", 1)[0]
    return name == "prometheus"


def _prometheus_containers(spec: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in containers(spec, include_init=False) if _is_prometheus_image(c.get("image"))]


def _oom_killed(pod: KubeObject) -> str:
    """Name of a Prometheus container of the pod whose last termination was OOMKilled, else ''."""
    images = {
        str(container.get("name")): container.get("image")
        for container in containers(mapping(pod.get("spec")), include_init=False)
    }
    for status in items(dig(pod, "status", "containerStatuses")):
        name = str(status.get("name"))
        if not _is_prometheus_image(status.get("image") or images.get(name)):
            continue
        if dig(status, "lastState", "terminated", "reason") == "OOMKilled":
            return name
    return ""
