"""The generated read-only ClusterRole: get/list only, never Secrets, complete, and in sync with deploy/."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from engine_helpers import make_meta

from kubegap.checker.live.rbac import (
    KIND_RESOURCES,
    cluster_role,
    guess_plural,
    kinds_read,
    render_rbac,
    resource_of,
)
from kubegap.checker.registry import all_checks
from kubegap.cli import main

DEPLOYED = Path(__file__).resolve().parents[2] / "deploy" / "rbac.yaml"


def test_rules_group_resources_with_read_verbs_only_and_never_secrets() -> None:
    metas = [
        make_meta("a", needs=("Node", "apps/DaemonSet", "Secret"), optional=("jobset.x-k8s.io/JobSet",)),
        make_meta("b", needs=("Pod", "apps/DaemonSet", "upgrade.cattle.io/Plan")),
    ]
    role = cluster_role(metas)
    rules = {rule["apiGroups"][0]: rule for rule in role["rules"]}  # type: ignore[attr-defined]
    assert rules[""]["resources"] == ["nodes", "pods"]
    assert rules["apps"]["resources"] == ["daemonsets"]
    assert rules["jobset.x-k8s.io"]["resources"] == ["jobsets"]
    assert rules["upgrade.cattle.io"]["resources"] == ["plans"]
    assert all(rule["verbs"] == ["get", "list"] for rule in rules.values())
    parsed = yaml.safe_load(render_rbac(metas))
    assert parsed["kind"] == "ClusterRole" and parsed["rules"] == role["rules"]
    assert not any("secrets" in rule["resources"] for rule in parsed["rules"])
    assert {verb for rule in parsed["rules"] for verb in rule["verbs"]} == {"get", "list"}


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("Node", ("", "nodes")),
        ("kubeflow.org/PyTorchJob", ("kubeflow.org", "pytorchjobs")),
        ("nvidia.com/ClusterPolicy", ("nvidia.com", "clusterpolicies")),
        ("flowcontrol.apiserver.k8s.io/FlowSchema", ("flowcontrol.apiserver.k8s.io", "flowschemas")),
        (
            "rbac.authorization.k8s.io/ClusterRoleBinding",
            ("rbac.authorization.k8s.io", "clusterrolebindings"),
        ),
        ("example.com/Gateway", ("example.com", "gateways")),
        ("example.com/Policy", ("example.com", "policies")),
        ("example.com/Mesh", ("example.com", "meshes")),
    ],
)
def test_resource_of(key: str, expected: tuple[str, str]) -> None:
    assert resource_of(key) == expected


def test_table_plurals_follow_the_convention_or_are_deliberate() -> None:
    for key, (group, plural) in KIND_RESOURCES.items():
        kind = key.rsplit("/", 1)[-1]
        assert group == (key.rsplit("/", 1)[0] if "/" in key else "")
        assert plural == guess_plural(kind) or key in {"Endpoints"}, key


def test_every_kind_a_shipped_check_reads_is_in_the_table() -> None:
    missing = [
        kind for kind in kinds_read(check.meta for check in all_checks()) if kind not in KIND_RESOURCES
    ]
    assert not missing, f"add these kinds to KIND_RESOURCES in checker/live/rbac.py: {missing}"


def test_deploy_rbac_yaml_matches_the_checks(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["rbac"])
    assert exited.value.code == 0
    printed = capsys.readouterr().out
    assert printed == render_rbac([check.meta for check in all_checks()], symptoms=True)
    assert "- events" in printed  # symptoms read Events: the role says so
    assert DEPLOYED.read_text() == printed, "deploy/rbac.yaml is stale: run `kubegap rbac > deploy/rbac.yaml`"
