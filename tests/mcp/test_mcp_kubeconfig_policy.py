"""Which kubeconfig an MCP tool call may use: the user's own, or one the server was started with.

The arguments of a tool call are written by a model, and a model can be steered by anything it reads
(a README, an issue, a web page). A kubeconfig is not data: its `exec:` runs a command and its
`tokenFile:` sends a file's content as a Bearer token to the `server:` of the same file. So a call
may not name a kubeconfig at all unless the user started the server with it (`kubegap mcp
--kubeconfig PATH`); every spelling an attacker might try is refused before the file is opened.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp_helpers import error_text, result_text

from k8s_emulator import KubeEmulator
from k8s_emulator.factories import gpu_node
from kubegap.agents import mcp_kubeconfigs
from kubegap.cli import main

pytestmark = pytest.mark.anyio

TOKEN = "kubegap-policy-test-token"  # what the user's own cluster accepts
USER_TOKEN = "users-real-token-0123456789abcdefKUBE"  # the user's token file an attacker wants


def _document(server: str, user: dict[str, Any], context: str = "lab") -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": "c", "cluster": {"server": server}}],
        "users": [{"name": "u", "user": user}],
        "contexts": [{"name": context, "context": {"cluster": "c", "user": "u"}}],
        "current-context": context,
    }


def _write(path: Path, document: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    return path


@pytest.fixture
def own_cluster() -> Iterator[KubeEmulator]:
    with KubeEmulator([gpu_node("gpu-0")], token=TOKEN) as running:
        yield running


@pytest.fixture
def attacker() -> Iterator[KubeEmulator]:
    """The server a hostile kubeconfig names; it must never see a request."""
    with KubeEmulator([gpu_node("evil-0")]) as running:
        yield running


@pytest.fixture
def own(no_cluster: Path, own_cluster: KubeEmulator, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's own ~/.kube/config (a context of the user's cluster) and their token file beside it."""
    (no_cluster / ".kube").mkdir()
    (no_cluster / ".kube" / "token").write_text(USER_TOKEN, encoding="utf-8")
    return _write(no_cluster / ".kube" / "config", _document(own_cluster.url, {"token": TOKEN}))


@pytest.fixture
def hostile(tmp_path: Path, no_cluster: Path, attacker: KubeEmulator) -> dict[str, Path]:
    """Kubeconfigs a prompt injection would point at: one runs a command, one sends the user's token."""
    marker = tmp_path / "pwned"
    plugin = tmp_path / "downloads" / "plugin.sh"
    plugin.parent.mkdir(parents=True)
    credential = (
        '{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"x"}}'
    )
    plugin.write_text(f"#!/bin/sh\ntouch {marker}\necho '{credential}'\n", encoding="utf-8")
    plugin.chmod(0o755)
    exec_user = {"exec": {"apiVersion": "client.authentication.k8s.io/v1beta1", "command": str(plugin)}}
    return {
        "marker": marker,
        "exec": _write(tmp_path / "downloads" / "exec.yaml", _document(attacker.url, exec_user)),
        "token-file": _write(
            tmp_path / "downloads" / "steal.yaml",
            _document(attacker.url, {"tokenFile": str(no_cluster / ".kube" / "token")}),
        ),
    }


def _refused(text: str) -> None:
    assert "kubegap mcp --kubeconfig" in text, text
    assert "\n" not in text


@pytest.mark.parametrize("which", ["exec", "token-file"])
async def test_a_call_naming_a_foreign_kubeconfig_runs_nothing_and_sends_nothing(
    client: Any, own: Path, hostile: dict[str, Path], attacker: KubeEmulator, which: str
) -> None:
    text = error_text(await client.call_tool("scan_cluster", {"kubeconfig": str(hostile[which])}))
    _refused(text)
    assert not hostile["marker"].exists(), "the exec plugin of a kubeconfig named by a tool call ran"
    assert attacker.requests == [], "a request went to the server a tool call's kubeconfig named"


def _spellings(own: Path, hostile: Path, tmp_path: Path) -> dict[str, str]:
    """Ways to name the hostile file that a string check would miss."""
    inside_kube = own.parent / "innocent"
    inside_kube.symlink_to(hostile)
    return {
        "relative": os.path.relpath(hostile, tmp_path),
        "tilde": "~/../" + str(hostile.relative_to(tmp_path)),
        "joined-own-first": f"{own}{os.pathsep}{hostile}",
        "joined-hostile-first": f"{hostile}{os.pathsep}{own}",
        "symlink-in-kube-folder": str(inside_kube),
        "dot-segments": str(own.parent / ".." / ".." / hostile.relative_to(tmp_path)),
        "double-slash": "/" + str(hostile),
        "padded": f"  {hostile}  ",
        "file-url": f"file://{hostile}",
        "long": "/" + "a/" * 2000 + "x",
        "nul": f"{own}\x00{hostile}",
        "newline": f"{own}\n{hostile}",
        "surrogate": f"{hostile}\udc80",
    }


async def test_every_spelling_of_a_foreign_path_is_refused(
    client: Any,
    own: Path,
    hostile: dict[str, Path],
    attacker: KubeEmulator,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    spellings = _spellings(own, hostile["exec"], tmp_path)
    with hostile["exec"].open() as opened:  # /proc/self/fd/N of a file the server holds open
        spellings["proc-fd"] = f"/proc/self/fd/{opened.fileno()}"
        for name, spelling in spellings.items():
            text = error_text(await client.call_tool("scan_cluster", {"kubeconfig": spelling}))
            # refused by the policy, or (a lone surrogate) by the argument check before it
            assert "kubegap mcp --kubeconfig" in text or "is not valid" in text, (name, text)
            assert "\n" not in text, name
    assert not hostile["marker"].exists()
    assert attacker.requests == []


async def test_the_users_own_kubeconfig_may_be_named_in_any_spelling(
    client: Any, own: Path, own_cluster: KubeEmulator, no_cluster: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    link = no_cluster / "kubeconfig-link"
    link.symlink_to(own)
    monkeypatch.chdir(no_cluster)
    for spelling in (None, "~/.kube/config", str(own), str(link), ".kube/config"):
        arguments = {"checks": ["gpu-health-agent"]} | ({"kubeconfig": spelling} if spelling else {})
        result = await client.call_tool("scan_cluster", arguments)
        assert not result.is_error, (spelling, result_text(result))
        assert result.structured_content["context"] == "lab"
    assert own_cluster.requests and own_cluster.non_get_requests() == []


async def test_with_an_allow_list_only_those_files_are_used(
    client: Any, own: Path, own_cluster: KubeEmulator, tmp_path: Path, hostile: dict[str, Path]
) -> None:
    allowed = _write(tmp_path / "work" / "config", _document(own_cluster.url, {"token": TOKEN}, "work"))
    mcp_kubeconfigs.allow([str(allowed)])
    default = (await client.call_tool("scan_cluster", {"checks": ["gpu-health-agent"]})).structured_content
    assert default["kubeconfig"] == str(allowed.resolve()) and default["context"] == "work"
    named = await client.call_tool(
        "scan_cluster", {"kubeconfig": str(allowed), "checks": ["gpu-health-agent"]}
    )
    assert not named.is_error, result_text(named)
    # The server's own list replaces the default files, as --kubeconfig does for kubectl.
    for refused in (str(own), str(hostile["exec"]), f"{allowed}{os.pathsep}{hostile['exec']}"):
        text = error_text(await client.call_tool("scan_cluster", {"kubeconfig": refused}))
        assert str(allowed.resolve()) in text and "\n" not in text
    assert not hostile["marker"].exists()


async def test_a_context_is_chosen_among_the_kubeconfigs_own(client: Any, own: Path) -> None:
    text = error_text(await client.call_tool("scan_cluster", {"context": "../../etc/passwd"}))
    assert "has no context" in text and "(contexts: lab)" in text


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    with pytest.raises(SystemExit) as exited:
        main(["--lang", "en", "mcp", *args])
    return int(exited.value.code or 0), capsys.readouterr().err


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda folder: folder / "missing", "does not exist"),
        (lambda folder: folder, "not a regular file"),
        (lambda folder: Path("/proc/self/environ"), "inside the system folder /proc"),
        (lambda folder: _write(folder / "a:b", {}), "':'"),
    ],
    ids=["missing", "folder", "proc", "colon"],
)
def test_the_allow_list_is_checked_when_the_server_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: Any, expected: str
) -> None:
    code, err = _cli(capsys, "--kubeconfig", str(make(tmp_path)))
    assert code == 2 and err.startswith("Error: ") and err.count("\n") == 1 and expected in err, err


async def test_the_server_started_with_a_kubeconfig_uses_it_over_stdio(
    own_cluster: KubeEmulator, hostile: dict[str, Path], tmp_path: Path, no_cluster: Path
) -> None:
    allowed = _write(tmp_path / "work" / "config", _document(own_cluster.url, {"token": TOKEN}, "work"))
    script = Path(sys.executable).with_name("kubegap")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "kubegap"]
    parameters = StdioServerParameters(
        command=command[0],
        args=[*command[1:], "mcp", "--kubeconfig", str(allowed)],
        env={"HOME": str(no_cluster), "KUBECONFIG": ""},
    )
    async with Client(parameters, mode="legacy", read_timeout_seconds=60) as connected:
        used = await connected.call_tool(
            "scan_cluster", {"kubeconfig": str(allowed), "checks": ["gpu-health-agent"]}
        )
        refused = await connected.call_tool("scan_cluster", {"kubeconfig": str(hostile["exec"])})
    assert not used.is_error and used.structured_content["context"] == "work", result_text(used)
    _refused(error_text(refused))
    assert not hostile["marker"].exists()


def test_the_help_says_what_a_tool_call_may_read() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kubegap", "--lang", "en", "mcp", "--help"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0 and "--kubeconfig" in done.stdout and "SECURITY.md" in done.stdout
