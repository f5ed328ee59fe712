"""HTML, CSS and JSON leave the server compressed with brotli or gzip, as the client asks; bodies decode
to exactly the uncompressed page, and caches are told the encoding varies."""

from __future__ import annotations

import gzip

import pytest
from starlette.testclient import TestClient

from kubegap.web import compression

PATHS = ["/en/incidents", "/ko/incidents?q=GPU", "/static/style.css", "/en/incidents.json", "/en/feed.atom"]


@pytest.mark.parametrize("path", PATHS)
def test_brotli_then_gzip_then_identity(client: TestClient, path: str) -> None:
    plain = client.get(path, headers={"Accept-Encoding": "identity"})
    assert plain.status_code == 200 and "content-encoding" not in plain.headers
    assert "accept-encoding" in plain.headers["vary"].lower()
    assert int(plain.headers["content-length"]) == len(plain.content)

    brotli = client.get(path, headers={"Accept-Encoding": "gzip, br"})
    assert brotli.headers["content-encoding"] == "br"
    assert brotli.content == plain.content  # httpx decodes brotli
    assert int(brotli.headers["content-length"]) < len(plain.content) / 3

    zipped = client.get(path, headers={"Accept-Encoding": "gzip"})
    assert zipped.headers["content-encoding"] == "gzip"
    assert zipped.content == plain.content
    assert int(zipped.headers["content-length"]) < len(plain.content) / 3


def test_refused_codings_small_bodies_and_not_modified_pass_through(client: TestClient) -> None:
    refused = client.get("/en/incidents", headers={"Accept-Encoding": "br;q=0, gzip;q=0"})
    assert "content-encoding" not in refused.headers
    tiny = client.get("/static/favicon.svg", headers={"Accept-Encoding": "gzip"})
    assert tiny.status_code == 200
    first = client.get("/en/incidents", headers={"Accept-Encoding": "gzip"})
    again = client.get(
        "/en/incidents", headers={"Accept-Encoding": "gzip", "If-None-Match": first.headers["etag"]}
    )
    assert again.status_code == 304 and again.content == b""


def test_errors_are_compressed_too_and_stay_errors(client: TestClient) -> None:
    missing = client.get("/en/incidents/no-such-incident", headers={"Accept-Encoding": "gzip"})
    assert missing.status_code == 404
    assert "text/html" in missing.headers["content-type"]
    assert missing.headers["content-encoding"] == "gzip"


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("gzip, deflate, br", "br"),
        ("gzip", "gzip"),
        ("br;q=0, gzip", "gzip"),
        ("*", "br"),
        ("", ""),
        ("identity", ""),
    ],
)
def test_choose_coding(header: str, expected: str) -> None:
    assert compression.choose_coding(header) == expected


def test_gzip_output_is_standard() -> None:
    body = b"<p>" + "장애 사례 ".encode() * 200 + b"</p>"
    assert gzip.decompress(compression.compress(body, "gzip")) == body
