"""One language rule for every subcommand: `--lang` after the subcommand (or before it), else
$KUBEGAP_LANG, else the locale, else English; every output follows it.

The walk is over the command tree itself, so a new subcommand fails here until it takes the shared
`--lang` option and has an invocation below. Each runs in both languages, chosen by the flag after
the subcommand and by the environment (with a locale of the other language set, to prove the order):
English output has no Hangul; Korean output is what `kubegap --lang ko <command>` prints, whose prose
test_korean_everywhere.py judges, and is judged here for the commands that test does not run. Output
that is code (a manifest, a JSON Schema, a config snippet) is judged on its human lines only. The MCP
server's answers are walked in tests/mcp/test_mcp_language.py; `serve` and `exporter` run as processes.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import click
import pytest
from cli_language import HANGUL, assert_korean

from kubegap import cli_support
from kubegap.cli import cli, main
from kubegap.cli_help import walk
from kubegap.knowledge import load_knowledge

INCIDENT = "openai-2025-06-gpu-host-os-update-network-loss"

# command path -> arguments that make it print what a person reads ("{tmp}" is a fresh folder)
INVOCATIONS: dict[str, tuple[str, ...]] = {
    "agent setup": ("--client", "codex", "--codex-home", "{tmp}"),
    "checks list": (),
    "checks show": ("nccl-hang-dump",),
    "errors list": (),
    "errors show": ("XID79",),
    "facets": (),
    "incidents index": (),
    "incidents list": ("-q", "NCCL"),
    "incidents show": (INCIDENT,),
    "incidents similar": (INCIDENT,),
    "knowledge schema": (),
    "knowledge stats": (),
    "knowledge validate": (),
    "rbac": (),
    "scan": ("--demo",),
    "snapshot": (),  # no cluster here: its one-line error is what a person reads
    "symptoms": (),  # likewise: no cluster, one line
}
# Long-running servers: started as processes, their start-up lines read (see below).
PROCESSES = {"serve", "exporter", "mcp"}
# Commands whose Korean prose test_korean_everywhere.py judges with their own rules for ids.
JUDGED_ELSEWHERE = {"scan", "facets", "knowledge stats", "knowledge validate", "checks list", "checks show"}
JUDGED_ELSEWHERE |= {"incidents list", "incidents show", "incidents similar"}
# Outputs that are code: only these lines are prose (comments), or none at all.
CODE_LINES = {
    "rbac": lambda out: [line for line in out.splitlines() if line.startswith("#")],
    "knowledge schema": lambda out: [],
    "agent setup": lambda out: [],  # the snippet is config; the human line goes to stderr
}
LOCALES = {"ko": "en_US.UTF-8", "en": "ko_KR.UTF-8"}  # the other language's locale, to be overridden


def _catalog_words() -> frozenset[str]:
    """The error catalog's own strings (quoted in its Korean titles) and family ids are data."""
    entries = load_knowledge().errors
    found = {entry.family.value for entry in entries}
    for entry in entries:
        for pattern in entry.patterns:
            found.update(re.findall(r"[A-Za-z]+", pattern))
    return frozenset(found)


def _leaves() -> list[tuple[str, click.Command]]:
    return [
        (path, command)
        for path, command in walk(cli, click.Context(cli))
        if path and not isinstance(command, click.Group)
    ]


def test_every_command_takes_the_shared_language_option() -> None:
    """Not a look-alike: the shared option's callback, so the flag, $KUBEGAP_LANG and the locale are
    read in one place (`errors` had its own `--lang` defaulting to Korean)."""
    wrong = []
    for path, command in _leaves():
        option = next((param for param in command.params if param.name == "lang"), None)
        if option is None or option.callback is not cli_support._lang_callback:
            wrong.append(path)
    assert wrong == []


def test_every_command_is_walked_below() -> None:
    assert {path for path, _ in _leaves()} == set(INVOCATIONS) | PROCESSES


@pytest.fixture(autouse=True)
def _quiet_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("KUBECONFIG", str(tmp_path / "no-kubeconfig"))
    monkeypatch.delenv("KUBEGAP_LIBRARY_URL", raising=False)
    monkeypatch.setenv("KUBEGAP_DB", ":memory:")
    for variable in ("KUBEGAP_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    captured = capsys.readouterr()
    return int(exited.value.code or 0), captured.out, captured.err


def _human(path: str, out: str, err: str) -> str:
    lines = CODE_LINES[path](out) if path in CODE_LINES else out.splitlines()
    if "출처" in lines:  # `errors show`: what follows are the titles of the sources
        lines = lines[: lines.index("출처")]
    return "\n".join([*lines, *err.splitlines()])


@pytest.mark.parametrize("how", ["flag", "environment"])
@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("path", sorted(INVOCATIONS))
def test_each_command_speaks_the_chosen_language(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    path: str,
    lang: str,
    how: str,
) -> None:
    arguments = [part.replace("{tmp}", str(tmp_path / "folder")) for part in INVOCATIONS[path]]
    argv = [*path.split(), *arguments]
    monkeypatch.setenv("LANG", LOCALES[lang])
    if how == "flag":
        argv += ["--lang", lang]
    else:
        monkeypatch.setenv("KUBEGAP_LANG", lang)
    code, out, err = _run(capsys, argv)
    assert code in (0, 1, 2) and (out or err), (path, code)
    human = _human(path, out, err)
    if lang == "en":
        assert not HANGUL.search(out + err), (path, HANGUL.findall(out + err)[:5])
    else:
        monkeypatch.delenv("KUBEGAP_LANG", raising=False)
        canonical = _run(capsys, ["--lang", "ko", *path.split(), *arguments])
        assert (code, out, err) == canonical, path
        if human.strip():
            assert HANGUL.search(human), (path, human[:200])
            if path not in JUDGED_ELSEWHERE:
                data = _catalog_words() if path.startswith("errors") else frozenset()
                assert_korean(human, f"{path} ({how})", data)
    if path == "snapshot":  # the error line carries the language's own prefix
        assert err.startswith("오류: " if lang == "ko" else "Error: "), err


def test_code_outputs_are_the_same_code_in_both_languages(capsys: pytest.CaptureFixture[str]) -> None:
    outputs = {}
    for lang in ("ko", "en"):
        for path in ("rbac", "knowledge schema"):
            _, out, _ = _run(capsys, [*path.split(), "--lang", lang])
            outputs[(path, lang)] = [line for line in out.splitlines() if not line.startswith("#")]
    assert outputs[("rbac", "ko")] == outputs[("rbac", "en")]
    assert outputs[("knowledge schema", "ko")] == outputs[("knowledge schema", "en")]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("how", ["flag", "environment"])
@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("command", ["serve", "exporter"])
def test_servers_start_up_in_the_chosen_language(tmp_path: Path, command: str, lang: str, how: str) -> None:
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in ("KUBEGAP_LANG", "LC_ALL", "LC_MESSAGES")
    }
    environment.update(
        {
            "HOME": str(tmp_path),
            "KUBEGAP_DB": ":memory:",
            "KUBECONFIG": str(tmp_path / "x"),
            "LANG": LOCALES[lang],
        }
    )
    argv = [sys.executable, "-m", "kubegap", command, "--demo", "--port", str(_free_port())]
    if how == "flag":
        argv += ["--lang", lang]
    else:
        environment["KUBEGAP_LANG"] = lang
    process = subprocess.Popen(argv, env=environment, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        lines = []
        while len(lines) < 2:
            line = process.stderr.readline()
            if not line:
                break
            if not line.startswith("kubegap: "):  # the index build notice of a first run
                lines.append(line)
    finally:
        process.terminate()
        process.wait(timeout=30)
        if process.stderr is not None:
            process.stderr.close()
    text = "".join(lines)
    assert len(lines) == 2, text
    if lang == "en":
        assert not HANGUL.search(text), text
    else:
        assert HANGUL.search(text), text
        assert_korean(re.sub(r"https?://\S+", "", text), f"{command} ({how})", frozenset({"demo"}))
