"""The workload model every check reads: each workload's pod templates, accelerators, role and evidence.

Built once per snapshot. Objects created by another workload we already read (a Job owned by a
CronJob or JobSet, a ReplicaSet owned by a Deployment, a Pod owned by anything) are skipped, so a
template is counted once, where a person would fix it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from kubegap.checker.extract._fields import (
    controller_owner,
    dig,
    integer,
    items,
    labels_of,
    mapping,
    name_of,
    ref,
)
from kubegap.checker.extract._memo import memo
from kubegap.checker.extract.agents import classify as agent_role
from kubegap.checker.extract.podspec import (
    ACCELERATOR_SUFFIXES,
    container_env,
    containers,
    gpus_requested,
    images,
    is_gpu_resource,
    is_patch_fragment,
)
from kubegap.checker.finding import ObjectRef
from kubegap.checker.snapshot import KubeObject, Snapshot
from kubegap.checker.workload._read import Reader
from kubegap.checker.workload.crds import CRDS, discovered
from kubegap.checker.workload.kinds import KNOWN
from kubegap.checker.workload.operators import Managed
from kubegap.checker.workload.roles import TRAINING, Facts, Role, classify, name_signals
from kubegap.checker.workload.shell import Commands, commands_of
from kubegap.checker.workload.unrendered import is_unrendered

EXTRACTORS = {**KNOWN, **CRDS}
WORKLOAD_KINDS = tuple(EXTRACTORS)
_OWNER_KINDS = frozenset(key.rsplit("/", 1)[-1] for key in EXTRACTORS) | {"Workload", "AppWrapper", "Node"}
_SINGLE_NODE_KINDS = frozenset(
    {"Pod", "apps/Deployment", "apps/StatefulSet", "apps/ReplicaSet", "apps/DaemonSet"}
)
# Kinds that hold pod specs but run nothing themselves, or whose pods another kind here already owns.
_NOT_WORKLOADS = frozenset({"PodTemplate", "CustomResourceDefinition"})
# Built-in API groups hold no pod templates beyond the kinds above: their objects are not searched.
_BUILT_IN_GROUPS = frozenset(
    {
        "",
        "apps",
        "batch",
        "autoscaling",
        "policy",
        "rbac.authorization.k8s.io",
        "networking.k8s.io",
        "admissionregistration.k8s.io",
        "apiextensions.k8s.io",
        "apiregistration.k8s.io",
        "storage.k8s.io",
        "coordination.k8s.io",
        "discovery.k8s.io",
        "events.k8s.io",
        "flowcontrol.apiserver.k8s.io",
        "scheduling.k8s.io",
        "node.k8s.io",
        "certificates.k8s.io",
        "resource.k8s.io",
        "metrics.k8s.io",
    }
)


@dataclass(frozen=True)
class PodTemplate:
    owner: ObjectRef
    kind_key: str
    group: str  # '' for single-template kinds; 'Worker', 'workers', 'head', 'predictor' ... otherwise
    spec: dict[str, Any]  # the pod spec (always a dict, possibly empty)
    replicas: int  # pods created from this template
    gpus: int  # accelerators requested per pod (GPUs, MIG slices, Neuron, Gaudi, TPU...)
    labels: dict[str, str] = field(default_factory=dict)  # the pod template's own metadata labels

    @property
    def pinned_host(self) -> str:
        """The one node every pod of this template must run on (nodeName, a hostname selector or a
        required affinity to a single hostname), or ''."""
        return pinned_host(self.spec)


@dataclass(frozen=True)
class Workload:
    owner: ObjectRef
    kind_key: str
    obj: KubeObject
    templates: tuple[PodTemplate, ...]
    distributed: bool  # pods of one run spread over several nodes and talk to each other
    unrendered: tuple[str, ...] = ()  # paths of count and accelerator fields left to a template engine
    role: Role = Role.other
    role_evidence: tuple[str, ...] = field(default=())
    managed: tuple[Managed, ...] = ()  # fields its operator fills into the pods (see `operators`)
    fragment: bool = False  # a patch (kustomize component, strategic merge): containers without images

    def managed_for(self, aspect: str, group: str) -> Managed | None:
        """What fills `aspect` (LIVENESS, RESOURCES) of the template `group`, when an operator does."""
        return next((m for m in self.managed if m.aspect == aspect and m.group == group), None)

    @property
    def gpu_pods(self) -> int:
        return sum(template.replicas for template in self.templates if template.gpus > 0)

    @property
    def requests_gpus(self) -> bool:
        return any(template.gpus > 0 for template in self.templates)

    @property
    def pods(self) -> int:
        return sum(template.replicas for template in self.templates)

    @property
    def total_gpus(self) -> int:
        return sum(template.gpus * template.replicas for template in self.templates)

    @property
    def is_training(self) -> bool:
        return self.role in TRAINING

    @property
    def evidence(self) -> dict[str, object]:
        """What every finding about this workload carries: the role assumed and why."""
        return {"role": self.role.value, "role_evidence": list(self.role_evidence)}

    @cached_property
    def commands(self) -> tuple[Commands, ...]:
        """What each app container runs, shell scripts split (see `shell`)."""
        entrypoint = str(dig(self.obj, "spec", "entrypoint") or "")
        found = [commands_of({}, entrypoint)] if entrypoint else []
        for template in self.templates:
            found += [commands_of(container) for container in containers(template.spec, include_init=False)]
        return tuple(found)

    def env(self, gpu_only: bool = True) -> dict[str, str]:
        """Env of the (GPU) templates' app containers merged, plus what their scripts export.

        Worked out once per workload (several checks ask); each caller gets its own copy.
        """
        known: dict[bool, dict[str, str]] = self.__dict__.setdefault("_env", {})
        if gpu_only not in known:
            known[gpu_only] = self._merged_env(gpu_only)
        return dict(known[gpu_only])

    def _merged_env(self, gpu_only: bool) -> dict[str, str]:
        merged: dict[str, str] = {}
        for template in self.templates:
            if gpu_only and template.gpus == 0:
                continue
            for container in containers(template.spec, include_init=False):
                merged.update(container_env(container))
                merged.update(commands_of(container).exported)
        return merged

    def unrendered_in(self, *prefixes: str) -> list[str]:
        """Unrendered fields whose path contains one of `prefixes` (all of them when none is given)."""
        return [
            path for path in self.unrendered if not prefixes or any(prefix in path for prefix in prefixes)
        ]


def _accelerator_placeholders(group: str, spec: dict[str, Any], reader: Reader) -> None:
    """Accelerator requests a template engine left unfilled (`nvidia.com/gpu: "{{ .Values.gpu }}"`)."""
    for index, container in enumerate(containers(spec, include_init=False)):
        resources = mapping(container.get("resources"))
        for section in ("limits", "requests"):
            for name, value in mapping(resources.get(section)).items():
                unfilled = value is None or is_unrendered(value)
                if unfilled and (is_gpu_resource(str(name)) or str(name).endswith(ACCELERATOR_SUFFIXES)):
                    where = f"{group}." if group else ""
                    reader.note(f"{where}containers[{index}].resources.{section}.{name}")
                elif is_unrendered(str(name)):
                    reader.note(
                        f"{group}.containers[{index}].resources.{section}"
                        if group
                        else f"containers[{index}].resources.{section}"
                    )


def _prefix(template: PodTemplate) -> str:
    """The start of the unrendered-field paths `_accelerator_placeholders` notes for this template."""
    return f"{template.group}.containers[" if template.group else "containers["


def _owned_by_extracted_kind(obj: KubeObject) -> bool:
    owner = controller_owner(obj)
    return owner is not None and str(owner.get("kind")) in _OWNER_KINDS


def _distributed(key: str, obj: KubeObject, templates: tuple[PodTemplate, ...]) -> bool:
    pods = sum(template.replicas for template in templates)
    if key in ("batch/Job", "batch/CronJob"):  # many pods of one Job only form one run when Indexed
        job_spec = dig(obj, "spec", "jobTemplate", "spec") if key == "batch/CronJob" else obj.get("spec")
        return pods > 1 and dig(job_spec, "completionMode") == "Indexed"
    if key == "leaderworkerset.x-k8s.io/LeaderWorkerSet":
        return integer_size(obj) > 1
    if key in KNOWN:
        return key not in _SINGLE_NODE_KINDS and pods > 1
    # Serving CRDs and kinds found by shape: their replicas serve apart unless a leader/worker group
    # (LeaderWorkerSet-shaped, a KServe workerSpec) or an operator's multi-node setting joins them.
    grouped = any(
        template.group in ("leader", "worker") or template.group.endswith("-worker") for template in templates
    )
    multi_node = integer(dig(obj, "spec", "multiNode", "size"), 1) > 1 or any(
        integer(dig(service, "multinode", "nodeCount"), 1) > 1
        for service in mapping(dig(obj, "spec", "services")).values()
    )
    return pods > 1 and (grouped or multi_node)


def integer_size(obj: KubeObject) -> int:
    return integer(dig(obj, "spec", "leaderWorkerTemplate", "size"), 1)


def _listens(spec: dict[str, Any]) -> bool:
    for container in containers(spec, include_init=False):
        if items(container.get("ports")) or mapping(container.get("readinessProbe")):
            return True
        if any(name in ("PORT", "SERVER_PORT", "HTTP_PORT") for name in container_env(container)):
            return True
    return False


def _node_diagnostic(key: str, templates: tuple[PodTemplate, ...], distributed: bool) -> bool:
    """One pod on the host's network or PID space, pinned to a node: it examines that node."""
    if distributed or key not in ("Pod", "batch/Job") or len(templates) != 1 or templates[0].replicas > 1:
        return False
    spec = templates[0].spec
    host = spec.get("hostNetwork") is True or spec.get("hostPID") is True
    pinned = bool(spec.get("nodeName")) or "kubernetes.io/hostname" in mapping(spec.get("nodeSelector"))
    return host and pinned


def _template_labels(obj: KubeObject) -> dict[str, str]:
    labels = labels_of(obj)
    labels.update(
        {str(k): str(v) for k, v in mapping(dig(obj, "spec", "template", "metadata", "labels")).items()}
    )
    return labels


_HOSTNAME = "kubernetes.io/hostname"


def pinned_host(spec: dict[str, Any]) -> str:
    """The single node a pod spec is tied to, or '' when it may run on several."""
    if spec.get("nodeName"):
        return str(spec["nodeName"])
    selected = mapping(spec.get("nodeSelector")).get(_HOSTNAME)
    if selected:
        return str(selected)
    required = dig(spec, "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution")
    terms = items(dig(required, "nodeSelectorTerms"))
    hosts = set()
    for term in terms:
        values = [
            expression.get("values")
            for expression in items(term.get("matchExpressions"))
            if expression.get("key") == _HOSTNAME and expression.get("operator") == "In"
        ]
        if not values or not isinstance(values[0], list):
            return ""
        hosts |= {str(value) for value in values[0]}
    return next(iter(hosts)) if len(hosts) == 1 else ""


def _labels_by_spec(obj: KubeObject) -> dict[int, dict[str, str]]:
    """id(pod spec) -> the labels of the PodTemplateSpec holding it, for every template in the object."""
    found: dict[int, dict[str, str]] = {}

    def walk(node: Any) -> None:
        if isinstance(node, list):
            for value in node:
                walk(value)
        elif isinstance(node, dict):
            inner = node.get("spec")
            labels = mapping(dig(node, "metadata", "labels"))
            if isinstance(inner, dict) and labels and node is not obj:
                found[id(inner)] = {str(k): str(v) for k, v in labels.items()}
            for key, value in node.items():
                if key not in ("metadata", "status"):
                    walk(value)

    walk(obj.get("spec"))
    return found


@dataclass(frozen=True)
class _TemplateShape:
    """What a workload reads from one pod template's containers alone, whichever object holds them."""

    gpus: int
    placeholders: tuple[str, ...]  # unrendered accelerator fields, as `_accelerator_placeholders` notes
    commands: tuple[Commands, ...]
    env: dict[str, str]  # app containers' env and what their scripts export, merged in order
    images: tuple[str, ...]
    listens: bool


def _template_shape(group: str, spec: dict[str, Any]) -> _TemplateShape:
    reader = Reader()
    _accelerator_placeholders(group, spec, reader)
    app = containers(spec, include_init=False)
    env: dict[str, str] = {}
    for container in app:
        env.update(container_env(container))
        env.update(commands_of(container).exported)
    return _TemplateShape(
        gpus_requested(spec),
        tuple(reader.unrendered),
        tuple(commands_of(container) for container in app),
        env,
        tuple(images(spec)),
        _listens(spec),
    )


# The parts of a pod spec `_template_shape` reads: two templates whose parts are the same objects
# (the snapshot loader stores equal parts once) have the same shape.
_SHAPE_FIELDS = ("containers", "initContainers", "resourceClaims")


class ShapeCache:
    """`_template_shape` once per distinct template of one snapshot, not once per pod.

    Keyed on the identity of the spec parts it reads, which the loader shares between the pods of one
    template; each entry holds those parts, so an identity is never reused while the cache lives.
    """

    def __init__(self) -> None:
        self._shapes: dict[tuple[str, int, int, int], tuple[tuple[Any, ...], _TemplateShape]] = {}
        self._roles: dict[tuple[Any, ...], tuple[Role, tuple[str, ...]]] = {}

    def role(
        self, facts: Facts, shapes: list[_TemplateShape], entrypoint: str
    ) -> tuple[Role, tuple[str, ...]]:
        """`classify(facts)`, once per kind, templates, name signals and the facts not read from them.

        The shapes are held by this cache, so their identities stand for their contents.
        """
        key = (
            facts.kind_key,
            name_signals(facts),
            tuple(id(shape) for shape in shapes),
            entrypoint,
            facts.gpus,
            facts.gpu_pods,
            facts.distributed,
            facts.listens,
            facts.agent,
            facts.node_diagnostic,
        )
        found = self._roles.get(key)
        if found is None:
            found = self._roles[key] = classify(facts)
        return found

    def shape(self, group: str, spec: dict[str, Any]) -> _TemplateShape:
        parts = tuple(spec.get(name) for name in _SHAPE_FIELDS)
        key = (group, id(parts[0]), id(parts[1]), id(parts[2]))
        found = self._shapes.get(key)
        if found is not None and all(a is b for a, b in zip(found[0], parts, strict=True)):
            return found[1]
        shape = _template_shape(group, spec)
        self._shapes[key] = (parts, shape)
        return shape


def workload_of(key: str, obj: KubeObject, shapes: ShapeCache | None = None) -> Workload | None:
    """One object as a Workload; None when it holds no pod template or is owned by a kind we read."""
    extractor = EXTRACTORS.get(key)
    if _owned_by_extracted_kind(obj) or key.rsplit("/", 1)[-1] in _NOT_WORKLOADS:
        return None
    reader = Reader()
    found = extractor(obj, reader) if extractor is not None else discovered(obj, reader)
    if extractor is None and not found:
        return None
    shapes = shapes or ShapeCache()
    owner = ref(obj)
    labels = _labels_by_spec(obj)
    specs = [(group, spec, replicas) for group, spec, replicas in found]
    shaped = [shapes.shape(group, mapping(spec)) for group, spec, _ in specs]
    templates = tuple(
        PodTemplate(
            owner,
            key,
            group,
            mapping(spec),
            max(replicas, 0),
            shape.gpus,
            labels.get(reader.origins.get(id(spec), id(spec)), {}),
        )
        for (group, spec, replicas), shape in zip(specs, shaped, strict=True)
    )
    for shape in shaped:
        for path in shape.placeholders:
            reader.note(path)
    distributed = _distributed(key, obj, templates)
    entrypoint = str(dig(obj, "spec", "entrypoint") or "")
    launched = [commands_of({}, entrypoint)] if entrypoint else []
    commands = tuple(launched + [command for shape in shaped for command in shape.commands])
    env: dict[str, str] = {}
    for shape in shaped:
        env.update(shape.env)
    fragment = key not in CRDS and any(is_patch_fragment(template.spec) for template in templates)
    facts = Facts(
        kind_key=key,
        name=name_of(obj),
        labels=_template_labels(obj),
        images=[image for shape in shaped for image in shape.images],
        commands=commands,
        env=env,
        gpus=max((template.gpus for template in templates), default=0),
        # A template whose accelerator count is templated may well be a GPU pod: classify it as one.
        gpu_pods=sum(
            template.replicas
            for template in templates
            if template.gpus > 0 or any(path.startswith(_prefix(template)) for path in reader.unrendered)
        ),
        distributed=distributed,
        listens=any(shape.listens for shape in shaped),
        agent=_agent(obj, templates),
        node_diagnostic=_node_diagnostic(key, templates, distributed),
    )
    role, evidence = shapes.role(facts, shaped, entrypoint)
    result = Workload(
        owner,
        key,
        obj,
        templates,
        distributed,
        tuple(reader.unrendered),
        role,
        evidence,
        tuple(reader.managed),
        fragment,
    )
    result.__dict__["commands"] = commands  # the cached property, already worked out above
    return result


def _agent(obj: KubeObject, templates: tuple[PodTemplate, ...]) -> str:
    if not templates:
        return ""
    spec = templates[0].spec
    account = str(spec.get("serviceAccountName") or spec.get("serviceAccount") or "")
    return agent_role(name_of(obj), spec, _template_labels(obj)) or (
        agent_role(account, {}, {}) if account else ""
    )


def _build(snapshot: Snapshot) -> list[Workload]:
    found = []
    known = [key for key in WORKLOAD_KINDS if key in set(snapshot.kinds())]
    others = [
        key
        for key in snapshot.kinds()
        if key not in EXTRACTORS and (key.rsplit("/", 1)[0] if "/" in key else "") not in _BUILT_IN_GROUPS
    ]
    shapes = ShapeCache()
    for key in [*known, *sorted(others)]:
        for obj in snapshot.of(key):
            if isinstance(obj, dict) and (workload := workload_of(key, obj, shapes)) is not None:
                found.append(workload)
    return found


def workloads(snapshot: Snapshot) -> list[Workload]:
    """Every top-level workload of the snapshot (known kinds first, then CRDs by shape), built once."""
    return memo(snapshot, "workloads", _build)


def templates(snapshot: Snapshot, kinds: frozenset[str] | None = None) -> Iterator[PodTemplate]:
    """Pod templates of all workloads, optionally only of the given kind keys."""
    for workload in workloads(snapshot):
        if kinds is None or workload.kind_key in kinds:
            yield from workload.templates
