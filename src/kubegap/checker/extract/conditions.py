"""Node conditions that GPU and fabric health agents publish, and which of them mean 'broken'.

Agents disagree on polarity: NPD-style problem conditions (XIDErrors, GPUMissing) are bad when True,
while readiness conditions (AcceleratedHardwareReady) are bad when False. We read both.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from kubegap.checker.extract.nodes import NodeView

_GPU_WORDS = (
    "gpu",
    "xid",
    "nvlink",
    "nvidia",
    "acceleratedhardware",
    "accelerator",
    "dcgm",
    "fabric",
    "ecc",
    "rowremap",
)
# Clock slowdowns: NVSentinel's GpuThermalWatch / GpuThermalMarginWatch, NPD plugins' *Throttl* types.
_THERMAL_WORDS = ("thermal", "throttl", "temperature", "overheat", "slowdown")
_NETWORK_WORDS = ("iblink", "infiniband", "rdma", "ibport", "nicready", "mlx")
_POSITIVE_SUFFIXES = ("ready", "healthy", "ok", "available")
# Labels written by active-health tools; the value shows a failed diagnostic.
HEALTH_LABELS = {
    "autopilot.ibm.com/gpuhealth": ("EVICT", "ERR"),
    "autopilot.ibm.com/dcgm.level.3": ("ERR",),
    "dcgm.level.3": ("ERR",),
    "sagemaker.amazonaws.com/node-health-status": (
        "UnschedulablePendingReplacement",
        "UnschedulablePendingReboot",
    ),
    # Google's cluster-health-scanner writes pass/fail per health check, and reboot-required on ECC errors.
    "aiinfra/gpu-healthcheck-result": ("fail",),
    "aiinfra/nccl-healthcheck-result": ("fail",),
    "aiinfra/neper-healthcheck-result": ("fail",),
    "aiinfra/tinymax-healthcheck-result": ("fail",),
    "aiinfra/reboot-required": ("true",),
}
# cluster-health-scanner stamps how long a passed result holds (epoch seconds); past it the node is unvetted.
VALIDITY_PREFIX = "aiinfra/"
VALIDITY_SUFFIX = "-healthcheck-valid-till-sec"


def _matches(condition_type: str, words: tuple[str, ...]) -> bool:
    lowered = condition_type.lower()
    return any(word in lowered for word in words)


def names_gpu_fault(name: str) -> bool:
    """Whether a condition type or an event reason speaks of the GPU stack (XIDErrors, GpuXid, ...)."""
    return _matches(name, _GPU_WORDS)


def names_network_fault(name: str) -> bool:
    """Whether a condition type or an event reason speaks of InfiniBand or RDMA (IBLinkFlapping, ...)."""
    return _matches(name, _NETWORK_WORDS)


def is_bad(condition_type: str, condition: dict[str, Any]) -> bool:
    status = str(condition.get("status") or "")
    if condition_type.lower().endswith(_POSITIVE_SUFFIXES):
        return status == "False"
    return status == "True"


def gpu_conditions(node: NodeView) -> dict[str, dict[str, Any]]:
    """Conditions about GPUs, NVLink or the NVSwitch fabric (never the kubelet's own)."""
    return {key: value for key, value in node.conditions.items() if _matches(key, _GPU_WORDS)}


def network_conditions(node: NodeView) -> dict[str, dict[str, Any]]:
    """Conditions about InfiniBand/RDMA links."""
    return {key: value for key, value in node.conditions.items() if _matches(key, _NETWORK_WORDS)}


def thermal_conditions(node: NodeView) -> dict[str, dict[str, Any]]:
    """Conditions that report GPU (or node) temperature or clock throttling, healthy or not."""
    return {key: value for key, value in node.conditions.items() if _matches(key, _THERMAL_WORDS)}


def bad_thermal_signals(node: NodeView) -> list[str]:
    """Thermal or clock-throttle conditions on the node that are in their bad state."""
    return [
        f"condition {key}={value.get('status')} ({value.get('reason') or 'no reason'})"
        for key, value in thermal_conditions(node).items()
        if is_bad(key, value)
    ]


def bad_gpu_signals(node: NodeView) -> list[str]:
    """GPU conditions and health labels on the node that say the GPU stack is broken."""
    signals = [
        f"condition {key}={value.get('status')} ({value.get('reason') or 'no reason'})"
        for key, value in gpu_conditions(node).items()
        if is_bad(key, value)
    ]
    for label, bad_prefixes in HEALTH_LABELS.items():
        value = node.labels.get(label, "")
        if value and value.startswith(bad_prefixes):
            signals.append(f"label {label}={value}")
    return signals


def _epoch(moment: str) -> float | None:
    """An ISO 8601 time ('2026-12-02T19:00:00Z') as epoch seconds; None when absent or unreadable."""
    try:
        return datetime.fromisoformat(moment.replace("Z", "+00:00")).timestamp() if moment else None
    except ValueError:
        return None


def expired_health_results(node: NodeView, read_at: str) -> list[str]:
    """Active health-check results whose stated validity ended before the cluster was read.

    The scanner re-runs its checks and re-stamps the label; an expired stamp means the checks stopped
    running, so the node's last 'pass' no longer vouches for it. Without a read time nothing is judged.
    """
    now = _epoch(read_at)
    if now is None:
        return []
    return [
        f"label {label}={value}"
        for label, value in node.labels.items()
        if label.startswith(VALIDITY_PREFIX)
        and label.endswith(VALIDITY_SUFFIX)
        and value.isdigit()
        and int(value) < now
    ]
