"""The "your cluster" page of `kubegap serve --context a --context b`: the fleet matrix and each member.

Real emulated clusters feed a real fleet scan, so the page is checked against the FleetReport the
checker made: every cell, every cluster's status and the link from a cell to that cluster's report.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

sys.path[:0] = [
    str(Path(__file__).resolve().parents[1]),
    str(Path(__file__).resolve().parents[1] / "checker" / "fleet"),
]
from fleet_helpers import Fleet  # noqa: E402

from k8s_emulator.factories import gpu_cluster  # noqa: E402
from kubegap.checker.registry import all_checks  # noqa: E402
from kubegap.checker.sources import load_demo  # noqa: E402
from kubegap.library import Library  # noqa: E402
from kubegap.web import create_app  # noqa: E402
from kubegap.web.cluster_fleet import fleet_scanner, fleet_source, member_id  # noqa: E402
from kubegap.web.cluster_scan import ClusterScan  # noqa: E402

NAMES = ["prod-east", "prod-west", "lab"]


@pytest.fixture(scope="module")
def fleet_client(
    library: Library, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[TestClient, ClusterScan]]:
    fleet = Fleet(tmp_path_factory.mktemp("web-fleet"))
    fleet.add("prod-east", [obj for items in load_demo().objects.values() for obj in items])
    fleet.add("prod-west", list(gpu_cluster(nodes=3, pods=12, namespaces=1)))
    fleet.add_unreachable("lab")
    source = fleet_source(str(fleet.kubeconfig()), (), True)
    scan = ClusterScan(source, fleet_scanner(source, (), True))
    try:
        assert scan.run_now().state == "done"
        app = create_app(library, [check.meta for check in all_checks()], cluster=scan)
        with TestClient(app, base_url="http://127.0.0.1") as client:
            yield client, scan
    finally:
        fleet.stop()


def test_the_matrix_shows_every_cluster_and_every_cell_of_the_fleet_report(
    fleet_client: tuple[TestClient, ClusterScan],
) -> None:
    client, scan = fleet_client
    report = scan.state().fleet
    assert report is not None
    page = client.get("/en/cluster.json").json()
    assert page["kind"] == "fleet" and page["state"] == "done"
    assert page["message"].startswith("Scanned 2 of 3 clusters at ")
    assert [cluster["name"] for cluster in page["clusters"]] == NAMES == page["columns"]
    assert [cluster["status"] for cluster in page["clusters"]] == ["scanned", "scanned", "unreachable"]
    assert "connection refused" in page["clusters"][2]["error"] and page["clusters"][2]["url"] == ""
    rows = {row["id"]: row for row in page["rows"] + page["quiet_rows"]}
    assert set(rows) == {row.check_id for row in report.matrix()}
    for row in report.matrix():
        shown = rows[row.check_id]
        assert [cell["status"] for cell in shown["cells"]] == list(row.cells)
        east = member_id(scan.link_key, "prod-east")
        assert shown["cells"][0]["url"] == f"/en/cluster?cluster={east}#check-{row.check_id}"
        assert shown["cells"][2] == {"status": "error", "label": "not scanned", "url": ""}
    assert all(row["worst"] in ("fail", "unknown") for row in page["rows"])
    assert all(row["worst"] in ("pass", "not-applicable") for row in page["quiet_rows"])


def test_the_korean_page_and_the_html_render(fleet_client: tuple[TestClient, ClusterScan]) -> None:
    client, scan = fleet_client
    html = client.get("/ko/cluster")
    assert html.status_code == 200 and html.headers["cache-control"] == "no-store"
    assert "클러스터 3개 중 2개를 스캔했습니다." in html.text
    assert "연결 불가" in html.text and "스캔 못 함" in html.text
    west = member_id(scan.link_key, "prod-west")
    assert f'<a href="/ko/cluster?cluster={west}">prod-west</a>' in html.text


def test_a_cell_leads_to_that_clusters_own_report(fleet_client: tuple[TestClient, ClusterScan]) -> None:
    client, scan = fleet_client
    report = scan.state().fleet
    assert report is not None
    west = next(cluster for cluster in report.clusters if cluster.name == "prod-west")
    assert west.report is not None
    link = member_id(scan.link_key, "prod-west")
    assert len(link) == 16 and link != member_id(b"another server", "prod-west")
    page = client.get(f"/en/cluster.json?cluster={link}").json()
    assert page["kind"] == "cluster" and page["state"] == "done"
    assert "context prod-west" in page["source"]["scanned"]
    assert {count["key"]: count["count"] for count in page["counts"]} == west.report.counts
    assert client.get(f"/en/cluster?cluster={link}").status_code == 200
    assert client.get("/en/cluster?cluster=prod-west").status_code == 404  # names are not ids


@pytest.mark.parametrize(
    "name", ["lab", "nope", "<script>alert(1)</script>", "x" * 5000, "", "클러스터", "\u202e"]
)
def test_an_unscanned_or_unknown_member_is_a_404_not_a_500(
    fleet_client: tuple[TestClient, ClusterScan], name: str
) -> None:
    client, scan = fleet_client
    name = member_id(scan.link_key, name) if name == "lab" else name
    answer = client.get("/en/cluster.json", params={"cluster": name})
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "not-found"
    html = client.get("/en/cluster", params={"cluster": name})
    assert html.status_code == 404 and "<script>alert" not in html.text


def test_a_context_name_holding_a_credential_never_reaches_a_url(
    library: Library, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The page redacted context names in text, but its links carried them raw (`?cluster=NAME`)."""
    token = "ghp_" + "Q7rT2mXv9LpA4sKd8WnB3hJc6YeF1uGz0RoN"
    name = f"ops-{token}"
    fleet = Fleet(tmp_path_factory.mktemp("web-fleet-secret"))
    fleet.add(name, list(gpu_cluster(nodes=1, pods=2, namespaces=1)))
    source = fleet_source(str(fleet.kubeconfig()), (), True)
    scan = ClusterScan(source, fleet_scanner(source, (), True))
    try:
        assert scan.run_now().state == "done"
        app = create_app(library, [check.meta for check in all_checks()], cluster=scan)
        with TestClient(app, base_url="http://127.0.0.1") as client:
            shown = [client.get("/en/cluster").text, client.get("/en/cluster.json").text]
            link = member_id(scan.link_key, name)
            shown += [client.get(f"/en/cluster?cluster={link}").text]
            shown += [client.get(f"/en/cluster.json?cluster={link}").text]
    finally:
        fleet.stop()
    assert f"?cluster={link}" in shown[0]
    for text in shown:
        assert token[4:12] not in text and token[-8:] not in text


def test_scan_again_on_the_fleet_page_is_a_post_with_the_token(
    fleet_client: tuple[TestClient, ClusterScan],
) -> None:
    """The fleet page's "Scan again" was a GET link, which the server never acts on: it did nothing."""
    client, scan = fleet_client
    html = client.get("/en/cluster").text
    form = (
        '<form class="inline-form" method="post" action="/en/cluster"><input type="hidden" name="token" '
        f'value="{scan.action_token}"><button class="button-link" type="submit">Scan again</button></form>'
    )
    assert form in html and "?rescan=1" not in html
    assert client.get("/en/cluster.json").json()["rescan_token"] == scan.action_token
    assert client.post("/en/cluster.json").status_code == 403  # no token: refused as everywhere else
    answer = client.post("/en/cluster.json", data={"token": scan.action_token})
    assert answer.status_code == 200 and answer.json()["kind"] == "fleet"
    assert answer.json()["notices"] and scan.wait(60).state == "done"
