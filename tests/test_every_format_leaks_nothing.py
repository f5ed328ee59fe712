"""Every seeded credential shape, through every output format: 0 seeds and 0 8-character pieces.

The formats are the ones a scan can leave by: table, plain (the default in a pipe), TSV, JSON, SARIF
and Markdown from the CLI (both languages, default and `--all` layouts), the MCP tools, the web page
and its JSON, and the Prometheus exporter. The seeds come from `secret_seeds.py`, so a bigger corpus
there is walked here as it is.

The carriers go where a scan echoes them without any check having to quote them: object names,
namespaces, the context, the kubeconfig path, the source and the notes. A probe check also quotes
labels and env values in its message and evidence. The test first proves the values reach the
renderers unredacted (so a clean output means the chokepoint held), and a second test holds every
text format to the same bar for control characters: no ESC, no bidi override, no forged line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
import yaml

from kubegap.checker.check import CheckMeta
from kubegap.checker.finding import Finding, ObjectRef, Severity, Status
from kubegap.checker.registry import CheckModule
from kubegap.checker.snapshot import Snapshot
from kubegap.knowledge.model import Bilingual
from secret_seeds import leaks, seeds

PLANTED = seeds()
PROBE = "seed-every-format"
FORMATS = ("table", "plain", "tsv", "json", "sarif", "markdown")
_RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


def _probe_run(snapshot: Snapshot) -> Iterable[Finding]:
    for pod in snapshot.of("Pod"):
        metadata = pod["metadata"]
        env = pod["spec"]["containers"][0].get("env") or []
        labels = metadata.get("labels") or {}
        ref = ObjectRef("Pod", metadata["name"], metadata.get("namespace", ""), "v1")
        yield Finding(
            PROBE,
            Status.failed,
            Severity.high,
            ref,
            f"pod {metadata['name']} in {metadata.get('namespace')} runs with {labels}",
            {"labels": labels, "env": env, "role": str(labels.get("role", ""))},
        )
        yield Finding(
            PROBE, Status.unknown, Severity.high, ref, f"cannot tell {labels}", reason="not-decidable"
        )


def _probe() -> CheckModule:
    text = Bilingual(ko="시드를 그대로 보여 주는 점검", en="Seeds as they were read")
    meta = CheckMeta(
        id=PROBE,
        area="gpu-health",
        severity=Severity.high,
        title=text,
        why=text,
        remediation=text,
        decides=text,
        incidents=(),
        needs=("Pod",),
    )
    return CheckModule(meta=meta, run=_probe_run)


@pytest.fixture(autouse=True)
def probe_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    from kubegap.checker import registry

    shipped = registry._discovered()
    monkeypatch.setattr(registry, "_discovered", lambda: (*shipped, _probe()))


def _pods() -> list[dict[str, Any]]:
    pods = []
    for index, seed in enumerate(PLANTED):
        pods.append(
            {
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {
                    "name": seed.carrier,
                    "namespace": seed.carrier,
                    "labels": {"role": seed.carrier, f"seed-{index}": seed.carrier},
                },
                "spec": {
                    "containers": [
                        {
                            "name": "c",
                            "image": "nvcr.io/nvidia/pytorch:24.05-py3",
                            "env": [{"name": f"SETTING_{index}", "value": seed.carrier}],
                        }
                    ]
                },
            }
        )
    return pods


JOINED = " ".join(seed.carrier for seed in PLANTED)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("every-format")
    snapshot = {
        "apiVersion": "kubegap.io/v1",
        "kind": "Snapshot",
        "source": f"live: {JOINED}",
        "mode": "live",
        "context": JOINED,
        "kubeconfig": f"/home/u/{JOINED}",
        "notes": [f"read with {JOINED}"],
        "coverage": {"Pod": "read"},
        "items": _pods(),
    }
    (folder / "cluster.json").write_text(json.dumps(snapshot))
    manifests = folder / "manifests"
    manifests.mkdir()
    (manifests / "all.yaml").write_text(yaml.safe_dump_all(_pods()))
    return {"snapshot": folder / "cluster.json", "manifests": manifests}


def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    from kubegap.cli import main

    with pytest.raises(SystemExit):
        main(args)
    captured = capsys.readouterr()
    return captured.out + captured.err


def _clean(outputs: dict[str, str]) -> None:
    found = {name: leaks(text, PLANTED)[:5] for name, text in outputs.items()}
    assert {name: pieces for name, pieces in found.items() if pieces} == {}


def test_the_seeds_reach_the_renderers_unredacted(inputs: dict[str, Path]) -> None:
    """The guard: without the chokepoint every seed would be there, in names and in the context."""
    from kubegap.checker.scanning import ScanRequest, run_scan

    report = run_scan(ScanRequest(snapshot_paths=[str(inputs["snapshot"])], check_ids=[PROBE]))
    names = " ".join(f.object.display() for f in report.findings)
    assert {name for name, _ in leaks(names, PLANTED)} == {seed.format for seed in PLANTED}
    assert {name for name, _ in leaks(report.context, PLANTED)} == {seed.format for seed in PLANTED}
    assert len(PLANTED) >= 40


@pytest.mark.parametrize("source", ["snapshot", "manifests"])
def test_no_cli_format_leaks_a_seed_or_a_piece_of_one(
    inputs: dict[str, Path], source: str, capsys: pytest.CaptureFixture[str]
) -> None:
    outputs = {}
    for fmt in FORMATS:
        for lang in ("en", "ko"):
            for layout in ([], ["--all"]):
                args = ["scan", f"--{source}", str(inputs[source]), "-f", fmt, "--lang", lang, *layout]
                outputs[" ".join(args[2:])] = _cli(args, capsys)
    assert all(PROBE in text for text in outputs.values())
    _clean(outputs)


def test_text_formats_carry_no_raw_control_character(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hostile = "ns\x1b]8;;https://evil.example\x07\u202e\nfail  critical  forged"
    pod = _pods()[0]
    pod["metadata"] |= {"name": hostile, "namespace": "ml"}
    path = tmp_path / "pod.yaml"
    path.write_text(yaml.safe_dump(pod))
    for fmt in FORMATS:
        output = _cli(["scan", str(path), "-f", fmt, "--all", "--check", PROBE], capsys)
        assert PROBE in output, fmt
        assert not _RAW_CONTROL.search(output.replace("\n", "")), fmt
        assert not re.search(r"^\W*fail\s+critical\s+forged", output, re.MULTILINE), fmt


def test_no_metrics_label_leaks_or_breaks_a_line(inputs: dict[str, Path]) -> None:
    from prometheus_client import generate_latest

    from kubegap.checker.fleet.report import ClusterResult
    from kubegap.checker.scanning import ScanRequest, run_scan
    from kubegap.metrics.app import exporter_registry
    from kubegap.metrics.state import ExporterState

    report = run_scan(ScanRequest(snapshot_paths=[str(inputs["snapshot"])]))
    state = ExporterState()
    for seed in PLANTED:
        state.record(ClusterResult(name=seed.carrier + "\x1b[2J\n", status="scanned", report=report))
    text = generate_latest(exporter_registry(state)).decode()
    assert "kubegap_check_status" in text
    _clean({"metrics": text})
    assert "\x1b" not in text and all(line.startswith(("#", "kubegap_")) for line in text.splitlines())


def test_no_mcp_tool_or_web_page_leaks(inputs: dict[str, Path]) -> None:
    import anyio
    from starlette.testclient import TestClient

    from kubegap.library import Library
    from kubegap.web.app import create_app
    from kubegap.web.cluster_scan import ClusterScan
    from kubegap.web.cluster_source import choose_source

    outputs: dict[str, str] = {}

    async def tools() -> None:
        from mcp.client import Client

        from kubegap.agents.mcp_server import server

        async with Client(server, raise_exceptions=True) as client:
            for kind in ("snapshot", "manifests"):
                summary = await client.call_tool("scan_files", {"paths": [str(inputs[kind])], "kind": kind})
                outputs[f"mcp scan_files {kind}"] = json.dumps(summary.structured_content)
                page = await client.call_tool(
                    "get_findings",
                    {"scan_id": summary.structured_content["scan_id"], "check_id": PROBE, "limit": 100},
                )
                outputs[f"mcp get_findings {kind}"] = json.dumps(page.structured_content) + "".join(
                    getattr(block, "text", "") for block in page.content
                )

    anyio.run(tools)
    scan = ClusterScan(choose_source(snapshot_paths=(str(inputs["snapshot"]),)))
    assert scan.run_now().state == "done"
    with TestClient(create_app(Library.open(), None, cluster=scan), base_url="http://127.0.0.1") as client:
        for lang in ("en", "ko"):
            for suffix in ("", ".json"):
                response = client.get(f"/{lang}/cluster{suffix}")
                assert response.status_code == 200
                outputs[f"web {lang}{suffix}"] = response.text
    assert PROBE in outputs["web en.json"] and PROBE in outputs["mcp get_findings snapshot"]
    _clean(outputs)


@pytest.mark.parametrize("offset", [185, 192, 199, 200, 205])
def test_a_note_cut_to_one_line_is_redacted_before_it_is_cut(offset: int) -> None:
    """The default layout shows the first note cut short; a token across the cut must still go."""
    from kubegap.checker.reports import render
    from kubegap.checker.runner import run_checks

    for seed in PLANTED:
        snapshot = Snapshot(mode="snapshot", source="test")
        snapshot.add(
            {
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {"name": "p", "namespace": "ml"},
                "spec": {"containers": [{"name": "c"}]},
            }
        )
        snapshot.notes.append("n" * (offset - 1) + " " + seed.carrier + " tail")
        report = run_checks(snapshot, checks=[_probe()])
        for fmt in ("plain", "table"):
            assert leaks(render(report, fmt), [seed]) == [], (seed.format, fmt)
