"""The README's two quick-start commands: `make run` installs the runtime only, `make test` the rest."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from package_build import REPO


def _dry_run(target: str, venv: Path) -> list[str]:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", target, f"VENV={venv}"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_make_run_on_a_fresh_machine_installs_only_runtime_dependencies(tmp_path: Path) -> None:
    lines = _dry_run("run", tmp_path / "venv")
    installs = [line for line in lines if " install " in line and "--upgrade pip" not in line]
    assert installs == [f"{tmp_path / 'venv'}/bin/pip install --quiet -e ."]
    assert lines[-1] == f"{tmp_path / 'venv'}/bin/kubegap serve"


def test_make_test_installs_the_dev_extra_then_test_deps_lint_and_pytest(tmp_path: Path) -> None:
    lines = _dry_run("test", tmp_path / "venv")
    assert f"{tmp_path / 'venv'}/bin/pip install --quiet -e '.[dev]'" in lines
    order = [next(i for i, line in enumerate(lines) if marker in line) for marker in
             ("scripts/test-deps", "ruff check", "mypy", "bin/pytest")]  # fmt: skip
    assert order == sorted(order)
