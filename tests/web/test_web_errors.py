"""The error-catalog pages over the bundled knowledge base: list, entry, JSON twin, unknown id."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from kubegap.web.app import create_app


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), base_url="http://127.0.0.1")


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_entry_page_links_incidents_checks_and_sources(client: TestClient, lang: str) -> None:
    page = client.get(f"/{lang}/errors/xid-79")
    assert page.status_code == 200
    assert f"/{lang}/incidents/ornl-2016-titan-gpu-resistor-corrosion" in page.text
    assert f"/{lang}/checks/gpu-fault-conditions" in page.text
    assert "https://docs.nvidia.com/deploy/xid-errors/index.html" in page.text
    assert ("의미" if lang == "ko" else "Meaning") in page.text


def test_json_twin_and_catalog_list(client: TestClient) -> None:
    data = client.get("/en/errors/xid-94.json").json()
    assert data["id"] == "xid-94" and data["incidents"][0]["url"].startswith("/en/incidents/")
    listing = client.get("/ko/errors.json").json()
    assert {"xid-79", "nccl-watchdog-timeout", "etcd-database-space-exceeded"} <= {
        e["id"] for e in listing["entries"]
    }


def test_study_rows_are_linked(client: TestClient) -> None:
    data = client.get("/en/errors/xid-95.json").json()
    assert any("XID 95" in row["label"] for row in data["study_rows"])


def test_unknown_entry_is_a_calm_404(client: TestClient) -> None:
    page = client.get("/en/errors/xid-999999")
    assert page.status_code == 404 and "Traceback" not in page.text
