"""The fleet-studies index in a real browser, both languages, desktop and phone: a jump table first,
then one short entry per study (the charts are on the study pages), so the page is a few screens long
instead of dozens, and every row of the jump table lands on its entry."""

from __future__ import annotations

from typing import Any

import pytest
from browser_pages import new_page

pytestmark = pytest.mark.e2e

# Height per study the index may take: with a chart and a table per study it took ~900 px at 1280 and
# ~1,750 px at 390; a compact entry plus its jump-table row takes under a third of that.
HEIGHT_PER_STUDY = {1280: 400, 390: 800}


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_studies_index_is_compact_and_its_jump_table_lands_on_each_entry(
    server: str, browser: Any, lang: str, width: int
) -> None:
    page = new_page(browser, width, "ko-KR" if lang == "ko" else "en-US")
    page.goto(f"{server}/{lang}/studies")
    entries = page.locator("ol.study-list > li.study-entry")
    count = entries.count()
    assert count >= 2
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= HEIGHT_PER_STUDY[width] * count + 1200, (height, count)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, overflow
    viewport = page.viewport_size["height"]
    jumps = page.locator(".study-jump a[data-study]")
    assert jumps.count() == count
    first = jumps.first.bounding_box()
    assert first is not None and first["y"] + first["height"] < viewport, first  # the table starts on screen
    assert page.locator(".study-list svg.bar-chart").count() == 0
    for index in (count - 1, count // 2):
        link = jumps.nth(index)
        study = link.get_attribute("data-study")
        link.click()
        page.wait_for_function("id => location.hash === '#study-' + id", arg=study)
        target = page.locator(f"#study-{study}").bounding_box()
        assert target is not None and target["y"] >= -2 and target["y"] + target["height"] <= viewport + 1, (
            study,
            target,
        )  # the whole entry on screen (the last one cannot scroll to the top)
        largest = page.locator(f"#study-{study} .study-share")
        assert 1 <= largest.count() <= 3 and largest.first.is_visible()
        page.locator(f"#study-{study} .study-top").click()
        page.wait_for_function("() => location.hash === '#studies-jump'")
    opened = page.locator(".study-entry .study-links a").first
    opened.click()
    page.wait_for_load_state()
    assert page.locator("svg.bar-chart:visible").count() == 1  # the study's page has its chart (one layout)
    page.context.close()
