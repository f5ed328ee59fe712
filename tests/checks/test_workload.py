"""The workload model: templates in known kinds and CRDs, roles with evidence, shell scripts, placeholders."""

from __future__ import annotations

from typing import Any

import pytest

from kubegap.bilingual import render_any
from kubegap.checker.check import CheckMeta
from kubegap.checker.extract import containers
from kubegap.checker.extract.agents import classify
from kubegap.checker.extract.podspec import container_requests_gpu, gpus_requested
from kubegap.checker.registry import all_checks
from kubegap.checker.runner import run_checks
from kubegap.checker.snapshot import Snapshot, kind_key
from kubegap.checker.workload import (
    Role,
    Workload,
    commands_of,
    is_placeholder,
    parse_script,
    workload_of,
)
from kubegap.checker.workload.model import pinned_host
from kubegap.checker.workload.operators import LIVENESS, RESOURCES
from kubegap.checker.workload.serving import blind_paths, engine_of, exec_urls, listening_ports, worker_group

GPU = {"limits": {"nvidia.com/gpu": "8"}}


def _workload(api_version: str, kind: str, spec: dict[str, Any], name: str = "w") -> Workload:
    obj = {
        "apiVersion": api_version,
        "kind": kind,
        "metadata": {"name": name, "namespace": "ns"},
        "spec": spec,
    }
    found = workload_of(kind_key(api_version, kind), obj)
    assert found is not None
    return found


def _container(**fields: Any) -> dict[str, Any]:
    return {"name": "c", "image": "img:1", "resources": GPU, **fields}


def _pod(**fields: Any) -> Workload:
    return _workload("v1", "Pod", {"containers": [_container(**fields)]})


# --- shell strings ------------------------------------------------------------------------------


def test_a_shell_script_is_split_into_commands_and_exported_env() -> None:
    commands = commands_of(
        {
            "command": ["/bin/bash", "-c"],
            "args": ["export NCCL_DEBUG=INFO\nA=1 exec torchrun --nnodes=4 train.py && sleep 10 # done"],
        }
    )
    assert commands.programs() == ["torchrun", "sleep"]
    assert commands.exported == {"NCCL_DEBUG": "INFO", "A": "1"}
    assert commands.flag("--nnodes") == "4"


def test_an_unbalanced_quote_does_not_raise() -> None:
    assert parse_script('echo "unterminated; nvidia-smi').programs() == ["echo", "nvidia-smi"]


def test_args_without_a_command_run_under_the_image_entrypoint() -> None:
    commands = commands_of({"image": "nvcr.io/nvidia/k8s/dcgm-exporter:4.5", "args": ["-f", "/etc/c.csv"]})
    assert commands.flag("-f") == "/etc/c.csv"


# --- placeholders -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        "{{ .Values.gpus }}",
        "${REPLICAS}",
        "$NUM_NODES",
        "<YOUR ACR>.azurecr.io/x",
        "__NUM_NODES__",
        "IMG_PLACEHOLDER",
    ],
)
def test_placeholders_are_recognised(value: str) -> None:
    assert is_placeholder(value)


@pytest.mark.parametrize("value", ["8", "nvcr.io/nvidia/pytorch:24.05-py3", "$(pwd)", "a<b"])
def test_real_values_are_not_placeholders(value: str) -> None:
    assert not is_placeholder(value)


def test_unrendered_counts_and_gpu_quantities_are_recorded_by_path() -> None:
    spec = {
        "replicas": "${REPLICAS}",
        "template": {"spec": {"containers": [_container(resources={"limits": {"nvidia.com/gpu": None}})]}},
    }
    workload = _workload("apps/v1", "Deployment", spec)
    assert workload.unrendered == ("spec.replicas", "containers[0].resources.limits.nvidia.com/gpu")


# --- accelerators -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "resource",
    [
        "aws.amazon.com/neuron",
        "aws.amazon.com/neuroncore",
        "habana.ai/gaudi",
        "google.com/tpu",
        "amd.com/gpu",
    ],
)
def test_other_accelerators_count(resource: str) -> None:
    assert gpus_requested({"containers": [{"resources": {"limits": {resource: "2"}}}]}) == 2


def test_sharing_scheduler_shares_are_not_gpu_counts() -> None:
    container = {"resources": {"limits": {"nvidia.com/gpu": "1", "nvidia.com/gpumem": "3000"}}}
    assert gpus_requested({"containers": [container]}) == 1
    shares_only = {"resources": {"limits": {"nvidia.com/gpumem": "3000"}}}
    assert gpus_requested({"containers": [shares_only]}) == 0
    assert container_requests_gpu(shares_only)


# --- names by whole words -----------------------------------------------------------------------


def test_gpud_does_not_match_gpudirect() -> None:
    assert classify("gpud", {}, {}) == "gpud"
    assert classify("nccl-gpudirect-test", {}, {}) == ""
    assert (
        classify("x", {"containers": [{"image": "us-docker.pkg.dev/gce/gpudirect-tcpxo/nccl-plugin:v1"}]}, {})
        == ""
    )


# --- pod templates in CRDs ----------------------------------------------------------------------


def test_nim_service_image_and_resources_become_a_container() -> None:
    workload = _workload(
        "apps.nvidia.com/v1alpha1",
        "NIMService",
        {"image": {"repository": "nvcr.io/nim/meta/llama", "tag": "1.0"}, "resources": GPU, "replicas": 2},
    )
    assert workload.pods == 2 and workload.total_gpus == 16
    assert workload.role is Role.serving and not workload.distributed


def test_kserve_predictor_model_is_a_container() -> None:
    workload = _workload(
        "serving.kserve.io/v1beta1",
        "InferenceService",
        {
            "predictor": {
                "minReplicas": 2,
                "model": {"modelFormat": {"name": "huggingface"}, "resources": GPU},
            }
        },
    )
    assert [(t.group, t.replicas, t.gpus) for t in workload.templates] == [("predictor", 2, 8)]


def test_dynamo_services_read_their_gpu_resource() -> None:
    spec = {
        "services": {
            "Decode": {
                "replicas": 2,
                "resources": {"limits": {"gpu": "4"}},
                "extraPodSpec": {"mainContainer": {"image": "x"}},
            }
        }
    }
    workload = _workload("nvidia.com/v1alpha1", "DynamoGraphDeployment", spec)
    assert [(t.group, t.replicas, t.gpus) for t in workload.templates] == [("Decode", 2, 4)]


def test_argo_workflow_templates_are_pods() -> None:
    spec = {
        "templates": [
            {"name": "train", "container": _container(command=["python", "train.py"])},
            {"name": "dag", "dag": {}},
        ]
    }
    workload = _workload("argoproj.io/v1alpha1", "Workflow", spec)
    assert [t.group for t in workload.templates] == ["train"]


def test_an_unknown_crd_is_searched_by_shape() -> None:
    spec = {
        "resource": {"count": 2},
        "inference": {
            "replicas": 3,
            "template": {"spec": {"containers": [_container(image="vllm/vllm-openai:v0.9")]}},
        },
    }
    workload = _workload("serving.example.ai/v1", "ModelDeployment", spec)
    assert [(t.group, t.replicas, t.gpus) for t in workload.templates] == [("inference", 3, 8)]
    assert workload.role is Role.serving


def test_a_crd_without_pod_templates_is_no_workload() -> None:
    obj = {"apiVersion": "example.io/v1", "kind": "Thing", "metadata": {"name": "t"}, "spec": {"size": 3}}
    assert workload_of("example.io/Thing", obj) is None


# --- roles --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "role"),
    [
        ({"command": ["sh", "-c", "nvidia-smi && sleep 10"]}, Role.smoke_test),
        ({"command": ["bash", "-c", "all_reduce_perf -b 8 -e 8G -g 8"]}, Role.benchmark),
        ({"command": ["dcgmi", "diag", "-r", "3"]}, Role.benchmark),
        ({"image": "ghcr.io/x/gpu-burn:latest"}, Role.benchmark),
        ({"command": ["vllm", "serve", "org/model"]}, Role.serving),
        ({"command": ["python3", "-m", "sglang.launch_server"]}, Role.serving),
        ({"command": ["jupyter", "lab"]}, Role.notebook),
        ({"command": ["torchrun", "--nproc-per-node=8", "train.py"]}, Role.single_node_training),
        ({"command": ["torchrun", "--nnodes=4", "train.py"]}, Role.multi_node_training),
    ],
)
def test_roles_are_read_from_what_the_containers_run(fields: dict[str, Any], role: Role) -> None:
    workload = _pod(**fields)
    assert workload.role is role, workload.role_evidence
    assert workload.role_evidence


def test_a_distributed_training_kind_is_multi_node_training() -> None:
    template = {"spec": {"containers": [_container()]}}
    spec = {
        "pytorchReplicaSpecs": {
            "Master": {"replicas": 1, "template": template},
            "Worker": {"replicas": 3, "template": template},
        }
    }
    workload = _workload("kubeflow.org/v1", "PyTorchJob", spec)
    assert workload.role is Role.multi_node_training
    assert workload.role_evidence == ("kind PyTorchJob", "4 GPU pods across nodes")


def test_a_daemonset_and_a_pinned_host_network_job_are_node_agents() -> None:
    daemonset = _workload("apps/v1", "DaemonSet", {"template": {"spec": {"containers": [_container()]}}})
    assert daemonset.role is Role.node_agent
    job_spec = {"hostNetwork": True, "nodeName": "n1", "containers": [_container(command=["ibstat"])]}
    job = _workload("batch/v1", "Job", {"template": {"spec": job_spec}})
    assert job.role is Role.node_agent


def test_a_serving_deployment_whose_port_is_set_by_env_listens() -> None:
    spec = {"template": {"spec": {"containers": [_container(env=[{"name": "PORT", "value": "8080"}])]}}}
    assert _workload("apps/v1", "Deployment", spec).role is Role.serving


# --- checks and findings ------------------------------------------------------------------------


def _workload_checks() -> list[CheckMeta]:
    return [check.meta for check in all_checks() if check.meta.roles]


def test_checks_that_read_workloads_declare_their_roles() -> None:
    source_reads = {"role_workloads", "judge_user_templates", "workloads("}
    from inspect import getsource

    for check in all_checks():
        text = getsource(check.run.__module__ and __import__(check.run.__module__, fromlist=["_"]))
        if any(word in text for word in source_reads):
            assert check.meta.roles, f"{check.id} reads workloads but declares no roles"
    assert len(_workload_checks()) >= 15


def test_every_workload_finding_carries_its_role_and_evidence() -> None:
    snapshot = Snapshot(mode="manifests")
    snapshot.add(
        {
            "apiVersion": "kubeflow.org/v1",
            "kind": "PyTorchJob",
            "metadata": {"name": "train", "namespace": "ns"},
            "spec": {
                "pytorchReplicaSpecs": {
                    "Worker": {
                        "replicas": 2,
                        "template": {"spec": {"containers": [_container(command=["torchrun", "train.py"])]}},
                    }
                }
            },
        }
    )
    findings = [f for f in run_checks(snapshot).findings if f.object.kind == "PyTorchJob"]
    assert findings
    for finding in findings:
        assert finding.evidence["role"] == "multi-node-training"
        assert finding.evidence["role_evidence"]


def test_an_unrendered_gpu_count_is_unknown_never_not_applicable() -> None:
    snapshot = Snapshot(mode="manifests")
    container = _container(
        resources={"limits": {"nvidia.com/gpu": "{{ .Values.gpus }}"}}, ports=[{"containerPort": 8000}]
    )
    snapshot.add(
        {
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": "llm"},
            "spec": {"template": {"spec": {"containers": [container]}}},
        }
    )
    found = {f.check_id: f for f in run_checks(snapshot).findings}
    memory = found["gpu-serving-memory-limit"]
    assert memory.status.value == "unknown"
    assert "unrendered template value" in render_any(memory.message, "en")


def test_a_file_without_kueue_does_not_say_kueue_is_not_installed() -> None:
    snapshot = Snapshot(mode="manifests")
    snapshot.add({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}, "data": {}})
    found = {f.check_id: f for f in run_checks(snapshot).findings}
    said = render_any(found["kueue-wait-for-pods-ready"].message, "en")
    assert "not installed" not in said and "these manifests" in said


# --- serving operators, endpoints and pod template facts ----------------------------------------


def test_extensions_workload_kinds_are_read_as_apps() -> None:
    assert kind_key("extensions/v1beta1", "DaemonSet") == "apps/DaemonSet"
    assert kind_key("extensions/v1beta1", "Deployment") == "apps/Deployment"
    assert kind_key("extensions/v1beta1", "Ingress") == "extensions/Ingress"


def test_kaito_workspace_keeps_inference_at_the_top_level() -> None:
    obj = {
        "apiVersion": "kaito.sh/v1beta1",
        "kind": "Workspace",
        "metadata": {"name": "phi", "namespace": "kaito"},
        "resource": {"count": 2, "instanceType": "Standard_NC24ads_A100_v4"},
        "inference": {"preset": {"name": "phi-4"}},
    }
    workload = workload_of("kaito.sh/Workspace", obj)
    assert workload is not None and workload.role is Role.serving
    assert [(t.group, t.replicas) for t in workload.templates] == [("inference", 2)]
    resources = workload.managed_for(RESOURCES, "inference")
    assert resources is not None and not resources.known and resources.operator == "KAITO"


def test_nim_operator_defaults_and_dra_claims_are_in_the_pod() -> None:
    workload = _workload(
        "apps.nvidia.com/v1alpha1",
        "NIMService",
        {
            "image": {"repository": "nvcr.io/nim/x", "tag": "1"},
            "draResources": [{"resourceClaimTemplateName": "gpu"}],
        },
    )
    (container,) = containers(workload.templates[0].spec)
    assert container["livenessProbe"]["httpGet"]["path"] == "/v1/health/live"
    assert workload.requests_gpus and container_requests_gpu(container)
    assert workload.managed_for(LIVENESS, "") is not None
    disabled = _workload("apps.nvidia.com/v1alpha1", "NIMService", {"livenessProbe": {"enabled": False}})
    assert not containers(disabled.templates[0].spec)[0].get("livenessProbe")


def test_nim_pipeline_services_are_templates_unless_disabled() -> None:
    spec = {
        "services": [
            {
                "name": "llm",
                "spec": {"image": {"repository": "a", "tag": "1"}, "resources": GPU, "replicas": 2},
            },
            {"name": "off", "enabled": False, "spec": {"resources": GPU}},
        ]
    }
    workload = _workload("apps.nvidia.com/v1alpha1", "NIMPipeline", spec)
    assert [(t.group, t.replicas, t.gpus) for t in workload.templates] == [("llm", 2, 8)]


def test_llm_inference_service_main_container_gets_the_config_probe() -> None:
    spec = {
        "replicas": 3,
        "template": {"containers": [{"name": "main", "resources": GPU}]},
        "prefill": {"replicas": 2, "template": {"containers": [{"name": "main", "resources": GPU}]}},
    }
    workload = _workload("serving.kserve.io/v1alpha2", "LLMInferenceService", spec)
    assert [(t.group, t.replicas) for t in workload.templates] == [("main", 3), ("prefill", 2)]
    probe = containers(workload.templates[0].spec)[0]["livenessProbe"]
    assert probe["httpGet"]["path"] == "/health"
    assert "livenessProbe" not in spec["template"]["containers"][0]  # the object itself is not changed


def test_kserve_runtime_and_webhook_fill_what_the_predictor_leaves_out() -> None:
    model = _workload(
        "serving.kserve.io/v1beta1", "InferenceService", {"predictor": {"pytorch": {"resources": GPU}}}
    )
    assert model.managed_for(LIVENESS, "predictor") is not None
    assert model.managed_for(RESOURCES, "predictor") is not None
    custom = _workload(
        "serving.kserve.io/v1beta1", "InferenceService", {"predictor": {"containers": [_container()]}}
    )
    filled = custom.managed_for(RESOURCES, "predictor")
    assert (
        filled is not None and "webhook" in filled.what and custom.managed_for(LIVENESS, "predictor") is None
    )


def test_kuberay_probe_is_added_where_the_ray_container_has_none() -> None:
    spec = {
        "headGroupSpec": {"template": {"spec": {"containers": [_container(name="head")]}}},
        "workerGroupSpecs": [
            {
                "groupName": "gpu",
                "replicas": 1,
                "template": {"spec": {"containers": [_container(livenessProbe={"tcpSocket": {"port": 1}})]}},
            }
        ],
    }
    cluster = _workload("ray.io/v1", "RayCluster", spec)
    head, worker = (containers(t.spec)[0] for t in cluster.templates)
    assert "local_raylet_healthz" in " ".join(head["livenessProbe"]["exec"]["command"])
    assert worker["livenessProbe"] == {"tcpSocket": {"port": 1}}
    service = _workload("ray.io/v1", "RayService", {"rayClusterConfig": spec})
    filled = service.managed_for(LIVENESS, "head")
    assert filled is not None and filled.restarts_engine


def test_dynamo_workers_get_the_operator_liveness_probe() -> None:
    spec = {
        "services": {
            "Decode": {
                "resources": {"limits": {"gpu": "1"}},
                "extraPodSpec": {"mainContainer": {"image": "x"}},
            }
        }
    }
    workload = _workload("nvidia.com/v1alpha1", "DynamoGraphDeployment", spec)
    assert containers(workload.templates[0].spec)[0]["livenessProbe"]["httpGet"]["path"] == "/live"


def test_old_mpijob_template_is_read() -> None:
    spec = {
        "replicas": 2,
        "template": {"spec": {"containers": [_container(command=["mpirun", "python", "t.py"])]}},
    }
    workload = _workload("kubeflow.org/v1alpha1", "MPIJob", spec)
    assert [(t.replicas, t.gpus) for t in workload.templates] == [(2, 8)] and workload.gpu_pods == 2


def test_pod_templates_carry_their_labels_and_pinned_host() -> None:
    spec = {
        "replicas": 2,
        "template": {
            "metadata": {"labels": {"app": "llm"}},
            "spec": {"nodeSelector": {"kubernetes.io/hostname": "n1"}, "containers": [_container()]},
        },
    }
    (template,) = _workload("apps/v1", "Deployment", spec).templates
    assert template.labels == {"app": "llm"} and template.pinned_host == "n1"
    affinity = {
        "nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [
                    {
                        "matchExpressions": [
                            {"key": "kubernetes.io/hostname", "operator": "In", "values": ["a", "b"]}
                        ]
                    }
                ]
            }
        }
    }
    assert pinned_host({"affinity": affinity}) == ""


def test_a_container_without_an_image_makes_a_patch_fragment() -> None:
    patch = _workload(
        "apps/v1", "Deployment", {"template": {"spec": {"containers": [{"name": "c", "resources": GPU}]}}}
    )
    assert patch.fragment
    assert not _pod().fragment


@pytest.mark.parametrize(
    ("container", "engine", "ports"),
    [
        ({"image": "x", "command": ["vllm", "serve", "m", "--port=8080"]}, "vLLM", {8080}),
        (
            {"image": "x", "command": ["python3", "-m", "sglang.launch_server", "--port", "30000"]},
            "SGLang",
            {30000},
        ),
        (
            {
                "image": "ghcr.io/huggingface/text-generation-inference:3.0",
                "env": [{"name": "PORT", "value": "8080"}],
            },
            "TGI",
            {8080},
        ),
        (
            {"image": "ollama/ollama:0.5", "env": [{"name": "OLLAMA_HOST", "value": "0.0.0.0:11434"}]},
            "Ollama",
            {11434},
        ),
        (
            {"image": "x", "command": ["sh", "-c", "tritonserver --model-repository=/m --http-port 8000"]},
            "Triton",
            {8000},
        ),
        ({"image": "vllm/vllm-openai:v0.9", "command": ["sleep", "inf"]}, None, set()),
        ({"image": "x", "command": ["vllm", "bench", "throughput"]}, None, set()),
    ],
)
def test_engines_and_their_ports_are_read_from_what_runs(
    container: dict[str, Any], engine: str | None, ports: set[int]
) -> None:
    found = engine_of(container)
    assert (found.name if found else None) == engine
    assert listening_ports(container) == ports


def test_a_kuberay_container_is_not_judged_by_its_image() -> None:
    assert engine_of({"image": "vllm/vllm-openai:v0.9"}) is not None
    assert engine_of({"image": "vllm/vllm-openai:v0.9"}, by_image=False) is None


def test_probe_paths_that_cannot_see_the_engine() -> None:
    probe = {"exec": {"command": ["sh", "-c", "curl -sf http://localhost:8000/v1/models"]}}
    assert exec_urls(probe) == ["/v1/models"] and blind_paths(exec_urls(probe)) == ["/v1/models"]
    assert blind_paths(["/health", "/v2/health/live", "health_generate"]) == []
    assert blind_paths(["metrics/", "/api/gcs_healthz"]) == ["/metrics", "/api/gcs_healthz"]


def test_ome_components_are_filled_from_their_runtime() -> None:
    spec = {
        "model": {"name": "llama-3-70b-instruct"},
        "runtime": {"name": "vllm-text-generation"},
        "engine": {"minReplicas": 2, "maxReplicas": 3, "resources": {"requests": {"nvidia.com/gpu": "1"}}},
    }
    workload = _workload("ome.io/v1beta1", "InferenceService", spec)
    assert workload.role is Role.serving
    assert [(t.group, t.replicas, t.gpus) for t in workload.templates] == [("engine", 2, 1)]
    assert workload.managed_for(LIVENESS, "engine") is not None
    assert workload.managed_for(RESOURCES, "engine") is not None


def test_roles_with_entry_and_worker_templates_keep_apart() -> None:
    entry = {"spec": {"containers": [_container(command=["vllm", "serve", "m"])]}}
    worker = {"spec": {"containers": [_container(command=["ray", "start", "--block"])]}}
    spec = {
        "replicas": 1,
        "template": {
            "roles": [
                {
                    "name": "prefill",
                    "replicas": 2,
                    "entryTemplate": entry,
                    "workerReplicas": 1,
                    "workerTemplate": worker,
                },
                {"name": "decode", "replicas": 3, "entryTemplate": entry},
            ]
        },
    }
    workload = _workload("workload.serving.example.io/v1alpha1", "ModelServing", spec)
    groups = [t.group for t in workload.templates]
    assert groups == ["prefill-entry", "prefill-worker", "decode-entry"]
    worker_template = workload.templates[1]
    assert worker_group(workload, worker_template) and not worker_group(workload, workload.templates[0])


def test_templates_keep_their_labels_where_an_operator_fills_the_pod() -> None:
    """KubeRay's probe and KServe's config template are added to a copy of the pod spec: the copy keeps
    the labels of the template it came from, so PDBs and Services still match its pods."""
    head = {"metadata": {"labels": {"app": "llm"}}, "spec": {"containers": [_container()]}}
    worker = {"metadata": {"labels": {"app": "llm", "tier": "gpu"}}, "spec": {"containers": [_container()]}}
    spec = {
        "headGroupSpec": {"template": head},
        "workerGroupSpecs": [{"groupName": "gpu", "template": worker}],
    }
    cluster = _workload("ray.io/v1", "RayCluster", spec)
    assert [t.labels for t in cluster.templates] == [{"app": "llm"}, {"app": "llm", "tier": "gpu"}]
    assert cluster.templates[0].spec is not head["spec"]  # the copy carrying KubeRay's probe
