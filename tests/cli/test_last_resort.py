"""The last resort: an exception nobody expected, in any subcommand, is one redacted line on stderr.

Every subcommand (`mcp`, `serve` and `exporter` included) is made to raise an exception whose
message quotes a bearer token, as a client library's may, where its work starts; the `kubegap`
entry point must print one line without the token or a traceback, and exit 2 (3 for an OSError: a
read the system refused). Log lines and exceptions that escape a thread follow the same rule.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading

import pytest

from kubegap import unexpected
from kubegap.cli import _SUBCOMMANDS

TOKEN = "ghp_" + "Zq7Lm2Xv9Rt4Wp8Ks3Nd6Hf1Jb5Gc0Ya2Eu7"
SAID = f"GET /api/v1/nodes failed: header Authorization: Bearer {TOKEN} was rejected"

# In one child process: for each subcommand, the command that runs (a group's first subcommand)
# raises when click starts it; `kubegap.cli.main` runs as the console script would, and what it
# wrote to stderr and its exit code are reported as one JSON line per case.
_CHILD = """
import importlib, io, json, sys
import click
import kubegap.cli as cli

said, names = sys.argv[1], sys.argv[2:]
for name in names:
    for kind in ("ValueError", "ConnectionResetError"):
        module, attribute = cli._SUBCOMMANDS[name].split(":")
        command = getattr(importlib.import_module(module), attribute)
        argv = [name]
        if isinstance(command, click.Group):
            first = sorted(command.commands)[0]
            command, argv = command.commands[first], [name, first]

        def boom(*args, _kind=kind, **kwargs):
            raise getattr(__builtins__, _kind)(said)

        command.make_context = boom
        err = io.StringIO()
        sys.stderr = err
        try:
            cli.main(argv)
            code = 0
        except SystemExit as done:
            code = done.code
        finally:
            sys.stderr = sys.__stderr__
        print(json.dumps({"name": name, "kind": kind, "code": code, "stderr": err.getvalue()}))
"""


@pytest.fixture(scope="module")
def outcomes() -> list[dict[str, object]]:
    environment = {**os.environ, "KUBEGAP_LANG": "en"}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, SAID, *sorted(_SUBCOMMANDS)],
        capture_output=True,
        text=True,
        timeout=180,
        env=environment,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and TOKEN not in done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_every_subcommand_was_tried(outcomes: list[dict[str, object]]) -> None:
    assert {row["name"] for row in outcomes} == set(_SUBCOMMANDS)
    assert {"mcp", "serve", "exporter", "scan", "snapshot"} <= set(_SUBCOMMANDS)


def test_an_unexpected_exception_is_one_redacted_line(outcomes: list[dict[str, object]]) -> None:
    for row in outcomes:
        text = str(row["stderr"])
        assert "Traceback" not in text, row
        assert TOKEN not in text and TOKEN[:12] not in text, row
        assert text.count("\n") == 1, row
        assert text.startswith(f"Error: unexpected {row['kind']} at "), row
        assert "was rejected" in text, row  # the rest of the message is still said


def test_exit_code_says_input_or_read(outcomes: list[dict[str, object]]) -> None:
    for row in outcomes:
        assert row["code"] == (3 if row["kind"] == "ConnectionResetError" else 2), row


def test_a_logged_exception_is_one_line_without_the_token(capsys: pytest.CaptureFixture[str]) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(unexpected.OneLineFormatter())
    log = logging.getLogger("kubegap.test-last-resort")
    log.addHandler(handler)
    log.propagate = False
    try:
        try:
            raise RuntimeError(SAID + "\nsecond line")
        except RuntimeError:
            log.exception("Exception in ASGI application")  # what uvicorn logs for a failed request
    finally:
        log.removeHandler(handler)
        log.propagate = True
    text = capsys.readouterr().err
    assert text.count("\n") == 1 and "Traceback" not in text and TOKEN not in text, text
    assert text.startswith("kubegap.test-last-resort: error: Exception in ASGI application; RuntimeError at ")


def test_an_exception_escaping_a_thread_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(threading, "excepthook", threading.excepthook)
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        unexpected.install()

        def fail() -> None:
            raise ValueError(SAID)

        thread = threading.Thread(target=fail, name="kubegap-exporter")
        thread.start()
        thread.join()
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    text = capsys.readouterr().err
    assert text.count("\n") == 1 and "Traceback" not in text and TOKEN not in text, text
    assert text.startswith("Error: unexpected in kubegap-exporter: ValueError at "), text
