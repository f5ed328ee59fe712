"""Pod templates of CRDs that embed containers their own way, and of any other kind by shape.

Serving operators rarely hold a PodTemplateSpec: a NIMService has an image and resources at the top of
its spec, a KServe predictor holds one container under `model`, a Dynamo service a `mainContainer`
under `extraPodSpec`, an Argo workflow a container per template. Each is turned into a pod spec here.
Any other kind is searched for PodTemplateSpec-shaped subtrees (`{spec: {containers: [...]}}`) and pod
specs (`{containers: [...]}`), so a CRD nobody listed (KAITO, llmaz, AIBrix, OME, kthena...) is still
read, with its replica count taken from the nearest `replicas`, `size` or `numNodes` above it.
"""

from __future__ import annotations

from typing import Any

from kubegap.checker.extract._fields import dig, items, mapping
from kubegap.checker.snapshot import KubeObject
from kubegap.checker.workload._read import Found, Reader
from kubegap.checker.workload.kinds import Extractor, leader_worker, ray_cluster, replicated_jobs


def _image(value: Any) -> Any:
    """An image given as a string, or as {repository, tag} as operators write it."""
    if isinstance(value, dict):
        repository, tag = value.get("repository"), value.get("tag")
        return f"{repository}:{tag}" if repository and tag else repository
    return value


def _nim(obj: KubeObject, reader: Reader) -> list[Found]:
    spec = mapping(obj.get("spec"))
    port = dig(spec, "expose", "service", "port")
    container = {
        "name": "nim",
        "image": _image(spec.get("image")),
        "env": spec.get("env"),
        "resources": spec.get("resources"),
        "livenessProbe": dig(spec, "livenessProbe", "probe")
        if dig(spec, "livenessProbe", "enabled") is not False
        else None,
        "readinessProbe": dig(spec, "readinessProbe", "probe"),
        "ports": [{"containerPort": port}] if port else None,
    }
    pod = {"containers": [container], "volumes": spec.get("volumes")}
    if obj.get("kind") == "NIMCache":
        return [("cache", pod, 1)]
    nodes = (
        reader.count(dig(spec, "multiNode"), "size", 1, "spec.multiNode.size") if spec.get("multiNode") else 1
    )
    return [("", pod, reader.count(spec, "replicas", 1, "spec.replicas") * max(nodes, 1))]


def _kserve_component(component: Any, name: str, reader: Reader) -> list[Found]:
    part = mapping(component)
    if not part:
        return []
    pod = {key: value for key, value in part.items() if key not in ("model", "minReplicas", "maxReplicas")}
    listed = items(part.get("containers"))
    model = mapping(part.get("model"))
    if model:
        listed = [{"name": "kserve-container", **model}, *listed]
    pod["containers"] = listed
    replicas = reader.count(part, "minReplicas", 1, f"spec.{name}.minReplicas")
    found: list[Found] = [(name, pod, max(replicas, 1))] if listed else []
    worker = mapping(part.get("workerSpec"))
    if worker:
        size = reader.count(worker, "pipelineParallelSize", 1, f"spec.{name}.workerSpec.pipelineParallelSize")
        found.append((f"{name}-worker", worker, max(replicas, 1) * max(size - 1, 1)))
    return found


def _inference_service(obj: KubeObject, reader: Reader) -> list[Found]:
    spec = mapping(obj.get("spec"))
    found: list[Found] = []
    for name in ("predictor", "transformer", "explainer"):
        found += _kserve_component(spec.get(name), name, reader)
    return found


def _serving_runtime(obj: KubeObject, _reader: Reader) -> list[Found]:
    return [("runtime", obj.get("spec"), 1)]


def _dynamo(obj: KubeObject, reader: Reader) -> list[Found]:
    found: list[Found] = []
    for name, service in mapping(dig(obj, "spec", "services")).items():
        extra = mapping(service.get("extraPodSpec"))
        main = dict(mapping(extra.get("mainContainer")))
        limits = {
            ("nvidia.com/gpu" if key == "gpu" else key): value
            for key, value in mapping(dig(service, "resources", "limits")).items()
        }
        main.setdefault("name", "main")
        main["resources"] = {"limits": limits} if limits else main.get("resources")
        pod = {**{key: value for key, value in extra.items() if key != "mainContainer"}, "containers": [main]}
        replicas = reader.count(service, "replicas", 1, f"spec.services.{name}.replicas")
        nodes = reader.count(
            dig(service, "multinode"), "nodeCount", 1, f"spec.services.{name}.multinode.nodeCount"
        )
        found.append((str(name), pod, replicas * max(nodes, 1)))
    return found


def _argo_templates(spec: Any) -> list[Found]:
    found: list[Found] = []
    for template in items(dig(spec, "templates")):
        container = mapping(template.get("container")) or mapping(template.get("script"))
        if not container:
            continue
        if "source" in container:  # a script template runs its source with the command
            container = {**container, "args": [*(container.get("args") or []), container["source"]]}
        pod = {
            "containers": [container, *items(template.get("sidecars"))],
            "initContainers": template.get("initContainers"),
            "volumes": [*items(spec.get("volumes")), *items(template.get("volumes"))],
            "nodeSelector": template.get("nodeSelector"),
            "tolerations": template.get("tolerations"),
        }
        found.append((str(template.get("name") or ""), pod, 1))
    return found


def _argo(obj: KubeObject, _reader: Reader) -> list[Found]:
    spec = obj.get("spec")
    return _argo_templates(dig(spec, "workflowSpec") if obj.get("kind") == "CronWorkflow" else spec)


def _ray_fleet(obj: KubeObject, reader: Reader) -> list[Found]:
    copies = reader.count(obj.get("spec"), "replicas", 1, "spec.replicas")
    found = ray_cluster(dig(obj, "spec", "template", "spec"), reader, "spec.template.spec")
    return [(group, spec, count * max(copies, 1)) for group, spec, count in found]


CRDS: dict[str, Extractor] = {
    "apps.nvidia.com/NIMService": _nim,
    "apps.nvidia.com/NIMCache": _nim,
    "serving.kserve.io/InferenceService": _inference_service,
    "serving.kserve.io/ServingRuntime": _serving_runtime,
    "serving.kserve.io/ClusterServingRuntime": _serving_runtime,
    "nvidia.com/DynamoGraphDeployment": _dynamo,
    "argoproj.io/Workflow": _argo,
    "argoproj.io/WorkflowTemplate": _argo,
    "argoproj.io/ClusterWorkflowTemplate": _argo,
    "argoproj.io/CronWorkflow": _argo,
    "orchestration.aibrix.ai/RayClusterFleet": _ray_fleet,
}

_COUNT_KEYS = ("replicas", "size", "numNodes", "minReplicas", "nodeCount")
# Subtrees that are not pods of this object: status, and pod specs of objects it only points at.
_SKIPPED = frozenset({"status", "metadata"})


def _is_pod_spec(node: dict[str, Any]) -> bool:
    listed = node.get("containers")
    return isinstance(listed, list) and any(
        isinstance(container, dict) and (container.get("image") or container.get("name"))
        for container in listed
    )


def discovered(obj: KubeObject, reader: Reader) -> list[Found]:
    """Pod specs anywhere under an unknown kind's spec, each with the nearest count above it."""
    found: list[Found] = []

    def walk(node: Any, path: str, counts: list[tuple[int, str]]) -> None:
        if isinstance(node, list):
            for index, value in enumerate(node):
                label = value.get("name") if isinstance(value, dict) else None
                walk(
                    value,
                    f"{path}.{label}" if isinstance(label, str) and label else f"{path}[{index}]",
                    counts,
                )
            return
        if not isinstance(node, dict):
            return
        here = counts
        for key in _COUNT_KEYS:
            if key in node:
                here = [*counts, (reader.count(node, key, 1, f"{path}.{key}"), key)]
                break
        if _is_pod_spec(node):
            found.append((_group(path), node, max(here[-1][0], 0) if here else 1))
            return
        if _leader_worker_shaped(node):
            groups = here[-1][0] if here else 1
            found.extend(leader_worker(node, groups, reader, path))
            return
        if "replicatedJobs" in node:
            found.extend(replicated_jobs(node, reader, path))
            return
        for key, value in node.items():
            if key not in _SKIPPED:
                walk(value, f"{path}.{key}", here)

    walk(obj.get("spec"), "spec", [])
    return found


def _leader_worker_shaped(node: dict[str, Any]) -> bool:
    return isinstance(node.get("workerTemplate"), dict) and "size" in node


def _group(path: str) -> str:
    """`spec.inference.template.spec` -> `inference`: the last step that names something."""
    steps = [step for step in path.replace("[", ".[").split(".") if step and step not in ("spec", "template")]
    return steps[-1] if steps else ""
