"""The pre-commit hook, run by the real `pre-commit` in a temporary git repository.

pre-commit clones the hook repository (a clean git copy of this package), installs it into its own
virtual environment, and runs `kubegap scan` on the staged manifests, as it would for a user.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from package_build import REPO, copy_package

pytestmark = pytest.mark.e2e
GAP = (REPO / "tests/checks/device-plugin-healthchecks-disabled/fail-all-disabled.yaml").read_text()
FIXED = (
    REPO / "tests/checks/device-plugin-healthchecks-disabled/pass-only-harmless-xids-skipped.yaml"
).read_text()


def _git(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid"}
    env.update(GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.invalid")
    return subprocess.run(["git", *args], cwd=folder, env=env, capture_output=True, text=True, check=False)


@dataclass(frozen=True)
class HookRepo:
    path: Path
    rev: str
    home: Path  # PRE_COMMIT_HOME, shared so the hook's environment is built once


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> HookRepo:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    folder = tmp_path_factory.mktemp("hook-repo")
    source = copy_package(folder / "kubegap")
    shutil.copy2(REPO / ".pre-commit-hooks.yaml", source / ".pre-commit-hooks.yaml")
    _git(source, "init", "-q")
    _git(source, "add", "-A")
    assert _git(source, "commit", "-qm", "hook release").returncode == 0
    rev = _git(source, "rev-parse", "HEAD").stdout.strip()
    return HookRepo(source, rev, folder / "pre-commit-home")


@pytest.fixture
def user_repo(tmp_path: Path, hook_repo: HookRepo) -> Iterator[Path]:
    repo = tmp_path / "cluster-config"
    repo.mkdir()
    _git(repo, "init", "-q")
    config = {"repos": [{"repo": str(hook_repo.path), "rev": hook_repo.rev, "hooks": [{"id": "kubegap"}]}]}
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    (repo / "README.md").write_text("cluster config\n")
    yield repo


def _pre_commit(repo: Path, hook_repo: HookRepo, *args: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key not in ("KUBECONFIG", "VIRTUAL_ENV")}
    env.update(PRE_COMMIT_HOME=str(hook_repo.home), HOME=str(repo.parent), PRE_COMMIT_COLOR="never")
    env["PIP_NO_COMPILE"] = "1"  # byte-compiling every dependency is most of the install time here
    env.update(GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.invalid")
    env.update(GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.invalid")
    command = [sys.executable, "-m", "pre_commit", *args] if args[0] != "git" else list(args)
    return subprocess.run(
        command, cwd=repo, env=env, capture_output=True, text=True, timeout=900, check=False
    )


def test_the_hook_fails_on_a_gap_and_passes_once_it_is_fixed(user_repo: Path, hook_repo: HookRepo) -> None:
    (user_repo / "device-plugin.yaml").write_text(GAP)
    _git(user_repo, "add", "-A")
    failed = _pre_commit(user_repo, hook_repo, "run", "--all-files")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "kubegap (Kubernetes manifests)" in failed.stdout and "Failed" in failed.stdout
    assert "device-plugin-healthchecks-disabled" in failed.stdout
    (user_repo / "device-plugin.yaml").write_text(FIXED)
    _git(user_repo, "add", "-A")
    passed = _pre_commit(user_repo, hook_repo, "run", "--all-files")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Passed" in passed.stdout


def test_an_installed_hook_blocks_the_commit_and_broken_yaml_is_one_line(
    user_repo: Path, hook_repo: HookRepo
) -> None:
    assert _pre_commit(user_repo, hook_repo, "install").returncode == 0
    (user_repo / "device-plugin.yaml").write_text(GAP)
    _git(user_repo, "add", "-A")
    blocked = _pre_commit(user_repo, hook_repo, "git", "commit", "-qm", "add the device plugin")
    assert blocked.returncode != 0
    assert _git(user_repo, "rev-parse", "--verify", "HEAD").returncode != 0  # nothing was committed
    (user_repo / "device-plugin.yaml").write_text("spec: [\n")
    _git(user_repo, "add", "-A")
    broken = _pre_commit(user_repo, hook_repo, "run", "--files", "device-plugin.yaml")
    assert broken.returncode == 1 and "- exit code: 2" in broken.stdout, broken.stdout
    assert "Error: device-plugin.yaml: not valid YAML at line 2" in broken.stdout
    assert "Traceback" not in broken.stdout
