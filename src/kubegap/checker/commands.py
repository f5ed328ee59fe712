"""`kubegap scan`, `kubegap snapshot`, `kubegap checks` and `kubegap rbac`: wiring over plain functions.

Exit codes of `scan` (also in its `--help` and the README): 0 when no open fail is at or above --fail-on, 1
when one is, 2 on a usage or input error (a bad flag, an unknown check, a file that is not YAML or
holds no Kubernetes object, a folder with files that could not be parsed, a report that cannot be
written), 3 when the cluster could not be read (unreachable, refused, timed out; in a fleet, any).
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import click

from kubegap.bilingual import message
from kubegap.checker.finding import Severity
from kubegap.checker.registry import all_checks, get_check, select_checks
from kubegap.checker.report_output import check_writable, nothing_scanned, write_report
from kubegap.cli_support import lang_option
from kubegap.text import label

if TYPE_CHECKING:
    from kubegap.checker.live.limits import LiveLimits
    from kubegap.checker.symptoms.logs import LogLimits

_SEVERITIES = [severity.value for severity in Severity]
_STATUSES = ["fail", "exempted", "unknown", "pass", "not-applicable"]


def _live_options(function: click.decorators.FC) -> click.decorators.FC:
    """The live options of `snapshot` and friends: one kubeconfig context."""
    context = click.option("--context", help="kubeconfig context (default: the current one).")
    return _with_options(function, [_KUBECONFIG_OPTION, context, *_LIVE_TAIL])


def _logs_options(function: click.decorators.FC) -> click.decorators.FC:
    """--logs and its bounds, on `scan` and `symptoms`: pod logs are read only when asked."""
    return _with_options(
        function,
        [
            click.option(
                "--logs",
                is_flag=True,
                help="Also read the logs of pods already showing a symptom (crash loop, OOMKilled, failed "
                "GPU Job pod), bounded, redacted and matched to the error catalog; needs get on pods/log.",
            ),
            click.option(
                "--log-pods", type=click.IntRange(1, 50), default=5, show_default=True, help="Most pods."
            ),
            click.option(
                "--log-lines",
                type=click.IntRange(1, 1000),
                default=200,
                show_default=True,
                help="Last lines of each log (tailLines; at most 256 KiB each).",
            ),
        ],
    )


def log_limits(logs: bool, pods: int, lines: int, offline: bool) -> LogLimits | None:
    """The --logs bounds, or None without --logs; a one-line error when the input is not a live cluster."""
    from kubegap.bilingual import message
    from kubegap.checker.symptoms.logs import LogLimits
    from kubegap.errors import UsageError

    if not logs:
        return None
    if offline:
        raise UsageError(
            message(
                "--logs는 실제 클러스터의 파드 로그를 읽습니다. "
                "--snapshot, --manifests, --demo와는 쓸 수 없습니다",
                "--logs reads a live cluster's pod logs; it cannot be used with --snapshot, --manifests "
                "or --demo",
            )
        )
    return LogLimits(pods=pods, tail_lines=lines)


def _with_options(
    function: click.decorators.FC, options: Sequence[Callable[[click.decorators.FC], click.decorators.FC]]
) -> click.decorators.FC:
    """Applies click options so that --help lists them in the order given."""
    for option in reversed(options):
        function = option(function)
    return function


def _limits(timeout: float, options: dict[str, float | int | None]) -> LiveLimits:
    """The live-read limit flags (--scan-timeout, --max-page-mb, ...) as LiveLimits."""
    from kubegap.checker.live.limits import MIB, LiveLimits

    scan_timeout, retry_budget = options.get("scan_timeout"), options.get("retry_budget")
    return LiveLimits(
        request_timeout=timeout,
        scan_timeout=float(scan_timeout) if scan_timeout is not None else None,
        max_page_bytes=int(options.get("max_page_mb") or 64) * MIB,
        max_kind_bytes=int(options.get("max_kind_mb") or 1024) * MIB,
        max_pages=int(options.get("max_pages") or 1000),
        max_total_retry_wait=float(retry_budget) if retry_budget is not None else 60.0,
    )


def _fleet_options(function: click.decorators.FC) -> click.decorators.FC:
    """The live options of `scan`, where --context repeats: two or more contexts make a fleet scan."""
    fleet = [
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
            default=None,
            help="Clusters read at the same time in a fleet scan (--qps applies to each; "
            "default: 8 per CPU, between 4 and 16).",
        ),
    ]
    return _with_options(function, [_KUBECONFIG_OPTION, *fleet, *_LIVE_TAIL])


_KUBECONFIG_OPTION = click.option(
    "--kubeconfig", type=click.Path(dir_okay=False), help="kubeconfig file (default: as kubectl)."
)
_LIVE_TAIL = [
    click.option(
        "--qps", type=click.FloatRange(min=0.1), default=20.0, show_default=True, help="Request rate."
    ),
    click.option(
        "--timeout",
        type=click.FloatRange(min=1),
        default=30.0,
        show_default=True,
        help="Seconds one request may take, connect and whole body included.",
    ),
    click.option(
        "--scan-timeout",
        type=click.FloatRange(min=1),
        help="Seconds the whole live read may take (default: 120 s plus 2 s per list and 1 s per "
        "1,000 objects, at most 1,800 s; the report says what was used).",
    ),
    click.option(
        "--max-page-mb",
        type=click.IntRange(min=1),
        default=64,
        show_default=True,
        help="Largest response body, in MiB.",
    ),
    click.option(
        "--max-kind-mb",
        type=click.IntRange(min=1),
        default=1024,
        show_default=True,
        help="Largest total of one kind's pages, in MiB.",
    ),
    click.option(
        "--max-pages", type=click.IntRange(min=1), default=1000, show_default=True, help="Pages per kind."
    ),
    click.option(
        "--retry-budget",
        type=click.FloatRange(min=0),
        default=60.0,
        show_default=True,
        help="Seconds all retry waits (429, 5xx) of one scan may add up to.",
    ),
    click.option(
        "-n", "--namespace", "namespaces", multiple=True, help="Only these namespaces (repeatable)."
    ),
]


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
    "-f",
    "--format",
    "fmt",
    type=click.Choice(["table", "plain", "tsv", "json", "markdown", "sarif"]),
    default=None,
    help="Report format (default: table on a terminal, plain when piped or written to a file).",
)
@click.option(
    "--width",
    type=click.IntRange(40, 1000),
    default=None,
    help="Columns of the table (default: the terminal's).",
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
    "--all",
    "show_all",
    is_flag=True,
    help="Table and plain: show every check and finding (passes, not applicable, unknowns), fixes, "
    "incidents and coverage, not only the fails.",
)
@click.option(
    "--status", "statuses", multiple=True, type=click.Choice(_STATUSES), help="Show only these statuses."
)
@click.option("--min-severity", type=click.Choice(_SEVERITIES), help="Show only findings at or above.")
@lang_option
@click.option("--exemptions", "exemptions_path", type=click.Path(), help="Exemptions YAML file.")
@click.option("--no-annotation-exemptions", is_flag=True, help="Ignore kubegap.io/ignore annotations.")
@click.option(
    "--skip-unreadable",
    is_flag=True,
    help="Let input that cannot be scanned (files in a folder that do not parse, files with no "
    "Kubernetes object) pass without exit code 2; it is still named in the report.",
)
@click.option(
    "--library-url",
    help="Base URL of incident links (default $KUBEGAP_LIBRARY_URL, else each incident's source).",
)
@_logs_options
@_fleet_options
def scan(
    paths: tuple[str, ...],
    snapshot_paths: tuple[str, ...],
    manifest_paths: tuple[str, ...],
    demo: bool,
    fmt: str | None,
    width: int | None,
    output: str | None,
    fail_on: str,
    check_ids: tuple[str, ...],
    show_all: bool,
    statuses: tuple[str, ...],
    min_severity: str | None,
    lang: str,
    exemptions_path: str | None,
    no_annotation_exemptions: bool,
    skip_unreadable: bool,
    library_url: str | None,
    kubeconfig: str | None,
    contexts: tuple[str, ...],
    all_contexts: bool,
    concurrency: int | None,
    qps: float,
    timeout: float,
    namespaces: tuple[str, ...],
    logs: bool,
    log_pods: int,
    log_lines: int,
    **limits: float | int | None,
) -> None:
    """Scan a cluster (live, --snapshot, --manifests or --demo) for the gaps behind public incidents.

    PATHS are manifest files or folders, as with --manifests (so `kubegap scan k8s/*.yaml` and the
    pre-commit hook work). Two or more --context, or --all-contexts, scan a fleet: one report with a
    cluster × check matrix.

    Exit codes: 0 no open fail at or above --fail-on; 1 one or more; 2 usage or input error (bad
    flag, unknown check, unparsable file, no Kubernetes object in the input, report not writable);
    3 the cluster could not be read (unreachable, refused, timed out).
    """
    from kubegap.checker.reports import render
    from kubegap.checker.scanning import LiveTarget, ScanRequest, run_scan

    check_writable(output)
    fleet = all_contexts or len(contexts) > 1
    context = contexts[0] if contexts and not fleet else None
    live = LiveTarget(
        kubeconfig,
        context,
        qps,
        timeout,
        progress=sys.stderr.isatty() and not fleet,
        limits=_limits(timeout, limits),
        logs=log_limits(logs, log_pods, log_lines, bool(snapshot_paths or manifest_paths or paths or demo)),
    )
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
    terminal = output is None and sys.stdout.isatty()
    chosen = fmt or ("table" if terminal else "plain")
    color = terminal and chosen == "table"
    columns = width or (shutil.get_terminal_size((120, 40)).columns if terminal else 120)
    threshold = None if fail_on == "never" else Severity(fail_on)
    if fleet:
        from kubegap.checker.fleet.command import render_fleet, run_fleet_scan

        fleet_report = run_fleet_scan(request, contexts, all_contexts, concurrency, chosen)
        shown_fleet = fleet_report.filtered(
            statuses or None, Severity(min_severity) if min_severity else None
        )
        write_report(render_fleet(shown_fleet, chosen, lang, library_url, color=color), output)
        raise click.exceptions.Exit(fleet_report.exit_code(threshold))
    report = run_scan(request)
    if report.mode == "manifests" and not report.objects_read and not skip_unreadable:
        raise nothing_scanned(report, [*manifest_paths, *paths])
    shown = report.filtered(statuses or None, Severity(min_severity) if min_severity else None)
    full = show_all or bool(statuses)  # asking for statuses asks to see those findings listed
    write_report(render(shown, chosen, lang, library_url, color=color, width=columns, full=full), output)
    raise click.exceptions.Exit(report.exit_code(threshold, skipped_ok=skip_unreadable))


@click.command()
@click.option(
    "-o", "--output", required=True, type=click.Path(dir_okay=False), help="File (.json or .json.gz)."
)
@click.option("--check", "check_ids", multiple=True, help="Read only what these checks need (repeatable).")
@click.option(
    "--raw",
    is_flag=True,
    help="Write ConfigMap contents and env values as read, credentials included (default: redacted).",
)
@_live_options
@lang_option
def snapshot(
    output: str,
    check_ids: tuple[str, ...],
    raw: bool,
    kubeconfig: str | None,
    context: str | None,
    qps: float,
    timeout: float,
    namespaces: tuple[str, ...],
    lang: str,
    **limits: float | int | None,
) -> None:
    """Read the live cluster once into a kubegap snapshot file, to scan later or elsewhere.

    The file keeps every object's structure, names and keys, and the values checks judge; other
    ConfigMap contents and env values are written as [REDACTED]. --raw keeps them as read.
    """
    from kubegap.checker.live.rbac import kinds_read
    from kubegap.checker.scanning import LiveTarget, ScanRequest, load_source
    from kubegap.checker.snapshot_file import write_snapshot

    live = LiveTarget(
        kubeconfig, context, qps, timeout, progress=sys.stderr.isatty(), limits=_limits(timeout, limits)
    )
    kinds = kinds_read((check.meta for check in select_checks(check_ids)), symptoms=True)
    taken = load_source(ScanRequest(live=live, namespaces=namespaces), kinds)
    if raw:
        warning = message(
            "경고: --raw 스냅숏에는 ConfigMap 내용과 환경 변수 값이 읽은 그대로, "
            "자격 증명까지 들어 있습니다. 티켓이나 채팅에 올리지 마세요",
            "Warning: a --raw snapshot holds ConfigMap contents and env values as read, credentials "
            "included; do not attach it to tickets or chats",
        )
        click.echo(warning.render(lang), err=True)
    path = write_snapshot(taken, output, raw=raw)
    objects = sum(len(items) for items in taken.objects.values())
    unread = sum(1 for coverage in taken.coverage.values() if coverage.status.value != "read")
    said = message(
        "{path}에 썼습니다: 오브젝트 {objects}개, 종류 {kinds}개(읽지 못한 것 {unread}개)",
        "Wrote {path}: {objects} objects, {kinds} kinds ({unread} not read)",
        path=str(path),
        objects=objects,
        kinds=len(taken.coverage),
        unread=unread,
    )
    click.echo(said.render(lang), err=True)


@click.group()
def checks() -> None:
    """List and describe the checks."""


@checks.command("list")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@lang_option
def list_checks(as_json: bool, lang: str) -> None:
    """Every check with its id, severity, area and title."""
    from kubegap.checker.check_docs import check_summary

    found = [check_summary(check.meta, lang) for check in all_checks()]
    if as_json:
        click.echo(json.dumps(found, ensure_ascii=False, indent=2))
        return
    if not found:
        click.echo("설치된 점검이 없습니다." if lang == "ko" else "No checks installed.")
    for entry in found:
        severity = label("severity." + str(entry["severity"]), lang)
        click.echo(f"{entry['id']:<40} {severity:<9} {entry['area']:<15} {entry['title']}")


@checks.command("show")
@click.argument("check_id")
@lang_option
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def show_check(check_id: str, lang: str, as_json: bool) -> None:
    """Everything about one check: why, how it decides, the fix, the kinds it reads, the incidents."""
    from kubegap.checker.check_docs import check_detail, render_check_detail

    detail = check_detail(get_check(check_id).meta, lang)
    if as_json:
        click.echo(json.dumps(detail, ensure_ascii=False, indent=2))
    else:
        click.echo(render_check_detail(detail, lang))


@click.command()
@click.option(
    "--logs", is_flag=True, help="Add get on pods/log, which `scan --logs` and `symptoms --logs` need."
)
@lang_option
def rbac(logs: bool, lang: str) -> None:
    """Print the read-only ClusterRole kubegap needs (get and list, never Secrets)."""
    from kubegap.checker.live.rbac import render_rbac

    click.echo(render_rbac([check.meta for check in all_checks()], lang, symptoms=True, logs=logs), nl=False)
