"""`kubegap symptoms`: what the cluster is already showing, matched to the error catalog and incidents.

Reads only what symptoms need (Events in a window, Nodes, Pods, Jobs), from the live cluster through
the same bounded GET-only reader as `scan`, or from a snapshot file or the demo. Exit codes: 0 when
the section was decided (with or without symptoms), 1 when symptoms were found and `--fail-on-symptoms`
was given, 2 on a usage or input error, 3 when the cluster could not be read, 4 when it is `unknown`
(Events not readable): a script never mistakes "could not see" for "nothing there".
"""

from __future__ import annotations

import json
import sys

import click

from kubegap.checker.commands import _limits, _live_options, _logs_options, log_limits
from kubegap.cli_support import lang_option

_WINDOWS = {"m": 60, "h": 3600, "d": 86400}


def parse_window(text: str) -> int:
    """'30m', '24h', '7d' as seconds, between one minute and 30 days; a UsageError otherwise."""
    from kubegap.bilingual import message
    from kubegap.errors import UsageError

    cleaned = text.strip().lower()
    unit = _WINDOWS.get(cleaned[-1:]) if cleaned else None
    if unit is None or not cleaned[:-1].isdigit() or not 60 <= int(cleaned[:-1]) * unit <= 30 * 86400:
        raise UsageError(
            message(
                "--since는 30m, 24h, 7d처럼 1분에서 30일 사이로 주세요: {given}",
                "--since takes a span from 1 minute to 30 days such as 30m, 24h or 7d, not {given}",
                given=repr(text[:40]),
            )
        )
    return int(cleaned[:-1]) * unit


@click.command()
@click.option(
    "--snapshot", "snapshot_paths", multiple=True, type=click.Path(), help="Snapshot file or folder."
)
@click.option("--demo", is_flag=True, help="Read the built-in example GPU cluster.")
@click.option(
    "--since", "since", default="24h", show_default=True, help="How far back Events count (30m, 24h, 7d)."
)
@click.option(
    "-f", "--format", "fmt", type=click.Choice(["plain", "json"]), default="plain", show_default=True
)
@click.option("--fail-on-symptoms", is_flag=True, help="Exit 1 when any symptom is showing.")
@_live_options
@_logs_options
@lang_option
def symptoms(
    snapshot_paths: tuple[str, ...],
    demo: bool,
    since: str,
    fmt: str,
    fail_on_symptoms: bool,
    kubeconfig: str | None,
    context: str | None,
    qps: float,
    timeout: float,
    namespaces: tuple[str, ...],
    logs: bool,
    log_pods: int,
    log_lines: int,
    lang: str,
    **limits: float | int | None,
) -> None:
    """Show what the cluster is already showing: events, node, pod and Job states matched to the error
    catalog, with the incidents that share each symptom and the checks whose gaps let it spread.

    Reads Events (the last --since), Nodes, Pods and Jobs with GET only; never Secrets, and pod logs
    only with --logs (the pods already showing a symptom, bounded and redacted).
    Exit codes: 0 decided; 1 symptoms found with --fail-on-symptoms; 2 usage or input error; 3 the
    cluster could not be read; 4 unknown (Events not readable).
    """
    from kubegap.checker.reports._common import report_lang
    from kubegap.checker.reports.symptoms_view import symptoms_data, symptoms_view, text_lines
    from kubegap.checker.scanning import LiveTarget, ScanRequest, load_source
    from kubegap.checker.symptoms import SIGNAL_KINDS, collect_symptoms

    window = parse_window(since)
    live = LiveTarget(
        kubeconfig,
        context,
        qps,
        timeout,
        progress=sys.stderr.isatty(),
        limits=_limits(timeout, limits),
        logs=log_limits(logs, log_pods, log_lines, bool(snapshot_paths or demo)),
    )
    request = ScanRequest(
        snapshot_paths=snapshot_paths, demo=demo, live=live, namespaces=namespaces, event_window=window
    )
    snapshot = load_source(request, list(SIGNAL_KINDS))
    report = collect_symptoms(snapshot, window)
    shown_lang = report_lang(lang)
    if fmt == "json":
        from kubegap.redaction import redact_value

        click.echo(json.dumps(redact_value(symptoms_data(report, shown_lang)), ensure_ascii=False, indent=2))
    else:
        click.echo("\n".join(text_lines(symptoms_view(report, shown_lang), shown_lang)))
    if report.status != "read":
        raise click.exceptions.Exit(4)
    raise click.exceptions.Exit(1 if fail_on_symptoms and report.groups else 0)
