"""The bundled demo cluster: a snapshot shipped inside the package, so anyone can try a scan offline."""

from __future__ import annotations

import importlib.resources
import tempfile
from pathlib import Path

from kubegap.bilingual import message
from kubegap.checker.snapshot import Snapshot
from kubegap.checker.sources.snapshot_files import load_snapshot_files
from kubegap.errors import InputError

DEMO_FILES = ("cluster.json.gz", "cluster.json")


def demo_path() -> Path | None:
    """The demo snapshot file inside the installed package, or None when it is not there."""
    folder = importlib.resources.files("kubegap.checker").joinpath("demo")
    for name in DEMO_FILES:
        candidate = folder.joinpath(name)
        if candidate.is_file():
            return Path(str(candidate))
    return None


def load_demo() -> Snapshot:
    path = demo_path()
    if path is None:
        raise InputError(
            "the demo snapshot is not installed with this kubegap (checker/demo/cluster.json.gz)"
        )
    if not path.exists():  # zipped install: copy the resource out first
        with tempfile.TemporaryDirectory() as folder:
            copy = Path(folder) / path.name
            copy.write_bytes(
                importlib.resources.files("kubegap.checker").joinpath("demo", path.name).read_bytes()
            )
            snapshot = load_snapshot_files([copy])
    else:
        snapshot = load_snapshot_files([path])
    snapshot.mode = "demo"
    snapshot.source = message("데모: kubegap에 든 GPU 예제 클러스터", "demo: a built-in example GPU cluster")
    snapshot.notes = [note for note in snapshot.notes if not note.startswith("snapshot originally from")]
    return snapshot
