"""The error catalog in a real browser, both languages, desktop and phone: linked from the navigation,
listed like the cases (family tabs, cards, Xid codes in numeric order), and reached both ways from a
pasted code: the library's search names the entry, and the entry searches the library."""

from __future__ import annotations

from typing import Any

import pytest
from browser_pages import new_page

pytestmark = pytest.mark.e2e

NCCL_LINE = "NCCL WARN NET/IB : Got completion from peer 10.0.0.2<55004> with error 12, opcode 0, len 0"


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_from_a_pasted_code_to_the_entry_and_back_to_the_incidents(
    server: str, browser: Any, lang: str, width: int
) -> None:
    page = new_page(browser, width, "ko-KR" if lang == "ko" else "en-US")
    page.goto(f"{server}/{lang}/incidents")
    page.fill("#search-q", "XID79")
    page.locator("form.search button[type=submit]").click()
    page.wait_for_load_state()
    hit = page.locator('.catalog-hits a[href$="/errors/xid-79"]')
    assert hit.is_visible()
    box = hit.bounding_box()
    assert box is not None and box["y"] < page.viewport_size["height"], box  # seen without scrolling
    first = page.locator("ol.cards > li").first.bounding_box()  # and the box leaves room for a case
    assert first is not None and first["y"] + 60 < page.viewport_size["height"], first
    hit.click()
    page.wait_for_load_state()
    assert page.url.endswith(f"/{lang}/errors/xid-79")
    assert page.locator(f'.site-nav a[href="/{lang}/errors"][aria-current="page"]').count() == 1
    page.locator("a.find-incidents").click()
    page.wait_for_load_state()
    assert int(page.locator("#results-heading").get_attribute("data-total")) >= 1
    assert page.locator('.catalog-hits a[href$="/errors/xid-79"]').count() == 1
    page.context.close()


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_catalog_looks_like_the_case_list(server: str, browser: Any, lang: str, width: int) -> None:
    page = new_page(browser, width, "ko-KR" if lang == "ko" else "en-US")
    page.goto(f"{server}/{lang}/incidents")
    page.locator(f'.site-nav a[href="/{lang}/errors"]').click()
    page.wait_for_load_state()
    assert page.url.endswith(f"/{lang}/errors")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, overflow
    first = page.locator("ol.error-cards > li").first.bounding_box()
    assert first is not None and first["y"] + 60 < page.viewport_size["height"], first
    ids = [item.get_attribute("data-error") for item in page.locator("ol.error-cards > li").all()]
    codes = [int(item.split("-")[1]) for item in ids if item and item.startswith("xid-")]
    assert len(codes) > 5 and codes == sorted(codes), codes
    xid = page.locator('.tabs a[data-family="xid"]')
    count = int(xid.get_attribute("data-count"))
    xid.click()
    page.wait_for_load_state()
    assert page.locator("ol.error-cards > li").count() == count
    page.fill("#errors-q", NCCL_LINE)
    page.locator("form.search button[type=submit]").click()
    page.wait_for_load_state()
    # the family tab is kept with the text: an NCCL line is no Xid, and the tabs say where it is
    page.locator('.tabs a[data-family=""]').click()
    page.wait_for_load_state()
    assert [item.get_attribute("data-error") for item in page.locator("ol.error-cards > li").all()] == [
        "nccl-ib-completion-error"
    ]
    page.context.close()
