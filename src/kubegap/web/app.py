"""The ASGI app: routes, the language in every path, HTML or JSON from one context, friendly errors.

`create_app(library=None, checks=None)` is the factory for tests and for `kubegap serve`; without
arguments it opens the bundled knowledge base through the SQLite index and the checker's registry.
Every page exists in Korean and English (`/ko/...`, `/en/...`) and as JSON (`....json`).

Endpoints are `async` and call the library directly: the library answers in milliseconds and serialises
on its one SQLite connection anyway, so a hop to a worker thread would add latency and no concurrency.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from kubegap.checker.check import CheckMeta
from kubegap.errors import KubegapError
from kubegap.text import LANGS, Lang
from kubegap.web import data_out, errors, pages, urls
from kubegap.web.cluster_scan import ClusterScan
from kubegap.web.compression import CompressionMiddleware
from kubegap.web.layout import build_layout
from kubegap.web.negotiation import preferred_lang
from kubegap.web.page_cache import CachedPage, PageCache, page_key
from kubegap.web.render import HTML, JSON, render_html, respond, to_json_bytes
from kubegap.web.security import (
    SecurityHeadersMiddleware,
    check_action_token,
    check_same_origin,
    served_hosts,
)
from kubegap.web.site import LibraryReader, Site, registered_checks
from kubegap.web.tidy import TidyRequestMiddleware

STATIC = Path(__file__).parent / "static"

Endpoint = Callable[[Request], Awaitable[Response]]


def create_app(
    library: LibraryReader | None = None,
    checks: Sequence[CheckMeta] | None = None,
    cluster: ClusterScan | None = None,
    allowed_hosts: Sequence[str] | None = None,
) -> Starlette:
    """The web app over a library (default: the bundled knowledge base), checks (default: registry)
    and a cluster scan (default: none; `kubegap serve` passes one and starts it).

    Only requests whose Host is in `allowed_hosts` are answered (default: 127.0.0.1, localhost and
    [::1]); any other gets a 400, so a rebinding name cannot read the cluster report.
    """
    if library is None:
        from kubegap.library import Library

        library = Library.open()
    checks = list(registered_checks() if checks is None else checks)
    site = Site(library, checks, cluster if cluster is not None else ClusterScan.off())
    routes = [
        Route("/", _root),
        Route("/openapi.json", _openapi),
        Route("/favicon.ico", _favicon),
        Route("/c/{short_id}", _short_link),
        Route("/export/incidents.json", _export_json),
        Route("/export/incidents.csv", _export_csv),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
        Route("/{lang}", _lang_root),
        Route("/{lang}/", _lang_root),
        Route("/{lang}/feed.atom", _feed),
    ]
    for pattern, builder in pages.PAGES:
        routes.append(Route(pattern + ".json", _page_endpoint(builder, as_json=True)))
        routes.append(Route(pattern, _page_endpoint(builder, as_json=False)))
    for pattern, as_json in (("/{lang}/cluster.json", True), ("/{lang}/cluster", False)):
        routes.append(Route(pattern, _action_endpoint(pages.cluster_rescan, as_json), methods=["POST"]))
    handlers = {
        KubegapError: errors.handle_error,
        HTTPException: errors.handle_error,
        Exception: errors.handle_error,
    }
    app = Starlette(routes=routes, exception_handlers=handlers)
    app.state.site = site
    app.state.page_cache = PageCache()
    app.add_middleware(TidyRequestMiddleware)
    app.add_middleware(CompressionMiddleware)
    hosts = list(allowed_hosts) if allowed_hosts is not None else served_hosts()
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=hosts, www_redirect=False)
    # Outermost (added last), so every answer carries the headers, the 400 for a foreign Host too.
    app.add_middleware(SecurityHeadersMiddleware)
    return app


def path_lang(request: Request) -> Lang:
    """The language named by the path; anything else is a 404, shown in the reader's preferred language."""
    lang = request.path_params.get("lang", "")
    if lang not in LANGS:
        raise HTTPException(404)
    return lang


def _page_endpoint(builder: pages.PageBuilder, as_json: bool) -> Endpoint:
    async def endpoint(request: Request) -> Response:
        lang = path_lang(request)
        site: Site = request.app.state.site
        cache: PageCache = request.app.state.page_cache
        key = page_key(request, as_json) if request.method == "GET" else None
        state = site.cluster.state()
        kept = cache.get(key, state) if key is not None else None
        if kept is not None:
            return respond(request, kept.body, kept.media_type, headers=dict(kept.headers))
        try:
            page = builder(request, site, lang)
        except (KubegapError, HTTPException):
            raise
        except Exception as error:  # a bug must still end as a calm page, not a traceback
            raise errors.as_kubegap_error(error, lang) from error
        headers = {"Cache-Control": page.cache_control} if page.cache_control else {}
        if as_json:
            body, media_type = to_json_bytes(page.context), JSON
        else:
            query = urls.without_actions(request.url.query)
            json_url = urls.with_json(request.url.path) + ("?" + query if query else "")
            layout = build_layout(request, lang, page.title, page.section, json_url, query)
            values = {"layout": layout, "page": page.context, "L": pages.labeler(lang)}
            body, media_type = render_html(page.template, values).encode("utf-8"), HTML
        if key is not None and page.cache_control != "no-store":
            cache.put(key, CachedPage(body, media_type, tuple(headers.items()), state))
        return respond(request, body, media_type, headers=headers)

    return endpoint


def _action_endpoint(builder: pages.PageBuilder, as_json: bool) -> Endpoint:
    """A POST that changes state (starts a scan): same origin and the page's token, then the page."""
    page_endpoint = _page_endpoint(builder, as_json)

    async def endpoint(request: Request) -> Response:
        path_lang(request)
        site: Site = request.app.state.site
        check_same_origin(request)
        await check_action_token(request, site.cluster.action_token)
        return await page_endpoint(request)

    return endpoint


def _calm(endpoint: Endpoint) -> Endpoint:
    """A bug in an endpoint ends as the friendly error page or JSON error, logged, never a traceback."""

    @functools.wraps(endpoint)
    async def guarded(request: Request) -> Response:
        try:
            return await endpoint(request)
        except (KubegapError, HTTPException):
            raise
        except Exception as error:
            raise errors.as_kubegap_error(error, errors.request_lang(request)) from error

    return guarded


async def _root(request: Request) -> Response:
    lang = preferred_lang(request.headers.get("accept-language", ""))
    return RedirectResponse(urls.incidents_url(lang), status_code=302, headers={"Vary": "Accept-Language"})


async def _favicon(request: Request) -> Response:
    return RedirectResponse("/static/favicon.svg", status_code=301)


async def _short_link(request: Request) -> Response:
    """A citation's short link: the case in the reader's preferred language, or a calm 404."""
    lang = preferred_lang(request.headers.get("accept-language", ""))
    site: Site = request.app.state.site
    incident_id = site.incident_by_short_id(request.path_params["short_id"][:20])
    if incident_id is None:
        raise HTTPException(404)
    headers = {"Vary": "Accept-Language"}
    return RedirectResponse(urls.incident_url(lang, incident_id), status_code=302, headers=headers)


async def _lang_root(request: Request) -> Response:
    return RedirectResponse(urls.incidents_url(path_lang(request)), status_code=302)


@_calm
async def _feed(request: Request) -> Response:
    lang = path_lang(request)
    site: Site = request.app.state.site
    body = data_out.atom_feed(site, lang, str(request.base_url).rstrip("/"))
    return respond(request, body, "application/atom+xml; charset=utf-8")


@_calm
async def _export_json(request: Request) -> Response:
    site: Site = request.app.state.site
    return respond(request, data_out.export_json(site), JSON)


@_calm
async def _export_csv(request: Request) -> Response:
    site: Site = request.app.state.site
    headers = {"Content-Disposition": 'attachment; filename="kubegap-incidents.csv"'}
    return respond(request, data_out.export_csv(site), "text/csv; charset=utf-8", headers=headers)


@_calm
async def _openapi(request: Request) -> Response:
    from kubegap.web.openapi import openapi_document

    return respond(request, to_json_bytes(openapi_document()), JSON)
