"""The file walker reads a folder's own files: a symlink found in it that leads outside is left out
with a note (a checked-out repository can link to `~/.kube/config`), a file named explicitly is read."""

from __future__ import annotations

from pathlib import Path

import orjson

from kubegap.checker.sources.manifests import load_manifests
from kubegap.checker.sources.snapshot_files import load_snapshot_files

POD = "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: team}}\nspec: {{containers: []}}\n"


def _tree(tmp_path: Path) -> tuple[Path, Path]:
    private = tmp_path / "private"
    private.mkdir()
    (private / "config").write_text(POD.format(name="outside"))
    repo = tmp_path / "repo"
    (repo / "base").mkdir(parents=True)
    (repo / "base" / "pod.yaml").write_text(POD.format(name="inside"))
    (repo / "overlay.yaml").symlink_to(repo / "base" / "pod.yaml")  # stays inside: read
    (repo / "kubeconfig.yaml").symlink_to(private / "config")  # leads outside: left out
    (repo / "loop.yaml").symlink_to(repo / "loop.yaml")
    return repo, private


def test_a_folder_scan_leaves_out_links_that_lead_outside_it(tmp_path: Path) -> None:
    repo, _private = _tree(tmp_path)
    snapshot = load_manifests([repo])
    assert [pod["metadata"]["name"] for pod in snapshot.of("Pod")] == ["inside", "inside"]
    assert any("skipped 1 link(s) that lead outside the folder scanned" in note for note in snapshot.notes)
    assert any("kubeconfig.yaml" in note for note in snapshot.notes)


def test_a_file_named_explicitly_is_read_wherever_it_leads(tmp_path: Path) -> None:
    repo, _private = _tree(tmp_path)
    snapshot = load_manifests([repo / "kubeconfig.yaml"])
    assert [pod["metadata"]["name"] for pod in snapshot.of("Pod")] == ["outside"]
    assert not any("link" in note for note in snapshot.notes)


def test_snapshot_folders_follow_the_same_rule(tmp_path: Path) -> None:
    private = tmp_path / "private"
    private.mkdir()
    listed = {"apiVersion": "v1", "kind": "List", "items": []}
    (private / "nodes.json").write_bytes(orjson.dumps({**listed, "kind": "NodeList"}))
    dump = tmp_path / "dump"
    dump.mkdir()
    (dump / "pods.json").write_bytes(orjson.dumps({**listed, "kind": "PodList"}))
    (dump / "nodes.json").symlink_to(private / "nodes.json")
    snapshot = load_snapshot_files([dump])
    assert snapshot.status_of("Pod").status.value == "read"
    assert snapshot.status_of("Node").status.value == "not-collected"
    assert any("lead outside the folder" in note for note in snapshot.notes)
