"""Build kubegap's sdist and wheel from a clean copy of the checkout, the way a release would."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# What a source distribution holds; copying only these keeps build/ and egg-info out of the checkout.
PACKAGE_FILES = ("pyproject.toml", "README.md", "LICENSE", "src")


def copy_package(target: Path) -> Path:
    """The files a build reads, copied without caches, so the checkout stays untouched."""
    target.mkdir(parents=True, exist_ok=True)
    for name in PACKAGE_FILES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(
                source, target / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
            )
        else:
            shutil.copy2(source, target / name)
    return target


def build_distributions(folder: Path) -> tuple[Path, Path]:
    """`python -m build` of a clean copy: the sdist, then the wheel built from that sdist (so a file
    the sdist forgets is missing from the wheel too). Returns (sdist, wheel)."""
    source = copy_package(folder / "source")
    out = folder / "dist"
    done = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(source)],
        capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    [sdist] = out.glob("kubegap-*.tar.gz")
    [wheel] = out.glob("kubegap-*.whl")
    return sdist, wheel
