"""The `kubegap` command: wiring only. Each subcommand lives beside the code it drives.

Subcommands are imported only when used, so `kubegap mcp` starts fast and a broken optional
area never takes the whole command down. To add one, add a line to `_SUBCOMMANDS`.
"""

from __future__ import annotations

import importlib
import sys

import click

from kubegap import __version__
from kubegap.errors import KubegapError

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
    "mcp": "kubegap.agents.commands:mcp",
    "agent": "kubegap.agents.commands:agent",
}


class _LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_SUBCOMMANDS)

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
        return command if isinstance(command, click.Command) else None


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kubegap")
def cli() -> None:
    """Learn from public AI-infrastructure outages; find the same gaps in your cluster, read-only."""


def main(argv: list[str] | None = None) -> None:
    """Entry point: every KubegapError becomes one line on stderr and its exit code, never a traceback."""
    try:
        # In non-standalone mode click returns the code of a raised `click.exceptions.Exit`.
        code = cli.main(args=argv, prog_name="kubegap", standalone_mode=False)
        if isinstance(code, int) and code:
            sys.exit(code)
    except KubegapError as error:
        click.echo(f"Error: {error.one_line()}", err=True)
        sys.exit(error.exit_code)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except click.ClickException as error:
        click.echo(f"Error: {error.format_message()}", err=True)
        sys.exit(2)
    except click.Abort:
        click.echo("Error: aborted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
    sys.exit(0)
