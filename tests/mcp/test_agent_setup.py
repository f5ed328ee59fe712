"""`kubegap agent setup`: prints configuration a client accepts; --write merges without losing anything."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from kubegap.cli import main


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exited:
        main(args)
    captured = capsys.readouterr()
    code = exited.value.code
    return (code if isinstance(code, int) else 0), captured.out, captured.err


def _assert_absolute_kubegap(command: str) -> None:
    path = Path(command)
    assert path.is_absolute() and path.exists() and path.name == "kubegap", command


def test_claude_setup_prints_json_with_the_absolute_executable(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = _run(["agent", "setup", "--client", "claude", "--project-dir", str(tmp_path)], capsys)
    assert code == 0
    entry = json.loads(out)["mcpServers"]["kubegap"]
    _assert_absolute_kubegap(entry["command"])
    assert entry["args"] == ["mcp"]
    assert str(tmp_path / ".mcp.json") in err and "claude mcp add" in err


def test_codex_setup_prints_toml_forwarding_kubeconfig(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = _run(["agent", "setup", "--client", "codex", "--codex-home", str(tmp_path)], capsys)
    assert code == 0
    table = tomllib.loads(out)["mcp_servers"]["kubegap"]
    _assert_absolute_kubegap(table["command"])
    assert table["args"] == ["mcp"] and table["env_vars"] == ["KUBECONFIG"]
    # Codex ignores unknown keys silently: only keys it documents may appear.
    assert set(table) <= {"command", "args", "env_vars", "startup_timeout_sec", "tool_timeout_sec", "enabled"}


def test_claude_write_keeps_other_servers_and_keys(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = tmp_path / ".mcp.json"
    config.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "other": {"command": "other-server", "args": ["--stdio"]},
                    "kubegap": {"command": "old-kubegap", "args": ["serve"]},
                },
                "note": "kept",
            }
        )
    )
    code, _, err = _run(
        ["agent", "setup", "--client", "claude", "--project-dir", str(tmp_path), "--write"], capsys
    )
    assert code == 0 and "Wrote the kubegap server" in err
    written = json.loads(config.read_text())
    assert written["note"] == "kept"
    assert written["mcpServers"]["other"] == {"command": "other-server", "args": ["--stdio"]}
    _assert_absolute_kubegap(written["mcpServers"]["kubegap"]["command"])
    assert written["mcpServers"]["kubegap"]["args"] == ["mcp"]


def test_claude_write_creates_the_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, _ = _run(
        ["agent", "setup", "--client", "claude", "--project-dir", str(tmp_path), "--write"], capsys
    )
    assert code == 0
    assert "kubegap" in json.loads((tmp_path / ".mcp.json").read_text())["mcpServers"]


def test_codex_write_replaces_only_the_kubegap_tables(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        "# my settings\n"
        'model = "o4"\n\n'
        "[mcp_servers.other]\n"
        'command = "other"\n\n'
        "[mcp_servers.kubegap]\n"
        'command = "stale"\n\n'
        "[mcp_servers.kubegap.env]\n"
        'STALE = "1"\n\n'
        '[projects."/src/app"]\n'
        'trust_level = "trusted"\n'
    )
    code, _, _ = _run(
        ["agent", "setup", "--client", "codex", "--codex-home", str(tmp_path), "--write"], capsys
    )
    assert code == 0
    text = config.read_text()
    parsed = tomllib.loads(text)
    assert text.startswith("# my settings\n")
    assert parsed["model"] == "o4"
    assert parsed["mcp_servers"]["other"] == {"command": "other"}
    assert parsed["projects"]["/src/app"] == {"trust_level": "trusted"}
    kubegap = parsed["mcp_servers"]["kubegap"]
    _assert_absolute_kubegap(kubegap["command"])
    assert "env" not in kubegap and kubegap["env_vars"] == ["KUBECONFIG"]
    _run(["agent", "setup", "--client", "codex", "--codex-home", str(tmp_path), "--write"], capsys)
    assert config.read_text() == text  # running it twice changes nothing


@pytest.mark.parametrize(
    ("client", "name", "content"),
    [("claude", ".mcp.json", "{not json"), ("codex", "config.toml", "[broken\n")],
)
def test_write_refuses_a_broken_file_and_leaves_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, client: str, name: str, content: str
) -> None:
    config = tmp_path / name
    config.write_text(content)
    option = "--project-dir" if client == "claude" else "--codex-home"
    code, _, err = _run(["agent", "setup", "--client", client, option, str(tmp_path), "--write"], capsys)
    assert code == 2 and err.startswith("Error: ") and "fix" in err
    assert config.read_text() == content


def _readme_section(title: str) -> str:
    text = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    start = text.index(f"### {title}\n")
    return text[start : text.index("\n### ", start + 1)]


@pytest.mark.anyio
async def test_readme_says_what_claude_will_ask_to_approve_and_it_matches_the_server(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The README names the line `agent setup` prints, real tool names, and which tool leaves the machine."""
    from mcp.client import Client

    from kubegap.agents.mcp_server import server

    section = _readme_section("In Claude Code and Codex")
    _, _, err = _run(["agent", "setup", "--client", "claude", "--project-dir", str(tmp_path)], capsys)
    printed = err.split("(or run: ", 1)[1].split(" -- ", 1)[0]
    assert f"`{printed} -- " in section, printed  # `claude mcp add --scope user kubegap -- ...`
    async with Client(server) as client:
        tools = (await client.list_tools()).tools
    names = {tool.name for tool in tools}
    named = set(re.findall(r"mcp__kubegap__(\w+)", section))
    assert named and named <= names, named - names
    leaving = {tool.name for tool in tools if tool.annotations and tool.annotations.open_world_hint}
    assert leaving == {"scan_cluster"} and "only `scan_cluster` leaves the machine" in section
    assert all(tool.annotations and tool.annotations.read_only_hint for tool in tools)
    assert "approve" in section and '"mcp__kubegap"' in section


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
