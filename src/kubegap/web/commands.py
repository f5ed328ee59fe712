"""`kubegap serve`: the Incident Library and a report on your cluster at http://127.0.0.1:8000.

With no configuration it uses the bundled knowledge base and, for the "your cluster" page, the live
cluster when a kubeconfig resolves and the bundled demo snapshot otherwise. The scan runs once in a
background thread, so the pages answer at once.
"""

from __future__ import annotations

import gc
import socket

import click

from kubegap.bilingual import message
from kubegap.cli_support import lang_option
from kubegap.errors import UsageError
from kubegap.web.site import Site


def _listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound before the server starts: a taken port is a one-line error with a
    way out, and `--port 0` prints the port the system chose, not `:0`."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        raise UsageError(
            message(
                "호스트 {host}에서 들을 수 없습니다({reason})",
                "cannot listen on host {host}: {reason}",
                host=repr(host),
                reason=str(error.strerror),
            )
        ) from error
    family, kind, protocol, _, address = infos[0]
    listener = socket.socket(family, kind, protocol)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind(address)
        listener.listen(2048)
    except OSError as error:
        listener.close()
        raise UsageError(
            message(
                "{host}:{port}에서 들을 수 없습니다({reason}). --port {next}로 해 보세요",
                "cannot listen on {host}:{port} ({reason}); try --port {next}",
                host=host,
                port=str(port),
                next=str(port + 1),
                reason=str(error.strerror),
            )
        ) from error
    return listener


def _url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


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
@click.option("--demo", is_flag=True, help="Report on the built-in example GPU cluster.")
@click.option(
    "--snapshot",
    "snapshot_paths",
    multiple=True,
    type=click.Path(),
    help="Snapshot file or folder (repeatable).",
)
@click.option(
    "--manifests",
    "manifest_paths",
    multiple=True,
    type=click.Path(),
    help="Manifest file or folder (repeatable).",
)
@click.option(
    "--kubeconfig", type=click.Path(dir_okay=False), help="kubeconfig file (default: as kubectl finds it)."
)
@click.option(
    "--context",
    "contexts",
    multiple=True,
    help="kubeconfig context (default: the current one); repeat it to show a fleet matrix.",
)
@click.option("--all-contexts", is_flag=True, help="Scan every context of the kubeconfig (a fleet).")
@click.option("--no-scan", is_flag=True, help="Serve the library only; scan no cluster.")
@lang_option
@click.option(
    "--allowed-host",
    "allowed_hosts",
    multiple=True,
    metavar="NAME",
    help="Also answer requests for this host name (repeatable; '*.example.com' for a domain). "
    "127.0.0.1, localhost and the --host address are always served; other names get a 400.",
)
def serve(
    host: str,
    port: int,
    demo: bool,
    snapshot_paths: tuple[str, ...],
    manifest_paths: tuple[str, ...],
    kubeconfig: str | None,
    contexts: tuple[str, ...],
    all_contexts: bool,
    no_scan: bool,
    lang: str,
    allowed_hosts: tuple[str, ...],
) -> None:
    """Browse the Incident Library and a read-only report on your cluster (Korean and English).

    Without a source flag the cluster is the one your kubeconfig names (read-only), or the built-in
    demo cluster when there is no kubeconfig.
    """
    import uvicorn

    from kubegap.web.app import create_app
    from kubegap.web.cluster_scan import ClusterScan
    from kubegap.web.cluster_source import choose_source
    from kubegap.web.security import is_wildcard_bind, served_hosts

    hosts = served_hosts(host, allowed_hosts)
    listener = _listen(host, port)
    with listener:  # closed on the way out, an error before the server starts included
        if all_contexts or len(contexts) > 1:
            from kubegap.web.cluster_fleet import fleet_scanner, fleet_source

            if snapshot_paths or manifest_paths or demo or no_scan:
                raise UsageError(
                    "several contexts are live clusters: drop --snapshot, --manifests, --demo, --no-scan"
                )
            source = fleet_source(kubeconfig, contexts, all_contexts)
            cluster = ClusterScan(source, fleet_scanner(source, contexts, all_contexts))
        else:
            source = choose_source(
                snapshot_paths=snapshot_paths,
                manifest_paths=manifest_paths,
                demo=demo,
                kubeconfig=kubeconfig,
                context=contexts[0] if contexts else None,
                no_scan=no_scan,
            )
            cluster = ClusterScan(source)
        app = create_app(cluster=cluster, allowed_hosts=hosts)
        _settle(app.state.site)
        click.echo(source.startup_line(lang), err=True)
        address = _url(host, int(listener.getsockname()[1]))  # the bound port, also for --port 0
        if lang == "ko":
            click.echo(f"kubegap 사례 라이브러리: {address} (멈추려면 Ctrl+C)", err=True)
            click.echo(f"응답하는 호스트 이름: {', '.join(hosts)}", err=True)
        else:
            click.echo(f"kubegap Incident Library: {address} (Ctrl+C to stop)", err=True)
            click.echo(f"Serving requests for: {', '.join(hosts)}", err=True)
        if is_wildcard_bind(host) and not allowed_hosts:
            click.echo(
                "모든 인터페이스에서 듣고 있지만, 다른 컴퓨터의 요청은 이 호스트를 자기 이름이나 "
                "주소로 부릅니다. --allowed-host NAME으로 그 이름을 더하세요."
                if lang == "ko"
                else "Listening on every interface, but other machines' requests name this host by its own "
                "name or address: add it with --allowed-host NAME.",
                err=True,
            )
        cluster.start()
        config = uvicorn.Config(
            app,
            log_level="warning",
            log_config=None,  # uvicorn's lines go through the one-line, redacted log format
            server_header=False,
            proxy_headers=False,
        )
        uvicorn.Server(config).run(sockets=[listener])
