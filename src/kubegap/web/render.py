"""Turn a typed page context into a response: HTML through one template, or JSON from the same object.

Because both come from the same dataclass, the JSON API cannot drift from the page. Every response carries
an ETag computed from its body, so a browser or proxy that sends it back gets an empty 304.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import orjson
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape
from starlette.requests import Request
from starlette.responses import Response

HTML = "text/html; charset=utf-8"
JSON = "application/json"
CACHE_CONTROL = "public, max-age=60"

_ENVIRONMENT = Environment(
    loader=PackageLoader("kubegap.web", "templates"),
    autoescape=select_autoescape(["html", "svg", "xml"], default_for_string=True, default=True),
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
    auto_reload=False,
)


def with_code(text: object) -> Markup:
    """Text whose `backtick` spans (commands our sentences quote) show as <code>; everything escaped."""
    from kubegap.checker.reports.escaping import code_spans

    return Markup("").join(
        Markup("<code>{}</code>").format(part) if code else escape(part)
        for part, code in code_spans(str(text))
    )


_ENVIRONMENT.filters["code"] = with_code


def render_html(template: str, values: Mapping[str, Any]) -> str:
    """Render one template; autoescape is on for everything, so no text from a query reaches HTML raw."""
    return _ENVIRONMENT.get_template(template).render(values)


def to_json_bytes(value: Any) -> bytes:
    """Dataclasses, tuples, dates and enums serialise natively; keys keep their order for stable ETags.

    `<`, `>` and `&` can only occur inside JSON strings, so writing them as unicode escapes keeps the JSON
    equal while no browser can ever read a reflected `<script>` in it as markup.
    """
    data = orjson.dumps(value, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS)
    return data.replace(b"<", b"\\u003c").replace(b">", b"\\u003e").replace(b"&", b"\\u0026")


def respond(
    request: Request,
    body: bytes | str,
    media_type: str,
    status_code: int = 200,
    headers: Mapping[str, str] | None = None,
) -> Response:
    """A response with ETag and Cache-Control; a matching If-None-Match gets 304 without a body."""
    data = body.encode("utf-8") if isinstance(body, str) else body
    extra = dict(headers or {})
    if status_code != 200:
        return Response(data, status_code=status_code, media_type=media_type, headers=extra)
    etag = 'W/"' + hashlib.blake2b(data, digest_size=12).hexdigest() + '"'
    extra.setdefault("Cache-Control", CACHE_CONTROL)
    extra["ETag"] = etag
    if etag in _etags_in(request.headers.get("if-none-match", "")):
        return Response(status_code=304, headers=extra)
    return Response(data, status_code=status_code, media_type=media_type, headers=extra)


def _etags_in(header: str) -> set[str]:
    tags = {part.strip() for part in header.split(",") if part.strip()}
    return tags | {"W/" + tag for tag in tags if not tag.startswith("W/")}
