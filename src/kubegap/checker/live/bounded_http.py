"""HTTP reading with a wall-clock deadline and a byte cap, under the official client's REST layer.

urllib3's timeouts bound each socket operation, not a request: a server that sends its headers or its
body one byte every two seconds never times out, and nothing stops a 1.5 GB body. Two pieces close
that. While the client waits for the status line and headers, a timer armed for the request's
deadline shuts the connection's socket (`install_deadlines` gives the client's pool manager
connection classes that do this); the body is then read a chunk at a time, each read allowed only
the time left, and counted against the cap as it arrives.

urllib3 also warns on every unverified HTTPS connection (a kubeconfig with
`insecure-skip-tls-verify: true` gave 94 lines of InsecureRequestWarning); kubegap's pools do not, and
the scan says it once in its notes instead.
"""

from __future__ import annotations

import contextlib
import contextvars
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import urllib3
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

_CHUNK = 256 * 1024
_deadline: contextvars.ContextVar[float | None] = contextvars.ContextVar("kubegap_deadline", default=None)


class BodyTooLarge(Exception):
    def __init__(self, size: int) -> None:
        self.size = size


class RequestDeadline(Exception):
    """The whole answer did not arrive within the request's wall-clock deadline."""


def current_deadline() -> float | None:
    """The deadline of the request being prepared or sent on this thread, if any."""
    return _deadline.get()


@contextlib.contextmanager
def request_deadline(deadline: float) -> Iterator[None]:
    """Requests sent inside this block are cut off at `deadline` (a time.monotonic() value)."""
    token = _deadline.set(deadline)
    try:
        yield
    finally:
        _deadline.reset(token)


class _CutOffAtDeadline:
    """A connection whose wait for the response head ends at the deadline, however slowly bytes come."""

    sock: socket.socket | None

    def getresponse(self) -> Any:
        deadline = _deadline.get()
        if deadline is None:
            return super().getresponse()  # type: ignore[misc]
        timer = threading.Timer(max(0.0, deadline - time.monotonic()), self._cut_off)
        timer.daemon = True
        timer.start()
        try:
            return super().getresponse()  # type: ignore[misc]
        finally:
            timer.cancel()

    def _cut_off(self) -> None:
        sock = getattr(self, "sock", None)
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


class _Connection(_CutOffAtDeadline, HTTPConnection):
    pass


class _SecureConnection(_CutOffAtDeadline, HTTPSConnection):
    pass


class _Pool(HTTPConnectionPool):
    ConnectionCls = _Connection


class _SecurePool(HTTPSConnectionPool):
    ConnectionCls = _SecureConnection

    def _validate_conn(self, conn: Any) -> None:
        """urllib3's own check, without its warning per unverified connection (the scan says it once)."""
        HTTPConnectionPool._validate_conn(self, conn)
        if conn.is_closed:
            conn.connect()


def install_deadlines(pool_manager: urllib3.PoolManager) -> None:
    """Make `pool_manager` open connections that honour `request_deadline` (a new dict: the default
    one is shared by every pool manager in the process)."""
    pool_manager.pool_classes_by_scheme = {"http": _Pool, "https": _SecurePool}


def read_bounded(raw: Any, deadline: float, max_bytes: int, per_read: float) -> bytes:
    """The whole body, read a chunk at a time: stopped at `max_bytes` and at the wall-clock `deadline`.

    urllib3's timeouts bound each socket read, so a server sending one byte every two seconds would
    never time out; here every read gets only the time left, and the size is checked as bytes arrive
    (a declared Content-Length over the cap is refused before reading anything).
    """
    declared = str(raw.headers.get("Content-Length") or "")
    if declared.isdigit() and int(declared) > max_bytes:
        raise BodyTooLarge(int(declared))
    chunks: list[bytes] = []
    total = 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise RequestDeadline()
        _limit_socket_wait(raw, min(per_read, left))
        try:
            chunk = raw.read1(_CHUNK)
        except urllib3.exceptions.ReadTimeoutError:
            if deadline - time.monotonic() <= 0.001:
                raise RequestDeadline() from None
            raise
        if not chunk:
            return b"".join(chunks)
        total += len(chunk)
        if total > max_bytes:
            raise BodyTooLarge(total)
        chunks.append(chunk)


def _limit_socket_wait(raw: Any, seconds: float) -> None:
    """Let the next socket read block for at most `seconds` (the connection's socket, when open)."""
    sock = getattr(getattr(raw, "connection", None), "sock", None)
    if sock is not None:
        sock.settimeout(max(0.001, seconds))


def mebibytes(size: int) -> str:
    return f"{size / (1024 * 1024):,.1f} MiB"
