"""Rendered pages kept in memory, so a page asked for again is sent without being built again.

The library a server reads never changes while it runs (a new knowledge base means a new server), so
a page is a pure function of its URL, the Host it was asked for (absolute links), the day (a
citation's "accessed" date) and the cluster scan it shows badges of. The cache keys on the first three
and keeps the scan state an entry was built from: when a scan finishes, the state object is a new
one and every entry built before it is simply not used again. Pages that say `no-store` (the cluster
page, which reloads itself while a scan runs) are never kept. Building the list page costs some
milliseconds of search, facet counts and template; a kept one costs a dictionary lookup, which is
what lets the server answer close to the rate it serves a static file.

Bounded twice: by entries and by bytes, the least recently used going first.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections import OrderedDict
from dataclasses import dataclass

from starlette.requests import Request

MAX_ENTRIES = 512
MAX_BYTES = 32 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class CachedPage:
    body: bytes
    media_type: str
    headers: tuple[tuple[str, str], ...]
    built_for: object  # the scan state the page was built from


PageKey = tuple[str, str, str, str, bool]


def page_key(request: Request, as_json: bool) -> PageKey:
    """What a page's bytes depend on besides the scan: path, query, Host and the day."""
    return (
        request.url.path,
        request.url.query,
        request.headers.get("host", ""),
        dt.date.today().isoformat(),
        as_json,
    )


class PageCache:
    def __init__(self, max_entries: int = MAX_ENTRIES, max_bytes: int = MAX_BYTES) -> None:
        self._entries: OrderedDict[PageKey, CachedPage] = OrderedDict()
        self._bytes = 0
        self._max_entries = max_entries
        self._max_bytes = max_bytes
        self._lock = threading.Lock()

    def get(self, key: PageKey, state: object) -> CachedPage | None:
        """The page kept for `key` if it was built from this very scan state."""
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                return None
            if found.built_for is not state:
                self._drop(key)
                return None
            self._entries.move_to_end(key)
            return found

    def put(self, key: PageKey, page: CachedPage) -> None:
        if len(page.body) > self._max_bytes // 8:
            return  # one huge page must not push out everything else
        with self._lock:
            if key in self._entries:
                self._drop(key)
            self._entries[key] = page
            self._bytes += len(page.body)
            while len(self._entries) > self._max_entries or self._bytes > self._max_bytes:
                self._drop(next(iter(self._entries)))

    @property
    def size_bytes(self) -> int:
        return self._bytes

    def __len__(self) -> int:
        return len(self._entries)

    def _drop(self, key: PageKey) -> None:
        page = self._entries.pop(key)
        self._bytes -= len(page.body)
