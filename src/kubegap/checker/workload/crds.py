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
from kubegap.checker.workload.operators import (
    DYNAMO_LIVENESS,
    LIVENESS,
    RESOURCES,
    dynamo_liveness,
    kaito_preset,
    kserve_llm_liveness,
    kserve_resource_defaults,
    kserve_runtime,
    nim_default_liveness,
    ome_disruption_budget,
    ome_runtime,
)


def _image(value: Any) -> Any:
    """An image given as a string, or as {repository, tag} as operators write it."""
    if isinstance(value, dict):
        repository, tag = value.get("repository"), value.get("tag")
        return f"{repository}:{tag}" if repository and tag else repository
    return value


_NIM_READY = {"httpGet": {"path": "/v1/health/ready", "port": "api"}}


def _nim_pod(spec: dict[str, Any], group: str, reader: Reader, serving: bool = True) -> dict[str, Any]:
    """The pod the NIM operator renders from a NIMService spec: its probes default when not given."""
    port = dig(spec, "expose", "service", "port")
    liveness = mapping(spec.get("livenessProbe"))
    probe = liveness.get("probe")
    if liveness.get("enabled") is False or not serving:
        probe = None
    elif not probe:
        probe = {"httpGet": {"path": "/v1/health/live", "port": "api"}}
        reader.manage(nim_default_liveness(group))
    container = {
        "name": "nim",
        "image": _image(spec.get("image")),
        "env": spec.get("env"),
        "resources": spec.get("resources"),
        "livenessProbe": probe,
        "readinessProbe": dig(spec, "readinessProbe", "probe")
        or (None if dig(spec, "readinessProbe", "enabled") is False or not serving else _NIM_READY),
        "ports": [{"containerPort": port or 8000, "name": "api"}] if serving else None,
    }
    claims = [
        {"name": str(claim.get("name") or claim.get("resourceClaimTemplateName") or "gpu"), **claim}
        for claim in items(spec.get("draResources"))
    ]
    if claims:  # the operator hands every DRA claim to the NIM container
        resources = mapping(spec.get("resources"))
        container["resources"] = {**resources, "claims": [{"name": claim["name"]} for claim in claims]}
    return {
        "containers": [container],
        "volumes": spec.get("volumes"),
        "resourceClaims": claims or None,
        "nodeSelector": spec.get("nodeSelector"),
        "affinity": spec.get("affinity"),
        "tolerations": spec.get("tolerations"),
    }


def _nim(obj: KubeObject, reader: Reader) -> list[Found]:
    spec = mapping(obj.get("spec"))
    if obj.get("kind") == "NIMCache":
        return [("cache", _nim_pod(spec, "cache", reader, serving=False), 1)]
    return _nim_service(spec, "", "spec", reader)


def _nim_service(spec: dict[str, Any], group: str, path: str, reader: Reader) -> list[Found]:
    pod = _nim_pod(spec, group, reader)
    nodes = (
        reader.count(dig(spec, "multiNode"), "size", 1, f"{path}.multiNode.size")
        if spec.get("multiNode")
        else 1
    )
    return [(group, pod, reader.count(spec, "replicas", 1, f"{path}.replicas") * max(nodes, 1))]


def _nim_pipeline(obj: KubeObject, reader: Reader) -> list[Found]:
    """A NIMPipeline holds NIMService specs under `services[].spec`, each deployed unless disabled."""
    found: list[Found] = []
    for index, service in enumerate(items(dig(obj, "spec", "services"))):
        if service.get("enabled") is False:
            continue
        name = str(service.get("name") or f"services[{index}]")
        found += _nim_service(mapping(service.get("spec")), name, f"spec.services[{index}].spec", reader)
    return found


# KServe v1beta1 predictor frameworks: each is one container spec plus storageUri and runtimeVersion.
_KSERVE_FRAMEWORKS = (
    "model",
    "sklearn",
    "xgboost",
    "tensorflow",
    "pytorch",
    "triton",
    "onnx",
    "pmml",
    "lightgbm",
    "paddle",
    "huggingface",
)
_KSERVE_COMPONENT_KEYS = frozenset({*_KSERVE_FRAMEWORKS, "minReplicas", "maxReplicas", "workerSpec"})


def _kserve_component(component: Any, name: str, reader: Reader) -> list[Found]:
    part = mapping(component)
    if not part:
        return []
    pod = {key: value for key, value in part.items() if key not in _KSERVE_COMPONENT_KEYS}
    listed = items(part.get("containers"))
    framework = next((key for key in _KSERVE_FRAMEWORKS if mapping(part.get(key))), "")
    if framework:
        # The ServingRuntime's container runs, merged with these fields: what is not set here (the
        # probes, and limits.memory) comes from a runtime this input does not hold.
        model = mapping(part.get(framework))
        listed = [{"name": "kserve-container", **model}, *listed]
        if not mapping(model.get("livenessProbe")):
            reader.manage(kserve_runtime(LIVENESS, name))
        if dig(model, "resources", "limits", "memory") is None:
            reader.manage(kserve_runtime(RESOURCES, name))
    elif listed and dig(listed[0], "resources", "limits", "memory") is None:
        reader.manage(kserve_resource_defaults(name))
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


def _llm_inference_service(obj: KubeObject, reader: Reader) -> list[Found]:
    """KServe LLMInferenceService: `template` (and `worker`), and a `prefill` part of the same shape.

    The controller merges each container named `main` over its well-known config template, which
    carries `/health` probes on port 8000: a `main` container without its own liveness probe gets that
    one. The templates hold a plain PodSpec (no metadata).
    """
    spec = mapping(obj.get("spec"))
    found: list[Found] = []
    for part, prefix, path in ((spec, "", "spec"), (mapping(spec.get("prefill")), "prefill", "spec.prefill")):
        if not part:
            continue
        replicas = reader.count(part, "replicas", 1, f"{path}.replicas")
        for key, group in (
            ("template", prefix or "main"),
            ("worker", f"{prefix}-worker" if prefix else "worker"),
        ):
            pod = mapping(part.get(key))
            if not pod:
                continue
            listed = []
            for container in items(pod.get("containers")):
                if container.get("name") == "main" and not mapping(container.get("livenessProbe")):
                    container = {**container, "livenessProbe": _KSERVE_LLM_LIVENESS}
                    reader.manage(kserve_llm_liveness(group))
                listed.append(container)
            found.append((group, reader.derive({**pod, "containers": listed}, pod), max(replicas, 1)))
    return found


def _ome_inference_service(obj: KubeObject, reader: Reader) -> list[Found]:
    """OME InferenceService: engine, decoder and router components, each filled in from a serving
    runtime; a component holds pod fields, an optional `runner` container and its own resources."""
    spec = mapping(obj.get("spec"))
    found: list[Found] = []
    for name in ("engine", "decoder", "router"):
        part = mapping(spec.get(name))
        if not part:
            continue
        runner = {"name": name, **mapping(part.get("runner"))}
        if part.get("resources") and not runner.get("resources"):
            runner["resources"] = part["resources"]
        if not mapping(runner.get("livenessProbe")):
            reader.manage(ome_runtime(LIVENESS, name))
        if dig(runner, "resources", "limits", "memory") is None:
            reader.manage(ome_runtime(RESOURCES, name))
        reader.manage(ome_disruption_budget(name))
        pod = {key: value for key, value in part.items() if key not in _KSERVE_COMPONENT_KEYS | {"runner"}}
        pod["containers"] = [runner, *items(part.get("containers"))]
        replicas = reader.count(part, "minReplicas", 1, f"spec.{name}.minReplicas")
        found.append((name, pod, max(replicas, 1)))
    return found


def _kaito_workspace(obj: KubeObject, reader: Reader) -> list[Found]:
    """KAITO Workspace: a custom `inference.template`, or a preset whose pod KAITO builds itself."""
    top = obj if "inference" in obj else mapping(obj.get("spec"))
    where = "" if top is obj else "spec."
    inference = mapping(top.get("inference"))
    nodes = reader.count(top.get("resource"), "count", 1, f"{where}resource.count")
    template = mapping(inference.get("template"))
    if template:
        return [("inference", dig(template, "spec"), max(nodes, 1))]
    preset = mapping(inference.get("preset"))
    if not preset:
        return []
    for aspect in (LIVENESS, RESOURCES):
        reader.manage(kaito_preset(aspect, "inference"))
    container = {
        "name": "inference",
        "image": "",  # KAITO picks the preset's image
        "livenessProbe": {"httpGet": {"path": "/health", "port": 5000}},
        "readinessProbe": {"httpGet": {"path": "/health", "port": 5000}},
        "ports": [{"containerPort": 5000}],
        # KAITO sets the GPU count from the node's SKU; every preset runs on at least one GPU.
        "resources": {"limits": {"nvidia.com/gpu": 1}},
    }
    return [("inference", {"containers": [container]}, max(nodes, 1))]


_KSERVE_LLM_LIVENESS = {"httpGet": {"path": "/health", "port": 8000}}


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
        if not mapping(main.get("livenessProbe")) and not mapping(service.get("livenessProbe")):
            main["livenessProbe"] = DYNAMO_LIVENESS
            reader.manage(dynamo_liveness(str(name)))
        elif mapping(service.get("livenessProbe")):
            main["livenessProbe"] = service["livenessProbe"]
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
    "serving.kserve.io/LLMInferenceService": _llm_inference_service,
    "serving.kserve.io/LLMInferenceServiceConfig": _llm_inference_service,
    "apps.nvidia.com/NIMPipeline": _nim_pipeline,
    "kaito.sh/Workspace": _kaito_workspace,
    "ome.io/InferenceService": _ome_inference_service,
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
    """`spec.inference.template.spec` -> `inference`: the last step that names something.

    Roles that hold two templates (`roles[prefill].entryTemplate`, `.workerTemplate`) are named by both
    steps, `prefill-entry` and `prefill-worker`, so the roles of one object stay apart."""
    steps = [step for step in path.replace("[", ".[").split(".") if step and step not in ("spec", "template")]
    if not steps:
        return ""
    last = steps[-1]
    if last.lower().endswith("template") and len(steps) > 1:
        return f"{steps[-2]}-{last[: -len('template')].lower()}"
    return last
