"""The cluster page's symptoms section: the seeded cluster's symptoms with links, in HTML and JSON alike."""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from kubegap.checker.check import CheckMeta
from kubegap.checker.runner import run_checks
from kubegap.checker.snapshot import Coverage, KindCoverage, Snapshot
from kubegap.checker.symptoms import collect_symptoms
from kubegap.library import Library
from kubegap.web import create_app
from kubegap.web.cluster_scan import ClusterScan
from kubegap.web.cluster_source import ClusterSource

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from k8s_emulator.symptoms import CREDENTIALS, seeded_cluster


def _report(events: Coverage) -> object:
    snapshot = Snapshot(
        mode="snapshot", source="snapshot: seeded.json", created_at=dt.datetime.now(dt.UTC).isoformat()
    )
    for obj in seeded_cluster(dt.datetime.now(dt.UTC)):
        snapshot.add(obj)
    snapshot.coverage["Event"] = KindCoverage(events, "403 Forbidden" if events is Coverage.forbidden else "")
    report = run_checks(snapshot, checks=[])
    report.symptoms = collect_symptoms(snapshot)
    return report


def _client(library: Library, checks: list[CheckMeta], events: Coverage) -> TestClient:
    scan = ClusterScan(ClusterSource("snapshot", "asked", "seeded.json"), lambda: _report(events))  # type: ignore[arg-type]
    scan.run_now()
    return TestClient(base_url="http://127.0.0.1", app=create_app(library, checks, cluster=scan))


@pytest.fixture(scope="module")
def checks(client: TestClient) -> list[CheckMeta]:
    return client.app.state.site.checks  # type: ignore[attr-defined, no-any-return]


@pytest.fixture(scope="module")
def seeded(library: Library, checks: list[CheckMeta]) -> Iterator[TestClient]:
    with _client(library, checks, Coverage.read) as client:
        yield client


def test_the_page_shows_each_symptom_with_its_catalog_page_incidents_and_checks(seeded: TestClient) -> None:
    html = seeded.get("/en/cluster").text
    assert "Symptoms now:" in html and "window: last 24 h (" in html
    assert '<a href="/en/errors/xid-79"><code>xid-79</code></a>' in html
    assert 'href="/en/incidents/ornl-2016-titan-gpu-resistor-corrosion"' in html
    assert 'href="/en/checks/unhealthy-gpu-node-schedulable"' in html
    assert not [secret for secret in CREDENTIALS if secret[:12] in html]
    data = seeded.get("/en/cluster.json").json()
    rows = data["symptoms"]["rows"]
    assert rows[0]["catalog"] and {row["signature"] for row in rows} >= {"xid-79", "nccl-watchdog-timeout"}
    korean = seeded.get("/ko/cluster").text
    assert "지금 보이는 증상" in korean and "노드 gpu-b" in korean


def test_forbidden_events_say_unknown_on_the_page(library: Library, checks: list[CheckMeta]) -> None:
    with _client(library, checks, Coverage.forbidden) as client:
        html = client.get("/en/cluster").text
    assert "Symptoms now: unknown: events not readable (403)" in html
    assert "Symptoms now: none" not in html
