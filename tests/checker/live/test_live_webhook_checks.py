"""The webhook checks judged on an emulated AI platform cluster, read live through the API.

The real-world manifest set holds no webhook configurations and no EndpointSlices, so these checks are
judged here instead: every finding the checks give on the cluster in `clusters/ai-platform-webhooks.yaml`
is listed below with an expert's verdict, and the test fails on any finding not judged or any judged
one that disappears.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import yaml

from k8s_emulator import KubeEmulator
from k8s_emulator.testing import StartEmulator, assert_read_only
from kubegap.checker.finding import Status
from kubegap.checker.live.client import ReadOnlyClient
from kubegap.checker.live.rbac import kinds_read
from kubegap.checker.live.reader import read_cluster
from kubegap.checker.registry import get_check
from kubegap.checker.runner import run_checks

Kubeconfig = Callable[[KubeEmulator], Path]
CLUSTER = Path(__file__).parent / "clusters" / "ai-platform-webhooks.yaml"
CHECKS = ("admission-webhook-no-endpoints", "admission-webhook-kube-system-fragile")

# (check, object, status): every finding an expert expects, with why in the comment.
JUDGED = {
    # The training operator's single pod is not ready: PyTorchJob creates are rejected right now.
    (
        "admission-webhook-no-endpoints",
        "ValidatingWebhookConfiguration/validator.training-operator.kubeflow.org",
        Status.failed,
    ),
    # An uninstalled GPU Operator left a fail-closed webhook pointing at a Service that is gone.
    (
        "admission-webhook-no-endpoints",
        "ValidatingWebhookConfiguration/gpu-operator-validating",
        Status.failed,
    ),
    # Gatekeeper runs one replica and covers kube-system: one node rotation and nodes stop joining.
    (
        "admission-webhook-kube-system-fragile",
        "ValidatingWebhookConfiguration/gatekeeper-validating-webhook-configuration",
        Status.failed,
    ),
}


def test_webhook_checks_on_an_emulated_ai_platform(
    start_emulator: StartEmulator, kubeconfig_for: Kubeconfig
) -> None:
    objects = [document for document in yaml.safe_load_all(CLUSTER.read_text()) if isinstance(document, dict)]
    emulator = start_emulator(objects)
    kinds = kinds_read(get_check(check_id).meta for check_id in CHECKS)
    client = ReadOnlyClient.from_kubeconfig(str(kubeconfig_for(emulator)), sleep=lambda seconds: None)
    try:
        report = run_checks(read_cluster(kinds, client=client), check_ids=list(CHECKS))
    finally:
        client.close()
    assert_read_only(emulator)
    found = {
        (finding.check_id, finding.object.display(), finding.status)
        for finding in report.findings
        if finding.status in (Status.failed, Status.unknown)
    }
    assert found == JUDGED
    statuses = {summary.check_id: summary.status for summary in report.checks}
    assert statuses == dict.fromkeys(CHECKS, Status.failed)
