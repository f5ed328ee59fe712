"""The organisation facet and the date range on the list page: state in the URL, chips, notices, JSON.

Fixture organisations (tests/web/fixtures/organizations.yaml): Fixture Cloud belongs to Fixture Lab,
so `organization=fixture-lab` finds the two Lab incidents and the two Cloud ones.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from starlette.testclient import TestClient
from web_fixture_ids import APISERVER, DRIVER, HBM, IB_FLAP, OS_UPDATE


def _json(client: TestClient, url: str) -> dict:
    response = client.get(url)
    assert response.status_code == 200, (url, response.text[:500])
    return response.json()


def _html(client: TestClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.text[:500])
    return response.text


def test_the_organisation_facet_is_a_tab_with_counts_and_toggle_urls(client: TestClient) -> None:
    data = _json(client, "/en/incidents.json?tab=organization")
    assert "organization" in [tab["key"] for tab in data["tabs"]]
    values = {value["id"]: value for value in data["facet_values"]}
    assert {key: value["count"] for key, value in values.items()} == {
        "fixture-ai": 1,
        "fixture-lab": 4,  # its own two and Fixture Cloud's two, rolled up
        "fixture-cloud": 2,
    }
    assert (
        values["fixture-cloud"]["label"] == "Fixture Cloud"
        and values["fixture-cloud"]["parent"] == "fixture-lab"
    )
    query = parse_qs(urlsplit(values["fixture-cloud"]["url"]).query)
    assert query == {"organization": ["fixture-cloud"], "tab": ["organization"]}
    page = _html(client, "/ko/incidents?tab=organization")
    assert 'data-term="fixture-cloud"' in page and "픽스처 클라우드" in page


def test_organisation_filter_by_id_or_name_and_the_chip(client: TestClient) -> None:
    by_parent = _json(client, "/en/incidents.json?organization=fixture-lab")
    assert {card["id"] for card in by_parent["incidents"]} == {HBM, IB_FLAP, OS_UPDATE, DRIVER}
    by_name = _json(client, "/en/incidents.json?org=FixCloud")
    assert {card["id"] for card in by_name["incidents"]} == {OS_UPDATE, DRIVER}
    assert by_name["filters"] == {"organization": ["fixture-cloud"]}
    [chip] = by_name["chips"]
    assert chip["label"] == "Organization: Fixture Cloud"
    assert urlsplit(chip["remove_url"]).query == ""
    assert by_name["incidents"][0]["organization"] == "Fixture Cloud"  # the card shows the name, not the id


def test_date_range_filters_keeps_state_and_shows_removable_chips(client: TestClient) -> None:
    data = _json(client, "/en/incidents.json?since=2021&until=2023-08&sort=oldest")
    assert [card["id"] for card in data["incidents"]] == [IB_FLAP, APISERVER, OS_UPDATE]
    assert (data["since"], data["until"]) == ("2021-01-01", "2023-08-31")
    chips = {chip["facet"]: chip for chip in data["chips"]}
    assert chips["since"]["label"] == "From: 2021-01-01" and chips["until"]["label"] == "Until: 2023-08-31"
    assert parse_qs(urlsplit(chips["since"]["remove_url"]).query) == {
        "until": ["2023-08-31"],
        "sort": ["oldest"],
    }
    # A facet link keeps the range; the search form carries it in its own fields, not hidden ones.
    cause = data["facets"]["cause"][0]
    assert parse_qs(urlsplit(cause["url"]).query)["since"] == ["2021-01-01"]
    assert {field["name"] for field in data["hidden_fields"]} == {"sort"}
    page = _html(client, "/en/incidents?since=2021&until=2023-08")
    assert 'name="since" type="text" inputmode="numeric" value="2021-01-01"' in page
    assert 'value="2023-08-31"' in page and 'data-chip="since:2021-01-01"' in page


def test_a_date_that_is_not_one_is_ignored_with_a_notice(client: TestClient) -> None:
    data = _json(client, "/ko/incidents.json?since=2024-02-30&until=%3Cscript%3E")
    assert data["total"] == 5 and (data["since"], data["until"]) == ("", "")
    assert any("2024-02-30" in notice and "시작일" in notice for notice in data["notices"])
    assert any("종료일" in notice for notice in data["notices"])
    page = _html(client, "/ko/incidents?until=%3Cscript%3E")
    assert "<script>" not in page.split("<main", 1)[1] and "&lt;script&gt;" in page


def test_empty_range_is_an_empty_list_not_an_error(client: TestClient) -> None:
    data = _json(client, "/en/incidents.json?since=2030&until=2020")
    assert data["total"] == 0 and data["incidents"] == []
