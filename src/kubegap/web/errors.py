"""Every failure as the reader should see it: a friendly page in their language, or the JSON error shape.

Nothing escapes as a bare 500 with a traceback: expected failures are KubegapErrors with their own
status; Starlette's 404/405 keep theirs; anything else is logged in one redacted line (never a
traceback) and shown as a calm error page.
A `.json` URL (or a JSON export) always gets `{"error": {"code", "message"}}`.
"""

from __future__ import annotations

import logging

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from kubegap.errors import KubegapError, NotFoundError, UsageError
from kubegap.text import Lang
from kubegap.unexpected import describe
from kubegap.web import urls
from kubegap.web.labels import t
from kubegap.web.layout import build_layout
from kubegap.web.negotiation import preferred_lang
from kubegap.web.render import HTML, JSON, render_html, respond, to_json_bytes

_LOG = logging.getLogger("kubegap.web")


class ServerError(KubegapError):
    code = "server-error"
    http_status = 500


def as_kubegap_error(error: Exception, lang: Lang) -> KubegapError:
    if isinstance(error, KubegapError):
        return error
    if isinstance(error, HTTPException):
        if error.status_code == 404:
            return NotFoundError(t("error.not-found", lang))
        wrapped = UsageError(
            t("error.bad-request", lang) if error.status_code < 500 else t("error.error", lang)
        )
        wrapped.http_status = error.status_code
        return wrapped
    _LOG.error("unexpected error while serving a page: %s", describe(error))
    return ServerError(t("error.error", lang))


def request_lang(request: Request) -> Lang:
    first = request.url.path.split("/")[1:2]
    if first and first[0] in ("ko", "en"):
        return "ko" if first[0] == "ko" else "en"
    return preferred_lang(request.headers.get("accept-language", ""))


def wants_json(request: Request) -> bool:
    path = request.url.path
    return path.endswith(".json") or path.startswith("/export/")


async def handle_error(request: Request, error: Exception) -> Response:
    lang = request_lang(request)
    problem = as_kubegap_error(error, lang)
    status = problem.http_status
    headers = {"Cache-Control": "no-store"}
    if wants_json(request):
        return respond(request, to_json_bytes(problem.as_json()), JSON, status_code=status, headers=headers)
    title = (
        t(f"error.{problem.code}", lang)
        if problem.code in ("not-found", "bad-request")
        else t("error.error", lang)
    )
    layout = build_layout(request, lang, title, section="")
    page = {
        "title": title,
        "message": problem.one_line(),
        "status": status,
        "back_url": urls.incidents_url(lang),
    }
    html = render_html(
        "error.html", {"layout": layout, "page": page, "L": lambda key, **values: t(key, lang, **values)}
    )
    return respond(request, html, HTML, status_code=status, headers=headers)
