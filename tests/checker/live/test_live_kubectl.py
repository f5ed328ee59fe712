"""The real kubectl against the emulated API server, and kubegap as a kubectl plugin.

If the emulator fools kubectl (discovery, paging, tables, CRD kinds), it is faithful enough to trust
for kubegap's own live tests.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest

from k8s_emulator import KubeEmulator
from k8s_emulator.factories import GPU_AGENTS, daemonset, gpu_node, jobset, pod
from k8s_emulator.testing import StartEmulator, assert_read_only

REPO = Path(__file__).resolve().parents[3]
KUBECTL = shutil.which("kubectl")
needs_kubectl = pytest.mark.skipif(
    KUBECTL is None, reason="kubectl is not installed (Debian: apt-get install kubernetes-client)"
)


def _objects() -> list[dict[str, object]]:
    objects: list[dict[str, object]] = [gpu_node("gpu-a"), gpu_node("gpu-b")]
    objects += [pod(f"train-{index}", f"team-{index % 2}", node="gpu-a", gpus=1) for index in range(5)]
    objects.append(daemonset(GPU_AGENTS[0][0], "gpu-operator", GPU_AGENTS[0][1], scheduled=2))
    objects.append(jobset("pretrain", "team-0"))
    return objects


def _kubectl(
    emulator: KubeEmulator, tmp_path: Path, *args: str, check: bool = True
) -> subprocess.CompletedProcess[str]:
    assert KUBECTL is not None
    env = {**os.environ, "HOME": str(tmp_path), "KUBECONFIG": str(tmp_path / "none")}
    command = [
        KUBECTL,
        "--server",
        emulator.url,
        "--cache-dir",
        str(tmp_path / "cache"),
        "--request-timeout=10s",
        *args,
    ]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=60, check=check)


@needs_kubectl
def test_kubectl_get_pods_all_namespaces_json(start_emulator: StartEmulator, tmp_path: Path) -> None:
    emulator = start_emulator(_objects(), token=None)  # kubectl sends no bearer token over plain http
    listed = json.loads(_kubectl(emulator, tmp_path, "get", "pods", "-A", "-o", "json").stdout)
    names = sorted(item["metadata"]["name"] for item in listed["items"])
    assert names == [f"train-{index}" for index in range(5)]
    assert {item["kind"] for item in listed["items"]} == {"Pod"}
    assert emulator.count(r"/api/v1/pods") >= 1
    assert_read_only(emulator)


@needs_kubectl
def test_kubectl_get_nodes_prints_a_table(start_emulator: StartEmulator, tmp_path: Path) -> None:
    emulator = start_emulator(_objects(), token=None)
    output = _kubectl(emulator, tmp_path, "get", "nodes").stdout
    lines = output.splitlines()
    assert lines[0].split()[0] == "NAME"
    assert [line.split()[0] for line in lines[1:]] == ["gpu-a", "gpu-b"]
    assert any("as=Table" in request.accept for request in emulator.requests)
    assert_read_only(emulator)


@needs_kubectl
def test_kubectl_gets_a_crd_kind_and_short_names(start_emulator: StartEmulator, tmp_path: Path) -> None:
    emulator = start_emulator(_objects(), token=None)
    jobsets = json.loads(_kubectl(emulator, tmp_path, "get", "jobsets", "-A", "-o", "json").stdout)
    assert [(item["kind"], item["metadata"]["name"]) for item in jobsets["items"]] == [("JobSet", "pretrain")]
    daemonsets = _kubectl(emulator, tmp_path, "get", "ds", "-n", "gpu-operator", "-o", "name").stdout.split()
    assert daemonsets == [f"daemonset.apps/{GPU_AGENTS[0][0]}"]
    missing = _kubectl(emulator, tmp_path, "get", "pytorchjobs", "-A", check=False)
    assert missing.returncode != 0 and "pytorchjobs" in missing.stderr
    assert_read_only(emulator)


@needs_kubectl
def test_kubectl_pages_with_limit_and_continue(start_emulator: StartEmulator, tmp_path: Path) -> None:
    emulator = start_emulator(_objects(), token=None)
    names = _kubectl(emulator, tmp_path, "get", "pods", "-A", "-o", "name", "--chunk-size=2").stdout.split()
    assert len(names) == 5
    pages = [request for request in emulator.requests if request.path == "/api/v1/pods"]
    assert len(pages) == 3 and {request.query["limit"] for request in pages} == {"2"}
    assert sum(1 for request in pages if request.query.get("continue")) == 2
    assert_read_only(emulator)


@needs_kubectl
def test_write_verbs_are_refused_and_logged(tmp_path: Path) -> None:
    """The emulator answers writes 405 and logs them, which is what lets other tests prove their absence."""
    with KubeEmulator(_objects()) as emulator:
        deleted = _kubectl(emulator, tmp_path, "delete", "pod", "train-0", "-n", "team-0", check=False)
        posted = httpx.post(f"{emulator.url}/api/v1/namespaces/team-0/pods", json={"kind": "Pod"})
        secrets = httpx.get(f"{emulator.url}/api/v1/namespaces/team-0/secrets")
        logged = emulator.non_get_requests()
        touched = emulator.secret_requests()
    assert deleted.returncode != 0 and "MethodNotAllowed" in deleted.stderr
    assert posted.status_code == 405
    assert [(request.method, request.path) for request in logged] == [
        ("DELETE", "/api/v1/namespaces/team-0/pods/train-0"),
        ("POST", "/api/v1/namespaces/team-0/pods"),
    ]
    assert secrets.status_code == 200 and [request.path for request in touched] == [
        "/api/v1/namespaces/team-0/secrets"
    ]


@needs_kubectl
def test_kubegap_runs_as_a_kubectl_plugin(tmp_path: Path) -> None:
    assert KUBECTL is not None
    env = {
        **os.environ,
        "HOME": str(tmp_path),
        "PATH": f"{REPO / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    plugins = subprocess.run([KUBECTL, "plugin", "list"], capture_output=True, text=True, env=env, timeout=60)
    assert str(REPO / "bin" / "kubectl-gap") in plugins.stdout
    helped = subprocess.run([KUBECTL, "gap", "--help"], capture_output=True, text=True, env=env, timeout=60)
    assert helped.returncode == 0
    assert helped.stdout.startswith("Usage: kubegap")
    assert "scan" in helped.stdout
