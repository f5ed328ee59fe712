"""No seeded credential leaves kubegap, whole or in pieces, through any output.

100+ credential shapes (`secret_seeds.py`: token formats, URL and DSN passwords, JSON and
command-line credentials, key blocks, password hashes, and URL-, hex- and base64-encoded and glued
variants) are planted, fresh random values each, into every kind of field a cluster or a file can
carry: object names, label values and keys, annotations, env values, args, ConfigMap data, the
snapshot's context, kubeconfig and source, and a live cluster's kubeconfig context and cluster names.
Every output is then collected: the four report formats of `kubegap scan` (snapshot, manifests,
live), the MCP tools over the official client, and the web pages and their JSON. The test fails if
any seeded secret, or any 8-character piece of one, appears.

It cannot pass by never carrying the values: a probe check (standing in for any check that quotes
what it read) echoes each field into its message and evidence, and the test first asserts that the
unredacted report does hold every format in every field kind, and that the same detector finds them
there. Only then does a clean output mean the redaction held.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from kubegap.agents import mcp_kubeconfigs
from kubegap.checker.check import CheckMeta
from kubegap.checker.finding import Finding, ObjectRef, Severity, Status
from kubegap.checker.registry import CheckModule
from kubegap.checker.snapshot import Snapshot
from kubegap.knowledge.model import Bilingual
from secret_seeds import Seed, leaks, seeds

PLANTED = seeds()
PROBE_ID = "seed-echo"
FIELD_KINDS = ("name", "label", "label key", "annotation", "env", "args", "configmap data")


def _probe_run(snapshot: Snapshot) -> Iterable[Finding]:
    """Quote every field it reads, as a careless check would: names, labels, annotations, env, args, data."""
    for node in snapshot.of("Node"):
        metadata = node["metadata"]
        labels, annotations = metadata.get("labels") or {}, metadata.get("annotations") or {}
        ref = ObjectRef("Node", metadata["name"], api_version="v1")
        yield Finding(PROBE_ID, Status.failed, Severity.high, ref, f"node {metadata['name']} is named so", {})
        yield Finding(
            PROBE_ID,
            Status.failed,
            Severity.high,
            ObjectRef("Node", str(metadata.get("generateName") or "node"), api_version="v1"),
            f"labels {labels} annotations {annotations}",
            {"labels": labels, "annotations": annotations},
        )
    for pod in snapshot.of("Pod"):
        for container in pod["spec"]["containers"]:
            env, args = container.get("env") or [], container.get("args") or []
            yield Finding(
                PROBE_ID,
                Status.failed,
                Severity.medium,
                ObjectRef("Pod", pod["metadata"]["name"], pod["metadata"].get("namespace", "")),
                f"runs {' '.join(args)} with {' '.join(str(item.get('value')) for item in env)}",
                {"env": env, "args": args},
            )
    for config in snapshot.of("ConfigMap"):
        data = config.get("data") or {}
        yield Finding(
            PROBE_ID,
            Status.unknown,
            Severity.low,
            ObjectRef("ConfigMap", config["metadata"]["name"], config["metadata"].get("namespace", "")),
            f"reads {' / '.join(str(value) for value in data.values())}",
            {"data": data},
            reason="not-decidable",
        )


def _probe() -> CheckModule:
    text = Bilingual(ko="시드 값을 그대로 보여 주는 점검", en="A check that echoes what it read")
    meta = CheckMeta(
        id=PROBE_ID,
        area="gpu-health",
        severity=Severity.high,
        title=text,
        why=text,
        remediation=text,
        decides=text,
        incidents=(),
        needs=("Node", "Pod", "ConfigMap"),
        optional=(),
        manifests=True,
    )
    return CheckModule(meta=meta, run=_probe_run)


def _objects() -> list[dict[str, Any]]:
    objects: list[dict[str, Any]] = []
    for index, seed in enumerate(PLANTED):
        carrier = seed.carrier
        objects.append(
            {
                "apiVersion": "v1",
                "kind": "Node",
                "metadata": {
                    "name": carrier,
                    "generateName": f"gpu-node-{index}",
                    "labels": {f"seed-{index}": carrier, f"{carrier}": "key-holds-it"},
                    "annotations": {f"example.com/note-{index}": carrier},
                },
                "status": {"capacity": {"nvidia.com/gpu": "8"}, "allocatable": {"nvidia.com/gpu": "8"}},
            }
        )
        container = {
            "name": "trainer",
            "image": "nvcr.io/nvidia/pytorch:24.05-py3",
            "env": [{"name": f"EXTRA_SETTING_{index}", "value": carrier}],
            "args": ["--extra", carrier, f"--mode-{index}={carrier}"],
        }
        objects.append(
            {
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {"name": f"trainer-{index}", "namespace": "ml"},
                "spec": {"containers": [container], "nodeName": f"gpu-node-{index}"},
            }
        )
        objects.append(
            {
                "apiVersion": "v1",
                "kind": "ConfigMap",
                "metadata": {"name": f"settings-{index}", "namespace": "ml"},
                "data": {"settings.txt": carrier},
            }
        )
    return objects


JOINED = " ".join(seed.carrier for seed in PLANTED)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("seeded")
    snapshot = {
        "apiVersion": "kubegap.io/v1",
        "kind": "Snapshot",
        "source": f"live: {JOINED}",
        "createdAt": "2026-12-02T10:00:00Z",
        "mode": "live",
        "context": JOINED,
        "kubeconfig": f"/home/u/{JOINED}",
        "requests": 3,
        "notes": [f"read with {JOINED}"],
        "coverage": {"Node": "read", "Pod": "read", "ConfigMap": "read"},
        "items": _objects(),
    }
    (folder / "cluster.json").write_text(json.dumps(snapshot))
    manifests = folder / "manifests"
    manifests.mkdir()
    (manifests / "all.yaml").write_text(yaml.safe_dump_all(_objects()))
    return {"snapshot": folder / "cluster.json", "manifests": manifests, "folder": folder}


@pytest.fixture(autouse=True)
def probe_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    from kubegap.checker import registry

    shipped = registry._discovered()
    monkeypatch.setattr(registry, "_discovered", lambda: (*shipped, _probe()))


def _assert_clean(outputs: dict[str, str]) -> None:
    found = {name: leaks(text, PLANTED) for name, text in outputs.items()}
    assert {name: pieces[:5] for name, pieces in found.items() if pieces} == {}
    assert all(text for text in outputs.values()), [name for name, text in outputs.items() if not text]


def test_the_unredacted_report_carries_every_format_in_every_field_kind(inputs: dict[str, Path]) -> None:
    """The guard that makes a clean output mean something: the values really reach the renderers."""
    from kubegap.checker.scanning import ScanRequest, run_scan

    report = run_scan(ScanRequest(snapshot_paths=[str(inputs["snapshot"])], check_ids=[PROBE_ID]))
    probe = [finding for finding in report.findings if finding.check_id == PROBE_ID]
    by_kind = {
        "name": " ".join(f.object.name for f in probe if f.object.kind == "Node"),
        "label": " ".join(str(f.evidence.get("labels")) for f in probe),
        "label key": " ".join(str(list((f.evidence.get("labels") or {}).keys())) for f in probe),  # type: ignore[union-attr]
        "annotation": " ".join(str(f.evidence.get("annotations")) for f in probe),
        "env": " ".join(str(f.evidence.get("env")) for f in probe),
        "args": " ".join(str(f.evidence.get("args")) for f in probe),
        "configmap data": " ".join(str(f.evidence.get("data")) for f in probe),
        "context": report.context,
    }
    assert set(FIELD_KINDS) <= set(by_kind)
    for kind, raw in by_kind.items():
        missing = [seed.format for seed in PLANTED if seed.secret not in raw.replace("\\n", "\n")]
        assert missing == [], kind
        assert {name for name, _ in leaks(raw.replace("\\n", "\n"), PLANTED)} == {s.format for s in PLANTED}
    assert len({seed.format for seed in PLANTED}) >= 100


@pytest.mark.parametrize("source", ["snapshot", "manifests"])
def test_no_report_format_leaks(
    inputs: dict[str, Path], source: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from kubegap.cli import main

    outputs = {}
    for fmt in ("table", "json", "sarif", "markdown"):
        for lang in ("en", "ko"):
            with pytest.raises(SystemExit):
                main(["scan", f"--{source}", str(inputs[source]), "--format", fmt, "--lang", lang])
            captured = capsys.readouterr()
            outputs[f"{source} {fmt} {lang}"] = captured.out + captured.err
    assert all(PROBE_ID in text for text in outputs.values())
    _assert_clean(outputs)


def _live_kubeconfig(emulator: Any, folder: Path, token: str) -> Path:
    document = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": JOINED, "cluster": {"server": emulator.url}}],
        "users": [{"name": JOINED, "user": {"token": token}}],
        "contexts": [{"name": JOINED, "context": {"cluster": JOINED, "user": JOINED}}],
        "current-context": JOINED,
    }
    path = folder / "kubeconfig"
    path.write_text(yaml.safe_dump(document))
    return path


@pytest.fixture(scope="module")
def live(inputs: dict[str, Path]) -> Iterator[Path]:
    from k8s_emulator import KubeEmulator
    from k8s_emulator.testing import TOKEN, assert_read_only

    emulator = KubeEmulator(_objects(), token=TOKEN).start()
    try:
        yield _live_kubeconfig(emulator, inputs["folder"], TOKEN)
    finally:
        emulator.stop()
        assert_read_only(emulator)


def test_a_live_scan_with_seeded_context_and_cluster_names_leaks_nothing(
    live: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from kubegap.cli import main

    outputs = {}
    for fmt in ("table", "json", "sarif", "markdown"):
        with pytest.raises(SystemExit):
            main(["scan", "--kubeconfig", str(live), "--format", fmt])
        captured = capsys.readouterr()
        outputs[f"live {fmt}"] = captured.out + captured.err
    assert PROBE_ID in outputs["live json"] and '"mode": "live"' in outputs["live json"]
    _assert_clean(outputs)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _texts(result: Any) -> str:
    parts = [getattr(block, "text", "") for block in result.content]
    if result.structured_content is not None:
        parts.append(json.dumps(result.structured_content, ensure_ascii=False))
    return "\n".join(parts)


@pytest.mark.anyio
async def test_no_mcp_tool_leaks(inputs: dict[str, Path], live: Path) -> None:
    from mcp.client import Client

    from kubegap.agents.mcp_server import server

    outputs: dict[str, str] = {}
    async with Client(server, raise_exceptions=True) as client:
        for name, arguments in (
            ("snapshot", {"paths": [str(inputs["snapshot"])], "kind": "snapshot"}),
            ("manifests", {"paths": [str(inputs["manifests"])], "kind": "manifests"}),
        ):
            summary = await client.call_tool("scan_files", arguments)
            outputs[f"scan_files {name}"] = _texts(summary)
            scan_id = summary.structured_content["scan_id"]
            offset: int | None = 0
            while offset is not None:
                page = await client.call_tool(
                    "get_findings", {"scan_id": scan_id, "offset": offset, "limit": 100}
                )
                outputs[f"get_findings {name} {offset}"] = _texts(page)
                offset = page.structured_content["next_offset"]
            probe = await client.call_tool(
                "get_findings", {"scan_id": scan_id, "check_id": PROBE_ID, "limit": 100}
            )
            outputs[f"get_findings {name} probe"] = _texts(probe)
        mcp_kubeconfigs.allow([str(live)])  # as `kubegap mcp --kubeconfig LIVE` would
        try:
            cluster = await client.call_tool("scan_cluster", {"kubeconfig": str(live)})
        finally:
            mcp_kubeconfigs.allow([])
        outputs["scan_cluster"] = _texts(cluster)
        outputs["explain_check"] = _texts(await client.call_tool("explain_check", {"check_id": PROBE_ID}))
        for seed in PLANTED[:10]:
            echoed = await client.call_tool("explain_check", {"check_id": seed.carrier})
            outputs[f"explain_check echo {seed.format}"] = _texts(echoed)
            found = await client.call_tool(
                "find_incidents_by_error", {"error_text": f"NCCL timeout {seed.carrier}"}
            )
            outputs[f"find_incidents_by_error {seed.format}"] = _texts(found)
    assert "[REDACTED]" in outputs["get_findings snapshot probe"]
    assert PROBE_ID in outputs["get_findings manifests probe"] and '"mode": "live"' in outputs["scan_cluster"]
    _assert_clean(outputs)


def test_no_web_page_or_its_json_leaks(inputs: dict[str, Path]) -> None:
    from starlette.testclient import TestClient

    from kubegap.library import Library
    from kubegap.web.app import create_app
    from kubegap.web.cluster_scan import ClusterScan
    from kubegap.web.cluster_source import choose_source

    outputs = {}
    for source in ("snapshot", "manifests"):
        chosen = (
            choose_source(snapshot_paths=(str(inputs["snapshot"]),))
            if source == "snapshot"
            else choose_source(manifest_paths=(str(inputs["manifests"]),))
        )
        scan = ClusterScan(chosen)
        assert scan.run_now().state == "done"
        with TestClient(
            create_app(Library.open(), None, cluster=scan), base_url="http://127.0.0.1"
        ) as client:
            for lang in ("en", "ko"):
                for path in (
                    f"/{lang}/cluster",
                    f"/{lang}/checks/{PROBE_ID}",
                    f"/{lang}/checks",
                    f"/{lang}/incidents",
                ):
                    for suffix in ("", ".json"):
                        response = client.get(path + suffix)
                        assert response.status_code == 200, (path + suffix, response.text[:300])
                        outputs[f"{source} {path}{suffix}"] = response.text
    assert PROBE_ID in outputs["snapshot /en/cluster.json"]
    _assert_clean(outputs)


def test_the_detector_sees_a_leak_when_there_is_one() -> None:
    """Guard: an output that quotes one piece of one secret is reported, naming the format."""
    seed: Seed = PLANTED[3]
    assert leaks(f"prefix {seed.secret[5:13]} suffix", PLANTED) == [(seed.format, seed.secret[5:13])]
    assert leaks("[REDACTED] nothing here", PLANTED) == []


@pytest.mark.parametrize("offset", [390, 395, 399, 400, 401])
def test_mcp_never_cuts_a_token_before_redacting_it(offset: int) -> None:
    """get_findings once cut messages at 400 characters before the redaction pass: a token across
    the cut lost its tail, was no longer recognised, and its prefix reached the model."""
    from kubegap.agents.mcp_redaction import redact_wire
    from kubegap.agents.mcp_scans import MESSAGE_CHARS, finding_view

    for seed in PLANTED:
        message = "m" * (offset - 1) + " " + seed.carrier + " tail " + "z" * 600
        evidence = {"detail": "e" * (offset - 120) + " " + seed.carrier}
        finding = Finding(
            PROBE_ID, Status.failed, Severity.high, ObjectRef("Pod", "p", "ns"), message, evidence
        )
        view = redact_wire(finding_view(finding).model_dump())
        assert len(view["message"]) < MESSAGE_CHARS + 40
        assert leaks(json.dumps(view), [seed]) == [], seed.format
