"""Small helpers the browser tests share (the services themselves are fixtures in conftest.py)."""

from __future__ import annotations

from typing import Any


def new_page(browser: Any, width: int, locale: str = "ko-KR") -> Any:
    """A page in a fresh context (no cookies or cache shared with other tests) at this viewport width."""
    context = browser.new_context(viewport={"width": width, "height": 900}, locale=locale)
    return context.new_page()
