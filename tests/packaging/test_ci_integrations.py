"""The GitHub Action's scan step and the krew plugin archive, exercised as their hosts would run them."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml
from package_build import REPO

FIXTURES = REPO / "tests" / "checks" / "device-plugin-healthchecks-disabled"
PROJECT_HOME = "https://github.com/kubegap/kubegap"


def _action() -> dict[str, Any]:
    document: dict[str, Any] = yaml.safe_load((REPO / "action.yml").read_text())
    return document


def _step(name: str) -> dict[str, Any]:
    return next(step for step in _action()["runs"]["steps"] if step.get("name") == name)


def _run_scan_step(folder: Path, **inputs: str) -> tuple[int, dict[str, str], str]:
    """Run the action's scan step as the runner would: its env with `${{ inputs.x }}` filled in."""
    declared = _action()["inputs"]
    values = {
        name: inputs.get(name.replace("-", "_"), spec.get("default", "")) for name, spec in declared.items()
    }
    env = {key: value for key, value in os.environ.items() if key != "KUBECONFIG"}
    for key, template in _step("Scan manifests")["env"].items():
        env[key] = re.sub(r"\$\{\{ inputs\.([a-z-]+) \}\}", lambda match: values[match.group(1)], template)
    outputs, summary = folder / "github-output", folder / "step-summary.md"
    outputs.write_text("")
    summary.write_text("")
    bin_folder = str(Path(sys.executable).parent)  # where `kubegap` is installed for these tests
    env.update(
        GITHUB_ACTION_PATH=str(REPO), GITHUB_OUTPUT=str(outputs), GITHUB_STEP_SUMMARY=str(summary),
        PATH=f"{bin_folder}{os.pathsep}{env.get('PATH', '')}", HOME=str(folder),
    )  # fmt: skip
    script = _step("Scan manifests")["run"].replace('"$GITHUB_ACTION_PATH"', str(REPO))
    done = subprocess.run(
        ["bash", "-c", script], cwd=folder, env=env, capture_output=True, text=True, timeout=300, check=False
    )
    written = dict(line.split("=", 1) for line in outputs.read_text().splitlines() if "=" in line)
    return done.returncode, written, summary.read_text()


def test_the_action_declares_every_input_it_uses_and_uploads_sarif() -> None:
    action = _action()
    assert action["runs"]["using"] == "composite"
    text = (REPO / "action.yml").read_text()
    used = set(re.findall(r"inputs\.([a-z-]+)", text))
    assert used <= set(action["inputs"]), used - set(action["inputs"])
    upload = _step("Upload SARIF")
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert upload["with"]["sarif_file"] == "${{ steps.scan.outputs.sarif-file }}"


def test_the_scan_step_writes_sarif_and_a_summary_and_defers_the_failure(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "fail-all-disabled.yaml", tmp_path / "device-plugin.yaml")
    code, outputs, summary = _run_scan_step(tmp_path, paths="device-plugin.yaml\n")
    assert code == 0  # the upload must still run; the "Fail on gaps" step ends the job
    assert outputs == {"sarif-file": "kubegap.sarif", "exit-code": "1"}
    sarif = json.loads((tmp_path / "kubegap.sarif").read_text())
    results = sarif["runs"][0]["results"]
    assert any(result["ruleId"] == "device-plugin-healthchecks-disabled" for result in results)
    located = [result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for result in results]
    assert "device-plugin.yaml" in located
    assert summary.startswith("## kubegap scan") and "device-plugin-healthchecks-disabled" in summary


def test_the_scan_step_passes_clean_manifests_and_reports_broken_ones(tmp_path: Path) -> None:
    clean = tmp_path / "clean"
    clean.mkdir()
    shutil.copy(FIXTURES / "pass-only-harmless-xids-skipped.yaml", clean / "plugin.yaml")
    code, outputs, _ = _run_scan_step(clean, paths="plugin.yaml", fail_on="high")
    assert (code, outputs["exit-code"]) == (0, "0")
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "bad.yaml").write_text("kind: [\n")
    code, outputs, summary = _run_scan_step(broken, paths="bad.yaml")
    assert outputs == {"sarif-file": "", "exit-code": "2"}  # no SARIF to upload, and the job fails
    assert "Error: bad.yaml: not valid YAML" in summary


def _krew_release() -> ModuleType:
    spec = importlib.util.spec_from_file_location("krew_release", REPO / "scripts" / "krew_release.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_krew_manifest_matches_the_reproducible_archive(tmp_path: Path) -> None:
    release = _krew_release()
    data = release.archive_bytes()
    assert data == release.archive_bytes()  # reproducible, so the checksum below can be checked
    manifest = yaml.safe_load((REPO / "deploy" / "krew" / "gap.yaml").read_text())
    version = release.version()
    assert manifest["metadata"]["name"] == "gap" and manifest["spec"]["version"] == f"v{version}"
    assert manifest["spec"]["homepage"] == PROJECT_HOME
    assert len(manifest["spec"]["shortDescription"]) <= 50
    for platform in manifest["spec"]["platforms"]:
        assert platform["sha256"] == hashlib.sha256(data).hexdigest(), "run scripts/krew_release.py --write"
        assert platform["uri"].endswith(f"/v{version}/{release.archive_name()}")
        assert platform["bin"] == "kubectl-gap"


def test_the_archive_installed_as_krew_would_runs_kubectl_gap(tmp_path: Path) -> None:
    """Unpack the archive by the manifest's `files` rules into a plugin folder and run it."""
    if shutil.which("kubectl") is None:
        pytest.skip("kubectl is not installed (scripts/test-deps installs it)")
    archive = tmp_path / "plugin.tar.gz"
    archive.write_bytes(_krew_release().archive_bytes())
    store = tmp_path / "krew" / "store" / "gap"
    store.mkdir(parents=True)
    with tarfile.open(archive) as unpacked:
        unpacked.extractall(store, filter="data")
    manifest = yaml.safe_load((REPO / "deploy" / "krew" / "gap.yaml").read_text())
    platform = manifest["spec"]["platforms"][0]
    assert {rule["from"] for rule in platform["files"]} == {path.name for path in store.iterdir()}
    plugin = store / platform["bin"]
    assert os.access(plugin, os.X_OK)
    env = {key: value for key, value in os.environ.items() if key != "KUBECONFIG"}
    env["PATH"] = os.pathsep.join([str(store), str(Path(sys.executable).parent), env.get("PATH", "")])
    done = subprocess.run(
        ["kubectl", "gap", "--version"], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("kubegap, version ")


def test_one_project_home_everywhere() -> None:
    pyproject = (REPO / "pyproject.toml").read_text()
    assert f'Homepage = "{PROJECT_HOME}"' in pyproject
    assert PROJECT_HOME in (REPO / ".pre-commit-hooks.yaml").read_text()
