"""Make raw request bytes safe to parse before anything reads them.

A client may send a query string with raw bytes a browser would have percent-encoded (0xff, spaces,
control characters). Starlette decodes the query string as UTF-8 when it builds `request.url`, which
would fail with a traceback; we percent-encode such bytes first, as a browser would, so every later
step sees a well-formed (if odd) query string and the page can answer with a notice instead.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

_SAFE = frozenset(range(0x21, 0x7F)) - {ord("#")}


def tidy_query_string(raw: bytes) -> bytes:
    """Percent-encode every byte outside printable ASCII; printable ASCII is kept exactly."""
    if all(byte in _SAFE for byte in raw):
        return raw
    return b"".join(bytes((byte,)) if byte in _SAFE else b"%%%02X" % byte for byte in raw)


class TidyRequestMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            query = scope.get("query_string", b"")
            tidy = tidy_query_string(query)
            if tidy is not query:
                scope = {**scope, "query_string": tidy}
        await self.app(scope, receive, send)
