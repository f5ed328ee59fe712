"""Malformed lists in files: recorded as `malformed` in the coverage, never as zero objects.

The same shapes the live reader refuses (items an object, items of numbers, objects without metadata,
wrong types) in kubectl dumps, kubegap snapshots and manifests. Good objects beside a bad one are
kept; the kind still cannot pass, and GPU checks never say "no GPU nodes" about unreadable Nodes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from kubegap.checker.finding import Status
from kubegap.checker.registry import all_checks
from kubegap.checker.runner import run_checks
from kubegap.checker.snapshot import Coverage, KindCoverage
from kubegap.checker.snapshot_file import write_snapshot
from kubegap.checker.sources import load_manifests, load_snapshot_files

NEED_NODES = [check.id for check in all_checks() if "Node" in check.meta.needs]


def _node(name: str) -> dict[str, Any]:
    return {
        "metadata": {"name": name, "labels": {"nvidia.com/gpu.present": "true"}},
        "status": {"capacity": {"nvidia.com/gpu": "8"}, "allocatable": {"nvidia.com/gpu": "8"}},
    }


def _node_list(items: object) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "NodeList", "metadata": {"resourceVersion": "7"}, "items": items}


def _typed(node: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Node", **node}


MALFORMED_NODE_LISTS = [
    ("items-an-object", _node_list({"n1": _node("n1")}), "items is an object, not a list", 0),
    ("items-numbers", _node_list([1, 2, 3]), "an item is a number (3)", 0),
    ("item-without-metadata", _node_list([_node("n1"), {"status": {}}]), "an object with no metadata", 1),
    ("labels-a-list", _node_list([{"metadata": {"name": "n1", "labels": ["gpu"]}}]), "metadata.labels", 0),
    (
        "spec-a-string",
        _node_list([{**_node("n1"), "spec": "unschedulable"}]),
        "spec that is not a mapping",
        0,
    ),
]


@pytest.mark.parametrize(
    ("document", "detail", "kept"),
    [case[1:] for case in MALFORMED_NODE_LISTS],
    ids=[case[0] for case in MALFORMED_NODE_LISTS],
)
@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_a_malformed_kubectl_node_list_is_malformed_and_gpu_checks_are_unknown(
    tmp_path: Path, document: dict[str, Any], detail: str, kept: int, suffix: str
) -> None:
    path = tmp_path / f"nodes{suffix}"
    path.write_text(json.dumps(document) if suffix == ".json" else yaml.safe_dump(document))
    snapshot = load_snapshot_files([path])
    coverage = snapshot.status_of("Node")
    assert coverage.status is Coverage.malformed, coverage
    assert detail in coverage.detail and str(path) in coverage.detail
    assert len(snapshot.of("Node")) == kept
    assert any(note.startswith("skipped") for note in snapshot.notes)
    report = run_checks(snapshot)
    verdicts = {
        summary.check_id: summary.status for summary in report.checks if summary.check_id in NEED_NODES
    }
    assert verdicts == dict.fromkeys(NEED_NODES, Status.unknown)
    reasons = {finding.reason for finding in report.findings if finding.check_id in NEED_NODES}
    assert "malformed" in reasons
    assert not [f for f in report.findings if f.status is Status.not_applicable and "GPU" in f.message]
    assert report.unreadable.kinds.get("Node") == "malformed" and report.unreadable.fix == ""


def test_a_well_formed_list_stays_read_and_items_null_is_empty(tmp_path: Path) -> None:
    (tmp_path / "nodes.json").write_text(json.dumps(_node_list([_node("n1")])))
    (tmp_path / "jobs.json").write_text(
        json.dumps({"apiVersion": "batch/v1", "kind": "JobList", "metadata": {}, "items": None})
    )
    snapshot = load_snapshot_files([tmp_path])
    assert snapshot.status_of("Node") == KindCoverage(Coverage.read)
    assert snapshot.status_of("batch/Job") == KindCoverage(Coverage.read)
    assert snapshot.of("batch/Job") == []


def test_malformed_in_one_file_is_not_washed_out_by_a_good_list_in_another(tmp_path: Path) -> None:
    (tmp_path / "a-nodes.json").write_text(json.dumps(_node_list([_node("n1")])))
    (tmp_path / "b-nodes.json").write_text(json.dumps(_node_list({"oops": True})))
    snapshot = load_snapshot_files([tmp_path])
    assert snapshot.status_of("Node").status is Coverage.malformed
    assert [node["metadata"]["name"] for node in snapshot.of("Node")] == ["n1"]  # nothing good is lost


def test_a_kubegap_snapshot_item_of_the_wrong_shape_makes_its_kind_malformed(tmp_path: Path) -> None:
    path = tmp_path / "cluster.json"
    document = {
        "apiVersion": "kubegap.io/v1",
        "kind": "Snapshot",
        "coverage": {"Pod": {"status": "read", "detail": ""}, "Node": {"status": "read", "detail": ""}},
        "items": [
            _typed(_node("n1")),
            {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "labels": "x"}},
        ],
    }
    path.write_text(json.dumps(document))
    snapshot = load_snapshot_files([path])
    assert snapshot.status_of("Pod").status is Coverage.malformed
    assert "metadata.labels that is not a mapping" in snapshot.status_of("Pod").detail
    assert snapshot.status_of("Node").status is Coverage.read


def test_a_generic_list_with_items_not_a_list_says_so_and_attributes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "all.json"
    path.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": {"a": 1}}))
    snapshot = load_snapshot_files([path])
    assert "skipped 1 object(s) with a List whose items is not a list" in snapshot.notes
    assert snapshot.status_of("Node").status is Coverage.not_collected


def test_malformed_and_partial_coverage_survive_a_snapshot_round_trip(tmp_path: Path) -> None:
    snapshot = load_snapshot_files([_write(tmp_path / "nodes.json", _node_list([_node("n1")]))])
    snapshot.coverage["Pod"] = KindCoverage(Coverage.partial, "stopped after 2 pages")
    snapshot.coverage["apps/DaemonSet"] = KindCoverage(Coverage.malformed, "items is a number, not a list")
    loaded = load_snapshot_files([write_snapshot(snapshot, tmp_path / "out.json.gz")])
    assert loaded.status_of("Pod") == KindCoverage(Coverage.partial, "stopped after 2 pages")
    assert loaded.status_of("apps/DaemonSet").status is Coverage.malformed


def test_a_manifest_with_a_spec_of_the_wrong_type_makes_its_kind_malformed(tmp_path: Path) -> None:
    good = {
        "apiVersion": "apps/v1",
        "kind": "DaemonSet",
        "metadata": {"name": "ok", "namespace": "a"},
        "spec": {},
    }
    bad = {
        "apiVersion": "apps/v1",
        "kind": "DaemonSet",
        "metadata": {"name": "bad", "namespace": "a"},
        "spec": [],
    }
    path = tmp_path / "agents.yaml"
    path.write_text(yaml.safe_dump_all([good, bad]))
    snapshot = load_manifests([path])
    assert snapshot.status_of("apps/DaemonSet").status is Coverage.malformed
    assert [obj["metadata"]["name"] for obj in snapshot.of("apps/DaemonSet")] == ["ok"]
    report = run_checks(snapshot, check_ids=["daemonset-rollout-all-at-once"])
    assert report.checks[0].status is Status.unknown
    assert report.findings[0].reason == "malformed"


def _write(path: Path, document: dict[str, Any]) -> Path:
    path.write_text(json.dumps(document))
    return path
