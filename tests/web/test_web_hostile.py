"""Hostile input never gets a 500 and is never reflected unescaped.

Query strings and paths are sent as raw bytes straight to the ASGI app (no HTTP client tidying them
up first), so broken percent-encoding and invalid UTF-8 reach the app exactly as an attacker sends them.
"""

from __future__ import annotations

import json
import random
from urllib.parse import quote

import anyio
import pytest
from starlette.types import ASGIApp

from kubegap.library import Library
from kubegap.web import create_app

MARKER = "<xss-marker>"
PAYLOADS = [
    b"page=99999999999999999999",
    b"page=-5",
    b"page=abc",
    b"page=1e9",
    b"page=1&page=2",
    b"per_page=0",
    b"per_page=100000",
    b"per_page=-1",
    b"sort=drop%20table",
    b"cause=not-a-term",
    b"unknownfacet=x",
    b"cause=",
    b"cause=%00",
    b"q=%ff%fe%fd",
    b"q=%E0%A4%A",
    b"q=%",
    b"q=%%%",
    b"q=%zz",
    b"q=\xff\xfe raw bytes",
    b"q=%22unbalanced",
    b"q=NEAR(a%20b)",
    b"q=a%20AND%20OR%20NOT",
    b"q=*",
    b"q=title:foo",
    b"q=%27%20OR%201=1%20--",
    b"q=%27;%20DROP%20TABLE%20incidents;%20--",
    b"q=%3Cscript%3Ealert(1)%3C/script%3E",
    b"q=%22%3E%3Cimg%20src=x%20onerror=alert(1)%3E",
    b"cause=%3Cscript%3Ealert(1)%3C/script%3E",
    b"tab=%3Cscript%3E",
    b"q=" + b"A" * 10000,
    b"q=" + quote("노드" * 1000).encode(),
    b"q=%F0%9F%92%A5",
    b"q=%E2%80%AE",
    b"q[]=x&q[]=y",
    b"q=a&q=b",
    b"cause=software-update&cause=software-update",
    b"&".join(b"cause=v%d" % index for index in range(40)),
    b"q=%0d%0aSet-Cookie:%20x=y",
    b"q=^^^^&sort=relevance",
    b"lang=fr",
    b"&".join(b"k%d=v" % index for index in range(1000)),
    b"q=" + quote(MARKER).encode(),
    b"component=" + quote(MARKER).encode() + b"&tab=" + quote(MARKER).encode(),
]
PATHS = [
    "/fr/incidents",
    "/ko/incidents/%3Cxss-marker%3E",
    "/ko/incidents/..%2F..%2Fetc%2Fpasswd",
    "/ko/facets/nope/nope",
    "/ko/facets/cause/%ff",
    "/en/studies/%3Cxss-marker%3E",
    "/en/checks/%3Cxss-marker%3E",
    "/static/../pyproject.toml",
    "/ko/incidents/%00",
    "/%ff/incidents",
]


@pytest.fixture(scope="module")
def app(library: Library) -> ASGIApp:
    return create_app(library, [])


def call(
    app: ASGIApp, path: str, query: bytes = b"", headers: list[tuple[bytes, bytes]] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """One GET through the ASGI interface with exactly these bytes; returns status, headers, body."""
    raw_path = path.encode("latin-1", "replace")
    from urllib.parse import unquote

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": unquote(path, errors="replace"),
        "raw_path": raw_path,
        "query_string": query,
        "root_path": "",
        "headers": headers or [(b"host", b"127.0.0.1"), (b"accept-language", b"en")],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
    }
    messages: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        messages.append(message)

    anyio.run(app, scope, receive, send)
    start = next(message for message in messages if message["type"] == "http.response.start")
    body = b"".join(
        message.get("body", b"") for message in messages if message["type"] == "http.response.body"
    )
    found = {name.decode().lower(): value.decode("latin-1") for name, value in start["headers"]}
    return start["status"], found, body


def _assert_safe(status: int, headers: dict[str, str], body: bytes) -> None:
    assert status < 500, body[:300]
    text = body.decode("utf-8")
    assert MARKER not in text
    assert "<script" not in text and "<img" not in text
    if headers.get("content-type", "").startswith("application/json"):
        data = json.loads(text)
        if status >= 400:
            assert set(data["error"]) == {"code", "message"}


@pytest.mark.parametrize("query", PAYLOADS, ids=[payload[:40].decode("latin-1") for payload in PAYLOADS])
@pytest.mark.parametrize("path", ["/ko/incidents", "/en/incidents.json", "/en/cluster", "/ko/cluster.json"])
def test_hostile_query_strings(app: ASGIApp, path: str, query: bytes) -> None:
    status, headers, body = call(app, path, query)
    assert status == 200
    _assert_safe(status, headers, body)


@pytest.mark.parametrize("path", PATHS)
def test_hostile_paths_get_a_friendly_404(app: ASGIApp, path: str) -> None:
    status, headers, body = call(app, path)
    assert status == 404
    _assert_safe(status, headers, body)
    assert headers["content-type"].startswith("text/html")
    assert b"Page not found" in body or "찾는 페이지가 없습니다".encode() in body


def test_error_pages_speak_the_language_of_the_path(app: ASGIApp) -> None:
    _, _, korean = call(app, "/ko/incidents/missing")
    assert b'<html lang="ko">' in korean and "찾는 페이지가 없습니다".encode() in korean
    _, _, english = call(app, "/en/incidents/missing")
    assert b'<html lang="en">' in english and b"Page not found" in english


@pytest.mark.parametrize(
    "path",
    [
        "/ko/incidents/missing.json",
        "/en/facets/cause/missing.json",
        "/en/checks/%3Cxss-marker%3E.json",
        "/en/studies/nope.json",
    ],
)
def test_json_urls_get_the_json_error_shape(app: ASGIApp, path: str) -> None:
    status, headers, body = call(app, path)
    assert status == 404
    assert headers["content-type"].startswith("application/json")
    error = json.loads(body)["error"]
    assert error["code"] == "not-found" and error["message"]
    _assert_safe(status, headers, body)


_PIECES = [
    "q",
    "page",
    "per_page",
    "sort",
    "tab",
    "cause",
    "component",
    "symptom",
    "contributing-factor",
    "lang",
    "x",
    "%",
    "%%",
    "%zz",
    "%ff",
    "%00",
    "%3C",
    "%3E",
    "%22",
    "'",
    '"',
    "*",
    "(",
    ")",
    "NEAR",
    "OR",
    "AND",
    "-",
    ":",
    "노드",
    "재시작",
    "NCCL",
    "gpu-fault",
    "software-update",
    "1",
    "0",
    "-1",
    "99999999999999999999",
    "\u202e",
    "<xss-marker>",
    "&",
    "=",
    "+",
    ";",
    "\\",
    "\x00",
    "\x1f",
    "é",
    "𝔘",
]


def test_fuzzed_query_strings_never_fail(app: ASGIApp) -> None:
    generator = random.Random(20261202)
    for round_number in range(300):
        parts = []
        for _ in range(generator.randint(1, 6)):
            key = generator.choice(_PIECES)
            value = "".join(generator.choice(_PIECES) for _ in range(generator.randint(0, 5)))
            parts.append(f"{key}={value}")
        query = "&".join(parts).encode("utf-8")
        if generator.random() < 0.2:
            query += bytes(generator.randrange(256) for _ in range(8))
        path = "/en/incidents.json" if round_number % 2 else "/ko/incidents"
        status, headers, body = call(app, path, query)
        assert status == 200, (query, body[:300])
        _assert_safe(status, headers, body)


class _BrokenLibrary:
    """A library whose every query fails the way a bug would, to see the calm error page."""

    def __init__(self, real: Library) -> None:
        self.knowledge = real.knowledge

    def _fail(self, *arguments: object, **keywords: object) -> object:
        raise RuntimeError("boom <xss-marker>")

    search = incident = similar = facet_overview = _fail


def test_a_bug_becomes_a_calm_500_page_not_a_traceback(library: Library) -> None:
    from starlette.testclient import TestClient

    with TestClient(base_url="http://127.0.0.1", app=create_app(_BrokenLibrary(library), [])) as client:  # type: ignore[arg-type]
        page = client.get("/ko/incidents")
        assert page.status_code == 500
        assert "문제가 생겼습니다" in page.text and "boom" not in page.text
        data = client.get("/en/incidents.json")
        assert data.status_code == 500
        assert data.json() == {"error": {"code": "server-error", "message": "Something went wrong"}}
        feed = client.get("/en/feed.atom")
        assert feed.status_code == 500 and "Something went wrong" in feed.text
