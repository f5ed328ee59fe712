"""`kubegap serve`: the Incident Library on http://127.0.0.1:8000, offline, with no configuration."""

from __future__ import annotations

import click


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on."
)
def serve(host: str, port: int) -> None:
    """Browse and search the Incident Library in a web browser (Korean and English)."""
    import uvicorn

    from kubegap.library.web.app import create_app

    app = create_app()
    click.echo(f"kubegap Incident Library: http://{host}:{port}/ (Ctrl+C to stop)", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", server_header=False, proxy_headers=False)
