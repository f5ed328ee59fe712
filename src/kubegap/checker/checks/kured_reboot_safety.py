"""kured reboots nodes for OS updates; without a blocking selector it reboots GPU nodes mid-training."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import failed, not_applicable, passed, text
from kubegap.checker.extract import containers, daemonsets, integer, strings
from kubegap.checker.extract.agents import DaemonSetView
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot

CHECK = CheckMeta(
    id="kured-reboot-safety",
    area="fleet-change",
    severity=Severity.medium,
    title=text("kured 재부팅 안전장치", "kured reboot safety"),
    why=text(
        "무인 OS 업데이트 뒤의 재부팅은 언제든 노드를 내립니다. kured에 --blocking-pod-selector가 없으면 "
        "며칠째 도는 학습 작업의 노드도 재부팅되고, --concurrency가 1보다 크면 여러 노드가 함께 빠집니다. "
        "무인 업데이트가 전 노드를 동시에 건드린 사고(Datadog 2023)가 이 모양입니다.",
        "Reboots after unattended OS updates take nodes down at any time. Without --blocking-pod-selector, "
        "kured reboots nodes that run multi-day training jobs, and with --concurrency above 1 several "
        "nodes go at once. Unattended updates touching every node together is how Datadog's 2023 outage "
        "unfolded.",
    ),
    remediation=text(
        "--concurrency=1을 유지하고, 학습 파드 레이블로 --blocking-pod-selector를 지정하고, "
        "--start-time/--end-time/--reboot-days로 재부팅 시간대를 정하고, --prometheus-url로 경보 중에는 "
        "멈추게 하세요.",
        "Keep --concurrency=1, set --blocking-pod-selector to your training pods' labels, restrict reboots "
        "with --start-time/--end-time/--reboot-days, and gate them on alerts with --prometheus-url.",
    ),
    decides=text(
        "kured DaemonSet의 command·args에서 --concurrency가 1보다 크면(높음), --blocking-pod-selector가 "
        "없으면(중간) 실패입니다. 재부팅 시간대와 경보 연동 여부는 근거로 함께 보고합니다.",
        "Reads the kured DaemonSet's command and args: --concurrency above 1 fails (high), no "
        "--blocking-pod-selector fails (medium). The reboot window and alert gate are reported as evidence.",
    ),
    incidents=(
        "datadog-2023-03-systemd-networkd-unattended-upgrade",
        "openai-2025-06-gpu-host-os-update-network-loss",
    ),
    needs=("apps/DaemonSet",),
    components=("host-os", "node-agent"),
    references=(
        "https://github.com/kubereboot/kured/blob/main/cmd/kured/main.go",
        "https://kured.dev/docs/configuration/",
    ),
)


def flags(ds: DaemonSetView) -> dict[str, list[str]]:
    """--name=value and --name value flags of all containers ('' for a bare flag)."""
    parsed: dict[str, list[str]] = {}
    for container in containers(ds.spec, include_init=False):
        words = strings(container.get("command")) + strings(container.get("args"))
        for index, word in enumerate(words):
            if not word.startswith("--"):
                continue
            name, separator, value = word[2:].partition("=")
            if not separator and index + 1 < len(words) and not words[index + 1].startswith("--"):
                value = words[index + 1]
            parsed.setdefault(name, []).append(value)
    return parsed


def run(snapshot: Snapshot) -> Iterator[Finding]:
    kureds = [ds for ds in daemonsets(snapshot) if ds.role == "kured"]
    if not kureds:
        yield not_applicable(CHECK, message("kured DaemonSet이 없습니다", "no kured DaemonSet"))
        return
    for ds in kureds:
        given = flags(ds)
        concurrency = integer((given.get("concurrency") or ["1"])[-1], 1)
        evidence: dict[str, object] = {
            "concurrency": concurrency,
            "blocking_pod_selector": given.get("blocking-pod-selector", []),
            "window": any(key in given for key in ("start-time", "end-time", "reboot-days")),
            "alert_gate": "prometheus-url" in given,
        }
        if concurrency > 1:
            yield failed(
                CHECK,
                ds.ref,
                message(
                    "kured가 노드를 한 번에 {count}대까지 재부팅합니다",
                    "kured reboots up to {count} nodes at once",
                    count=concurrency,
                ),
                evidence,
                severity=Severity.high,
            )
        elif not given.get("blocking-pod-selector"):
            yield failed(
                CHECK,
                ds.ref,
                message(
                    "kured에 --blocking-pod-selector가 없어 학습 파드가 도는 노드도 재부팅합니다",
                    "kured has no --blocking-pod-selector: it reboots nodes running training pods",
                ),
                evidence,
            )
        else:
            yield passed(
                CHECK,
                ds.ref,
                message(
                    "kured가 노드를 한 대씩 재부팅하고 "
                    "--blocking-pod-selector에 걸리는 파드가 끝나기를 기다립니다",
                    "kured reboots one node at a time and waits for blocking pods",
                ),
                evidence,
            )
