"""Snapshot files, kubegap snapshots and manifests: what gets in, what is refused, and how it is reported."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from kubegap.checker.snapshot import Coverage, KindCoverage, Snapshot
from kubegap.checker.snapshot_file import write_snapshot
from kubegap.checker.sources import load_manifests, load_snapshot_files
from kubegap.checker.sources.snapshot_files import read_snapshot
from kubegap.cli import main
from kubegap.errors import InputError


def _node(name: str) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name}}


def _list(*items: object) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": list(items)}


SECRET: dict[str, Any] = {
    "apiVersion": "v1",
    "kind": "Secret",
    "metadata": {"name": "db", "namespace": "prod"},
    "data": {"password": "aHVudGVyMg=="},
}
DAEMONSET: dict[str, Any] = {
    "apiVersion": "apps/v1",
    "kind": "DaemonSet",
    "metadata": {"name": "dcgm-exporter", "namespace": "gpu-operator"},
    "spec": {},
}


def test_kubectl_list_json_yaml_and_gzip_merge(tmp_path: Path) -> None:
    (tmp_path / "nodes.json").write_text(json.dumps(_list(_node("a"), _node("b"))))
    (tmp_path / "ds.yaml").write_text(yaml.safe_dump(_list(DAEMONSET)))
    (tmp_path / "more.json.gz").write_bytes(gzip.compress(json.dumps(_node("c")).encode()))
    snapshot = load_snapshot_files([tmp_path])
    assert [n["metadata"]["name"] for n in snapshot.of("Node")] == ["c", "a", "b"]  # sorted file order
    assert len(snapshot.of("apps/DaemonSet")) == 1
    assert snapshot.status_of("apps/DaemonSet").status is Coverage.read
    assert snapshot.status_of("batch/Job").status is Coverage.not_collected
    assert snapshot.mode == "snapshot"
    assert str(tmp_path) in snapshot.source


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16"])
def test_byte_order_marks_are_understood(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "nodes.json"
    path.write_bytes(json.dumps(_list(_node("a"))).encode(encoding))  # PowerShell's `>` writes UTF-16
    assert [n["metadata"]["name"] for n in load_snapshot_files([path]).of("Node")] == ["a"]


def test_typed_list_items_inherit_kind_and_an_empty_typed_list_counts_as_read(tmp_path: Path) -> None:
    typed = {"apiVersion": "v1", "kind": "PodList", "items": [{"metadata": {"name": "p", "namespace": "x"}}]}
    empty = {"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSetList", "items": []}
    (tmp_path / "pods.json").write_text(json.dumps(typed))
    (tmp_path / "jobsets.json").write_text(json.dumps(empty))
    snapshot = load_snapshot_files([tmp_path / "pods.json", tmp_path / "jobsets.json"])
    assert snapshot.of("Pod")[0]["kind"] == "Pod"
    assert snapshot.status_of("jobset.x-k8s.io/JobSet").status is Coverage.read
    assert snapshot.of("jobset.x-k8s.io/JobSet") == []


def test_duplicates_across_snapshot_files_are_kept_once(tmp_path: Path) -> None:
    (tmp_path / "one.json").write_text(json.dumps(_list(_node("a"))))
    (tmp_path / "two.json").write_text(json.dumps(_list(_node("a"))))
    snapshot = load_snapshot_files([tmp_path])
    assert len(snapshot.of("Node")) == 1
    assert any("duplicate" in note for note in snapshot.notes)


def test_secrets_are_dropped_at_the_door_everywhere(tmp_path: Path) -> None:
    config_map = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "1"}}
    odd = {**DAEMONSET, "stringData": {"x": "y"}, "data": {"z": "1"}}
    (tmp_path / "all.json").write_text(json.dumps(_list(SECRET, _list(SECRET), config_map, odd)))
    (tmp_path / "one.yaml").write_text(yaml.safe_dump(SECRET))
    snapshot = load_snapshot_files([tmp_path])
    assert snapshot.of("Secret") == []
    assert "aHVudGVyMg==" not in json.dumps(list(snapshot))
    assert snapshot.of("ConfigMap")[0]["data"] == {"a": "1"}  # checks read ConfigMap data
    daemonset = snapshot.of("apps/DaemonSet")[0]
    assert "stringData" not in daemonset and "data" not in daemonset
    assert any("dropped 3 Secret" in note for note in snapshot.notes)
    assert snapshot.status_of("Secret").status is Coverage.not_collected


def test_kubegap_snapshot_roundtrip_keeps_coverage_and_gzip(tmp_path: Path) -> None:
    original = Snapshot(mode="live", source="live: context prod", context="prod", kubeconfig="/k", requests=9)
    original.add(_node("a"))
    original.coverage["jobset.x-k8s.io/JobSet"] = KindCoverage(Coverage.absent, "not served")
    original.coverage["Pod"] = KindCoverage(Coverage.forbidden, "403 Forbidden")
    for name in ("snap.json", "snap.json.gz"):
        path = write_snapshot(original, tmp_path / name)
        document = json.loads(
            gzip.decompress(path.read_bytes()) if name.endswith(".gz") else path.read_bytes()
        )
        assert (document["apiVersion"], document["kind"]) == ("kubegap.io/v1", "Snapshot")
        assert document["coverage"]["Secret"]["status"] == "not-collected"
        loaded = read_snapshot(path)
        assert loaded.status_of("Pod") == KindCoverage(Coverage.forbidden, "403 Forbidden")
        assert loaded.status_of("jobset.x-k8s.io/JobSet").status is Coverage.absent
        assert loaded.status_of("Node").status is Coverage.read
        assert [n["metadata"]["name"] for n in loaded.of("Node")] == ["a"]
        assert (loaded.context, loaded.kubeconfig, loaded.requests, loaded.mode) == (
            "prod",
            "/k",
            9,
            "snapshot",
        )


def test_kubegap_snapshot_with_a_secret_item_still_drops_it(tmp_path: Path) -> None:
    document: dict[str, Any] = {
        "apiVersion": "kubegap.io/v1",
        "kind": "Snapshot",
        "coverage": {"Secret": {"status": "read"}},
    }
    document["items"] = [SECRET, _node("a")]
    (tmp_path / "s.json").write_text(json.dumps(document))
    snapshot = load_snapshot_files([tmp_path / "s.json"])
    assert snapshot.of("Secret") == [] and snapshot.status_of("Secret").status is Coverage.not_collected


MULTI_DOC = """\
# Source: chart/templates/ds.yaml
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: dcgm-exporter
  namespace: gpu
spec: {}
---
# values, not an object
replicaCount: 2
---
apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: ConfigMap
    metadata:
      name: counters
  - apiVersion: v1
    kind: Secret
    metadata:
      name: creds
    stringData:
      token: abc
---
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources: [ds.yaml]
"""


def test_manifests_multi_document_with_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "rendered.yaml"
    path.write_text(MULTI_DOC)
    snapshot = load_manifests([path])
    assert snapshot.mode == "manifests"
    assert snapshot.locations[("apps/DaemonSet", "gpu", "dcgm-exporter")] == (str(path), 2, 1)
    assert snapshot.locations[("DaemonSet", "gpu", "dcgm-exporter")] == (str(path), 2, 1)
    assert snapshot.locations[("ConfigMap", "", "counters")] == (str(path), 12, 3)  # in the third document
    assert snapshot.of("Secret") == []
    assert snapshot.status_of("Node").status is Coverage.absent
    assert any("2 document(s) that are not Kubernetes objects" in note for note in snapshot.notes)


def test_manifests_folder_skips_unrenderable_files_with_a_note_but_named_files_fail(tmp_path: Path) -> None:
    (tmp_path / "good.yaml").write_text(yaml.safe_dump(DAEMONSET))
    template = tmp_path / "template.yaml"
    template.write_text("metadata:\n  name: {{ .Values.name }\n  bad: [\n")
    snapshot = load_manifests([tmp_path])
    assert len(snapshot.of("apps/DaemonSet")) == 1
    assert any("template.yaml" in note for note in snapshot.notes)
    with pytest.raises(InputError, match=r"template\.yaml"):
        load_manifests([template])


def test_manifests_keep_same_named_objects_from_different_files(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(yaml.safe_dump(DAEMONSET))
    (tmp_path / "b.yaml").write_text(yaml.safe_dump(DAEMONSET))
    assert len(load_manifests([tmp_path]).of("apps/DaemonSet")) == 2


def test_objects_without_metadata_or_kind_are_skipped_and_counted(tmp_path: Path) -> None:
    items: list[object] = [
        {"apiVersion": "v1", "kind": "Node"},
        {"metadata": {"name": "x"}},
        "text",
        _node("ok"),
    ]
    items.append({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": 5}})
    items.append({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "q", "labels": ["a"]}})
    items.append({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "r"}, "spec": "oops"})
    (tmp_path / "mixed.json").write_text(json.dumps(_list(*items)))
    snapshot = load_snapshot_files([tmp_path / "mixed.json"])
    assert [n["metadata"]["name"] for n in snapshot.of("Node")] == ["ok"]
    notes = " | ".join(snapshot.notes)
    assert "1 object(s) with no metadata" in notes
    assert "with no kind" in notes and "not a mapping" in notes and "namespace is not a string" in notes
    assert "metadata.labels that is not a mapping" in notes and "spec that is not a mapping" in notes
    assert snapshot.of("Pod") == []


def test_ten_megabyte_string_value_is_read_without_trouble(tmp_path: Path) -> None:
    big = _node("big")
    big["metadata"]["annotations"] = {"note": "x" * 10_000_000}
    (tmp_path / "big.json").write_text(json.dumps(_list(big)))
    assert len(load_snapshot_files([tmp_path / "big.json"]).of("Node")) == 1


MALFORMED: list[tuple[str, bytes, str]] = [
    ("truncated.json", json.dumps(_list(_node("a")))[:-7].encode(), "not valid JSON"),
    ("wrong-top.json", b"[1, 2, 3]", "not a Kubernetes object"),
    ("string.json", json.dumps("y" * 10_000_000).encode(), "not valid JSON|not a Kubernetes object"),
    ("scalar.yaml", b"just some words\n", "not a Kubernetes object"),
    ("binary.json", bytes(range(256)) * 4, "binary|not valid JSON|UTF-8"),
    ("binary.yaml", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary"),
    ("latin1.yaml", "kind: Nöde\n".encode("latin-1"), "UTF-8"),
    ("bad.yaml", b"kind: Node\nmetadata: {name: [unclosed\n", "not valid YAML at line"),
    ("fake.json.gz", b"not gzip at all", "not gzip"),
    ("cut.json.gz", gzip.compress(b'{"kind": "List", "items": []}')[:-10], "gzip"),
    ("empty.json", b"   \n", "empty"),
    (
        "snapshot-version.json",
        b'{"apiVersion": "kubegap.io/v9", "kind": "Snapshot", "items": []}',
        "unsupported",
    ),
    (
        "snapshot-items.json",
        b'{"apiVersion": "kubegap.io/v1", "kind": "Snapshot", "items": {}}',
        "must be a list",
    ),
    (
        "snapshot-cov.json",
        b'{"apiVersion": "kubegap.io/v1", "kind": "Snapshot", "coverage": {"Node": "maybe"}}',
        "unknown",
    ),
]


@pytest.mark.parametrize(("name", "content", "expected"), MALFORMED, ids=[case[0] for case in MALFORMED])
def test_malformed_snapshot_files_give_one_line_input_error_naming_the_file(
    tmp_path: Path, name: str, content: bytes, expected: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(InputError, match=expected) as caught:
        load_snapshot_files([path])
    line = caught.value.one_line()
    assert name in line and "\n" not in line and len(line) < 400


def test_missing_paths_and_empty_folders_are_input_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load_snapshot_files([tmp_path / "missing.json"])
    with pytest.raises(InputError, match=r"no \.json"):
        load_manifests([tmp_path])


@pytest.mark.parametrize("name", [case[0] for case in MALFORMED[:6]])
def test_cli_shows_malformed_snapshot_as_one_error_line(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    content = next(case[1] for case in MALFORMED if case[0] == name)
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(SystemExit) as exited:
        main(["scan", "--snapshot", str(path)])
    assert exited.value.code == 2
    error = capsys.readouterr().err
    assert error.startswith("Error: ") and error.count("\n") == 1 and "Traceback" not in error


def test_real_world_manifests_load_without_errors(shared_dir: Path) -> None:
    folder = shared_dir / "realworld"
    if not folder.is_dir():
        pytest.skip("../shared/realworld is absent")
    snapshot = load_manifests([folder])
    assert len(snapshot.of("apps/DaemonSet")) >= 20
    assert snapshot.of("Secret") == []
    for key, (file, line, document) in snapshot.locations.items():
        assert Path(file).is_file() and line >= 1 and document >= 1, key
