"""`--help` speaks the chosen language: every command and option has a Korean text, and English returns.

Click's metavars (TEXT, PATH, INTEGER RANGE) and choice lists are code; everything else a person
reads in `kubegap ... --help --lang ko` must be Korean, and fit the terminal by display width.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click
import pytest
from rich.cells import cell_len

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from korean_words import english_words
from kubegap.cli import _SUBCOMMANDS, cli, main
from kubegap.cli_help import korean_text, walk

METAVARS = {"OPTIONS", "COMMAND", "ARGS", "TEXT", "INTEGER", "RANGE", "PATH", "FILE", "FLOAT", "CLIENT"}


def _commands() -> list[tuple[str, click.Command]]:
    return list(walk(cli, click.Context(cli)))


def _names_and_choices() -> set[str]:
    """Words that are values: command names and every choice an option offers."""
    found = set(_SUBCOMMANDS)
    for path, command in _commands():
        found.update(path.split())
        for parameter in command.params:
            if isinstance(parameter.type, click.Choice):
                found.update(str(choice) for choice in parameter.type.choices)
                found.update(part for choice in parameter.type.choices for part in str(choice).split("-"))
    return found


def _help(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as done:
        main([*argv, "--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


def test_every_command_and_option_has_korean_help() -> None:
    missing = []
    for path, command in _commands():
        if korean_text(path) is None:
            missing.append(path or "kubegap")
        for parameter in command.params:
            if isinstance(parameter, click.Option) and parameter.help is not None:
                name = max(parameter.opts, key=len)
                if korean_text(path, name) is None:
                    missing.append(f"{path} {name}".strip())
    assert missing == []


@pytest.mark.parametrize("path", ["", *sorted({path for path, _ in _commands() if path})])
def test_korean_help_has_no_english_prose(path: str, capsys: pytest.CaptureFixture[str]) -> None:
    words = path.split()
    shown = _help(capsys, "--lang", "ko", *words)
    data = METAVARS | _names_and_choices() | {"etcd", "stdio", "xx"}  # 5xx
    assert english_words(shown, data) == [], shown
    assert "사용법:" in shown


def test_korean_help_fits_the_terminal_by_display_width(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    for words in ([], ["scan"], ["incidents", "list"], ["serve"]):
        shown = _help(capsys, *words, "--lang", "ko")  # --lang after the subcommand counts too
        wide = [line for line in shown.splitlines() if cell_len(line) > 80 and " " in line.strip()]
        assert wide == [], wide


def test_english_comes_back_after_korean(capsys: pytest.CaptureFixture[str]) -> None:
    korean = _help(capsys, "--lang", "ko", "scan")
    english = _help(capsys, "--lang", "en", "scan")
    assert "스냅숏" in korean and "스냅숏" not in english
    assert "Usage: kubegap scan" in english and "Snapshot file or folder." in english
    assert english_words(english) != []  # the English help really is English
