"""Every page as a context, as HTML and as JSON, against the fixture knowledge base.

The JSON twin is the page's context serialised, so each test reads values from the JSON and checks
the HTML shows the same ones (escaped): the API and the page cannot drift apart unnoticed.
"""

from __future__ import annotations

import itertools
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from markupsafe import escape
from starlette.testclient import TestClient
from web_fixture_ids import APISERVER, DRIVER, HBM, IB_FLAP, OS_UPDATE, SIGNATURE, STUDY


def _html(client: TestClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.text[:500])
    assert response.headers["content-type"].startswith("text/html")
    return response.text


def _json(client: TestClient, url: str) -> dict:
    response = client.get(url)
    assert response.status_code == 200, (url, response.text[:500])
    assert response.headers["content-type"].startswith("application/json")
    return response.json()


def _escaped(text: str) -> str:
    """How Jinja's autoescape writes a text into HTML."""
    return str(escape(text))


def test_list_page_counts_range_and_cards_match_between_json_and_html(client: TestClient) -> None:
    data = _json(client, "/ko/incidents.json")
    page = _html(client, "/ko/incidents")
    assert data["kind"] == "incidents"
    assert data["total"] == 5
    assert data["range_text"] == "5건 중 1~5번째"
    assert "5건 중 1~5번째" in page
    assert [card["id"] for card in data["incidents"]] == [HBM, OS_UPDATE, APISERVER, IB_FLAP, DRIVER]
    for card in data["incidents"]:
        assert _escaped(card["title"]) in page
        assert card["url"] in page
    english = _json(client, "/en/incidents.json")
    assert english["range_text"] == "1-5 of 5"
    assert "1-5 of 5" in _html(client, "/en/incidents")


def test_facet_values_carry_label_count_selected_and_toggle_url(client: TestClient) -> None:
    data = _json(client, "/en/incidents.json")
    causes = {value["id"]: value for value in data["facets"]["cause"]}
    assert causes["software-update"]["count"] == 2
    assert causes["software-update"]["selected"] is False
    assert (
        causes["hardware-fault"]["count"] == 2
    )  # rolled up from gpu-memory-error and network-hardware-fault
    assert parse_qs(urlsplit(causes["software-update"]["url"]).query) == {"cause": ["software-update"]}
    page = _html(client, "/en/incidents")
    assert _escaped(causes["software-update"]["url"]) in page
    assert [value["id"] for value in data["facet_values"]] == [
        value["id"] for value in data["facets"]["cause"]
    ]
    components = _json(client, "/en/incidents.json?tab=component")
    assert {value["id"] for value in components["facet_values"]} >= {"nccl", "host-os", "gpu-memory"}


def test_selecting_a_value_filters_and_shows_a_removable_chip(client: TestClient) -> None:
    data = _json(client, "/en/incidents.json?cause=software-update")
    assert data["total"] == 2
    assert {card["id"] for card in data["incidents"]} == {OS_UPDATE, DRIVER}
    selected = [value for value in data["facets"]["cause"] if value["selected"]]
    assert [value["id"] for value in selected] == ["software-update"]
    assert urlsplit(selected[0]["url"]).query == ""  # toggling it again removes it
    [chip] = data["chips"]
    assert chip["label"] == "Cause: Software update" or chip["label"].startswith("Cause: ")
    assert urlsplit(chip["remove_url"]).query == ""
    page = _html(client, "/en/incidents?cause=software-update")
    assert 'data-chip="cause:software-update"' in page
    assert _json(client, chip["remove_url"].replace("/incidents", "/incidents.json"))["total"] == 5


def test_filters_and_across_facets_or_within_one(client: TestClient) -> None:
    both = _json(client, "/en/incidents.json?cause=software-update&cause=control-plane-overload")
    assert both["total"] == 3
    narrowed = _json(client, "/en/incidents.json?cause=software-update&component=host-os")
    assert [card["id"] for card in narrowed["incidents"]] == [OS_UPDATE]


def test_korean_search_and_pasted_error_line(client: TestClient) -> None:
    korean = _json(client, "/ko/incidents.json?q=노드가")
    assert HBM in {card["id"] for card in korean["incidents"]}
    pasted = f"2024-03-14T10:00:01Z host12 [rank3]: {SIGNATURE}"
    response = client.get("/en/incidents.json", params={"q": pasted})
    found = {card["id"]: card for card in response.json()["incidents"]}
    assert set(found) >= {HBM, IB_FLAP}
    assert found[HBM]["matched_signatures"] == [SIGNATURE]
    page = client.get("/en/incidents", params={"q": pasted}).text
    assert _escaped(SIGNATURE) in page
    assert "<rank 3>" not in page


def test_paging_range_and_links(client: TestClient) -> None:
    first = _json(client, "/ko/incidents.json?per_page=2")
    assert first["page_count"] == 3
    assert first["paging"]["previous_url"] == ""
    assert "page=2" in first["paging"]["next_url"]
    last = _json(client, "/ko/incidents.json?per_page=2&page=3")
    assert last["range_text"] == "5건 중 5~5번째"
    assert last["paging"]["next_url"] == ""
    page = _html(client, "/ko/incidents?per_page=2&page=3")
    assert 'aria-current="page">3<' in page
    assert _escaped(last["paging"]["previous_url"]) in page


def test_sorting(client: TestClient) -> None:
    oldest = _json(client, "/en/incidents.json?sort=oldest")
    assert oldest["incidents"][0]["id"] == DRIVER
    current = [choice["key"] for choice in oldest["sorts"] if choice["current"]]
    assert current == ["oldest"]
    relevance = _json(client, "/en/incidents.json?q=NCCL")
    assert relevance["sort"] == "relevance"


def test_page_past_the_end_shows_the_last_page_with_a_notice(client: TestClient) -> None:
    data = _json(client, "/en/incidents.json?per_page=2&page=999999999999999999")
    assert data["page"] == 3
    assert data["notices"] and "showing the last page" in data["notices"][0]
    assert "showing the last page" in _html(client, "/en/incidents?per_page=2&page=99999")


def test_unknown_facet_value_is_ignored_with_a_notice(client: TestClient) -> None:
    data = _json(client, "/ko/incidents.json?cause=not-a-cause&symptom=network-loss")
    assert data["total"] == 1
    assert any("not-a-cause" in notice for notice in data["notices"])


def test_cards_have_the_nine_sections_in_order_with_basis_and_term_links(client: TestClient) -> None:
    data = _json(client, "/en/incidents.json?component=gpu-memory")
    [card] = data["incidents"]
    keys = [section["key"] for section in card["sections"]]
    assert keys == [
        "symptom",
        "trigger",
        "cause",
        "components",
        "contributing_factors",
        "detection",
        "actions",
        "follow_ups",
        "lessons",
    ]
    sections = {section["key"]: section for section in card["sections"]}
    assert sections["cause"]["items"][0]["basis"] == "stated"
    assert [item["basis"] for item in sections["contributing_factors"]["items"]] == ["inferred", "stated"]
    # on the list, a chip narrows the search in place: the selected one removes itself, the other adds
    assert [(term["url"], term["selected"]) for term in sections["components"]["terms"]] == [
        ("/en/incidents", True),
        ("/en/incidents?component=gpu-memory&component=nccl", False),
    ]
    page = _html(client, "/en/incidents?component=gpu-memory&view=full")
    assert "inferred from the source" in page and "stated by the source" in page
    assert 'href="/en/incidents?component=gpu-memory&amp;component=nccl&amp;view=full"' in page
    korean = _html(client, "/ko/incidents?component=gpu-memory&view=full")
    assert "출처에서 추론" in korean
    # the case page keeps chips as links to the term's page
    case = _json(client, f"/en/incidents/{card['id']}.json")
    case_sections = {section["key"]: section for section in case["card"]["sections"]}
    assert case_sections["components"]["terms"][1]["url"] == "/en/facets/component/nccl"


def test_check_box_lists_recurring_components_checks_and_how_to_run(client: TestClient) -> None:
    data = _json(client, "/en/incidents.json")
    box = data["check_box"]
    components = {component["id"]: component["count"] for component in box["components"]}
    assert components["nccl"] == 2
    assert [check["id"] for check in box["checks"]][:1] == ["fixture-nccl-async-errors"]
    assert {check["id"] for check in box["checks"]} == {"fixture-nccl-async-errors", "fixture-os-update-plan"}
    runs = "\n".join(how["code"] for how in box["run"])
    assert "claude mcp add kubegap -- kubegap mcp" in runs
    assert '[mcp_servers.kubegap]\ncommand = "kubegap"\nargs = ["mcp"]\nenv_vars = ["KUBECONFIG"]' in runs
    assert "kubegap scan" in runs
    page = _html(client, "/en/incidents")
    assert 'href="/en/checks/fixture-nccl-async-errors"' in page
    assert _escaped('args = ["mcp"]') in page
    narrowed = _json(client, "/en/incidents.json?cause=control-plane-overload")
    assert narrowed["check_box"]["checks"] == []


def test_without_registered_checks_the_box_shows_components_alone(bare_client: TestClient) -> None:
    data = _json(bare_client, "/ko/incidents.json")
    assert data["check_box"]["components"]
    assert data["check_box"]["checks"] == []
    assert "이 구성 요소를 보는 kubegap 점검은 아직 없습니다." in _html(bare_client, "/ko/incidents")
    assert _json(bare_client, "/ko/checks.json")["areas"] == []


def test_case_page_shows_everything(client: TestClient) -> None:
    data = _json(client, f"/en/incidents/{HBM}.json")
    page = _html(client, f"/en/incidents/{HBM}")
    assert data["kind"] == "incident"
    assert data["title"] == "Training job hung instead of exiting after an HBM ECC error"
    [source] = data["sources"]
    assert source["archive_url"].startswith("https://web.archive.org/")
    assert _escaped(source["archive_url"]) in page and _escaped(source["url"]) in page
    figures = {figure["key"]: figure["value"] for figure in data["impact"]}
    assert figures == {
        "duration_hours": "6 hours",
        "gpus_affected": "512 GPUs",
        "training_time_lost_hours": "5.5 hours",
    }
    assert f"<code>{_escaped(SIGNATURE)}</code>" in page
    assert data["similar"][0]["id"] == IB_FLAP
    reasons = " ".join(data["similar"][0]["reasons"])
    assert "NCCL" in reasons and "Same error signature" in reasons
    assert _escaped(data["similar"][0]["reasons"][0]) in page
    assert [check["id"] for check in data["checks"]] == ["fixture-nccl-async-errors"]
    assert data["cluster_visibility"] == ""
    groups = {group["facet"]: [term["id"] for term in group["terms"]] for group in data["taxonomy"]}
    assert groups["contributing-factor"] == ["hang-instead-of-fail", "infrequent-checkpoints"]
    assert source["kind_label"] == "postmortem"
    environment = {figure["key"]: figure["value"] for figure in data["environment"]}
    assert environment == {
        "deployment": "on-premises",
        "orchestrator": "Kubernetes",
        "accelerator": "H100",
        "scale_gpus": "512",
    }
    korean_data = _json(client, f"/ko/incidents/{HBM}.json")
    assert korean_data["sources"][0]["kind_label"] == "사후 분석"
    assert {figure["value"] for figure in korean_data["environment"]} >= {"온프레미스", "쿠버네티스"}
    korean = _html(client, f"/ko/incidents/{HBM}")
    assert "6시간" in korean and '<html lang="ko">' in korean and "사후 분석" in korean


def test_case_page_without_checks_explains_cluster_visibility(client: TestClient) -> None:
    flap = _json(client, f"/ko/incidents/{IB_FLAP}.json")
    assert flap["checks"] == []
    assert flap["cluster_visibility"].startswith("링크 흔들림은")
    assert flap["cluster_visibility"] in _html(client, f"/ko/incidents/{IB_FLAP}")
    plain = _json(client, f"/en/incidents/{APISERVER}.json")
    assert plain["cluster_visibility"] == "No kubegap check covers this incident yet."


def test_facets_overview_and_term_page(client: TestClient) -> None:
    overview = _json(client, "/en/facets.json")
    assert [facet["facet"] for facet in overview["facets"]] == [
        "cause",
        "component",
        "symptom",
        "contributing-factor",
    ]
    causes = {term["id"]: term for term in overview["facets"][0]["terms"]}
    assert causes["gpu-memory-error"]["depth"] == 2
    assert causes["gpu-memory-error"]["count"] == 1
    term = _json(client, "/en/facets/cause/gpu-fault.json")
    assert term["parent"]["id"] == "hardware-fault"
    assert "gpu-memory-error" in [child["id"] for child in term["children"]]
    assert [line["id"] for line in term["incidents"]] == [HBM]
    shares = [(share["category"], share["figure"]) for share in term["studies"]]
    assert shares == [("Faulty GPU", "30% (120)"), ("HBM memory", "20% (80)")]
    page = _html(client, "/en/facets/cause/gpu-fault")
    assert "30% (120)" in page and term["description"] in page
    component = _json(client, "/en/facets/component/nccl.json")
    assert [check["id"] for check in component["checks"]] == ["fixture-nccl-async-errors"]
    assert parse_qs(urlsplit(component["see_all_url"]).query) == {"component": ["nccl"]}


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_studies_index_is_a_jump_table_over_compact_entries(client: TestClient, lang: str) -> None:
    """The index lists each study once in a jump table and once as a short entry (first sentence of the
    summary, the three largest rows, a link to the chart): the charts themselves are on the study pages."""
    index = _html(client, f"/{lang}/studies")
    [study] = _json(client, f"/{lang}/studies.json")["studies"]
    jump = index[index.index('class="study-jump"') : index.index("</nav>", index.index('class="study-jump"'))]
    assert f'href="#study-{STUDY}"' in jump and 'id="studies-jump"' in index
    assert f'<li class="study-entry" id="study-{STUDY}"' in index
    assert '<svg class="bar-chart"' not in index and '<details class="chart-table">' not in index
    assert study["lead"] == ("시험용 연구." if lang == "ko" else "A test study; the figures are not real.")
    assert [row["figure"] for row in study["largest"]] == ["40% (160)", "30% (120)", "20% (80)"]
    assert study["gpus"] == ("GPU 16,000개" if lang == "ko" else "16,000 GPUs") and study["gpus"] in jump
    assert f'href="/{lang}/studies/{STUDY}"' in index and "<strong>40% (160)</strong>" in index
    assert study["years"] == "2023"


def test_a_summary_s_first_sentence_survives_decimals_and_abbreviations() -> None:
    from kubegap.web.study_pages import first_sentence

    text = "Failures are 39.7% of jobs, e.g. timeouts, per Jeon et al. at ATC. The rest completed."
    assert first_sentence(text) == "Failures are 39.7% of jobs, e.g. timeouts, per Jeon et al. at ATC."
    assert first_sentence("한 문장뿐이다") == "한 문장뿐이다"
    assert first_sentence("실패가 39.7%다. 나머지는 끝났다.") == "실패가 39.7%다."


def test_studies_render_a_server_side_svg_bar_chart(client: TestClient) -> None:
    studies = _json(client, "/en/studies.json")
    [study] = studies["studies"]
    bars = study["chart"]["bars"]
    # the two GPU-fault rows form a group, largest first; the ungrouped rows follow, largest first
    assert [bar["label"] for bar in bars] == [
        "Faulty GPU",
        "HBM memory",
        "Everything else",
        "Network <switch>",
    ]
    assert [bar["width_percent"] for bar in bars] == ["52.50%", "35.00%", "70.00%", "17.50%"]
    assert [group["text"] for group in study["chart"]["groups"]] == [bars[0]["group"], "No cause category"]
    assert study["wide_chart"]["layout"] == "columns" and study["wide_chart"]["bars"][0]["bar_x"] == "42.00%"
    # numbers reach screen readers, and the study's page has a table beside its chart
    assert "Faulty GPU: 30% (120)" in study["chart"]["description"]
    index = _html(client, "/en/studies")
    assert "Fixture Lab ·" in index and "fixture-lab ·" not in index  # by name, never by id
    page = _html(client, f"/en/studies/{STUDY}")
    assert page.count('<details class="chart-table">') == 1 and "<td>30% (120)</td>" in page
    assert '<svg class="bar-chart"' in page
    assert 'width="52.50%"' in page and 'class="chart chart-columns"' in page
    assert "Network &lt;switch&gt;" in page and "Network <switch>" not in page
    detail = _json(client, f"/en/studies/{STUDY}.json")
    assert detail["period"] == "The year 2023" and detail["fleet_gpus"] == 16000
    assert detail["sources"][0]["url"] in page
    assert "<script" not in page


def test_check_catalog_and_check_page(client: TestClient) -> None:
    catalog = _json(client, "/ko/checks.json")
    assert [area["area"] for area in catalog["areas"]] == ["fleet-change", "training-jobs"]
    check = _json(client, "/ko/checks/fixture-os-update-plan.json")
    page = _html(client, "/ko/checks/fixture-os-update-plan")
    assert check["summary"]["severity_label"] == "보통"
    assert [incident["url"] for incident in check["incidents"]] == [f"/ko/incidents/{OS_UPDATE}", ""]
    assert f'href="/ko/incidents/{OS_UPDATE}"' in page
    assert "<code>fixture-no-such-incident</code>" in page
    assert check["needs"] == ["Node"] and "<code>Node</code>" in page
    assert check["remediation"] in page and check["decides"] in page


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("", "/ko/incidents"),
        ("en-US,en;q=0.9", "/en/incidents"),
        ("ko-KR,ko;q=0.9,en;q=0.8", "/ko/incidents"),
        ("fr-FR, en;q=0.5, ko;q=0.4", "/en/incidents"),
        ("en;q=0.2, ko;q=0.8", "/ko/incidents"),
        ("*", "/ko/incidents"),
        ("en;q=abc", "/ko/incidents"),
    ],
)
def test_root_redirects_by_accept_language(client: TestClient, header: str, expected: str) -> None:
    response = client.get("/", headers={"Accept-Language": header}, follow_redirects=False)
    assert response.status_code == 302
    assert response.headers["location"] == expected
    assert "Accept-Language" in response.headers["vary"]


def test_language_switch_keeps_the_view(client: TestClient) -> None:
    page = _html(client, "/ko/incidents?cause=software-update&sort=oldest&tab=component")
    assert '<html lang="ko">' in page
    assert 'href="/en/incidents?cause=software-update&amp;sort=oldest&amp;tab=component"' in page
    case = _html(client, f"/en/incidents/{HBM}")
    assert f'class="lang-switch" href="/ko/incidents/{HBM}"' in case


def test_security_and_cache_headers(client: TestClient) -> None:
    response = client.get("/ko/incidents")
    headers = response.headers
    policy = headers["content-security-policy"]
    assert (
        "script-src 'self'" in policy and "unsafe-inline" not in policy and "frame-ancestors 'none'" in policy
    )
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"]
    assert headers["cache-control"].startswith("public")
    again = client.get("/ko/incidents", headers={"If-None-Match": headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    assert client.get("/static/style.css").headers["cache-control"] == "public, max-age=86400"
    assert not re.search(r"<script(?![^>]*\bsrc=)", response.text)
    assert " style=" not in response.text


def test_landmarks_skip_link_and_heading_order(client: TestClient) -> None:
    for url in [
        "/ko/incidents",
        f"/en/incidents/{HBM}",
        "/en/facets",
        "/ko/facets/cause/gpu-fault",
        "/en/studies",
        f"/en/studies/{STUDY}",
        "/ko/checks",
        "/ko/checks/fixture-nccl-async-errors",
    ]:
        page = _html(client, url)
        for landmark in ("<header", "<nav", '<main id="main"', "<footer"):
            assert landmark in page, (url, landmark)
        assert 'class="skip-link" href="#main"' in page
        levels = [int(level) for level in re.findall(r"<h([1-6])[\s>]", page)]
        assert levels[0] == 1 and levels.count(1) == 1, url
        assert all(after - before <= 1 for before, after in itertools.pairwise(levels)), (
            url,
            levels,
        )


def test_scope_is_a_facet_with_counts_and_a_filter(client: TestClient) -> None:
    """The list can be narrowed to AI-infrastructure or platform cases (docs/knowledge.md), like any facet."""
    everything = _json(client, "/en/incidents.json")
    assert ("scope", "Scope") in [(group["key"], group["title"]) for group in everything["facet_groups"]]
    counts = {value["id"]: value["count"] for value in everything["facets"]["scope"]}
    assert counts == {"ai-infra": everything["total"] - 2, "platform": 2}
    narrowed = _json(client, "/en/incidents.json?scope=platform")
    assert narrowed["total"] == 2 and narrowed["filters"] == {"scope": ["platform"]}
    korean = _html(client, "/ko/incidents?scope=ai-infra&tab=scope")
    assert "범위" in korean and "AI 인프라" in korean and 'data-facet="scope"' in korean
