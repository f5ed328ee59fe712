"""Faults the emulated API server can inject, from a plain status code to a server that misbehaves
on purpose: an endless or repeated `continue` token, a body trickled a byte at a time, a body that
never ends, and hostile JSON in place of a discovery document or a list.

    Fault(r"/api/v1/pods", mode="endless-continue")   # every page new objects and another token
    Fault(r"/api/v1/pods", mode="looping-continue")   # the first page again and again, new tokens
    Fault(r"/api/v1/pods", mode="repeated-continue")  # ... with the same token each time
    Fault(r"/api/v1/pods", mode="trickle", interval=2.0)  # the body one byte every two seconds
    Fault(r"/api/v1/pods", mode="trickle-headers", interval=2.0)  # the status line and headers too
    Fault(r"/api/v1/pods", mode="oversized", size=200 * 2**20)  # 200 MiB of items, no Content-Length
    Fault(r"/apis", body={"groups": [1]})             # any JSON value answered with 200
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

MODES = (
    "",
    "endless-continue",
    "looping-continue",
    "repeated-continue",
    "trickle",
    "trickle-headers",
    "oversized",
)


@dataclass
class Fault:
    """Answer requests whose path fully matches `pattern` with `status` (0: answer normally) after `delay`.

    `mode` changes how a normal answer is sent (see the module docstring); `body` replaces the answer
    with any JSON value (status 200, or `status` when set).
    """

    pattern: str
    status: int = 0
    delay: float = 0.0
    retry_after: str | None = None
    times: int | None = None  # None: forever
    only_continue: bool = False  # only requests that carry a continue token
    mode: str = ""
    body: Any = None
    interval: float = 1.0  # trickle: seconds between bytes
    size: int = 0  # oversized: bytes to send before closing (0: until the client hangs up)
    hits: int = 0

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"unknown fault mode {self.mode!r}; use one of {MODES}")

    def applies(self, path: str, query: dict[str, str]) -> bool:
        if self.times is not None and self.hits >= self.times:
            return False
        if self.only_continue and not query.get("continue"):
            return False
        return re.fullmatch(self.pattern, path) is not None


_tokens = itertools.count(1)


def with_endless_continue(fault: Fault, body: dict[str, Any], limit: int) -> dict[str, Any]:
    """The page with a continue token that never runs out.

    endless-continue: `limit` new objects each page; looping-continue: the first page again;
    repeated-continue: the first page again with the same token each time.
    """
    metadata = body.get("metadata")
    if not isinstance(metadata, dict):
        return body
    number = next(_tokens)
    token = "same-token" if fault.mode == "repeated-continue" else f"endless-{number}"
    page = {**body, "metadata": {**metadata, "continue": token, "remainingItemCount": 1}}
    if fault.mode == "endless-continue":
        page["items"] = [_filler(f"endless-{number}-{index}") for index in range(max(1, min(limit, 500)))]
    return page


def _filler(name: str) -> dict[str, Any]:
    return {
        "metadata": {"name": name, "namespace": "default", "uid": name, "labels": {"fill": "x" * 100}},
        "spec": {"containers": [{"name": "main", "image": "registry.example/filler:1"}]},
    }


def head_bytes(status: int, length: int) -> bytes:
    """A status line and headers as raw bytes, for a server that trickles them too."""
    return (
        f"HTTP/1.1 {status} OK\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n"
        "Connection: close\r\n\r\n"
    ).encode()


def send_trickle(write: Callable[[bytes], None], payload: bytes, interval: float) -> None:
    """The body one byte at a time, `interval` seconds apart, until done or the client hangs up."""
    for index in range(len(payload)):
        write(payload[index : index + 1])
        time.sleep(interval)


def send_oversized(write: Callable[[bytes], None], kind: str, api_version: str, size: int) -> None:
    """A list whose items go on for `size` bytes (or until the client hangs up), then closes unfinished."""
    chunk = b",".join([orjson.dumps(_filler("filler"))] * 256) + b","
    write(orjson.dumps({"kind": f"{kind}List", "apiVersion": api_version})[:-1] + b',"items":[')
    sent = 0
    while not size or sent < size:
        write(chunk)
        sent += len(chunk)
