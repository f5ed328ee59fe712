"""`kubegap serve`: the Incident Library on http://127.0.0.1:8000, offline, with no configuration."""

from __future__ import annotations

import gc
import socket

import click

from kubegap.errors import UsageError
from kubegap.library.web.site import Site


def _check_port_free(host: str, port: int) -> None:
    """A taken port is a one-line error with a way out, not a logged bind failure from the server."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        raise UsageError(f"cannot listen on host {host!r}: {error.strerror}") from error
    family, kind, protocol, _, address = infos[0]
    with socket.socket(family, kind, protocol) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            raise UsageError(
                f"cannot listen on {host}:{port} ({error.strerror}); try --port {port + 1}"
            ) from error


def _settle(site: Site) -> None:
    """Load the knowledge base now rather than on the first request, then hide it from the garbage collector.

    It lives as long as the server; walking its objects on every full collection caused pauses of half a
    second at 10,000 incidents (see bench/bench_library.py).
    """
    _ = site.knowledge
    gc.collect()
    gc.freeze()


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on."
)
def serve(host: str, port: int) -> None:
    """Browse and search the Incident Library in a web browser (Korean and English)."""
    import uvicorn

    from kubegap.library.web.app import create_app

    _check_port_free(host, port)
    app = create_app()
    _settle(app.state.site)
    click.echo(f"kubegap Incident Library: http://{host}:{port}/ (Ctrl+C to stop)", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", server_header=False, proxy_headers=False)
