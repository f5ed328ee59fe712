"""`kubegap exporter`: re-scan on an interval and serve the results as Prometheus metrics.

It reads clusters exactly as `kubegap scan` does (same read-only client, same checks), so a series
here and a line in a scan report always agree.
"""

from __future__ import annotations

import socket

import click

from kubegap.bilingual import message
from kubegap.checker.live.kubeconfig import context_names, resolve_kubeconfig
from kubegap.checker.scanning import LiveTarget, ScanRequest
from kubegap.cli_support import lang_option
from kubegap.errors import KubegapError, UsageError


def default_cluster_name(kubeconfig: str | None) -> str:
    """The label of the default target: the kubeconfig's current context, or 'in-cluster' without one."""
    try:
        path = resolve_kubeconfig(kubeconfig)
    except KubegapError:
        return "in-cluster"
    if path is None:
        return "in-cluster"
    try:
        _contexts, active = context_names(path)
    except KubegapError:  # the scan itself will report the broken file, once per round
        return "default"
    return active or "default"


def _check_port_free(host: str, port: int) -> None:
    """A taken port is one line with a way out, not a bind failure logged by the server."""
    try:
        family, kind, protocol, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as error:
        raise UsageError(f"cannot listen on host {host!r}: {error.strerror}") from error
    with socket.socket(family, kind, protocol) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            raise UsageError(
                f"cannot listen on {host}:{port} ({error.strerror}); try --port {port + 1}"
            ) from None


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=9188, show_default=True, type=click.IntRange(0, 65535), help="Port.")
@click.option(
    "--interval",
    type=click.FloatRange(min=1),
    default=300.0,
    show_default=True,
    help="Seconds between the start of one round of scans and the next.",
)
@click.option("--kubeconfig", type=click.Path(dir_okay=False), help="kubeconfig file (default: as kubectl).")
@click.option("--context", "contexts", multiple=True, help="Context to scan (repeatable; default: current).")
@click.option(
    "--all-contexts", is_flag=True, help="Scan every context of the kubeconfig, re-read each round."
)
@click.option("--cluster-name", help="The `cluster` label of the default target (default: the context name).")
@click.option("--concurrency", type=click.IntRange(1, 64), default=4, show_default=True)
@click.option("--qps", type=click.FloatRange(min=0.1), default=20.0, show_default=True, help="Per cluster.")
@click.option("--timeout", type=click.FloatRange(min=1), default=30.0, show_default=True, help="Seconds.")
@click.option("--check", "check_ids", multiple=True, help="Run only this check (repeatable).")
@click.option("-n", "--namespace", "namespaces", multiple=True, help="Only these namespaces (repeatable).")
@click.option("--exemptions", "exemptions_path", type=click.Path(), help="Exemptions YAML file.")
@click.option("--demo", is_flag=True, help="Export the built-in example cluster (to try dashboards).")
@lang_option
def exporter(
    host: str,
    port: int,
    interval: float,
    kubeconfig: str | None,
    contexts: tuple[str, ...],
    all_contexts: bool,
    cluster_name: str | None,
    concurrency: int,
    qps: float,
    timeout: float,
    check_ids: tuple[str, ...],
    namespaces: tuple[str, ...],
    exemptions_path: str | None,
    demo: bool,
    lang: str,
) -> None:
    """Serve /metrics for Prometheus: per cluster and check, the status, findings and scan health."""
    import uvicorn

    from kubegap.checker.registry import select_checks
    from kubegap.metrics.app import create_exporter_app
    from kubegap.metrics.loop import ScanLoop, Targets
    from kubegap.metrics.state import ExporterState

    if demo and (contexts or all_contexts):
        raise UsageError("--demo exports the built-in cluster: drop --context and --all-contexts")
    select_checks(check_ids or None)  # an unknown check id is a one-line error now, not every round
    request = ScanRequest(
        demo=demo,
        live=LiveTarget(kubeconfig, None, qps, timeout),
        check_ids=check_ids or None,
        namespaces=namespaces,
        exemptions_path=exemptions_path,
    )
    name = cluster_name or ("demo" if demo else default_cluster_name(kubeconfig))
    targets = Targets(request, contexts, all_contexts, name, concurrency)
    _check_port_free(host, port)
    state = ExporterState()
    loop = ScanLoop(targets, state, interval)
    seconds = f"{interval:g}"
    if all_contexts:
        scanning = message(
            "모든 컨텍스트를 {seconds}초마다 스캔합니다",
            "scanning every context every {seconds}s",
            seconds=seconds,
        )
    else:
        what = ", ".join(contexts) or name
        scanning = message(
            "{what:을} {seconds}초마다 스캔합니다",
            "scanning {what} every {seconds}s",
            what=what,
            seconds=seconds,
        )
    click.echo(f"kubegap exporter: {scanning.render(lang)}", err=True)
    stop = "Ctrl+C로 멈춥니다" if lang == "ko" else "Ctrl+C to stop"
    click.echo(f"kubegap exporter: http://{host}:{port}/metrics ({stop})", err=True)
    loop.start()
    try:
        uvicorn.run(
            create_exporter_app(state),
            host=host,
            port=port,
            log_level="warning",
            log_config=None,  # uvicorn's lines go through the one-line, redacted log format
            server_header=False,
            proxy_headers=False,
        )
    finally:
        loop.stop(timeout=1.0)
