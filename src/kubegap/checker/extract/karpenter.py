"""Karpenter NodePools and node classes: which pools select GPU nodes, which class each pool uses."""

from __future__ import annotations

import re
from typing import Any

from kubegap.checker.extract._fields import dig, items, mapping, strings
from kubegap.checker.extract.podspec import is_gpu_resource

NODEPOOL = "karpenter.sh/NodePool"
EC2_NODE_CLASS = "karpenter.k8s.aws/EC2NodeClass"
# GPU instance families: EC2 p/g/gr and Trainium, GCP a2/a3/a4/g2, Azure N-series.
_GPU_INSTANCE = re.compile(r"^(?:p\d|g\d|gr\d|trn\d|a[234]-|g2-|standard_n)", re.IGNORECASE)
_GPU_KEY_WORDS = ("gpu", "accelerator")
_INSTANCE_KEYS = (
    "karpenter.k8s.aws/instance-family",
    "eks.amazonaws.com/instance-family",  # EKS Auto Mode
    "node.kubernetes.io/instance-type",
    "karpenter.azure.com/sku-family",
)
# EC2 instance categories: g (graphics) and p (accelerated computing) are the GPU ones.
_CATEGORY_KEYS = ("karpenter.k8s.aws/instance-category", "eks.amazonaws.com/instance-category")


def selects_gpus(pool: dict[str, Any]) -> bool:
    """Structure only: requirements, limits and taints of the pool's node template."""
    spec = mapping(dig(pool, "spec", "template", "spec"))
    for requirement in items(spec.get("requirements")):
        key = str(requirement.get("key") or "")
        operator = str(requirement.get("operator") or "")
        values = strings(requirement.get("values"))
        if operator in ("NotIn", "DoesNotExist", "Lt"):
            continue
        gpu_key = any(word in key.lower() for word in _GPU_KEY_WORDS)
        # 'instance-gpu-count Gt 0' and 'Exists' mean some GPU; 'In [0]' means none.
        if gpu_key and (operator in ("Gt", "Exists") or any(value not in ("0", "") for value in values)):
            return True
        if key in _INSTANCE_KEYS and any(_GPU_INSTANCE.match(value) for value in values):
            return True
        if key in _CATEGORY_KEYS and any(value in ("g", "p") for value in values):
            return True
    limits = mapping(dig(pool, "spec", "limits"))
    if any(is_gpu_resource(str(name)) for name in limits):
        return True
    return any(is_gpu_resource(str(taint.get("key") or "")) for taint in items(spec.get("taints")))


def node_class_name(pool: dict[str, Any]) -> str:
    """The EC2NodeClass a NodePool's nodes are built from ('' when it names another kind or none)."""
    node_class = mapping(dig(pool, "spec", "template", "spec", "nodeClassRef"))
    kind = str(node_class.get("kind") or "EC2NodeClass")
    return str(node_class.get("name") or "") if kind == "EC2NodeClass" else ""
