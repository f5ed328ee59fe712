"""`kubegap scan`, `kubegap snapshot`, `kubegap checks` and `kubegap rbac`: wiring over plain functions.

Exit codes of `scan`: 0 when no open fail is at or above --fail-on, 1 when one is, 2 on any error
(bad input, no cluster, unknown check).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from kubegap.checker.finding import Severity
from kubegap.checker.registry import all_checks, get_check, select_checks
from kubegap.errors import InputError

_SEVERITIES = [severity.value for severity in Severity]
_STATUSES = ["fail", "exempted", "unknown", "pass", "not-applicable"]


def _live_options(function: click.decorators.FC) -> click.decorators.FC:
    options = [
        click.option(
            "--kubeconfig", type=click.Path(dir_okay=False), help="kubeconfig file (default: as kubectl)."
        ),
        click.option("--context", help="kubeconfig context (default: the current one)."),
        *_LIVE_TAIL,
    ]
    for option in reversed(options):
        function = option(function)
    return function


def _fleet_options(function: click.decorators.FC) -> click.decorators.FC:
    """The live options of `scan`, where --context repeats: two or more contexts make a fleet scan."""
    options = [
        click.option(
            "--kubeconfig", type=click.Path(dir_okay=False), help="kubeconfig file (default: as kubectl)."
        ),
        click.option(
            "--context",
            "contexts",
            multiple=True,
            help="kubeconfig context (default: the current one); repeat it to scan a fleet.",
        ),
        click.option("--all-contexts", is_flag=True, help="Scan every context of the kubeconfig."),
        click.option(
            "--concurrency",
            type=click.IntRange(min=1, max=64),
            default=4,
            show_default=True,
            help="Clusters read at the same time in a fleet scan (--qps applies to each).",
        ),
        *_LIVE_TAIL,
    ]
    for option in reversed(options):
        function = option(function)
    return function


_LIVE_TAIL = [
    click.option(
        "--qps", type=click.FloatRange(min=0.1), default=20.0, show_default=True, help="Request rate."
    ),
    click.option("--timeout", type=click.FloatRange(min=1), default=30.0, show_default=True, help="Seconds."),
    click.option(
        "-n", "--namespace", "namespaces", multiple=True, help="Only these namespaces (repeatable)."
    ),
]


def _write(text: str, output: str | None) -> None:
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as error:
        raise InputError(f"{output}: cannot write report: {error.strerror or error}") from None


@click.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--snapshot", "snapshot_paths", multiple=True, type=click.Path(), help="Snapshot file or folder."
)
@click.option(
    "--manifests", "manifest_paths", multiple=True, type=click.Path(), help="Manifest file or folder."
)
@click.option("--demo", is_flag=True, help="Scan the built-in example GPU cluster.")
@click.option(
    "-f", "--format", "fmt", type=click.Choice(["table", "json", "markdown", "sarif"]), default="table"
)
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the report to a file.")
@click.option(
    "--fail-on",
    type=click.Choice([*_SEVERITIES, "never"]),
    default="high",
    show_default=True,
    help="Exit 1 when an open fail is at or above this severity.",
)
@click.option("--check", "check_ids", multiple=True, help="Run only this check (repeatable).")
@click.option(
    "--status", "statuses", multiple=True, type=click.Choice(_STATUSES), help="Show only these statuses."
)
@click.option("--min-severity", type=click.Choice(_SEVERITIES), help="Show only findings at or above.")
@click.option("--lang", type=click.Choice(["en", "ko"]), default="en", show_default=True)
@click.option("--exemptions", "exemptions_path", type=click.Path(), help="Exemptions YAML file.")
@click.option("--no-annotation-exemptions", is_flag=True, help="Ignore kubegap.io/ignore annotations.")
@click.option("--library-url", help="Base URL of incident links (default $KUBEGAP_LIBRARY_URL or local).")
@_fleet_options
def scan(
    paths: tuple[str, ...],
    snapshot_paths: tuple[str, ...],
    manifest_paths: tuple[str, ...],
    demo: bool,
    fmt: str,
    output: str | None,
    fail_on: str,
    check_ids: tuple[str, ...],
    statuses: tuple[str, ...],
    min_severity: str | None,
    lang: str,
    exemptions_path: str | None,
    no_annotation_exemptions: bool,
    library_url: str | None,
    kubeconfig: str | None,
    contexts: tuple[str, ...],
    all_contexts: bool,
    concurrency: int,
    qps: float,
    timeout: float,
    namespaces: tuple[str, ...],
) -> None:
    """Scan a cluster (live, --snapshot, --manifests or --demo) for the gaps behind public incidents.

    PATHS are manifest files or folders, as with --manifests (so `kubegap scan k8s/*.yaml` and the
    pre-commit hook work). Two or more --context, or --all-contexts, scan a fleet: one report with a
    cluster × check matrix.
    """
    from kubegap.checker.reports import render
    from kubegap.checker.scanning import LiveTarget, ScanRequest, run_scan

    fleet = all_contexts or len(contexts) > 1
    context = contexts[0] if contexts and not fleet else None
    live = LiveTarget(kubeconfig, context, qps, timeout, progress=sys.stderr.isatty() and not fleet)
    request = ScanRequest(
        snapshot_paths=snapshot_paths,
        manifest_paths=(*manifest_paths, *paths),
        demo=demo,
        live=live,
        check_ids=check_ids or None,
        namespaces=namespaces,
        exemptions_path=exemptions_path,
        honour_annotations=not no_annotation_exemptions,
    )
    color = output is None and fmt == "table" and sys.stdout.isatty()
    threshold = None if fail_on == "never" else Severity(fail_on)
    if fleet:
        from kubegap.checker.fleet.command import render_fleet, run_fleet_scan

        fleet_report = run_fleet_scan(request, contexts, all_contexts, concurrency)
        shown_fleet = fleet_report.filtered(
            statuses or None, Severity(min_severity) if min_severity else None
        )
        _write(render_fleet(shown_fleet, fmt, lang, library_url, color=color), output)
        raise click.exceptions.Exit(fleet_report.exit_code(threshold))
    report = run_scan(request)
    shown = report.filtered(statuses or None, Severity(min_severity) if min_severity else None)
    _write(render(shown, fmt, lang, library_url, color=color), output)
    raise click.exceptions.Exit(report.exit_code(threshold))


@click.command()
@click.option(
    "-o", "--output", required=True, type=click.Path(dir_okay=False), help="File (.json or .json.gz)."
)
@click.option("--check", "check_ids", multiple=True, help="Read only what these checks need (repeatable).")
@_live_options
def snapshot(
    output: str,
    check_ids: tuple[str, ...],
    kubeconfig: str | None,
    context: str | None,
    qps: float,
    timeout: float,
    namespaces: tuple[str, ...],
) -> None:
    """Read the live cluster once into a kubegap snapshot file, to scan later or elsewhere."""
    from kubegap.checker.rbac import kinds_read
    from kubegap.checker.scanning import LiveTarget, ScanRequest, load_source
    from kubegap.checker.snapshot_file import write_snapshot

    live = LiveTarget(kubeconfig, context, qps, timeout, progress=sys.stderr.isatty())
    kinds = kinds_read(check.meta for check in select_checks(check_ids))
    taken = load_source(ScanRequest(live=live, namespaces=namespaces), kinds)
    path = write_snapshot(taken, output)
    objects = sum(len(items) for items in taken.objects.values())
    unread = sum(1 for coverage in taken.coverage.values() if coverage.status.value != "read")
    click.echo(
        f"Wrote {path}: {objects:,} objects, {len(taken.coverage)} kinds ({unread} not read)", err=True
    )


@click.group()
def checks() -> None:
    """List and describe the checks."""


@checks.command("list")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--lang", type=click.Choice(["en", "ko"]), default="en", show_default=True)
def list_checks(as_json: bool, lang: str) -> None:
    """Every check with its id, severity, area and title."""
    from kubegap.checker.check_docs import check_summary

    found = [check_summary(check.meta, lang) for check in all_checks()]
    if as_json:
        click.echo(json.dumps(found, ensure_ascii=False, indent=2))
        return
    if not found:
        click.echo("No checks installed.")
    for entry in found:
        click.echo(f"{entry['id']:<40} {entry['severity']:<9} {entry['area']:<15} {entry['title']}")


@checks.command("show")
@click.argument("check_id")
@click.option("--lang", type=click.Choice(["en", "ko"]), default="en", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def show_check(check_id: str, lang: str, as_json: bool) -> None:
    """Everything about one check: why, how it decides, the fix, the kinds it reads, the incidents."""
    from kubegap.checker.check_docs import check_detail, render_check_detail

    detail = check_detail(get_check(check_id).meta, lang)
    if as_json:
        click.echo(json.dumps(detail, ensure_ascii=False, indent=2))
    else:
        click.echo(render_check_detail(detail))


@click.command()
def rbac() -> None:
    """Print the read-only ClusterRole kubegap needs (get and list, never Secrets)."""
    from kubegap.checker.rbac import render_rbac

    click.echo(render_rbac([check.meta for check in all_checks()]), nl=False)
