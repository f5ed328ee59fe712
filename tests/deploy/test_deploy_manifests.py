"""deploy/: the kustomize base renders with the real kubectl, grants exactly `kubegap rbac`, and
kubegap scans it clean; the alert rules pass promtool; the Dockerfile agrees with the manifests."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from kubegap.checker.live.rbac import render_rbac
from kubegap.checker.registry import all_checks

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"


def _kustomize(folder: Path) -> list[dict[str, Any]]:
    if shutil.which("kubectl") is None:
        pytest.skip("kubectl is not installed (scripts/test-deps installs it)")
    done = subprocess.run(
        ["kubectl", "kustomize", str(folder)], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    return [document for document in yaml.safe_load_all(done.stdout) if document]


def _one(documents: list[dict[str, Any]], kind: str, name: str | None = None) -> dict[str, Any]:
    found = [
        doc for doc in documents if doc["kind"] == kind and (name is None or doc["metadata"]["name"] == name)
    ]
    assert len(found) == 1, f"expected one {kind} {name or ''}, found {len(found)}"
    return found[0]


def _pod_spec(workload: dict[str, Any]) -> dict[str, Any]:
    if workload["kind"] == "CronJob":
        spec: dict[str, Any] = workload["spec"]["jobTemplate"]["spec"]["template"]["spec"]
        return spec
    pod: dict[str, Any] = workload["spec"]["template"]["spec"]
    return pod


def test_the_base_grants_exactly_the_generated_read_only_role_to_its_service_account() -> None:
    documents = _kustomize(DEPLOY)
    role = _one(documents, "ClusterRole", "kubegap-reader")
    generated = yaml.safe_load(render_rbac([check.meta for check in all_checks()], symptoms=True))
    assert role["rules"] == generated["rules"]
    verbs = {verb for rule in role["rules"] for verb in rule["verbs"]}
    assert verbs == {"get", "list"}
    assert all("secrets" not in rule.get("resources", []) for rule in role["rules"])
    binding = _one(documents, "ClusterRoleBinding", "kubegap-reader")
    assert binding["roleRef"]["name"] == "kubegap-reader"
    assert binding["subjects"] == [{"kind": "ServiceAccount", "name": "kubegap", "namespace": "kubegap"}]
    account = _one(documents, "ServiceAccount", "kubegap")
    assert account["metadata"]["namespace"] == "kubegap"
    for workload in (_one(documents, "CronJob"), _one(documents, "Deployment")):
        assert workload["metadata"]["namespace"] == "kubegap"
        assert _pod_spec(workload)["serviceAccountName"] == "kubegap"


@pytest.mark.parametrize("kind", ["CronJob", "Deployment"])
def test_the_workload_arguments_are_real_kubegap_options(kind: str) -> None:
    container = _pod_spec(_one(_kustomize(DEPLOY), kind))["containers"][0]
    done = subprocess.run(
        [sys.executable, "-m", "kubegap", *container["args"], "--help"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr  # an unknown option would fail before --help is handled


def test_kubegap_scans_its_own_deploy_manifests_clean(tmp_path: Path) -> None:
    rendered = tmp_path / "rendered.yaml"
    documents = _kustomize(DEPLOY) + _kustomize(DEPLOY / "monitoring")
    rendered.write_text(yaml.safe_dump_all(documents))
    command = [sys.executable, "-m", "kubegap", "scan", "--manifests", str(rendered), "--fail-on", "info"]
    done = subprocess.run([*command, "-f", "json"], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    assert '"fail": 0' in done.stdout


def test_the_alert_rules_pass_promtool(tmp_path: Path) -> None:
    promtool = shutil.which("promtool")
    if promtool is None:
        pytest.skip("promtool is not installed (scripts/test-deps installs Debian's prometheus)")
    rule = yaml.safe_load((DEPLOY / "monitoring" / "prometheusrule.yaml").read_text())
    rules = tmp_path / "rules.yaml"
    rules.write_text(yaml.safe_dump({"groups": rule["spec"]["groups"]}))
    done = subprocess.run(
        [promtool, "check", "rules", str(rules)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SUCCESS: 4 rules found" in done.stdout


def test_the_dockerfile_runs_as_the_user_and_ports_the_manifests_expect() -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    documents = _kustomize(DEPLOY)
    user = re.search(r"^USER (\d+):(\d+)$", dockerfile, re.MULTILINE)
    assert user is not None
    exposed = {int(port) for port in re.findall(r"^EXPOSE (.+)$", dockerfile, re.MULTILINE)[0].split()}
    assert re.search(r'^ENTRYPOINT \["kubegap"\]$', dockerfile, re.MULTILINE)
    for kind in ("CronJob", "Deployment"):
        spec = _pod_spec(_one(documents, kind))
        assert spec["securityContext"]["runAsUser"] == int(user.group(1))
        assert spec["securityContext"]["runAsGroup"] == int(user.group(2))
        for container in spec["containers"]:
            assert container["image"] == "kubegap:0.1.0"
            assert {port["containerPort"] for port in container.get("ports", [])} <= exposed
