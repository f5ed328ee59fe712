"""The exporter's HTTP face: /metrics for Prometheus, /healthz for liveness, /readyz after a first round."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, make_asgi_app
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from kubegap.metrics.collector import KubegapCollector
from kubegap.metrics.state import ExporterState


def exporter_registry(state: ExporterState) -> CollectorRegistry:
    """A registry of our own: only kubegap's families, no process metrics of the default registry."""
    registry = CollectorRegistry(auto_describe=True)
    registry.register(KubegapCollector(state))
    return registry


def create_exporter_app(state: ExporterState) -> Starlette:
    async def healthz(request: Request) -> PlainTextResponse:
        return PlainTextResponse("ok\n")

    async def readyz(request: Request) -> PlainTextResponse:
        if state.rounds:
            return PlainTextResponse("ready\n")
        return PlainTextResponse("the first scan has not finished\n", status_code=503)

    async def index(request: Request) -> PlainTextResponse:
        return PlainTextResponse("kubegap exporter: scrape /metrics\n")

    return Starlette(
        routes=[
            Route("/", index),
            Route("/healthz", healthz),
            Route("/readyz", readyz),
            Route("/metrics", _AsgiEndpoint(make_asgi_app(exporter_registry(state)))),
        ]
    )


class _AsgiEndpoint:
    """prometheus_client's ASGI app as a route at exactly /metrics (a Mount would redirect to /metrics/).

    Starlette treats a plain function endpoint as request -> response; an object is called as ASGI.
    """

    def __init__(self, app: ASGIApp) -> None:
        self._app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self._app(scope, receive, send)
