"""Findings keep the file and document they came from, even when two files define the same object.

Examples reuse names: `Deployment/serving/vllm` in `a.yaml` and again (second document) in
`b.yaml`. Each file's gaps must point at that file in every format, and SARIF must give two results
at two places, not one result twice or both at the first file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kubegap.checker.reports import render
from kubegap.checker.scan_report import ScanReport
from kubegap.checker.scanning import ScanRequest, run_scan

_SERVING = """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: vllm, namespace: serving}
spec:
  replicas: 2
  selector: {matchLabels: {app: vllm}}
  template:
    metadata: {labels: {app: vllm}}
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.6.3
          args: ["--model", "meta-llama/Llama-3.1-8B-Instruct"]
          ports: [{containerPort: 8000}]
          resources: {limits: {nvidia.com/gpu: 1}}
"""
_CONFIG = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other, namespace: serving}\ndata: {a: b}\n"
CHECK = "gpu-serving-memory-limit"


@pytest.fixture
def report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ScanReport:
    monkeypatch.chdir(tmp_path)
    Path("a.yaml").write_text(_SERVING)
    Path("b.yaml").write_text(_CONFIG + "---\n" + _SERVING)  # the same object, in the second document
    return run_scan(ScanRequest(manifest_paths=["a.yaml", "b.yaml"], check_ids=[CHECK]))


def test_each_finding_keeps_its_own_file_line_and_document(report: ScanReport) -> None:
    places = sorted(
        (f.object.source_file, f.object.source_line, f.object.source_document)
        for f in report.findings
        if f.status.value == "fail"
    )
    assert places == [("a.yaml", 1, 1), ("b.yaml", 6, 2)]


def test_json_names_both_places(report: ScanReport) -> None:
    document = json.loads(render(report, "json"))
    objects = [f["object"] for f in document["findings"] if f["status"] == "fail"]
    assert sorted((o["file"], o["line"], o["document"]) for o in objects) == [
        ("a.yaml", 1, 1),
        ("b.yaml", 6, 2),
    ]


def test_sarif_gives_two_results_at_two_places_and_no_duplicates(report: ScanReport) -> None:
    results = json.loads(render(report, "sarif"))["runs"][0]["results"]
    places = [
        (
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
        )
        for r in results
    ]
    assert sorted(places) == [("a.yaml", 1), ("b.yaml", 6)]
    fingerprints = [json.dumps(r["partialFingerprints"], sort_keys=True) for r in results]
    assert len(set(fingerprints)) == len(results)  # code scanning keeps them apart


def test_a_fail_said_twice_is_one_sarif_result(report: ScanReport) -> None:
    from dataclasses import replace

    doubled = replace(report, findings=[*report.findings, *report.findings])
    assert len(json.loads(render(doubled, "sarif"))["runs"][0]["results"]) == 2


@pytest.mark.parametrize("fmt", ["table", "plain", "markdown", "tsv"])
def test_text_formats_show_each_place(report: ScanReport, fmt: str) -> None:
    output = render(report, fmt)
    assert "a.yaml:1" in output and "b.yaml:6" in output, output
