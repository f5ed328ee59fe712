"""Without waitForPodsReady, Kueue can admit two gang jobs that each hold half the GPUs and wait forever."""

from __future__ import annotations

from collections.abc import Iterator

import yaml

from kubegap.bilingual import Message, message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import crd_state, failed, not_applicable, passed, text, unknown
from kubegap.checker.extract import mapping, ref
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import KubeObject, Snapshot

CONFIG_KEY = "controller_manager_config.yaml"
QUEUE_KINDS = ("kueue.x-k8s.io/ClusterQueue", "kueue.x-k8s.io/LocalQueue")

CHECK = CheckMeta(
    id="kueue-wait-for-pods-ready",
    area="training-jobs",
    severity=Severity.medium,
    title=text("Kueue의 waitForPodsReady", "Kueue waitForPodsReady"),
    why=text(
        "waitForPodsReady 없이 Kueue는 작업을 승인한 뒤 파드가 실제로 다 떴는지 보지 않습니다. 여러 노드에 "
        "걸친 작업 둘이 GPU를 반씩 차지하면 서로를 기다리며 멈추고, 파드 일부가 끝내 뜨지 못한 작업은 GPU "
        "할당량을 붙든 채 아무 진행도 하지 않습니다. 죽은 작업이 H100 128장을 9시간 붙들었던 Goodfire "
        "사례와 같은 낭비입니다.",
        "Without waitForPodsReady, Kueue admits a job and never checks that its pods actually started. Two "
        "multi-node jobs that each get half the GPUs wait on each other forever, and a job whose pods "
        "never all start holds its GPU quota while making no progress: the same waste as Goodfire's dead "
        "jobs that held 128 H100s for 9 hours.",
    ),
    remediation=text(
        "Kueue Configuration에 waitForPodsReady.enable: true와 timeout(예: 10m), requeuingStrategy를 두세요.",
        "Set waitForPodsReady.enable: true with a timeout (e.g. 10m) and a requeuingStrategy in the Kueue "
        "Configuration.",
    ),
    decides=text(
        "Kueue 설정 ConfigMap(controller_manager_config.yaml)을 읽어 waitForPodsReady.enable이 true가 "
        "아니면 실패입니다. 큐는 있는데 설정을 볼 수 없으면 알 수 없음입니다.",
        "Reads the Kueue config ConfigMap (controller_manager_config.yaml); fails unless "
        "waitForPodsReady.enable is true. With queues present but the config not visible, the result is "
        "unknown.",
    ),
    incidents=(
        "goodfire-2026-zombie-slurm-jobs-128-h100",
        "bloom-2022-04-weekly-gpu-failures-hang-instead-of-exit",
    ),
    needs=(),
    optional=("ConfigMap", *QUEUE_KINDS),
    components=("job-scheduler",),
    references=(
        "https://kueue.sigs.k8s.io/docs/tasks/manage/setup_wait_for_pods_ready/",
        "https://github.com/kubernetes-sigs/kueue/blob/main/apis/config/v1beta1/configuration_types.go",
    ),
)


def kueue_config(config_map: KubeObject) -> dict[str, object] | None:
    raw = mapping(config_map.get("data")).get(CONFIG_KEY)
    if not isinstance(raw, str) or "kueue" not in raw:
        return None
    try:
        parsed = yaml.safe_load(raw)
    except yaml.YAMLError:
        return None
    return parsed if isinstance(parsed, dict) else None


def run(snapshot: Snapshot) -> Iterator[Finding]:
    configs = [(cm, cfg) for cm in snapshot.of("ConfigMap") if (cfg := kueue_config(cm)) is not None]
    for config_map, config in configs:
        wait = mapping(config.get("waitForPodsReady"))
        evidence: dict[str, object] = {"waitForPodsReady": wait or "(absent)"}
        if wait.get("enable") is True:
            yield passed(
                CHECK,
                ref(config_map),
                message(
                    "waitForPodsReady가 켜져 있습니다(timeout {ko_timeout})",
                    "waitForPodsReady on (timeout {timeout})",
                    timeout=str(wait.get("timeout", "default")),
                    ko_timeout=str(wait.get("timeout", "기본값")),
                ),
                evidence,
            )
        else:
            said = message("waitForPodsReady가 켜져 있지 않습니다", "waitForPodsReady is not enabled")
            yield failed(CHECK, ref(config_map), said, evidence)
    if configs:
        return
    queues = any(crd_state(snapshot, kind) == "read" and snapshot.of(kind) for kind in QUEUE_KINDS)
    if queues:
        yield unknown(
            CHECK,
            None,
            message(
                "Kueue 큐는 있지만 설정 ConfigMap을 찾지 못했습니다",
                "Kueue queues exist but its configuration ConfigMap was not found",
            ),
        )
    else:
        yield not_applicable(CHECK, _no_kueue(snapshot))


def _no_kueue(snapshot: Snapshot) -> Message:
    """A cluster without Kueue's objects has no Kueue; a set of files without them says nothing."""
    if snapshot.mode == "manifests":
        return message(
            "이 매니페스트에는 Kueue 설정도 큐도 없습니다",
            "no Kueue configuration or queues in these manifests",
        )
    return message("Kueue가 설치되어 있지 않습니다", "Kueue is not installed")
