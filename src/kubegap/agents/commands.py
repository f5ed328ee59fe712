"""`kubegap mcp` (the stdio MCP server) and `kubegap agent setup` (client configuration)."""

from __future__ import annotations

from pathlib import Path

import click

from kubegap.cli_support import lang_option


@click.command()
@click.option(
    "--kubeconfig",
    "kubeconfigs",
    multiple=True,
    help="A kubeconfig tool calls may use, instead of $KUBECONFIG or ~/.kube/config (repeatable; the "
    "first is the default). Without it, a tool call can name no other kubeconfig (see SECURITY.md).",
)
@lang_option
def mcp(kubeconfigs: tuple[str, ...], lang: str) -> None:
    """Run the read-only MCP server on stdio (for Claude Code, Codex and other MCP hosts).

    A tool call never chooses a kubeconfig file: the server reads the user's own ($KUBECONFIG, else
    ~/.kube/config) or those given with --kubeconfig. SECURITY.md says what a tool call may read and run.
    Answers, resources and errors are in --lang unless a call names its own `lang`.
    """
    from kubegap.agents import mcp_kubeconfigs
    from kubegap.agents.mcp_language import set_server_lang

    set_server_lang(lang)
    mcp_kubeconfigs.allow(kubeconfigs)  # checked before the server starts: a bad path is one line, exit 2
    from kubegap.agents.mcp_server import serve_stdio

    serve_stdio()


@click.group()
def agent() -> None:
    """Set up coding agents (Claude Code, Codex) to use kubegap."""


@agent.command()
@click.option("--client", type=click.Choice(["claude", "codex"]), required=True)
@click.option(
    "--write", is_flag=True, help="Merge the entry into the client's config file instead of printing."
)
@click.option(
    "--project-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help="Claude Code: the project whose .mcp.json gets the server.",
)
@click.option(
    "--codex-home",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Codex: its home folder (default $CODEX_HOME or ~/.codex).",
)
@lang_option
def setup(client: str, write: bool, project_dir: Path, codex_home: Path | None, lang: str) -> None:
    """Print (or with --write, merge) the exact MCP configuration for CLIENT on this machine."""
    from kubegap.agents.setup import claude_setup, codex_setup, write_claude, write_codex

    if client == "claude":
        found = claude_setup(project_dir.resolve())
        if write:
            write_claude(found)
    else:
        found = codex_setup(codex_home)
        if write:
            write_codex(found)
    if write:
        if lang == "ko":
            click.echo(
                f"{found.config_path}에 kubegap 서버를 넣었습니다. 다른 것은 바꾸지 않았습니다.", err=True
            )
        else:
            click.echo(
                f"Wrote the kubegap server to {found.config_path}; nothing else was changed.", err=True
            )
        return
    # Only the snippet goes to stdout, so `kubegap agent setup --client claude > .mcp.json` works.
    click.echo(found.snippet.rstrip("\n"))
    if lang == "ko":
        click.echo(f"# {found.config_path}에 넣으세요(또는 실행: `{found.command_line}`)", err=True)
    else:
        click.echo(f"# goes in {found.config_path} (or run: {found.command_line})", err=True)
