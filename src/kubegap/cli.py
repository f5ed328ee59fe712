"""The `kubegap` command: wiring only. Each subcommand lives beside the code it drives.

Subcommands are imported only when used, so `kubegap mcp` starts fast and a broken optional
area never takes the whole command down. To add one, add a line to `_SUBCOMMANDS`.
"""

from __future__ import annotations

import importlib
import re
import sys
from gettext import gettext
from pathlib import Path
from typing import TYPE_CHECKING

import click

from kubegap import __version__, unexpected
from kubegap.cli_help import apply_language, korean_text, walk
from kubegap.cli_support import resolve_lang
from kubegap.errors import KubegapError
from kubegap.text import LANGS, Lang, did_you_mean

if TYPE_CHECKING:
    from kubegap.knowledge.citations import Citation

# name -> "module:attribute" of a click command or group
_SUBCOMMANDS: dict[str, str] = {
    "knowledge": "kubegap.knowledge.commands:knowledge",
    "incidents": "kubegap.library.commands:incidents",
    "facets": "kubegap.library.commands:facets",
    "errors": "kubegap.library.error_commands:errors",
    "serve": "kubegap.web.commands:serve",
    "scan": "kubegap.checker.commands:scan",
    "snapshot": "kubegap.checker.commands:snapshot",
    "checks": "kubegap.checker.commands:checks",
    "rbac": "kubegap.checker.commands:rbac",
    "exporter": "kubegap.metrics.commands:exporter",
    "mcp": "kubegap.agents.commands:mcp",
    "agent": "kubegap.agents.commands:agent",
}


# The first paragraph of each subcommand's help, for the list `kubegap --help` prints, so that list
# imports none of them (importing every subcommand took seconds: the checker, the web app, the MCP
# SDK). tests/cli/test_cli_startup.py fails when one drifts from the command's own docstring.
_SUMMARIES: dict[str, str] = {
    "agent": "Set up coding agents (Claude Code, Codex) to use kubegap.",
    "checks": "List and describe the checks.",
    "errors": "The error-signature catalog: Xid codes, NCCL, CUDA/NVML, Kubernetes and etcd messages.",
    "exporter": "Serve /metrics for Prometheus: per cluster and check, the status, findings and scan health.",
    "facets": "Every facet with its terms (children under parents) and how many incidents each has.",
    "incidents": "Browse and search the incident library.",
    "knowledge": "Validate and describe the knowledge base (taxonomy, incidents, fleet studies).",
    "mcp": "Run the read-only MCP server on stdio (for Claude Code, Codex and other MCP hosts).",
    "rbac": "Print the read-only ClusterRole kubegap needs (get and list, never Secrets).",
    "scan": "Scan a cluster (live, --snapshot, --manifests or --demo) for the gaps behind public incidents.",
    "serve": "Browse the Incident Library and a read-only report on your cluster (Korean and English).",
    "snapshot": "Read the live cluster once into a kubegap snapshot file, to scan later or elsewhere.",
}


class _LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_SUBCOMMANDS)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list, as click prints it, from the summaries above: no subcommand is imported."""
        names = self.list_commands(ctx)
        if any(name not in _SUMMARIES for name in names):  # a command without a summary: ask them all
            super().format_commands(ctx, formatter)
            return
        lang = _help_lang or resolve_lang(ctx.find_root().params.get("lang"))
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            korean = korean_text(name) if lang == "ko" else None
            if korean:
                rows.append((name, korean.split("\n\n", 1)[0].strip()))
            else:
                summary = click.Command(name, help=_SUMMARIES[name])  # click's own shortening
                rows.append((name, summary.get_short_help_str(limit)))
        with formatter.section(gettext("Commands")):
            formatter.write_dl(rows)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = _SUBCOMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attribute = target.split(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name and module_name.startswith(error.name):
                return None
            raise
        command = getattr(module, attribute, None)
        if not isinstance(command, click.Command):
            return None
        lang = _help_lang or resolve_lang(ctx.find_root().params.get("lang"))
        for path, part in walk(command, ctx, cmd_name):
            apply_language(part, path, lang)
        return command


# The language `--help` speaks, decided once from the whole command line by `main` (a `--lang` after
# the subcommand counts too); None when click is driven directly, as some tests do.
_help_lang: Lang | None = None


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kubegap")
@click.option(
    "--lang",
    type=click.Choice(LANGS, case_sensitive=False),
    default=None,
    help="Language of every subcommand (default: $KUBEGAP_LANG, else the locale, else en).",
)
def cli(lang: str | None) -> None:
    """Learn from public AI-infrastructure outages; find the same gaps in your cluster, read-only.

    Exit codes: 0 fine, 1 fails at or above --fail-on (scan), 2 usage or input error, 3 a cluster
    could not be read (unreachable, refused, timed out).
    """
    # `knowledge validate` cross-checks the checks' citations without the knowledge package importing
    # the checker: the wiring hands it a way to list them.
    # Only that command pays for importing the knowledge package: `--help` and `version` stay light.
    context = click.get_current_context()
    if context.invoked_subcommand == "knowledge":
        from kubegap.knowledge.citations import CHECK_CITATIONS

        context.meta[CHECK_CITATIONS] = _check_citations


def _check_citations() -> list[Citation]:
    from kubegap.checker.grounding import check_citations

    return check_citations()


def _argv_lang(argv: list[str]) -> Lang:
    """The language errors are printed in: a --lang anywhere on the line, else the environment."""
    given = None
    for index, word in enumerate(argv):
        if word == "--lang" and index + 1 < len(argv):
            given = argv[index + 1]
        elif word.startswith("--lang="):
            given = word.split("=", 1)[1]
    return resolve_lang(given)


def _click_text(error: click.ClickException, lang: str) -> str:
    """Click's usage errors in the reader's language, with the closest commands for a typo."""
    english = " ".join(error.format_message().split())
    unknown = re.fullmatch(r"No such command '(.+)'\.", english)
    if unknown:
        name = unknown.group(1)[:80]
        hint = did_you_mean(name, _SUBCOMMANDS, lang)
        if lang == "ko":
            return f"없는 명령입니다: {name!r}{hint}. `kubegap --help`로 명령을 봅니다"
        return f"No such command {name!r}{hint}; `kubegap --help` lists the commands"
    if lang != "ko":
        return english
    if isinstance(error, click.NoSuchOption):
        hint = did_you_mean(error.option_name, error.possibilities or (), lang)
        return f"없는 옵션입니다: {error.option_name}{hint}"
    if isinstance(error, click.MissingParameter) and error.param is not None:
        if isinstance(error.param, click.Argument):
            return f"필요한 인자가 빠졌습니다: {error.param.human_readable_name}"
        return f"필요한 옵션이 빠졌습니다: {'/'.join(error.param.opts)}"
    if isinstance(error, click.BadParameter):
        shown = "/".join(error.param.opts) if error.param is not None else str(error.param_hint or "")
        choice = re.fullmatch(r"'(.*)' is not one of (.*)\.", " ".join(error.message.split()))
        if choice:
            return f"{shown}에 쓸 수 없는 값입니다: {choice.group(1)!r}. 고를 수 있는 값: {choice.group(2)}"
        return f"{shown} 값이 올바르지 않습니다: {error.message}"
    return english


def _error(text: str, lang: str) -> None:
    click.echo(f"{'오류' if lang == 'ko' else 'Error'}: {text}", err=True)


def prog_name(invoked_as: str) -> str:
    """`kubectl gap` when run as the kubectl plugin (`kubectl-gap` on PATH), else `kubegap`."""
    return "kubectl gap" if Path(invoked_as).name.split(".")[0] == "kubectl-gap" else "kubegap"


def main(argv: list[str] | None = None) -> None:
    """Entry point: every error becomes one line on stderr and its exit code, never a traceback.

    A KubegapError says what went wrong; anything else is a bug or a library's surprise, shown as
    `Error: unexpected <type> at <place>: <redacted message>` (its text may quote a credential) and
    exit code 3 for a failed read of the system (OSError), else 2. Logs and threads follow the same
    rule from here on (`unexpected.install`).
    """
    global _help_lang
    unexpected.install()
    lang = _argv_lang(sys.argv[1:] if argv is None else argv)
    _help_lang = lang
    apply_language(cli, "", lang)
    try:
        # In non-standalone mode click returns the code of a raised `click.exceptions.Exit`.
        name = prog_name(sys.argv[0] if sys.argv else "")
        code = cli.main(args=argv, prog_name=name, standalone_mode=False)
        if isinstance(code, int) and code:
            sys.exit(code)
    except KubegapError as error:
        _error(error.one_line(lang), lang)
        sys.exit(error.exit_code)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except click.ClickException as error:
        _error(_click_text(error, lang), lang)
        sys.exit(2)
    except click.Abort:
        _error("중단했습니다" if lang == "ko" else "aborted", lang)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
    except Exception as error:  # the last resort: one redacted line, never a traceback
        _error(f"{'예상하지 못한 오류' if lang == 'ko' else 'unexpected'} {unexpected.describe(error)}", lang)
        sys.exit(unexpected.exit_code(error))
    sys.exit(0)
