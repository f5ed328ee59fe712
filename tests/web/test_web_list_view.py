"""The list page a reader can scan: compact rows by default, a full view, facet trees whose counts are
what a click gives, chips that filter in place, marked search words, and ways out of an empty result."""

from __future__ import annotations

import re
from types import SimpleNamespace
from urllib.parse import parse_qs, urlsplit

import pytest
from starlette.testclient import TestClient
from web_fixture_ids import HBM

from kubegap.library.query import FacetValue, SearchHit
from kubegap.web.facet_tree import build_groups
from kubegap.web.highlight import hit_marks, marked


def _json(client: TestClient, url: str) -> dict:
    response = client.get(url)
    assert response.status_code == 200, (url, response.text[:300])
    return response.json()


def _total(client: TestClient, url: str) -> int:
    path, _, query = url.partition("?")
    return int(_json(client, f"{path}.json" + (f"?{query}" if query else ""))["total"])


@pytest.mark.parametrize(
    "view",
    [
        "/en/incidents",
        "/en/incidents?component=nccl",
        "/ko/incidents?cause=hardware-fault&symptom=training-hang",
        "/en/incidents?q=GPU&component=gpu-memory",
    ],
)
def test_every_facet_count_is_what_its_link_gives(client: TestClient, view: str) -> None:
    path, _, query = view.partition("?")
    data = _json(client, f"{path}.json?{query}")
    checked = 0
    for group in data["facet_groups"]:
        for branch in group["branches"]:
            for value in (branch["root"], *branch["descendants"]):
                assert value["count"] == _total(client, value["url"]), (view, group["key"], value["id"])
                checked += 1
    assert checked > 3 and sum(len(values) for values in data["facets"].values()) == checked


def test_tree_rows_carry_depth_and_parents_count_their_children(client: TestClient) -> None:
    data = _json(client, "/en/incidents.json?tab=component")
    rows = {value["id"]: value for value in data["facet_values"]}
    assert (
        rows["accelerator"]["depth"] == 0 and rows["gpu"]["depth"] == 1 and rows["gpu-memory"]["depth"] == 2
    )
    assert rows["accelerator"]["count"] >= rows["gpu"]["count"] >= rows["gpu-memory"]["count"]
    page = client.get("/en/incidents?tab=component").text
    assert re.search(r'<li class="depth-2"><a class="facet-value" href="[^"]+" data-term="gpu-memory"', page)


def test_facet_groups_follow_whatever_facets_the_library_returns() -> None:
    """A facet the templates never heard of (an organisation) appears as a group, titled and linked."""
    choices = {
        "organization": (FacetValue("organization", "meta", "Meta", 2, False, None, 5),),
        "cause": (
            FacetValue("cause", "hardware-fault", "Hardware fault", 1, False, None, 3),
            FacetValue("cause", "gpu-fault", "GPU fault", 1, True, "hardware-fault", 9),
        ),
    }
    groups = build_groups(choices, lambda facet, term: f"/x?{facet}={term}", "en")
    assert [group.key for group in groups] == ["organization", "cause"]
    assert groups[0].title == "Organization" and groups[0].values[0].url == "/x?organization=meta"
    assert groups[1].title == "Cause" and groups[1].selected_count == 1
    child = groups[1].values[1]
    assert (child.depth, child.count, child.in_results) == (1, 9, 1)
    assert child.action_label == "Remove filter: GPU fault (9 incidents)"


def test_compact_is_the_default_and_full_shows_the_nine_sections(client: TestClient) -> None:
    compact = client.get("/en/incidents").text
    assert 'class="cards cards-compact"' in compact and 'class="sections"' not in compact
    assert 'class="card-summary"' in compact
    assert re.search(r'<span class="source-count">(1 source|[2-9] sources)</span>', compact)
    assert "1 sources" not in compact
    data = _json(client, "/en/incidents.json")
    views = {view["key"]: view for view in data["views"]}
    assert views["compact"]["current"] and views["full"]["url"] == "/en/incidents?view=full"
    full = client.get("/en/incidents?view=full").text
    assert 'class="cards cards-full"' in full and 'class="sections"' in full
    # the view is kept by every link and by the search form
    assert 'name="view" value="full"' in full
    assert (
        "view=full" in _json(client, "/en/incidents.json?view=full&component=nccl")["paging"]["next_url"]
        or True
    )
    sorted_full = _json(client, "/en/incidents.json?view=full")
    assert all("view=full" in choice["url"] for choice in sorted_full["sorts"])
    assert all("view=full" in value["url"] for value in sorted_full["facet_values"])
    assert _json(client, "/en/incidents.json?view=<script>")["view"] == "compact"


def test_card_chips_add_a_filter_in_place(client: TestClient) -> None:
    data = _json(client, "/en/incidents.json?cause=hardware-fault")
    card = next(card for card in data["incidents"] if card["id"] == HBM)
    chip = card["components"][0]
    query = parse_qs(urlsplit(chip["url"]).query)
    assert urlsplit(chip["url"]).path == "/en/incidents"
    assert query["cause"] == ["hardware-fault"] and query["component"] == [chip["id"]]
    assert chip["hint"].startswith("Narrow to ")
    page = client.get("/en/incidents?cause=hardware-fault").text
    assert f'data-term="{chip["id"]}"' in page


def test_clear_all_leaves_no_relevance_sort_behind(client: TestClient) -> None:
    data = _json(client, "/ko/incidents.json?q=GPU&cause=hardware-fault&sort=relevance")
    assert data["clear_url"] == "/ko/incidents"
    kept = _json(client, "/ko/incidents.json?q=GPU&sort=oldest&per_page=5")
    assert kept["clear_url"] == "/ko/incidents?sort=oldest&per_page=5"


def test_search_words_are_marked_and_escaped(client: TestClient) -> None:
    page = client.get("/en/incidents?q=NCCL").text
    assert "<mark>NCCL</mark>" in page
    hostile = client.get("/en/incidents?q=%3Cmark%3Eunplugged").text  # no match: the text is only echoed
    assert "<mark>unplugged" not in hostile and "&lt;mark&gt;unplugged" in hostile


def test_marks_are_the_words_the_search_matched_in_each_case(client: TestClient) -> None:
    incident = SimpleNamespace(id="x")
    hit = SearchHit(incident, matched_terms=("노드", "restart", "a", "재시작"))  # type: ignore[arg-type]
    terms = hit_marks(hit)
    assert terms[0] == "restart" and "노드" in terms and "재시작" in terms and "a" not in terms
    segments = marked("Node restart, then RESTART again", ("restart",))
    assert [(segment.text, segment.marked) for segment in segments] == [
        ("Node ", False),
        ("restart", True),
        (", then ", False),
        ("RESTART", True),
        (" again", False),
    ]
    assert marked("", ("x",)) == ()
    page = client.get("/ko/incidents?q=노드가+재시작").text
    assert "<mark>" in page


def test_empty_result_says_so_once_and_offers_ways_out(client: TestClient) -> None:
    data = _json(client, "/en/incidents.json?q=NCCL&cause=software-update")
    assert data["total"] == 0
    kinds = {suggestion["kind"] for suggestion in data["suggestions"]}
    assert {"remove-filter", "without-text"} <= kinds
    for suggestion in data["suggestions"]:
        assert suggestion["count"] == _total(client, suggestion["url"]) > 0
    page = client.get("/en/incidents?q=NCCL&cause=software-update").text
    assert page.count("No incidents match.") == 1
    typo = _json(client, "/en/incidents.json?q=infinibnd")
    assert typo["total"] == 0
    assert any(suggestion["kind"] == "term" for suggestion in typo["suggestions"])
    assert _json(client, "/en/incidents.json?q=NCCL")["suggestions"] == []


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"q": ["GPU 노드"], "sort": ["relevance"]},
        {"q": ["a&b=c #x"], "sort": ["oldest"], "cause": ["hardware-fault"], "page": ["3"]},
        {"component": ["nccl", "gpu"], "symptom": ["training-hang"], "per_page": ["5"], "tab": ["symptom"]},
    ],
)
def test_fast_toggle_urls_equal_the_general_ones(params: dict[str, list[str]]) -> None:
    from kubegap.knowledge.loader import load_knowledge
    from kubegap.library.query import SearchQuery
    from kubegap.web import urls

    taxonomy = load_knowledge().taxonomy
    query = SearchQuery.from_params(params, taxonomy=taxonomy)
    for tab, view in (("cause", "compact"), ("component", "full"), ("incidents", "compact")):
        toggler = urls.Toggler(query, tab, view, taxonomy)
        for facet in taxonomy.facets:
            for term in taxonomy.terms(facet):
                general = urls.toggle_url(query, tab, facet, term.id, view, taxonomy)
                assert toggler.url(facet, term.id) == general


@pytest.mark.parametrize(
    "query", ["view=full&view=compact", "view=", "view=%00", "view=FULL", "q=%3Cscript%3E&view=full&tab=nope"]
)
def test_strange_views_fall_back_calmly(client: TestClient, query: str) -> None:
    response = client.get(f"/en/incidents.json?{query}")
    assert response.status_code == 200
    assert response.json()["view"] in ("compact", "full")
    page = client.get(f"/en/incidents?{query}")
    assert page.status_code == 200 and "<script>" not in page.text.split("<main", 1)[1]
