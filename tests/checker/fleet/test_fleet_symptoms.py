"""Each cluster's symptoms in the fleet report: count, top groups, and unknown kept apart from none."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from fleet_helpers import Fleet, run_kubegap

from k8s_emulator import Fault
from k8s_emulator.factories import gpu_cluster
from k8s_emulator.symptoms import CREDENTIALS, seeded_cluster
from kubegap.checker.fleet.render import render_fleet
from kubegap.checker.fleet.scan import FleetRequest, scan_fleet
from kubegap.checker.scanning import LiveTarget, ScanRequest

CONTEXTS = ("sick", "calm", "blind", "gone")


@pytest.fixture
def fleet_report(fleet: Fleet) -> Any:
    fleet.add("sick", seeded_cluster(dt.datetime.now(dt.UTC)))
    fleet.add("calm", list(gpu_cluster(nodes=2, pods=6, namespaces=1)))
    blind = fleet.add("blind", seeded_cluster(dt.datetime.now(dt.UTC)))
    blind.inject(Fault(r"/api/v1/events", status=403))
    fleet.add_unreachable("gone")
    request = ScanRequest(live=LiveTarget(str(fleet.kubeconfig())))
    return scan_fleet(FleetRequest(contexts=CONTEXTS, scan=request))


def _leaks(text: str) -> list[str]:
    return [secret for secret in CREDENTIALS if secret[:12] in text or secret[-12:] in text]


def test_fleet_json_gives_each_cluster_its_symptom_count_and_top_groups(fleet_report: Any) -> None:
    document = json.loads(render_fleet(fleet_report, "json"))
    clusters = {entry["name"]: entry for entry in document["clusters"]}
    sick = clusters["sick"]["symptoms"]
    assert sick["status"] == "read" and sick["groups"] == len(
        clusters["sick"]["report"]["symptoms"]["groups"]
    )
    assert sick["groups"] >= 11 and len(sick["top"]) == 3
    full = clusters["sick"]["report"]["symptoms"]["groups"]
    assert [(top["symptom"], top["place"]) for top in sick["top"]] == [
        (group["symptom"], group["place"]) for group in full[:3]
    ]  # the same ranking as the cluster's own section
    assert sick["top"][0]["symptom"].startswith("xid-")
    assert clusters["calm"]["symptoms"] == {
        "status": "read", "summary": "none", "groups": 0, "symptomEvents": 0, "top": [],
    }  # fmt: skip
    assert clusters["blind"]["symptoms"]["status"] == "unknown"
    assert "events not readable (403)" in clusters["blind"]["symptoms"]["summary"]
    assert clusters["gone"]["symptoms"] is None  # not scanned: no section at all, never "none"


def test_every_fleet_format_shows_the_symptoms_per_cluster(fleet_report: Any) -> None:
    table = render_fleet(fleet_report, "table")
    assert "Symptoms now" in table and "events not readable (403)" in table
    assert "xid-" in table and "none" in table
    markdown = render_fleet(fleet_report, "markdown")
    section = markdown.split("### Symptoms now", 1)[1].split("<details>", 1)[0]
    rows = {line.split("|")[1].strip(): line for line in section.splitlines() if line.startswith("| `")}
    assert set(rows) == {"`sick`", "`calm`", "`blind`"}
    assert "groups (from" in rows["`sick`"] and "×" in rows["`sick`"]
    assert "| none |" in rows["`calm`"] and "unknown: events not readable (403)" in rows["`blind`"]
    plain = render_fleet(fleet_report, "plain").splitlines()
    assert [line for line in plain if line.startswith("sick  symptoms now: ") and "groups" in line]
    assert len([line for line in plain if line.startswith("  symptom  sick  ")]) == 3
    assert "calm  symptoms now: none" in plain
    assert [
        line for line in plain if line.startswith("blind  symptoms now: unknown: events not readable (403)")
    ]
    korean = render_fleet(fleet_report, "plain", "ko")
    assert "sick  지금 보이는 증상: " in korean and "  증상  sick  " in korean
    sarif = json.loads(render_fleet(fleet_report, "sarif"))
    by_cluster = {run.get("properties", {}).get("cluster"): run for run in sarif["runs"]}
    assert by_cluster["sick"]["properties"]["symptoms"]["groups"]
    assert by_cluster["sick"]["properties"]["symptomSummary"]["top"]
    assert by_cluster["blind"]["properties"]["symptoms"]["status"] == "unknown"
    for fmt in ("table", "plain", "json", "markdown", "sarif", "tsv"):
        assert not _leaks(render_fleet(fleet_report, fmt)), fmt


def test_all_contexts_prints_the_symptoms_of_each_cluster(fleet: Fleet, tmp_path: Path) -> None:
    fleet.add("sick", seeded_cluster(dt.datetime.now(dt.UTC)))
    fleet.add("calm", list(gpu_cluster(nodes=2, pods=6, namespaces=1)))
    done = run_kubegap(
        "scan", "--kubeconfig", str(fleet.kubeconfig()), "--all-contexts", "-f", "plain", home=tmp_path
    )
    assert done.returncode in (0, 1), done.stderr
    assert "calm  symptoms now: none" in done.stdout
    assert "  symptom  sick  xid-" in done.stdout
