"""`python -m build` makes an sdist and a wheel; the wheel, installed into a fresh virtual
environment, works from any directory.

This is what `pip install kubegap` gives a user: the knowledge base, templates, static files and the
demo cluster must be inside the wheel (package data), and `kubegap` and `kubectl-gap` must be on the
venv's PATH. Nothing here may import the checkout: every command runs from an unrelated folder.
"""

from __future__ import annotations

import email
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from package_build import REPO, build_distributions
from processes import answers, free_port, running, wait_until

pytestmark = pytest.mark.e2e


@dataclass(frozen=True)
class Installed:
    sdist: Path
    wheel: Path
    bin: Path  # the fresh venv's bin folder
    elsewhere: Path  # a folder unrelated to the checkout, used as the working directory
    env: dict[str, str]

    def run(self, *command: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.bin / command[0]), *command[1:]],
            cwd=self.elsewhere, env=self.env, capture_output=True, text=True, timeout=timeout, check=False,
        )  # fmt: skip


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    folder = tmp_path_factory.mktemp("wheel")
    sdist, wheel = build_distributions(folder)
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--no-compile", str(wheel)],
        capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    if done.returncode != 0 and "No matching distribution" in done.stderr + done.stdout:
        pytest.skip(
            f"the package index is unreachable, so dependencies cannot be installed: {done.stderr[-300:]}"
        )
    assert done.returncode == 0, done.stdout + done.stderr
    elsewhere = folder / "elsewhere"
    elsewhere.mkdir()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("KUBECONFIG", "KUBERNETES_SERVICE_HOST", "PYTHONPATH", "VIRTUAL_ENV")
    }
    env.update(HOME=str(elsewhere), PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}")
    yield Installed(sdist, wheel, venv / "bin", elsewhere, env)


def test_the_sdist_holds_the_package_its_data_and_the_license(installed: Installed) -> None:
    with tarfile.open(installed.sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {"pyproject.toml", "README.md", "LICENSE", "src/kubegap/cli.py"} <= names
    assert "src/kubegap/knowledge/data/errors/xid-79.yaml" in names


def test_both_commands_are_on_the_path_and_answer_help(installed: Installed) -> None:
    """`pip install kubegap` into an environment puts both commands on that environment's PATH."""
    for command in ("kubegap", "kubectl-gap"):
        found = shutil.which(command, path=installed.env["PATH"])
        assert found is not None and Path(found).parent == installed.bin, (command, found)
        shown = subprocess.run(
            [command, "--help"], cwd=installed.elsewhere, env=installed.env,
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert shown.returncode == 0 and "scan" in shown.stdout, shown.stderr
    demo = installed.run("kubegap", "scan", "--demo", "--fail-on", "never")
    assert demo.returncode == 0 and "dcgm-exporter-coverage" in demo.stdout, demo.stderr


def test_the_wheel_holds_every_data_file_the_license_and_both_commands(installed: Installed) -> None:
    package = REPO / "src" / "kubegap"
    expected = {
        "kubegap/" + path.relative_to(package).as_posix()
        for path in package.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    }
    with zipfile.ZipFile(installed.wheel) as archive:
        names = set(archive.namelist())
        [metadata_name] = [name for name in names if name.endswith(".dist-info/METADATA")]
        metadata = email.message_from_bytes(archive.read(metadata_name))
        [entry_points] = [name for name in names if name.endswith(".dist-info/entry_points.txt")]
        scripts = archive.read(entry_points).decode()
    assert expected - names == set(), "files under src/kubegap missing from the wheel"
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)
    assert metadata["License-Expression"] == "Apache-2.0"
    urls = dict(value.split(", ", 1) for value in metadata.get_all("Project-URL") or [])
    assert {"Homepage", "Source", "Documentation", "Changelog", "Issues"} <= set(urls)
    assert "kubegap = kubegap.cli:main" in scripts and "kubectl-gap = kubegap.cli:main" in scripts
    assert "prometheus_client" in " ".join(metadata.get_all("Requires-Dist") or [])


def test_scan_and_the_kubectl_plugin_run_from_another_directory(installed: Installed) -> None:
    located = installed.run("python", "-c", "import kubegap; print(kubegap.__file__)")
    assert located.stdout.startswith(str(installed.bin.parent)), located.stdout + located.stderr
    scan = installed.run("kubegap", "scan", "--demo", "-f", "json", "--fail-on", "never")
    assert scan.returncode == 0, scan.stderr
    assert '"mode": "demo"' in scan.stdout and '"incidents": [' in scan.stdout
    plugin = subprocess.run(
        ["kubectl", "gap", "checks", "list"], cwd=installed.elsewhere, env=installed.env,
        capture_output=True, text=True, timeout=120, check=False,
    ) if _has_kubectl() else installed.run("kubectl-gap", "checks", "list")  # fmt: skip
    assert plugin.returncode == 0, plugin.stderr
    assert "dcgm-exporter-coverage" in plugin.stdout


def _has_kubectl() -> bool:
    from shutil import which

    return which("kubectl") is not None


def test_serve_answers_pages_and_static_files(installed: Installed) -> None:
    port = free_port()
    command = [str(installed.bin / "kubegap"), "serve", "--demo", "--port", str(port)]
    log = installed.elsewhere / "serve.log"
    base = f"http://127.0.0.1:{port}"
    with running(command, log, installed.env):
        wait_until(answers(f"{base}/en/incidents"), 120, "kubegap serve from the wheel")
        for path in ("/en/incidents", "/ko/incidents", "/en/cluster", "/en/checks"):
            assert httpx.get(base + path, timeout=30).status_code == 200, path
        stylesheet = httpx.get(f"{base}/static/style.css", timeout=30)
        assert stylesheet.status_code == 200 and len(stylesheet.text) > 100


def test_the_exporter_serves_metrics_from_the_wheel(installed: Installed) -> None:
    port = free_port()
    command = [str(installed.bin / "kubegap"), "exporter", "--demo", "--port", str(port), "--interval", "60"]
    with running(command, installed.elsewhere / "exporter.log", installed.env):
        wait_until(answers(f"http://127.0.0.1:{port}/readyz"), 120, "the exporter's first round")
        text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=30).text
    assert 'kubegap_scan_success{cluster="demo"} 1.0' in text


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_mcp_from_the_wheel_answers_the_official_client(installed: Installed) -> None:
    parameters = StdioServerParameters(
        command=str(installed.bin / "kubegap"), args=["mcp"], env=installed.env, cwd=str(installed.elsewhere)
    )
    async with Client(parameters, mode="legacy", read_timeout_seconds=120) as client:
        tools = {tool.name for tool in (await client.list_tools()).tools}
        assert {"scan_cluster", "search_incidents", "explain_check"} <= tools
        found = await client.call_tool("search_incidents", {"query": "NCCL"})
        assert not found.is_error and found.structured_content
