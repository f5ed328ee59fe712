"""The Incident Library in a real browser: Debian's chromium driven by Playwright against `kubegap serve`.

Walks the reader's path (list, facet value, remove its chip, Korean search, next page, a case, the
language switch) and saves screenshots of every page in both languages at desktop and phone widths
under test-output/screenshots/ for a person to look at.
"""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from browser_pages import new_page

pytestmark = pytest.mark.e2e

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"
WIDTHS = {"desktop": 1280, "phone": 390}


def _page(browser: object, width: int) -> object:
    return new_page(browser, width)


def test_reader_path(server: str, browser: object) -> None:
    page = _page(browser, 1280)
    page.goto(server + "/")
    assert re.search(r"/ko/incidents$", page.url)
    assert page.get_attribute("html", "lang") == "ko"
    assert page.locator("h1").first.inner_text().strip()
    assert page.locator("a.skip-link").count() == 1

    # click a facet value: it becomes a filter chip and narrows the results
    first_value = page.locator(".facet-tree a.facet-value").first
    term = first_value.get_attribute("data-term")
    first_value.click()
    page.wait_for_load_state()
    assert f"cause={term}" in page.url
    chip = page.locator(f'.chips a.chip[data-chip="cause:{term}"]')
    assert chip.count() == 1

    # remove its chip: back to everything
    chip.click()
    page.wait_for_load_state()
    assert "cause=" not in page.url
    assert page.locator(".chips a.chip").count() == 0

    # search in Korean
    page.fill("#search-q", "노드")
    page.press("#search-q", "Enter")
    page.wait_for_load_state()
    assert "q=" in page.url
    assert page.locator("#search-q").input_value() == "노드"
    assert page.locator("ol.cards > li").count() > 0
    assert "건 중" in page.locator("#results-heading").inner_text()

    # page forward
    page.goto(server + "/ko/incidents?per_page=2")
    page.locator('.paging a[rel="next"]').click()
    page.wait_for_load_state()
    assert "page=2" in page.url
    assert page.locator('.paging a[aria-current="page"]').inner_text().strip() == "2"

    # open a case
    card_link = page.locator("ol.cards .card-title a").first
    title = card_link.inner_text().strip()
    card_link.click()
    page.wait_for_load_state()
    assert re.search(r"/ko/incidents/[a-z0-9-]+$", page.url)
    assert page.locator("h1").inner_text().strip() == title
    case_path = page.url.split("/ko/", 1)[1]

    # switch language: same case, English
    page.locator("a.lang-switch").click()
    page.wait_for_load_state()
    assert page.url.endswith("/en/" + case_path)
    assert page.get_attribute("html", "lang") == "en"

    # a filtered list keeps its query string across the switch
    page.goto(server + "/en/incidents?cause=hardware-fault&sort=oldest&tab=component")
    page.locator("a.lang-switch").click()
    page.wait_for_load_state()
    assert page.url.endswith("/ko/incidents?cause=hardware-fault&sort=oldest&tab=component")
    page.context.close()


def test_keyboard_reaches_skip_link_first(server: str, browser: object) -> None:
    page = _page(browser, 1280)
    page.goto(server + "/en/incidents")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.className")
    assert "skip-link" in focused
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
    page.keyboard.press("Enter")
    assert page.url.endswith("#main")
    page.context.close()


def _wait_for_report(page: object, url: str) -> None:
    """Open the cluster page and let its own refresh run until the demo scan's report is there."""
    page.goto(url)  # type: ignore[attr-defined]
    page.wait_for_selector(".tiles", timeout=30_000)  # type: ignore[attr-defined]


def test_cluster_page_in_both_languages_and_badges_lead_to_it(server: str, browser: object) -> None:
    page = _page(browser, 1280)
    for lang, title in (("ko", "내 클러스터"), ("en", "Your cluster")):
        _wait_for_report(page, f"{server}/{lang}/cluster")
        assert page.get_attribute("html", "lang") == lang
        assert page.locator("h1").inner_text().strip() == title
        assert page.locator('.site-nav a[aria-current="page"]').inner_text().strip() == title
        assert page.locator(".check-result").count() > 0
        assert page.locator(".scan-state").get_attribute("class") == "scan-state scan-done"
    data = httpx.get(server + "/en/cluster.json").json()
    failing = data["gaps"][0]
    # a check's page shows its status in this cluster; the badge leads to its entry on the cluster page
    page.goto(f"{server}/en/checks/{failing['id']}")
    badge = page.locator(".cluster-status a.status")
    assert badge.locator(".status-label").inner_text().strip() == failing["status_label"]
    assert badge.locator(".status-scope").inner_text().strip() == "demo cluster"
    badge.click()
    page.wait_for_load_state()
    assert page.url.endswith(f"/en/cluster#{failing['anchor']}")
    assert page.locator(f"#{failing['anchor']} h3").inner_text().strip() == failing["title"]
    page.context.close()


def _screenshot_paths(server: str) -> list[tuple[str, str]]:
    listing = httpx.get(server + "/en/incidents.json?per_page=1").json()
    incident_id = listing["incidents"][0]["id"] if listing["incidents"] else ""
    studies = httpx.get(server + "/en/studies.json").json()["studies"]
    checks = httpx.get(server + "/en/checks.json").json()["areas"]
    paths = [
        ("list", "/incidents"),
        ("list-filtered", "/incidents?cause=hardware-fault&tab=component"),
        ("search", "/incidents?q=NCCL"),
        ("list-full", "/incidents?view=full&per_page=5"),
        ("empty", "/incidents?q=infinibnd&cause=software-bug"),
        ("facets", "/facets"),
        ("term", "/facets/component/gpu"),
        ("studies", "/studies"),
        ("errors", "/errors"),
        ("errors-search", "/errors?q=XID79"),
        ("error", "/errors/xid-79"),
        ("checks", "/checks"),
        ("cluster", "/cluster"),
        ("not-found", "/incidents/no-such-incident"),
    ]
    if incident_id:
        paths.append(("case", f"/incidents/{incident_id}"))
    if studies:
        paths.append(("study", f"/studies/{studies[0]['id']}"))
    if checks:
        paths.append(("check", f"/checks/{checks[0]['checks'][0]['id']}"))
    return paths


def test_screenshots_both_languages_and_widths(server: str, browser: object) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    paths = _screenshot_paths(server)
    for device, width in WIDTHS.items():
        page = _page(browser, width)
        for lang in ("ko", "en"):
            for name, path in paths:
                response = page.goto(f"{server}/{lang}{path}")
                assert response is not None and response.status < 500, path
                assert page.get_attribute("html", "lang") == lang
                overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
                assert overflow <= 1, f"{lang}{path} is {overflow}px wider than a {width}px screen"
                page.screenshot(path=str(SCREENSHOTS / f"{name}-{lang}-{device}.png"), full_page=True)
        page.context.close()
    assert len(list(SCREENSHOTS.glob("*.png"))) >= len(paths) * 4
