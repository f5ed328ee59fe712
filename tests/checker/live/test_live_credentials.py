"""Credentials in a kubeconfig: used as kubectl uses them, bounded, and never printed.

A bearer token with a trailing newline (what `token: |` gives) once ended in a traceback that printed
the whole token; a `tokenFile` of /dev/zero was read whole; a credential plugin (exec) that hung held
the scan past its budget and could read the terminal. Each case here runs the real command in a
subprocess, as a user would, and reads everything it printed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from k8s_emulator import KubeEmulator
from k8s_emulator.factories import gpu_node
from k8s_emulator.testing import TOKEN, StartEmulator, assert_read_only

EXEC_API = "client.authentication.k8s.io/v1beta1"


def _kubeconfig(path: Path, server: str, user: dict[str, Any], **cluster: Any) -> Path:
    document = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": "lab", "cluster": {"server": server, **cluster}}],
        "users": [{"name": "me", "user": user}],
        "contexts": [{"name": "lab", "context": {"cluster": "lab", "user": "me"}}],
        "current-context": "lab",
    }
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    return path


def _kubegap(
    *args: str, home: Path, timeout: float = 60, stdin: int | None = subprocess.DEVNULL
) -> tuple[subprocess.CompletedProcess[str], float]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("KUBECONFIG", "KUBERNETES_SERVICE_HOST")
    }
    env["HOME"] = str(home)
    env["PYTHONWARNINGS"] = "default"  # a warning Python would print is printed, as for a user
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "kubegap", "--lang", "en", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
        stdin=stdin,
    )
    return done, time.monotonic() - started


def _one_error_line(done: subprocess.CompletedProcess[str], *secrets: str) -> str:
    """The command failed with exit 2 and one line `Error: ...`, which carries none of `secrets`."""
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert done.stderr.startswith("Error: ") and done.stderr.count("\n") == 1, done.stderr[-2000:]
    for secret in secrets:
        assert secret not in done.stderr and secret not in done.stdout
    return done.stderr


def _plugin(folder: Path, body: str) -> Path:
    """An executable credential plugin: a shell script with `body`."""
    script = folder / "plugin.sh"
    script.write_text("#!/bin/sh\n" + body, encoding="utf-8")
    script.chmod(0o755)
    return script


def _credential(token: str) -> str:
    return json.dumps({"apiVersion": EXEC_API, "kind": "ExecCredential", "status": {"token": token}})


# ---- bearer tokens (item 3) -------------------------------------------------------------------------------


def test_inline_token_with_a_trailing_newline_is_one_line_without_the_token(
    start_emulator: StartEmulator, tmp_path: Path
) -> None:
    """`token: |` adds a newline: kubectl refuses such a header too; kubegap says so and shows no token."""
    secret = "kgTokenNewline0123456789abcdefSECRET"
    emulator = start_emulator([gpu_node("gpu-0")], token=secret)
    config = tmp_path / "config"
    config.write_text(
        "apiVersion: v1\nkind: Config\ncurrent-context: lab\n"
        f"clusters: [{{name: lab, cluster: {{server: '{emulator.url}'}}}}]\n"
        f"users:\n- name: me\n  user:\n    token: |\n      {secret}\n"
        "contexts: [{name: lab, context: {cluster: lab, user: me}}]\n",
        encoding="utf-8",
    )
    done, _ = _kubegap("scan", "--kubeconfig", str(config), "-f", "plain", home=tmp_path)
    line = _one_error_line(done, secret, secret[:12])
    assert "token of user 'me'" in line and "line break" in line and "token: |-" in line
    assert emulator.requests == []  # nothing was sent with a broken header


def test_token_file_is_trimmed_as_kubectl_trims_it(start_emulator: StartEmulator, tmp_path: Path) -> None:
    emulator = start_emulator([gpu_node("gpu-0")])
    token_file = tmp_path / "token"
    token_file.write_text(f"  {TOKEN}\n\n", encoding="utf-8")
    config = _kubeconfig(tmp_path / "config", emulator.url, {"tokenFile": str(token_file)})
    done, _ = _kubegap(
        "scan", "--kubeconfig", str(config), "-f", "json", "--check", "gpu-health-agent", home=tmp_path
    )
    assert done.returncode in (0, 1), done.stderr[-2000:]
    assert json.loads(done.stdout)["scan"]["requests"] > 0
    assert {request.authorization for request in emulator.requests} == {f"Bearer {TOKEN}"}
    assert_read_only(emulator)


def test_relative_token_file_resolves_against_the_kubeconfig(
    start_emulator: StartEmulator, tmp_path: Path
) -> None:
    emulator = start_emulator([gpu_node("gpu-0")])
    folder = tmp_path / "configs"
    folder.mkdir()
    (folder / "token").write_text(TOKEN, encoding="utf-8")
    config = _kubeconfig(folder / "config", emulator.url, {"tokenFile": "token"})
    done, _ = _kubegap(
        "scan", "--kubeconfig", str(config), "-f", "json", "--check", "gpu-health-agent", home=tmp_path
    )
    assert done.returncode in (0, 1), done.stderr[-2000:]


@pytest.mark.parametrize(
    ("name", "make", "expected"),
    [
        ("dev-zero", lambda folder: "/dev/zero", "not a regular file"),
        ("fifo", lambda folder: _fifo(folder / "fifo"), "not a regular file"),
        ("sparse-2g", lambda folder: _sparse(folder / "big", 2 << 30), "more than 1 MiB"),
        ("empty", lambda folder: _text(folder / "empty", " \n"), "is empty"),
        ("missing", lambda folder: str(folder / "nowhere"), "cannot be read"),
        ("control", lambda folder: _text(folder / "ctl", "abc\x00def\n"), "control character"),
    ],
)
def test_a_token_file_is_read_bounded_and_fails_in_one_line(
    start_emulator: StartEmulator, tmp_path: Path, name: str, make: Callable[[Path], str], expected: str
) -> None:
    """/dev/zero was read whole (20 s, then MemoryError); a FIFO blocked; now each is one line, at once."""
    emulator = start_emulator([gpu_node("gpu-0")])
    config = _kubeconfig(tmp_path / "config", emulator.url, {"tokenFile": make(tmp_path)})
    done, seconds = _kubegap(
        "scan", "--kubeconfig", str(config), "--scan-timeout", "10", home=tmp_path, timeout=40
    )
    line = _one_error_line(done)
    assert "tokenFile" in line and expected in line, line
    assert seconds < 15 and emulator.requests == []


def _fifo(path: Path) -> str:
    os.mkfifo(path)
    return str(path)


def _sparse(path: Path, size: int) -> str:
    with path.open("wb") as handle:
        handle.truncate(size)
    return str(path)


def _text(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


# ---- credential plugins (item 6) --------------------------------------------------------------------------


def test_a_hung_plugin_ends_within_the_scan_budget(start_emulator: StartEmulator, tmp_path: Path) -> None:
    """A plugin that sleeps 60 s held a `--scan-timeout 5` scan 60 s; now it is cut at the budget."""
    emulator = start_emulator([gpu_node("gpu-0")])
    marker = tmp_path / "still-running"
    # The plugin also leaves a grandchild holding its output open: the whole group must go.
    plugin = _plugin(tmp_path, f"(sleep 60; touch {marker}) &\nsleep 60\n")
    config = _kubeconfig(
        tmp_path / "config", emulator.url, {"exec": {"apiVersion": EXEC_API, "command": str(plugin)}}
    )
    done, seconds = _kubegap(
        "scan", "--kubeconfig", str(config), "--scan-timeout", "5", home=tmp_path, timeout=90
    )
    line = _one_error_line(done)
    assert "credential plugin (exec) of context 'lab'" in line and "did not finish within 5 s" in line, line
    # Well under the plugin's 60 s: the cut happened. Start-up on a loaded machine takes the rest.
    assert seconds < 40, seconds
    assert emulator.requests == []
    time.sleep(0.5)
    assert not marker.exists()


def test_a_plugin_gets_no_stdin(start_emulator: StartEmulator, tmp_path: Path) -> None:
    """Run under a host whose stdin stays open (an MCP pipe, a terminal), a plugin reading it would hang."""
    emulator = start_emulator([gpu_node("gpu-0")])
    plugin = _plugin(tmp_path, f"cat >/dev/null\necho '{_credential(TOKEN)}'\n")
    config = _kubeconfig(
        tmp_path / "config", emulator.url, {"exec": {"apiVersion": EXEC_API, "command": str(plugin)}}
    )
    read_end, write_end = os.pipe()  # a stdin that never reaches end-of-file while the scan runs
    try:
        done, seconds = _kubegap(
            "scan", "--kubeconfig", str(config), "--scan-timeout", "20", "-f", "json",
            "--check", "gpu-health-agent", home=tmp_path, timeout=60, stdin=read_end,
        )  # fmt: skip
    finally:
        os.close(read_end)
        os.close(write_end)
    assert done.returncode in (0, 1), done.stderr[-2000:]
    assert seconds < 15
    assert {request.authorization for request in emulator.requests} == {f"Bearer {TOKEN}"}


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("head -c 3000000 /dev/zero | tr '\\0' a\n", "wrote more than 1 MiB"),
        ("echo 'login at https://login.example/device' >&2\nexit 3\n", "exited with 3: login at"),
        ("echo not-json\n", "did not print an ExecCredential"),
        ("printf '%s' '" + _credential("tok\nen") + "'\n", "control character"),
    ],
    ids=["endless-output", "exit-3", "not-json", "token-with-newline"],
)
def test_plugin_failures_are_one_line(
    start_emulator: StartEmulator, tmp_path: Path, body: str, expected: str
) -> None:
    emulator = start_emulator([gpu_node("gpu-0")])
    plugin = _plugin(tmp_path, body)
    config = _kubeconfig(
        tmp_path / "config", emulator.url, {"exec": {"apiVersion": EXEC_API, "command": str(plugin)}}
    )
    done, seconds = _kubegap("scan", "--kubeconfig", str(config), "--scan-timeout", "20", home=tmp_path)
    line = _one_error_line(done)
    assert "credential plugin (exec) of context 'lab'" in line and expected in line, line
    assert seconds < 15 and emulator.requests == []


def test_a_plugin_that_insists_on_a_terminal_is_refused(tmp_path: Path) -> None:
    plugin = _plugin(tmp_path, "echo should-not-run > ran\n")
    config = _kubeconfig(
        tmp_path / "config",
        "https://127.0.0.1:1",
        {"exec": {"apiVersion": EXEC_API, "command": str(plugin), "interactiveMode": "Always"}},
    )
    done, _ = _kubegap("scan", "--kubeconfig", str(config), home=tmp_path)
    line = _one_error_line(done)
    assert "interactiveMode: Always" in line
    assert not (tmp_path / "ran").exists()


def test_a_plugin_token_is_used_and_its_environment_is_kubectls(
    start_emulator: StartEmulator, tmp_path: Path
) -> None:
    emulator = start_emulator([gpu_node("gpu-0")])
    seen = tmp_path / "exec-info.json"
    script = f'printf "%s" "$KUBERNETES_EXEC_INFO" > {seen}\necho "$GREETING" >> {seen}.env\n'
    plugin = _plugin(tmp_path, script + f"echo '{_credential(TOKEN)}'\n")
    user = {
        "exec": {"apiVersion": EXEC_API, "command": str(plugin), "env": [{"name": "GREETING", "value": "hi"}]}
    }
    config = _kubeconfig(tmp_path / "config", emulator.url, user)
    done, _ = _kubegap(
        "scan", "--kubeconfig", str(config), "-f", "json", "--check", "gpu-health-agent", home=tmp_path
    )
    assert done.returncode in (0, 1), done.stderr[-2000:]
    info = json.loads(seen.read_text())
    assert info["kind"] == "ExecCredential" and info["spec"]["interactive"] is False
    assert (tmp_path / "exec-info.json.env").read_text() == "hi\n"
    assert {request.authorization for request in emulator.requests} == {f"Bearer {TOKEN}"}


# ---- kubeconfig shapes that crashed the client (item 9) ----------------------------------------------------


@pytest.mark.parametrize(
    ("proxy", "expected"),
    [
        ("socks5://127.0.0.1:1080", "socks5 proxies are not supported"),
        ("::::not a url", "is not a URL kubegap can use"),
        ("http://[::1", "is not a URL kubegap can use"),
        ("ftp://proxy.example:21", "is not a URL kubegap can use"),
        ("http://user:hunter2pass@", "is not a URL kubegap can use"),
    ],
)
def test_a_proxy_url_kubegap_cannot_use_is_one_line(tmp_path: Path, proxy: str, expected: str) -> None:
    config = _kubeconfig(tmp_path / "config", "https://127.0.0.1:1", {"token": "t"}, **{"proxy-url": proxy})
    done, _ = _kubegap("scan", "--kubeconfig", str(config), home=tmp_path)
    line = _one_error_line(done, "hunter2pass")
    assert "proxy-url" in line and expected in line, line


@pytest.mark.parametrize(
    "text",
    [
        "a: " + "[" * 5000 + "]" * 5000 + "\n",
        "a:\n" + "".join("  " * depth + "- \n" for depth in range(1, 3000)),
        "a: " + "{b: " * 3000 + "c" + "}" * 3000 + "\n",
    ],
    ids=["flow-lists", "block-lists", "flow-maps"],
)
def test_deeply_nested_kubeconfig_is_one_line(tmp_path: Path, text: str) -> None:
    config = tmp_path / "config"
    config.write_text(text, encoding="utf-8")
    for command in (("scan",), ("scan", "--all-contexts")):
        done, _ = _kubegap(*command, "--kubeconfig", str(config), home=tmp_path)
        line = _one_error_line(done)
        assert f"kubeconfig {config}" in line and "nested more than" in line, line


def test_insecure_skip_tls_verify_is_said_once(start_emulator: StartEmulator, tmp_path: Path) -> None:
    """urllib3 warned on every connection (94 lines of InsecureRequestWarning); now one note says it."""
    from k8s_emulator.testing import write_self_signed_certificate

    certificate = write_self_signed_certificate(tmp_path)
    emulator: KubeEmulator = start_emulator([gpu_node(f"gpu-{index}") for index in range(3)], tls=certificate)
    config = _kubeconfig(
        tmp_path / "config", emulator.url, {"token": TOKEN}, **{"insecure-skip-tls-verify": True}
    )
    done, _ = _kubegap("scan", "--kubeconfig", str(config), "-f", "json", home=tmp_path)
    assert done.returncode in (0, 1), done.stderr[-2000:]
    assert done.stderr == ""
    notes = [note for note in json.loads(done.stdout)["notes"] if "TLS verification" in note]
    assert notes == [f"TLS verification is off for {emulator.url} (insecure-skip-tls-verify): "
                     "the API server's identity was not checked"]  # fmt: skip
    assert len(emulator.requests) > 3
