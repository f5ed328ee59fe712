"""Page links of the list page: previous, next, the first and last page and a window around this one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

PAGE_WINDOW = 2


@dataclass(frozen=True, slots=True)
class PageLink:
    """A page number, or a gap (number 0, no URL) where pages are skipped."""

    number: int
    label: str
    url: str
    current: bool


@dataclass(frozen=True, slots=True)
class Paging:
    previous_url: str
    next_url: str
    pages: tuple[PageLink, ...]


def build_paging(current: int, page_count: int, page_url: Callable[[int], str]) -> Paging:
    if page_count <= 1:
        return Paging("", "", ())
    numbers = sorted(
        {1, page_count}
        | set(range(max(1, current - PAGE_WINDOW), min(page_count, current + PAGE_WINDOW) + 1))
    )
    pages: list[PageLink] = []
    previous = 0
    for number in numbers:
        if previous and number - previous > 1:
            pages.append(PageLink(0, "…", "", False))
        pages.append(PageLink(number, str(number), page_url(number), number == current))
        previous = number
    return Paging(
        previous_url=page_url(current - 1) if current > 1 else "",
        next_url=page_url(current + 1) if current < page_count else "",
        pages=tuple(pages),
    )
