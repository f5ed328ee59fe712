"""Huge training images on GPU nodes make every fresh node wait many minutes before it can start work."""

from __future__ import annotations

from collections.abc import Iterator

from kubegap.bilingual import message
from kubegap.checker.check import CheckMeta
from kubegap.checker.checks._common import GPU_NODE_NOTE, failed, not_applicable, passed, sample, text
from kubegap.checker.extract import daemonsets, gpu_nodes
from kubegap.checker.finding import Finding, Severity
from kubegap.checker.snapshot import Snapshot

HUGE = 10 * 1024**3
PREPULL_WORDS = (
    "prepull",
    "pre-pull",
    "image-puller",
    "imagepuller",
    "kube-fledged",
    "warm-image",
    "image-cache",
)

CHECK = CheckMeta(
    id="gpu-image-pull-stall",
    area="gpu-stack",
    severity=Severity.low,
    title=text("GPU 노드의 거대한 이미지 미리 받기", "Pre-pull of huge images on GPU nodes"),
    why=text(
        "수십 GB짜리 학습 이미지는 새 노드에서 받는 데만 수십 분이 걸리고, kubelet이 기본적으로 이미지를 "
        "하나씩 받으면 다른 이미지까지 그 뒤에서 기다립니다. OpenAI는 17GB Dota 이미지 때문에 새 노드의 "
        "파드가 약 30분씩 Pending에 머물렀습니다. 고장 난 노드를 새 노드로 바꿀 때마다 이 시간이 복구 "
        "시간에 더해집니다.",
        "A training image of tens of GB takes tens of minutes to pull on a fresh node, and with kubelet's "
        "default one-at-a-time pulls every other image waits behind it. At OpenAI a 17 GB Dota image left "
        "pods on new nodes Pending for about 30 minutes. Every time a failed node is replaced, that wait "
        "is added to recovery.",
    ),
    remediation=text(
        "이미지를 줄이거나(레이어 정리, 모델 가중치는 볼륨으로), 사전 다운로드 "
        "DaemonSet·kube-fledged·이미지 스트리밍으로 미리 받아 두고, kubelet의 serializeImagePulls를 끄고 "
        "노드 가까운 레지스트리 미러를 두세요.",
        "Shrink the image (trim layers, ship model weights as a volume), pre-pull it with a DaemonSet, "
        "kube-fledged or image streaming, turn off kubelet serializeImagePulls, and use a registry mirror "
        "close to the nodes.",
    ),
    decides=text(
        "GPU 노드에 캐시된 이미지 중 10GiB가 넘는 것이 있는데, 이미지를 미리 받아 두는 DaemonSet(prepull, "
        "image-puller, kube-fledged 등)이 없으면 실패입니다. kubelet 설정은 API로 보이지 않으므로 심각도는 "
        "낮습니다.",
        "Fails when GPU nodes cache an image over 10 GiB and no pre-pull DaemonSet (prepull, image-puller, "
        "kube-fledged and the like) exists. Kubelet settings are not visible through the API, hence the "
        "low severity.",
    ),
    incidents=("openai-2018-k8s-large-image-pulls",),
    needs=("Node", "apps/DaemonSet"),
    components=("gpu-node-software", "storage"),
    references=(
        "https://kubernetes.io/docs/reference/config-api/kubelet-config.v1beta1/",
        "https://github.com/senthilrch/kube-fledged",
    ),
    manifests=False,
)


def run(snapshot: Snapshot) -> Iterator[Finding]:
    nodes = gpu_nodes(snapshot)
    if not nodes:
        yield not_applicable(CHECK, GPU_NODE_NOTE)
        return
    huge = [node for node in nodes if node.largest_image[1] > HUGE]
    if not huge:
        yield passed(
            CHECK,
            None,
            message(
                "GPU 노드 {count}대에 10 GiB가 넘는 이미지가 없습니다",
                "no image over 10 GiB on {count} GPU nodes",
                count=len(nodes),
            ),
        )
        return
    prepull = [
        ds.ref.display()
        for ds in daemonsets(snapshot)
        if any(w in ds.ref.name.lower() for w in PREPULL_WORDS)
    ]
    name, size = max((node.largest_image for node in huge), key=lambda image: image[1])
    evidence: dict[str, object] = {
        "image": name,
        "gib": round(size / 1024**3, 1),
        "nodes": sample([n.name for n in huge]),
    }
    if prepull:
        evidence["prepull"] = prepull
        said = message(
            "{image}({gib} GiB)를 {prepull:이} 미리 받아 둡니다",
            "{image} ({gib} GiB) is pre-pulled by {prepull}",
            image=name,
            gib=str(evidence["gib"]),
            prepull=prepull[0],
        )
        yield passed(CHECK, None, said, evidence)
    else:
        yield failed(
            CHECK,
            None,
            message(
                "GPU 노드 {count}대에 {image}({gib} GiB)가 있는데 미리 받아 두는 장치가 없습니다",
                "{count} GPU nodes hold {image} ({gib} GiB) with no pre-pull",
                count=len(huge),
                image=name,
                gib=str(evidence["gib"]),
            ),
            evidence,
        )
