"""A YAML file in flow style starts with `{` or `[` like JSON, and is valid YAML: it is read, not
refused as bad JSON. A file that is neither keeps the error that fits its name."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubegap.checker.sources import _files
from kubegap.checker.sources.manifests import load_manifests
from kubegap.checker.sources.snapshot_files import load_snapshot_files
from kubegap.errors import InputError

FLOW = "{apiVersion: v1, kind: Pod, metadata: {name: flow, namespace: team}, spec: {containers: []}}\n"


@pytest.mark.parametrize("name", ["pod.yaml", "pod.yml", "pod.json"])
def test_a_flow_style_manifest_is_read(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text(FLOW)
    snapshot = load_manifests([path])
    assert [pod["metadata"]["name"] for pod in snapshot.of("Pod")] == ["flow"]
    assert snapshot.locations[("Pod", "team", "flow")][:2] == (str(path), 1)


def test_a_flow_style_list_and_a_snapshot_are_read(tmp_path: Path) -> None:
    path = tmp_path / "pods.yaml"
    path.write_text("{apiVersion: v1, kind: List, items: [" + FLOW.strip() + "]}\n")
    assert [pod["metadata"]["name"] for pod in load_snapshot_files([path]).of("Pod")] == ["flow"]
    sequence = tmp_path / "sequence.yaml"
    sequence.write_text("[" + FLOW.strip() + "]\n")
    assert load_manifests([sequence]).of("Pod") == []  # a bare sequence holds no object, as in YAML


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("broken.json", '{"apiVersion": "v1", ', "not valid JSON"),
        ("broken.yaml", "{apiVersion: v1, kind: [", "not valid YAML"),
        ("chart.yaml", "{{ .Values.pod | toYaml }}\n", "an unrendered template"),
    ],
)
def test_a_file_that_is_neither_gets_the_error_that_fits_its_name(
    tmp_path: Path, name: str, text: str, expected: str
) -> None:
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(InputError) as raised:
        load_manifests([path])
    assert raised.value.one_line().startswith(f"{path}: {expected}"), raised.value.one_line()


def test_a_large_broken_json_file_is_not_parsed_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_files, "FLOW_YAML_BYTES", 1000)
    path = tmp_path / "dump.yaml"
    path.write_text("{apiVersion: v1, " + "x: 1, " * 400 + "}")
    with pytest.raises(InputError, match="not valid JSON"):
        load_manifests([path])
