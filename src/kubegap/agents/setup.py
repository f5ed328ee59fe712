"""The exact MCP configuration for Claude Code or Codex on this machine, printed or merged in place.

Writing touches one entry only: the `kubegap` server in the client's own config file. Every other key,
server and comment in that file is kept as it was; the result is parsed again before it is saved.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

from kubegap.errors import InputError

SERVER_NAME = "kubegap"


@dataclass(frozen=True)
class AgentSetup:
    client: str
    config_path: Path
    snippet: str  # what to paste, in the file's own format
    command_line: str  # the equivalent one-line command of the client, where it has one


def kubegap_executable() -> str:
    """The absolute path of the kubegap command that is running now (or on PATH)."""
    candidate = Path(sys.argv[0])
    if candidate.name == "kubegap" and candidate.exists():
        return str(candidate.resolve())
    found = shutil.which("kubegap")
    if found:
        return str(Path(found).resolve())
    return str(Path(sys.executable).with_name("kubegap"))


def claude_setup(project_dir: Path, executable: str | None = None) -> AgentSetup:
    executable = executable or kubegap_executable()
    entry = {"type": "stdio", "command": executable, "args": ["mcp"], "env": {}}
    snippet = json.dumps({"mcpServers": {SERVER_NAME: entry}}, indent=2)
    return AgentSetup(
        client="claude",
        config_path=project_dir / ".mcp.json",
        snippet=snippet,
        command_line=f"claude mcp add --scope user {SERVER_NAME} -- {executable} mcp",
    )


def codex_setup(codex_home: Path | None = None, executable: str | None = None) -> AgentSetup:
    executable = executable or kubegap_executable()
    home = codex_home or Path(os.environ.get("CODEX_HOME") or Path.home() / ".codex")
    snippet = "\n".join(
        [
            f"[mcp_servers.{SERVER_NAME}]",
            f"command = {json.dumps(executable)}",
            'args = ["mcp"]',
            "# Codex passes only a few variables to servers: forward the kubeconfig explicitly.",
            'env_vars = ["KUBECONFIG"]',
            "startup_timeout_sec = 20",
            "tool_timeout_sec = 300",
            "enabled = true",
            "",
        ]
    )
    return AgentSetup(
        client="codex",
        config_path=home / "config.toml",
        snippet=snippet,
        command_line=f"codex mcp add {SERVER_NAME} -- {executable} mcp",
    )


def write_claude(setup: AgentSetup) -> None:
    """Merge the kubegap server into a project .mcp.json, keeping every other server."""
    path = setup.config_path
    current: dict[str, object] = {}
    if path.exists():
        try:
            current = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, OSError) as error:
            raise InputError(f"{path} is not valid JSON ({error}); fix or move it first") from None
        if not isinstance(current, dict):
            raise InputError(f"{path} does not hold a JSON object; fix or move it first")
    servers = current.get("mcpServers")
    if not isinstance(servers, dict):
        servers = {}
    servers[SERVER_NAME] = json.loads(setup.snippet)["mcpServers"][SERVER_NAME]
    current["mcpServers"] = servers
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(current, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def write_codex(setup: AgentSetup) -> None:
    """Replace (or add) only the [mcp_servers.kubegap] tables in Codex's config.toml."""
    path = setup.config_path
    original = path.read_text(encoding="utf-8") if path.exists() else ""
    try:
        tomllib.loads(original)
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"{path} is not valid TOML ({error}); fix it first") from None
    kept = _without_tables(original, f"mcp_servers.{SERVER_NAME}")
    updated = kept.rstrip("\n") + ("\n\n" if kept.strip() else "") + setup.snippet
    try:
        parsed = tomllib.loads(updated)
    except tomllib.TOMLDecodeError:
        parsed = {}  # e.g. `kubegap = {...}` written inline under [mcp_servers]: leave the file alone
    if SERVER_NAME not in parsed.get("mcp_servers", {}):
        raise InputError(
            f"could not add the kubegap server to {path} without rewriting other entries; "
            "remove its existing kubegap entry and run again"
        )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(updated, encoding="utf-8")


def _without_tables(text: str, table: str) -> str:
    """Drop `[table]` and `[table.*]` sections (header to next header) from TOML text."""
    lines = text.splitlines(keepends=True)
    result: list[str] = []
    skipping = False
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("[") and not stripped.startswith("[["):
            name = stripped.strip("[]").strip()
            skipping = name == table or name.startswith(table + ".")
        if not skipping:
            result.append(line)
    return "".join(result)
