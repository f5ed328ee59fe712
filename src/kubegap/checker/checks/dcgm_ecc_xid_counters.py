"""dcgm-exporter only exports what its counters file lists; the stock files leave ECC errors out."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import Message, message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import crd_state, failed, not_applicable, passed, text, unknown
from kubegap.checker.extract import container_env, containers, daemonsets, dig, items, mapping
from kubegap.checker.extract.agents import DaemonSetView
from kubegap.checker.finding import Finding, ObjectRef, Severity
from kubegap.checker.snapshot import KubeObject, Snapshot
from kubegap.checker.workload import commands_of

# What the stock default-counters.csv and dcp-metrics-included.csv export (ECC double-bit is commented out).
BUILT_IN_COUNTERS = frozenset(
    {"DCGM_FI_DEV_XID_ERRORS", "DCGM_FI_DEV_ROW_REMAP_FAILURE", "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS"}
)
REQUIRED = {
    "ECC double-bit errors": ("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "DCGM_FI_DEV_ECC_DBE_AGG_TOTAL"),
    "XID errors": ("DCGM_FI_DEV_XID_ERRORS",),
    "row-remap failures": ("DCGM_FI_DEV_ROW_REMAP_FAILURE", "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS"),
}
_KOREAN_LABELS = {
    "ECC double-bit errors": "ECC 더블비트 오류",
    "XID errors": "XID 오류",
    "row-remap failures": "행 재매핑 실패",
}

CHECK = CheckMeta(
    id="dcgm-ecc-xid-counters",
    area="gpu-health",
    severity=Severity.medium,
    title=text(
        "dcgm-exporter의 ECC·XID·row-remap 카운터", "ECC, XID and row-remap counters in dcgm-exporter"
    ),
    why=text(
        "dcgm-exporter는 카운터 파일에 적힌 필드만 내보냅니다. 기본 파일(default-counters.csv, "
        "dcp-metrics-included.csv)에는 ECC double-bit 오류가 주석 처리되어 있어, OPT-175B 학습을 여러 번 "
        "재시작시킨 것과 같은 ECC 고장이 지표에 나타나지 않습니다.",
        "dcgm-exporter exports only the fields its counters file lists. The stock files "
        "(default-counters.csv, dcp-metrics-included.csv) comment out ECC double-bit errors, so ECC "
        "failures like those that restarted OPT-175B again and again never show up in metrics.",
    ),
    remediation=text(
        "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL, DCGM_FI_DEV_XID_ERRORS, DCGM_FI_DEV_ROW_REMAP_FAILURE를 포함한 "
        "카운터 CSV를 ConfigMap으로 만들고, DCGM_EXPORTER_COLLECTORS(또는 ClusterPolicy의 "
        "dcgmExporter.config.name)로 지정하세요.",
        "Put a counters CSV that includes DCGM_FI_DEV_ECC_DBE_VOL_TOTAL, DCGM_FI_DEV_XID_ERRORS and "
        "DCGM_FI_DEV_ROW_REMAP_FAILURE in a ConfigMap and point DCGM_EXPORTER_COLLECTORS (or the "
        "ClusterPolicy's dcgmExporter.config.name) at it.",
    ),
    decides=text(
        "dcgm-exporter가 읽는 카운터 파일을 찾습니다. 기본 파일이면 ECC가 빠진 것으로, ConfigMap이면 그 "
        "내용을 읽어 ECC double-bit, XID, row-remap 필드가 주석이 아닌 줄에 있는지 봅니다.",
        "Finds the counters file dcgm-exporter reads. A stock file lacks ECC; a ConfigMap is read and must "
        "list ECC double-bit, XID and row-remap fields on uncommented lines.",
    ),
    incidents=("opt-2021-11-175b-early-hardware-restarts", "opt-2021-11-thanksgiving-restarts-buffer-nodes"),
    needs=("apps/DaemonSet",),
    optional=("ConfigMap", "nvidia.com/ClusterPolicy"),
    components=("gpu-health-monitoring", "gpu-memory", "monitoring"),
    references=(
        "https://github.com/NVIDIA/dcgm-exporter/blob/main/etc/default-counters.csv",
        "https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/getting-started.html",
    ),
)


def parse_counters(csv_text: str) -> set[str]:
    """Field names on uncommented lines of a dcgm-exporter counters CSV."""
    fields = set()
    for line in csv_text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            fields.add(stripped.split(",")[0].strip())
    return fields


def _config_maps(snapshot: Snapshot) -> dict[tuple[str, str], KubeObject]:
    return {
        (str(dig(cm, "metadata", "namespace") or ""), str(dig(cm, "metadata", "name") or "")): cm
        for cm in snapshot.of("ConfigMap")
    }


def _configmap_counters(
    maps: dict[tuple[str, str], KubeObject], namespace: str, name: str
) -> set[str] | None:
    found = maps.get((namespace, name)) or next((cm for (_, n), cm in maps.items() if n == name), None)
    if found is None:
        return None
    fields: set[str] = set()
    for value in mapping(found.get("data")).values():
        fields |= parse_counters(str(value))
    return fields


def _collectors_path(exporter: DaemonSetView) -> tuple[str, str]:
    """The exporter's counters file path and the 'namespace:name' of a ConfigMap it reads via the API."""
    for container in containers(exporter.spec, include_init=False):
        commands = commands_of(container)  # `sh -c "dcgm-exporter -f …"` is split like a shell would
        env = {**container_env(container), **commands.exported}
        path = commands.flag("-f", "--collectors") or env.get("DCGM_EXPORTER_COLLECTORS", "")
        if path or env.get("DCGM_EXPORTER_CONFIGMAP_DATA"):
            return path, env.get("DCGM_EXPORTER_CONFIGMAP_DATA", "")
    return "", ""


def _mounted_configmap(exporter: DaemonSetView, path: str) -> str:
    volumes = {str(v.get("name")): v for v in items(exporter.spec.get("volumes"))}
    for container in containers(exporter.spec, include_init=False):
        for mount in items(container.get("volumeMounts")):
            mount_path = str(mount.get("mountPath") or "")
            if mount_path and path.startswith(mount_path.rstrip("/") + "/"):
                return str(dig(volumes.get(str(mount.get("name")), {}), "configMap", "name") or "")
    return ""


def _configmap_source(name: str) -> Message:
    return message("ConfigMap {name}", "ConfigMap {name}", name=name)


def _counters_of(
    exporter: DaemonSetView, maps: dict[tuple[str, str], KubeObject]
) -> tuple[set[str] | None, Message]:
    path, api_source = _collectors_path(exporter)
    if api_source and ":" in api_source:
        namespace, name = api_source.split(":", 1)
        return _configmap_counters(maps, namespace, name), _configmap_source(api_source)
    configmap = _mounted_configmap(exporter, path) if path else ""
    if configmap:
        return _configmap_counters(maps, exporter.namespace, configmap), _configmap_source(
            f"{configmap} ({path})"
        )
    built_in = message(
        "기본 제공 카운터 파일 {path}", "built-in counters file {path}", path=path or "default-counters.csv"
    )
    return set(BUILT_IN_COUNTERS), built_in


def _judge(obj: ObjectRef, counters: set[str] | None, source: Message) -> Finding:
    """`source` names where the counters come from; Korean sentences take it before a particle."""
    ko_source, en_source = source.render("ko"), str(source)
    if counters is None:
        said = message(
            "카운터를 {ko:에서} 읽는데, 스냅숏에 그것이 없습니다",
            "counters come from {en}, which is not in the snapshot",
            ko=ko_source,
            en=en_source,
        )
        return unknown(CHECK, obj, said)
    missing = [label for label, names in REQUIRED.items() if not counters & set(names)]
    if missing:
        said = message(
            "{ko:이} {ko_missing} 카운터를 내보내지 않습니다",
            "{en} does not export {missing}",
            ko=ko_source,
            en=en_source,
            missing=", ".join(missing),
            ko_missing=", ".join(_KOREAN_LABELS.get(label, label) for label in missing),
        )
        return failed(CHECK, obj, said, {"missing": missing, "source": en_source})
    said = message(
        "{ko:이} ECC, XID, 행 재매핑 카운터를 모두 내보냅니다",
        "{en} exports ECC, XID and row-remap counters",
        ko=ko_source,
        en=en_source,
    )
    return passed(CHECK, obj, said, {"source": en_source})


def run(snapshot: Snapshot) -> Iterator[Finding]:
    maps = _config_maps(snapshot)
    exporters = [ds for ds in daemonsets(snapshot) if ds.role == "dcgm-exporter"]
    for exporter in exporters:
        counters, source = _counters_of(exporter, maps)
        yield _judge(exporter.ref, counters, source)
    policies = (
        snapshot.of("nvidia.com/ClusterPolicy")
        if crd_state(snapshot, "nvidia.com/ClusterPolicy") == "read"
        else []
    )
    for policy in policies:
        if dig(policy, "spec", "dcgmExporter", "enabled") is False:
            continue
        name = str(dig(policy, "spec", "dcgmExporter", "config", "name") or "")
        obj = ObjectRef(
            "ClusterPolicy", str(dig(policy, "metadata", "name") or ""), api_version="nvidia.com/v1"
        )
        if name:
            yield _judge(obj, _configmap_counters(maps, "", name), _configmap_source(name))
        elif not exporters:
            built_in = message(
                "GPU Operator 기본 파일 dcp-metrics-included.csv",
                "the GPU Operator's built-in dcp-metrics-included.csv",
            )
            yield _judge(obj, set(BUILT_IN_COUNTERS), built_in)
    if not exporters and not policies:
        yield not_applicable(
            CHECK,
            message(
                "dcgm-exporter DaemonSet도, GPU Operator ClusterPolicy도 없습니다",
                "no dcgm-exporter DaemonSet or GPU Operator ClusterPolicy",
            ),
        )
