"""Security headers on every response, the hosts served, and the guard on actions that start a scan.

The pages run no inline script and no inline style, so the Content-Security-Policy can forbid both;
charts are inline SVG drawn with attributes, not style.
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kubegap.errors import KubegapError, UsageError

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; style-src 'self'; img-src 'self' data:; script-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'; manifest-src 'self'"
)

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"strict-origin-when-cross-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
)


class SecurityHeadersMiddleware:
    """Adds SECURITY_HEADERS to every HTTP response that does not already set them."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers.extend(pair for pair in SECURITY_HEADERS if pair[0] not in present)
                if scope["path"].startswith("/static/"):
                    headers.append((b"cache-control", b"public, max-age=86400"))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


# --- Which hosts are served, and who may start a scan -------------------------------------------
#
# A page on another site can point a name it controls at 127.0.0.1 (DNS rebinding) and then read
# our pages as its own origin: the only thing that tells it apart is the Host header it sends. So
# only the names the server was started for are answered (TrustedHostMiddleware, in app.py).
# Starting a scan is a POST that must carry the page's action token and, when the browser says
# where it comes from (Origin, Sec-Fetch-Site), come from this very origin: a link, an <img>, or a
# form on another site cannot start one.

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")
_WILDCARD_BINDS = frozenset({"", "0.0.0.0", "::", "[::]"})
ACTION_TOKEN_FIELD = "token"
ACTION_TOKEN_HEADER = "x-kubegap-token"
MAX_ACTION_BODY = 4096


class ForbiddenError(KubegapError):
    """A request the server refuses on purpose (foreign origin, missing token): 403, one line."""

    code = "forbidden"
    http_status = 403


def served_hosts(bind_host: str = "127.0.0.1", extra: Sequence[str] = ()) -> list[str]:
    """Host names answered: loopback, the address the server listens on, and each --allowed-host."""
    hosts = list(LOOPBACK_HOSTS)
    bound = bind_host.strip().lower()
    if bound not in _WILDCARD_BINDS:
        hosts.append(f"[{bound}]" if ":" in bound and not bound.startswith("[") else bound)
    for name in extra:
        cleaned = name.strip().lower()
        if not cleaned:
            continue
        if "*" in cleaned[1:] or (cleaned.startswith("*") and not cleaned.startswith("*.")):
            raise UsageError(f"--allowed-host {name!r}: use a host name, an address, or '*.example.com'")
        hosts.append(cleaned)
    return list(dict.fromkeys(hosts))


def is_wildcard_bind(bind_host: str) -> bool:
    return bind_host.strip().lower() in _WILDCARD_BINDS


def check_same_origin(request: Request) -> None:
    """Refuse a state-changing request that a browser says came from another site."""
    fetch_site = request.headers.get("sec-fetch-site", "")
    if fetch_site and fetch_site not in ("same-origin", "none"):
        raise ForbiddenError(f"a request from another site ({fetch_site[:40]}) cannot start a scan")
    origin = request.headers.get("origin", "")
    if not origin:
        return
    own = f"{request.url.scheme}://{request.headers.get('host', '')}".lower()
    if origin.lower() != own:
        raise ForbiddenError("a request from another origin cannot start a scan")


async def check_action_token(request: Request, expected: str) -> None:
    """The page's action token, from the form body or the X-Kubegap-Token header, must match."""
    given = request.headers.get(ACTION_TOKEN_HEADER, "")
    if not given:
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_ACTION_BODY:
                raise ForbiddenError("the request body is too large for a scan request")
        fields = parse_qs(body.decode("latin-1"), max_num_fields=8)
        given = (fields.get(ACTION_TOKEN_FIELD) or [""])[0]
    if not expected or not hmac.compare_digest(given.encode("latin-1", "replace"), expected.encode()):
        raise ForbiddenError("a scan starts only from the cluster page's button (missing or wrong token)")
