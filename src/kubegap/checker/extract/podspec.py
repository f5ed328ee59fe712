"""Reading a pod spec: containers, env, GPU requests, volumes. Shared by every workload kind."""

from __future__ import annotations

from typing import Any

from kubegap.checker.extract._fields import dig, integer, items, mapping, quantity, strings

# Extended resources whose quantity counts whole accelerators (or slices of one: MIG, Neuron cores).
# Sharing schedulers' memory and core shares (`nvidia.com/gpumem`, `gpu.intel.com/millicores`) are not
# counts: reading `nvidia.com/gpumem: 3000` as 3,000 GPUs is the mistake a prefix match makes.
ACCELERATOR_RESOURCES = frozenset(
    {
        "nvidia.com/gpu",
        "nvidia.com/gpu.shared",
        "amd.com/gpu",
        "gpu.intel.com/i915",
        "gpu.intel.com/xe",
        "aws.amazon.com/neuron",
        "aws.amazon.com/neuroncore",
        "aws.amazon.com/neurondevice",
        "habana.ai/gaudi",
        "google.com/tpu",
        "volcano.sh/vgpu-number",
        "cambricon.com/mlu",
        "npu.intel.com/accel",
    }
)
ACCELERATOR_PREFIXES = ("nvidia.com/mig-", "huawei.com/ascend", "amd.com/gpu-")
# Any accelerator-looking request, including shares: used to tell a pod that touches a device.
ACCELERATOR_SUFFIXES = ("/gpu", "/tpu", "/neuron", "/neuroncore", "/neurondevice", "/gaudi")


def is_gpu_resource(name: str) -> bool:
    """An extended resource counting accelerators: NVIDIA, AMD, Intel GPUs, AWS Neuron, Gaudi, TPU, Ascend."""
    lowered = name.lower()
    return lowered in ACCELERATOR_RESOURCES or lowered.startswith(ACCELERATOR_PREFIXES)


def containers(spec: dict[str, Any], include_init: bool = True) -> list[dict[str, Any]]:
    """App containers, then init containers (sidecars live there too)."""
    found = items(spec.get("containers"))
    if include_init:
        found = found + items(spec.get("initContainers"))
    return found


def container_env(container: dict[str, Any]) -> dict[str, str]:
    """Literal env values of one container; valueFrom entries map to '' (set, value not visible)."""
    env: dict[str, str] = {}
    for entry in items(container.get("env")):
        name = entry.get("name")
        if not isinstance(name, str):
            continue
        value = entry.get("value")
        env[name] = "" if value is None else str(value)
    return env


def pod_env(spec: dict[str, Any]) -> dict[str, str]:
    """Env of all app containers merged (later containers win): what the training process would see."""
    merged: dict[str, str] = {}
    for container in containers(spec, include_init=False):
        merged.update(container_env(container))
    return merged


def gpus_requested(spec: dict[str, Any]) -> int:
    """GPUs (or MIG slices) one pod asks for: the sum over app containers of limits, else requests."""
    total = 0
    for container in containers(spec, include_init=False):
        resources = mapping(container.get("resources"))
        chosen = mapping(resources.get("limits")) or mapping(resources.get("requests"))
        for name, value in chosen.items():
            if is_gpu_resource(str(name)):
                total += max(integer(value), 0)
    return total + _dra_gpu_claims(spec)


class GpuCounts:
    """`gpus_requested` once per distinct container list while one view of a snapshot is built.

    The loader stores equal parts once, so the pods of one template share their `containers` and
    `resourceClaims`; the count is kept by the identity of those parts, and each entry holds them, so
    an identity is never reused while the cache lives.
    """

    def __init__(self) -> None:
        self._counts: dict[tuple[int, int], tuple[Any, Any, int]] = {}

    def of(self, spec: dict[str, Any]) -> int:
        app, claims = spec.get("containers"), spec.get("resourceClaims")
        found = self._counts.get((id(app), id(claims)))
        if found is not None and found[0] is app and found[1] is claims:
            return found[2]
        count = gpus_requested(spec)
        self._counts[(id(app), id(claims))] = (app, claims, count)
        return count


def _dra_gpu_claims(spec: dict[str, Any]) -> int:
    """Pods on DRA ask via resourceClaims; count a claim whose name or template mentions gpu."""
    claims = 0
    for claim in items(spec.get("resourceClaims")):
        text = " ".join(str(value) for value in claim.values() if isinstance(value, str))
        if "gpu" in text.lower():
            claims += 1
    return claims


def images(spec: dict[str, Any]) -> list[str]:
    return [str(container.get("image") or "") for container in containers(spec)]


def command_line(container: dict[str, Any]) -> list[str]:
    """command + args of a container as one list of words."""
    return strings(container.get("command")) + strings(container.get("args"))


def mounts(container: dict[str, Any]) -> dict[str, str]:
    """mountPath -> volume name for one container."""
    result: dict[str, str] = {}
    for mount in items(container.get("volumeMounts")):
        path, name = mount.get("mountPath"), mount.get("name")
        if isinstance(path, str) and isinstance(name, str):
            result[path.rstrip("/") or "/"] = name
    return result


def volumes(spec: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Volume name -> volume definition."""
    return {str(volume.get("name")): volume for volume in items(spec.get("volumes")) if volume.get("name")}


def shm_size_bytes(spec: dict[str, Any]) -> float | None:
    """Size of /dev/shm the pod gets from a memory emptyDir: None if not mounted, inf if unlimited."""
    defined = volumes(spec)
    for container in containers(spec, include_init=False):
        volume_name = mounts(container).get("/dev/shm")
        if volume_name is None:
            continue
        empty_dir = dig(defined.get(volume_name, {}), "emptyDir")
        if isinstance(empty_dir, dict) and empty_dir.get("medium") == "Memory":
            limit = quantity(empty_dir.get("sizeLimit"))
            return float("inf") if limit is None else limit
        if defined.get(volume_name, {}).get("hostPath") is not None:
            return float("inf")
    return None


def priority_class(spec: dict[str, Any]) -> str:
    return str(spec.get("priorityClassName") or "")


def memory_shm_volume(spec: dict[str, Any]) -> dict[str, Any] | None:
    """The emptyDir {medium: Memory} an app container mounts at /dev/shm, or None when there is none."""
    defined = volumes(spec)
    for container in containers(spec, include_init=False):
        volume_name = mounts(container).get("/dev/shm")
        empty_dir = dig(defined.get(volume_name or "", {}), "emptyDir")
        if isinstance(empty_dir, dict) and empty_dir.get("medium") == "Memory":
            return empty_dir
    return None


def pod_memory_limit(spec: dict[str, Any]) -> float | None:
    """The pod's memory limit in bytes: pod-level resources, else the sum over app containers.

    None when any app container has no memory limit: then the pod as a whole has none, and a memory
    emptyDir without a sizeLimit is bounded by nothing but the node.
    """
    pod_level = quantity(dig(spec, "resources", "limits", "memory"))
    if pod_level is not None:
        return pod_level
    total = 0.0
    app_containers = containers(spec, include_init=False)
    for container in app_containers:
        limit = quantity(dig(container, "resources", "limits", "memory"))
        if limit is None:
            return None
        total += limit
    return total if app_containers else None


def container_requests_gpu(container: dict[str, Any]) -> bool:
    """The container asks for a GPU the kubelet accounts for: a GPU resource, a sharing scheduler's
    GPU resource (HAMi, Volcano vGPU, Aliyun gpu-mem, all named with 'gpu'), or a DRA claim."""
    resources = mapping(container.get("resources"))
    if items(resources.get("claims")):
        return True
    for section in ("limits", "requests"):
        for name, value in mapping(resources.get(section)).items():
            if (is_gpu_resource(str(name)) or _shares_gpu(str(name))) and integer(value, 1) > 0:
                return True
    return False


def shares_gpu(name: str) -> bool:
    """A sharing scheduler's GPU resource name, whatever its quantity means (memory, cores, a count)."""
    return _shares_gpu(name)


def _shares_gpu(name: str) -> bool:
    """A sharing scheduler's GPU resource (HAMi `nvidia.com/gpumem`, Aliyun `aliyun.com/gpu-mem`...)."""
    words = name.lower().replace("-", "/").replace(".", "/").replace("_", "/").split("/")
    return any(word.startswith(("gpu", "vgpu", "neuron")) for word in words)


# TPUs are driven by their runtime (libtpu), not by NCCL, and GKE ran TPU pods privileged: checks about
# NCCL shared memory or GPU isolation through the device plugin do not apply to them.
TPU_RESOURCES = frozenset({"google.com/tpu"})


def tpu_only(spec: dict[str, Any]) -> bool:
    """The pod's app containers ask for TPUs and for no other accelerator."""
    asked = {
        str(name).lower()
        for container in containers(spec, include_init=False)
        for section in ("limits", "requests")
        for name in mapping(mapping(container.get("resources")).get(section))
        if is_gpu_resource(str(name))
    }
    return bool(asked) and asked <= TPU_RESOURCES


def is_patch_fragment(spec: dict[str, Any]) -> bool:
    """A pod spec from a patch to merge into a base elsewhere (a kustomize overlay or component): some
    app container has no image, which no real pod can run."""
    listed = containers(spec, include_init=False)
    return bool(listed) and any(not container.get("image") for container in listed)
