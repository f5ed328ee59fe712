"""Commands that need no index, checker or web app do not import them: `kubegap --help` lists every
subcommand from one table of summaries, and that table stays equal to the commands' own help."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kubegap import cli


def _root_help(capsys: pytest.CaptureFixture[str], lang: str) -> str:
    with pytest.raises(SystemExit) as exited:
        cli.main(["--lang", lang, "--help"])
    assert exited.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_command_list_equals_what_the_commands_themselves_say(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    assert sorted(cli._SUMMARIES) == sorted(cli._SUBCOMMANDS)
    listed = _root_help(capsys, lang)
    monkeypatch.setattr(cli, "_SUMMARIES", {})  # without the table, click asks every command
    asked = _root_help(capsys, lang)
    assert listed == asked


def test_help_and_version_import_no_subcommand() -> None:
    probe = (
        "import sys\n"
        "from kubegap.cli import main\n"
        "for argv in (['--help'], ['--version'], ['--lang', 'ko', '--help']):\n"
        "    try:\n"
        "        main(argv)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "heavy = ('kubegap.checker', 'kubegap.library', 'kubegap.web', 'kubegap.agents',\n"
        "         'kubegap.knowledge', 'kubegap.metrics', 'mcp', 'kubernetes', 'numpy', 'pydantic',\n"
        "         'starlette')\n"
        "print(sorted(name for name in sys.modules if name.startswith(heavy)), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stderr.strip() == "[]", done.stderr[-2000:]
