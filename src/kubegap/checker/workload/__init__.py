"""One workload model for every check: each pod template, its accelerators, its role and the evidence.

    from kubegap.checker.workload import Role, workloads

    for workload in workloads(snapshot):
        workload.role            # Role.multi_node_training, Role.serving, Role.benchmark, ...
        workload.role_evidence   # ("runs torchrun", "--nnodes 4"): why that role was assumed
        workload.templates       # PodTemplate(group, spec, replicas, gpus) per template
        workload.commands        # what each app container runs, `sh -c` scripts split (shell.py)
        workload.env()           # env of the GPU containers, plus variables their scripts export
        workload.unrendered      # count and accelerator fields a template engine left unfilled

Pod templates are found in the kinds whose shape we know (`kinds`: core, batch, Kubeflow, JobSet,
Ray, LeaderWorkerSet, Volcano, HyperPod), in CRDs that embed containers their own way (`crds`: KServe,
NIM, Dynamo, Argo, AIBrix), and in any other kind by shape (a PodTemplateSpec-shaped subtree). The
role is decided once (`roles`), and checks select workloads by the roles they declare in
`CheckMeta.roles` through `checks._common.role_workloads`, never by words of their own.
"""

from kubegap.checker.workload.frameworks import (
    runs_bounded_benchmark,
    uses_gloo,
    uses_nccl_tests,
    uses_pytorch_nccl,
)
from kubegap.checker.workload.model import (
    WORKLOAD_KINDS,
    PodTemplate,
    Workload,
    templates,
    workload_of,
    workloads,
)
from kubegap.checker.workload.roles import ALL_ROLES, TRAINING, USER_ROLES, Role
from kubegap.checker.workload.shell import Commands, commands_of, parse_script
from kubegap.checker.workload.unrendered import is_placeholder, is_unrendered

__all__ = [
    "ALL_ROLES",
    "TRAINING",
    "USER_ROLES",
    "WORKLOAD_KINDS",
    "Commands",
    "PodTemplate",
    "Role",
    "Workload",
    "commands_of",
    "is_placeholder",
    "is_unrendered",
    "parse_script",
    "runs_bounded_benchmark",
    "templates",
    "uses_gloo",
    "uses_nccl_tests",
    "uses_pytorch_nccl",
    "workload_of",
    "workloads",
]
