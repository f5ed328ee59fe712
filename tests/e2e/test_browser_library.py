"""The library's list and case pages in a real browser: facet counts that equal what a click gives,
chips that filter in place, compact and full views, the first result above the fold and the "check it
in my cluster" box right after the results at desktop and phone widths, badges that name the demo,
citations, and compressed responses from the real server."""

from __future__ import annotations

import itertools
import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from browser_pages import new_page

pytestmark = pytest.mark.e2e

# Three filtered views, each showing a different facet's tree (the values a reader sees and can click).
FILTERED_VIEWS = [
    "/ko/incidents?component=nccl&tab=component",
    "/en/incidents?cause=hardware-fault&symptom=training-hang&tab=symptom",
    "/ko/incidents?q=GPU&component=gpu&tab=cause",
    "/ko/incidents?cause=hardware-fault&tab=cause",  # a parent selected: its children narrow
]


def _total(page: Any) -> int:
    return int(page.locator("#results-heading").get_attribute("data-total"))


@pytest.mark.parametrize("view", FILTERED_VIEWS)
def test_every_visible_facet_count_equals_the_results_of_its_click(
    server: str, browser: Any, view: str
) -> None:
    page = new_page(browser, 1280)
    page.goto(server + view)
    values = page.locator(".facet-tree a.facet-value")
    shown = [
        (
            value.get_attribute("data-term"),
            int(value.get_attribute("data-count")),
            value.get_attribute("href"),
        )
        for value in values.all()
        if value.is_visible()
    ]
    assert len(shown) >= 5, view
    # a click that changes nothing would show one number on every value (the issue saw "12" on all)
    assert len({count for _, count, _ in shown}) > 2, (view, shown)
    # the first one by a real click, the rest by following their links
    first_term, first_count, _ = shown[0]
    values.first.click()
    page.wait_for_load_state()
    assert _total(page) == first_count, (view, first_term)
    for term, count, href in shown[1:]:
        page.goto(server + href)
        assert _total(page) == count, (view, term, href)
    page.context.close()


def test_tree_is_indented_and_parents_count_their_children(server: str, browser: Any) -> None:
    page = new_page(browser, 1280)
    page.goto(server + "/en/incidents?tab=component")
    parent = page.locator('.facet-tree a[data-term="accelerator"]')
    child = page.locator('.facet-tree a[data-term="gpu"]')
    assert child.bounding_box()["x"] > parent.bounding_box()["x"] + 8  # indented under its parent
    assert int(parent.get_attribute("data-count")) >= int(child.get_attribute("data-count"))
    page.context.close()


def test_a_card_chip_adds_its_filter_in_place(server: str, browser: Any) -> None:
    page = new_page(browser, 1280)
    page.goto(server + "/en/incidents?cause=hardware-fault&tab=component")
    chip = page.locator('ol.cards .term-chips a.term:not(.is-selected)[data-facet="component"]').first
    term = chip.get_attribute("data-term")
    chip.click()
    page.wait_for_load_state()
    query = parse_qs(urlsplit(page.url).query)
    assert urlsplit(page.url).path == "/en/incidents"
    assert query["cause"] == ["hardware-fault"] and term in query["component"]
    assert page.locator(f'.chips a.chip[data-chip="component:{term}"]').count() == 1
    assert page.locator(f'.facet-tree a.is-selected[data-term="{term}"]').count() == 1
    page.context.close()


def test_compact_by_default_full_on_request_and_the_check_box_follows_the_results(
    server: str, browser: Any
) -> None:
    heights = {}
    for width in (1280, 390):
        page = new_page(browser, width)
        page.goto(server + "/ko/incidents")
        assert page.locator("ol.cards-compact > li").count() == 20
        assert page.locator("ol.cards .sections").count() == 0
        compact = page.evaluate("document.documentElement.scrollHeight")
        page.locator('.views a[data-view="full"]').click()
        page.wait_for_load_state()
        assert "view=full" in page.url and page.locator("ol.cards-full .sections").count() == 20
        full = page.evaluate("document.documentElement.scrollHeight")
        heights[width] = (compact, full)
        assert compact * 2 < full, (width, compact, full)
        page.context.close()
    print("list page heights (compact, full):", heights)


SCROLLS_INSIDE = """(element) => {
    for (let node = element; node; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (/(auto|scroll)/.test(style.overflowY) && node.scrollHeight > node.clientHeight) return true;
    }
    return false;
}"""


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_first_result_is_above_the_fold_and_the_check_box_right_after_the_results(
    server: str, browser: Any, width: int, lang: str
) -> None:
    """The seed page's order: results, then "check it in my cluster" with the command to run, in the
    page's own flow (never under an inner scroll); on a phone the facets come after them."""
    page = new_page(browser, width, "ko-KR" if lang == "ko" else "en-US")
    fold = page.viewport_size["height"]
    for path in (f"/{lang}/incidents", f"/{lang}/incidents?cause=hardware-fault&component=gpu&q=GPU"):
        page.goto(server + path)
        first = page.locator("ol.cards > li").first.bounding_box()
        assert first is not None and first["y"] + 60 < fold, (path, width, first)
        last = page.locator("ol.cards > li").last.bounding_box()
        box = page.locator("section.check-cta")
        where = box.bounding_box()
        assert where is not None and last is not None and where["y"] > last["y"], (path, width)
        assert not box.evaluate(SCROLLS_INSIDE), (path, width)
        assert (
            box.locator("pre code").count() >= 2 and "kubegap" in box.locator("pre code").first.inner_text()
        )
        facets = page.locator("#facets").bounding_box()
        assert facets is not None
        if width < 700:
            assert facets["y"] > where["y"], (path, "facets after the results on a phone")
            page.locator(".jump-facets a").click()
            assert page.locator("#facets .tabs").is_visible()
        else:
            assert facets["y"] < first["y"] and not page.locator(".jump-facets").is_visible()
    page.context.close()


def test_badges_say_they_come_from_the_demo_cluster(server: str, browser: Any) -> None:
    page = new_page(browser, 1280)
    for lang, scope in (("ko", "데모 클러스터"), ("en", "demo cluster")):
        page.goto(f"{server}/{lang}/cluster")
        page.wait_for_selector(".tiles", timeout=30_000)
        for path in ("/incidents", "/checks"):
            page.goto(f"{server}/{lang}{path}")
            scopes = {text.strip() for text in page.locator("a.status .status-scope").all_inner_texts()}
            assert scopes == {scope}, (lang, path, scopes)
    page.context.close()


def test_case_page_cites_and_previews(server: str, browser: Any) -> None:
    page = new_page(browser, 1280)
    page.goto(server + "/en/incidents")
    page.locator("ol.cards .card-title a").first.click()
    page.wait_for_load_state()
    short = page.locator("code.short-id").inner_text().strip()
    assert re.fullmatch(r"KG-[A-Z2-7]{6}", short)
    assert (
        page.locator('meta[property="og:title"]').get_attribute("content")
        == page.locator("h1").inner_text().strip()
    )
    assert page.locator('meta[name="description"]').get_attribute("content")
    sources_top = page.locator("#sources-heading").bounding_box()["y"]
    assert sources_top < page.locator(".sections").bounding_box()["y"]
    assert (
        short in page.locator(".cite-plain").inner_text()
        and "@misc{" in page.locator(".cite-bibtex").inner_text()
    )
    case_path = urlsplit(page.url).path
    page.goto(f"{server}/c/{short}")  # the reader's language (ko-KR here), the same case
    assert urlsplit(page.url).path == case_path.replace("/en/", "/ko/", 1)
    page.context.close()


def test_the_real_server_compresses_pages(server: str) -> None:
    for coding in ("br", "gzip"):
        response = httpx.get(server + "/ko/incidents", headers={"Accept-Encoding": coding})
        assert response.headers["content-encoding"] == coding and "장애 사례" in response.text


@pytest.mark.parametrize("width", [1000, 1280])
def test_chart_labels_stay_in_their_column(server: str, browser: Any, width: int) -> None:
    page = new_page(browser, width)
    studies = [study["id"] for study in httpx.get(server + "/en/studies.json").json()["studies"]]
    for lang, study in itertools.product(("ko", "en"), studies):  # the charts are on the study pages
        page.goto(f"{server}/{lang}/studies/{study}")
        overlaps = page.evaluate(
            """() => [...document.querySelectorAll('.chart-columns g')].filter(row => {
                const label = row.querySelector('.bar-label').getBoundingClientRect();
                const bar = row.querySelector('.bar').getBoundingClientRect();
                return label.width > 0 && label.right > bar.left;
            }).map(row => row.querySelector('.bar-label').textContent)"""
        )
        assert overlaps == [], (lang, study, width, overlaps)
        assert (
            page.locator(".chart-columns").first.is_visible()
            and not page.locator(".chart-stacked").first.is_visible()
        )
    page.context.close()
