"""The limits that make a live scan end, whatever the API server does, and the clock that enforces them.

A misbehaving server (an endless `continue` token, a body trickled a byte at a time, a 1.5 GB list,
429 on every request) must cost a bounded time and memory, and the kinds it spoiled must say why.
Each limit has a default sized for real clusters (150,000 pods list well inside them) and a CLI flag.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

MIB = 1024 * 1024
AUTO_BASE_SECONDS = 120.0  # the automatic scan budget before it is sized to the cluster
AUTO_SECONDS_PER_LIST = 2.0  # each LIST request planned (kinds x namespaces) adds this much
AUTO_SECONDS_PER_THOUSAND_OBJECTS = 1.0  # objects the server announces (remainingItemCount) add this
AUTO_CEILING_SECONDS = 1800.0  # an automatic budget never grows past half an hour


@dataclass(frozen=True)
class LiveLimits:
    """Bounds on one live scan; `scan_timeout` None means sized to the cluster (see ScanClock)."""

    request_timeout: float = 30.0  # one request: connect, headers and the whole body
    scan_timeout: float | None = None
    scan_ceiling: float = AUTO_CEILING_SECONDS  # the most an automatic budget may grow to
    max_page_bytes: int = 64 * MIB  # one response body; a bigger page is asked again in smaller pages
    max_kind_bytes: int = 1024 * MIB  # all pages of one kind together
    max_pages: int = 1000  # pages of one kind (500 objects each: half a million, 3x the 150,000-pod limit)
    max_retries: int = 4  # per request, for 429, 5xx and dropped connections
    max_retry_wait: float = 10.0  # ceiling on one wait, whatever Retry-After says
    max_total_retry_wait: float = 60.0  # all retry waits of one scan together

    def describe(self) -> str:
        return (
            f"request timeout {self.request_timeout:g} s, {self.max_page_bytes // MIB} MiB per page, "
            f"{self.max_kind_bytes // MIB} MiB and {self.max_pages:,} pages per kind, "
            f"{self.max_retries} retries per request and {self.max_total_retry_wait:g} s of retry waits"
        )


@dataclass
class ScanClock:
    """The scan's wall-clock deadline: fixed when --scan-timeout is given, else sized to the cluster.

    The automatic budget starts at AUTO_BASE_SECONDS, grows with each LIST the scan plans and with the
    objects the server says remain, and never passes its ceiling (AUTO_CEILING_SECONDS, or less where
    the caller has a deadline of its own, as an MCP host does), so a server that claims a billion
    objects cannot keep a scan alive either.
    """

    fixed: float | None = None
    ceiling: float = AUTO_CEILING_SECONDS
    started: float = field(default_factory=time.monotonic)
    _lists: int = 0
    _objects: int = 0

    def plan(self, lists: int) -> None:
        self._lists = max(0, lists)

    def announce(self, objects: int) -> None:
        """Objects a first page says exist (items read plus remainingItemCount)."""
        if objects > 0:
            self._objects += objects

    @property
    def budget(self) -> float:
        if self.fixed is not None:
            return self.fixed
        sized = (
            AUTO_BASE_SECONDS
            + AUTO_SECONDS_PER_LIST * self._lists
            + AUTO_SECONDS_PER_THOUSAND_OBJECTS * self._objects / 1000
        )
        return min(sized, self.ceiling)

    @property
    def deadline(self) -> float:
        return self.started + self.budget

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def expired(self) -> bool:
        return self.remaining() <= 0

    @property
    def planned_lists(self) -> int:
        return self._lists

    @property
    def announced_objects(self) -> int:
        return self._objects

    def describe(self) -> str:
        """'120 s (sized to 14 lists and 3,000 announced objects)' or '30 s (--scan-timeout)'."""
        if self.fixed is not None:
            return f"{self.fixed:g} s (--scan-timeout)"
        return (
            f"{self.budget:.0f} s (sized to {self._lists} lists and {self._objects:,} announced objects; "
            "--scan-timeout sets it)"
        )
