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


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_every_page_links_the_catalog_from_the_navigation(client: TestClient, lang: str) -> None:
    for path in ("/incidents", "/checks", "/studies", "/errors", "/errors/xid-79"):
        page = client.get(f"/{lang}{path}").text
        nav = page[page.index('class="site-nav"') : page.index("</nav>", page.index('class="site-nav"'))]
        assert f'href="/{lang}/errors"' in nav, path
        current = f'href="/{lang}/errors" aria-current="page"'
        assert (current in nav) == path.startswith("/errors"), path


def test_xid_codes_are_listed_in_numeric_order(client: TestClient) -> None:
    entries = client.get("/en/errors.json").json()["entries"]
    codes = [int(entry["code"]) for entry in entries if entry["family"] == "xid"]
    assert len(codes) > 5 and codes == sorted(codes)  # 13 before 119, where id order put 119 first
    families = [entry["family"] for entry in entries]
    assert families.index("xid") == 0 and families[-1] == "etcd"


def test_family_tabs_count_what_they_show(client: TestClient) -> None:
    listing = client.get("/ko/errors.json").json()
    tabs = {tab["key"]: tab for tab in listing["families"]}
    assert tabs[""]["current"] and tabs[""]["count"] == listing["total"]
    for key, tab in tabs.items():
        shown = client.get(tab["url"].replace("/ko/errors", "/ko/errors.json")).json()
        assert shown["total"] == tab["count"] and shown["family"] == key
        assert all(entry["family"] == key for entry in shown["entries"] if key)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("XID79", ["xid-79"]),
        ("xid-79", ["xid-79"]),
        ("kernel: NVRM: Xid (PCI:0000:3b:00): 94, pid=1234", ["xid-94"]),
        (
            "NCCL WARN NET/IB : Got completion from peer 10.0.0.2<55004> with error 12",
            ["nccl-ib-completion-error"],
        ),
        ("fallen off the bus", ["xid-79"]),
    ],
)
def test_the_catalog_search_resolves_a_pasted_code_or_line(
    client: TestClient, text: str, expected: list[str]
) -> None:
    found = client.get("/en/errors.json", params={"q": text}).json()
    assert [entry["id"] for entry in found["entries"]] == expected
    assert found["library_search_url"].startswith("/en/incidents?q=")


def test_no_match_offers_the_library_search(client: TestClient) -> None:
    page = client.get("/ko/errors", params={"q": "the printer is on fire"})
    assert page.status_code == 200 and "/ko/incidents?q=the%20printer" in page.text
    assert client.get("/ko/errors.json", params={"q": "the printer is on fire"}).json()["total"] == 0


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_library_search_names_the_catalog_entry_and_the_entry_links_back(
    client: TestClient, lang: str
) -> None:
    data = client.get(f"/{lang}/incidents.json", params={"q": "XID79"}).json()
    assert [entry["id"] for entry in data["catalog"]] == ["xid-79"]
    assert data["catalog"][0]["url"] == f"/{lang}/errors/xid-79"
    page = client.get(f"/{lang}/incidents", params={"q": "NVRM: Xid (PCI:0000:3b:00): 79, pid=1234"}).text
    assert f'href="/{lang}/errors/xid-79"' in page and 'class="catalog-hits"' in page
    assert client.get(f"/{lang}/incidents.json", params={"q": "NCCL"}).json()["catalog"] == []
    entry = client.get(f"/{lang}/errors/xid-79.json").json()
    assert entry["find_incidents_url"] == f"/{lang}/incidents?q=Xid%2079"
    assert (
        client.get(entry["find_incidents_url"].replace("/incidents?", "/incidents.json?")).json()["total"]
        >= 1
    )
