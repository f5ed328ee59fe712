"""The emulator itself answers like an API server, so the live tests built on it mean something."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import yaml

from k8s_emulator import KubeEmulator, load_objects
from k8s_emulator.factories import gpu_node, pod


def _definition(group: str, kind: str, plural: str, scope: str, versions: list[str]) -> dict[str, Any]:
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": f"{plural}.{group}"},
        "spec": {
            "group": group,
            "scope": scope,
            "names": {"kind": kind, "plural": plural, "shortNames": ["wdg"]},
            "versions": [{"name": version, "served": True} for version in versions],
        },
    }


def test_groups_prefer_ga_versions_and_crds_come_from_their_definitions() -> None:
    definition = _definition("example.com", "Widget", "widgets", "Cluster", ["v1beta1", "v1", "v2alpha1"])
    with KubeEmulator(
        [definition], enable=["nvidia.com/ClusterPolicy", "nvidia.com/NVIDIADriver"]
    ) as emulator:
        groups = {group["name"]: group for group in httpx.get(f"{emulator.url}/apis").json()["groups"]}
        widgets = httpx.get(f"{emulator.url}/apis/example.com/v1").json()["resources"]
        listed = httpx.get(f"{emulator.url}/apis/example.com/v1/widgets").json()
    assert groups["nvidia.com"]["preferredVersion"]["version"] == "v1"
    assert [entry["version"] for entry in groups["example.com"]["versions"]] == ["v1", "v1beta1", "v2alpha1"]
    assert widgets == [
        {
            "name": "widgets",
            "singularName": "widget",
            "namespaced": False,
            "kind": "Widget",
            "verbs": ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"],
            "shortNames": ["wdg"],
        }
    ]
    assert listed["kind"] == "WidgetList" and listed["items"] == []
    assert "jobset.x-k8s.io" not in groups  # not installed: no objects, not enabled


def test_lists_page_filter_and_fail_like_the_api_server() -> None:
    objects = [pod(f"p{index}", "a", labels={"team": "x" if index % 2 else "y"}) for index in range(5)]
    with KubeEmulator([*objects, gpu_node("n1")]) as emulator:
        first = httpx.get(f"{emulator.url}/api/v1/pods", params={"limit": 2}).json()
        second = httpx.get(
            f"{emulator.url}/api/v1/pods", params={"limit": 2, "continue": first["metadata"]["continue"]}
        ).json()
        selected = httpx.get(
            f"{emulator.url}/api/v1/namespaces/a/pods", params={"labelSelector": "team=x"}
        ).json()
        bad_token = httpx.get(f"{emulator.url}/api/v1/pods", params={"continue": "nonsense"})
        one = httpx.get(f"{emulator.url}/api/v1/namespaces/a/pods/p3").json()
        missing = httpx.get(f"{emulator.url}/api/v1/namespaces/a/pods/nope")
        node = httpx.get(f"{emulator.url}/api/v1/nodes/n1").json()
        watch = httpx.get(f"{emulator.url}/api/v1/pods", params={"watch": "true"})
    assert [item["metadata"]["name"] for item in first["items"]] == ["p0", "p1"]
    assert "kind" not in first["items"][0]  # built-in list items omit their type, as the API server's do
    assert first["metadata"]["remainingItemCount"] == 3 and first["metadata"]["resourceVersion"]
    assert [item["metadata"]["name"] for item in second["items"]] == ["p2", "p3"]
    assert [item["metadata"]["name"] for item in selected["items"]] == ["p1", "p3"]
    assert bad_token.status_code == 400 and bad_token.json()["kind"] == "Status"
    assert one["kind"] == "Pod" and one["metadata"]["name"] == "p3"
    assert missing.status_code == 404 and missing.json()["reason"] == "NotFound"
    assert node["kind"] == "Node"
    assert watch.status_code == 405


def test_fixture_files_load_as_kubectl_lists_yaml_streams_and_plain_lists(tmp_path: Path) -> None:
    (tmp_path / "nodes.json").write_text(
        json.dumps({"apiVersion": "v1", "kind": "List", "items": [gpu_node("n1")]})
    )
    (tmp_path / "pods.yaml").write_text(yaml.safe_dump_all([pod("p1", "a"), pod("p2", "b")]))
    (tmp_path / "more.yaml").write_text(yaml.safe_dump([pod("p3", "a")]))
    emulator = KubeEmulator.from_files(
        tmp_path / "nodes.json", tmp_path / "pods.yaml", tmp_path / "more.yaml"
    )
    assert len(load_objects(tmp_path / "pods.yaml")) == 2
    with emulator:
        pods = httpx.get(f"{emulator.url}/api/v1/pods").json()["items"]
        nodes = httpx.get(f"{emulator.url}/api/v1/nodes").json()["items"]
    assert [item["metadata"]["name"] for item in pods] == ["p1", "p3", "p2"]  # namespace, then name
    assert [item["metadata"]["name"] for item in nodes] == ["n1"]
