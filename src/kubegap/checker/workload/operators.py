"""What a serving operator fills into the pods it creates, when the object we read does not say.

A NIMService without a liveness probe still gets one (the NIM operator's default on
`/v1/health/live`); an LLMInferenceService container is merged over KServe's well-known config
template, which carries `/health` probes; a KServe predictor that names a model format runs the
ServingRuntime's container, whose probes and limits are in another object; KServe's defaulting
webhook gives custom predictors a memory limit from its ConfigMap; KAITO builds the pod of a preset
workspace itself. A check must not blame the object for what its operator adds, and must not pass
what it cannot see: the extractors record each such field here, with who fills it and where that is
documented, and checks turn it into a pass (the filled value is known and seen by the check) or an
`unknown` naming the operator.
"""

from __future__ import annotations

from dataclasses import dataclass

LIVENESS = "livenessProbe"
RESOURCES = "resources"
DISRUPTION_BUDGET = "podDisruptionBudget"


@dataclass(frozen=True)
class Managed:
    """One field of one template that an operator fills: `aspect` is LIVENESS or RESOURCES."""

    aspect: str  # LIVENESS, RESOURCES or DISRUPTION_BUDGET
    group: str  # the template group it applies to ('' for single-template kinds)
    operator: str  # "the NIM operator", "KServe" ...
    what: str  # English: what the operator does, for evidence and the unknown's message
    ko: str  # the same in Korean
    reference: str  # where the behaviour is documented or implemented
    known: bool  # True: the filled value is in the template (a default we copied); False: not visible
    restarts_engine: bool = False  # the operator itself health-checks the engine and restarts it

    @property
    def evidence(self) -> dict[str, str]:
        return {"filled_by": self.operator, "how": self.what, "reference": self.reference}


NIM_PROBES = "https://github.com/NVIDIA/k8s-nim-operator/blob/main/api/apps/v1alpha1/nimservice_types.go"
KSERVE_LLM_CONFIG = (
    "https://github.com/kserve/kserve/blob/master/config/llmisvcconfig/config-llm-template.yaml"
)
KSERVE_RUNTIME_MERGE = (
    "https://github.com/kserve/kserve/blob/master/pkg/controller/v1beta1/inferenceservice/utils/utils.go"
)
KSERVE_RESOURCE_DEFAULTS = (
    "https://github.com/kserve/kserve/blob/master/pkg/apis/serving/v1beta1/inference_service_defaults.go"
)
KAITO_PRESET = "https://github.com/kaito-project/kaito/blob/main/pkg/workspace/inference/preset_inferences.go"


def nim_default_liveness(group: str) -> Managed:
    return Managed(
        LIVENESS,
        group,
        "NIM operator",
        "the NIM operator adds its default liveness probe, GET /v1/health/live on the api port",
        "NIM 오퍼레이터가 기본 livenessProbe(api 포트의 GET /v1/health/live)를 넣습니다",
        NIM_PROBES,
        True,
    )


def kserve_llm_liveness(group: str) -> Managed:
    return Managed(
        LIVENESS,
        group,
        "KServe",
        "KServe merges the container over its well-known config template, whose liveness probe is "
        "GET /health on port 8000",
        "KServe가 컨테이너를 기본 설정 템플릿 위에 병합하며, 그 livenessProbe는 8000번 포트의 GET "
        "/health입니다",
        KSERVE_LLM_CONFIG,
        True,
    )


def kserve_runtime(aspect: str, group: str) -> Managed:
    return Managed(
        aspect,
        group,
        "KServe",
        "KServe runs the ServingRuntime's container merged with this predictor, so the runtime's "
        f"{aspect} applies and it is not in this input",
        f"KServe가 ServingRuntime의 컨테이너에 이 predictor를 병합해 실행하므로, 이 입력에 없는 런타임의 "
        f"{aspect} 설정이 적용됩니다",
        KSERVE_RUNTIME_MERGE,
        False,
    )


def kserve_resource_defaults(group: str) -> Managed:
    return Managed(
        RESOURCES,
        group,
        "KServe",
        "KServe's defaulting webhook fills a missing limits.memory from the inferenceservice-config "
        "ConfigMap (2Gi as shipped)",
        "KServe의 기본값 웹후크가 비어 있는 limits.memory를 inferenceservice-config ConfigMap 값(기본 "
        "2Gi)으로 채웁니다",
        KSERVE_RESOURCE_DEFAULTS,
        False,
    )


def kaito_preset(aspect: str, group: str) -> Managed:
    return Managed(
        aspect,
        group,
        "KAITO",
        f"KAITO builds the pod of a preset workspace itself, {aspect} included, from the model preset",
        f"KAITO가 프리셋 워크스페이스의 파드를 모델 프리셋으로 직접 만들며, {aspect}도 거기서 정해집니다",
        KAITO_PRESET,
        aspect == LIVENESS,  # its preset probe is GET /health on the inference port
    )


KUBERAY_PROBES = "https://github.com/ray-project/kuberay/pull/1674"
# KubeRay's default liveness probe for Ray containers: the raylet's and (head only) GCS's health.
KUBERAY_LIVENESS = {
    "exec": {
        "command": [
            "bash",
            "-c",
            "wget -T 2 -q -O- http://localhost:52365/api/local_raylet_healthz | grep success && "
            "wget -T 2 -q -O- http://localhost:8265/api/gcs_healthz | grep success",
        ]
    }
}


def kuberay_liveness(group: str, serve: bool) -> Managed:
    """KubeRay gives Ray containers a liveness probe on the raylet (and GCS); under a RayService, Ray
    Serve's controller also health-checks every replica and restarts one that fails."""
    if serve:
        return Managed(
            LIVENESS,
            group,
            "KubeRay and Ray Serve",
            "Ray Serve's controller health-checks each replica and restarts a failing one; KubeRay adds "
            "raylet and GCS liveness probes",
            "Ray Serve 컨트롤러가 레플리카마다 상태를 점검해 실패한 것을 재시작하고, KubeRay가 raylet·GCS "
            "livenessProbe를 넣습니다",
            KUBERAY_PROBES,
            True,
            restarts_engine=True,
        )
    return Managed(
        LIVENESS,
        group,
        "KubeRay",
        "KubeRay adds a liveness probe that asks only the raylet and GCS for their health",
        "KubeRay가 raylet과 GCS 상태만 묻는 livenessProbe를 넣습니다",
        KUBERAY_PROBES,
        True,
    )


DYNAMO_PROBES = "https://docs.nvidia.com/dynamo/dev/kubernetes/operations/health-probes"
DYNAMO_LIVENESS = {"httpGet": {"path": "/live", "port": 9090}}


def dynamo_liveness(group: str) -> Managed:
    return Managed(
        LIVENESS,
        group,
        "Dynamo operator",
        "the Dynamo operator gives each worker a liveness probe on /live of its system port (9090), "
        "which canary health checks keep honest",
        "Dynamo 오퍼레이터가 워커마다 시스템 포트(9090)의 /live에 livenessProbe를 두고, 카나리 상태 점검이 "
        "그 상태를 갱신합니다",
        DYNAMO_PROBES,
        True,
    )


OME_RUNTIME = "https://docs.sglang.io/ome/docs/concepts/inference_service"
OME_BUDGETS = (
    "https://raw.githubusercontent.com/ome-projects/ome-docs/main/src/lib/content/guides/deploy-models/"
    "configure-pod-disruption-budgets.md"
)


def ome_runtime(aspect: str, group: str) -> Managed:
    return Managed(
        aspect,
        group,
        "OME",
        f"OME builds this component's pods from its serving runtime, whose {aspect} is not in this input",
        f"OME가 이 컴포넌트의 파드를 서빙 런타임으로 만들며, 그 런타임의 {aspect} 설정은 이 입력에 없습니다",
        OME_RUNTIME,
        False,
    )


def ome_disruption_budget(group: str) -> Managed:
    return Managed(
        DISRUPTION_BUDGET,
        group,
        "OME",
        "OME gives each component a PodDisruptionBudget (maxUnavailable: 1 by default)",
        "OME가 컴포넌트마다 PodDisruptionBudget(기본 maxUnavailable: 1)을 만듭니다",
        OME_BUDGETS,
        True,
    )
