"""An `--exemptions` file goes through the same bounded intake as manifests: a FIFO, `/dev/zero`, a
2 GB file, an alias bomb or YAML nested 5,000 deep is one error line, at once, never a hang or a
traceback (before, the file was read whole with `read_text` and parsed with `yaml.safe_load`)."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kubegap.checker.exemptions import load_exemptions
from kubegap.errors import InputError


@pytest.fixture
def deadline() -> Iterator[None]:
    """Fail, instead of hanging the suite, when a load does not return within 10 s."""

    def expired(signum: int, frame: Any) -> None:
        raise TimeoutError("load_exemptions did not return within 10 s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(10)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _bomb() -> str:
    lines = ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"l{n}: &l{n} [{', '.join([f'*l{n - 1}'] * 9)}]" for n in range(1, 9)]
    return "\n".join(lines) + "\n"


def _special(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / f"{kind}.yaml"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "zero":
        path.symlink_to("/dev/zero")
    elif kind == "sparse":
        with path.open("wb") as file:
            file.truncate(2 << 30)
    elif kind == "bomb":
        path.write_text(_bomb())
    else:
        path.write_text("exemptions: " + "[" * 5000 + "]" * 5000 + "\n")
    return path


@pytest.mark.parametrize(
    ("kind", "said"),
    [
        ("fifo", "not a regular file"),
        ("zero", "not a regular file"),
        ("sparse", "holds more than 256 MiB"),
        ("bomb", "alias bomb?"),
        ("deep", "exceeded maximum nesting depth"),
    ],
)
def test_a_hostile_exemptions_file_is_one_line_at_once(
    tmp_path: Path, deadline: None, kind: str, said: str
) -> None:
    path = _special(tmp_path, kind)
    started = time.monotonic()
    with pytest.raises(InputError) as raised:
        load_exemptions(path)
    line = raised.value.one_line()
    assert line.startswith(f"{path}: ") and said in line and "\n" not in line, line
    assert time.monotonic() - started < 5


def test_an_impossible_date_is_one_line(tmp_path: Path) -> None:
    """YAML builds `2999-13-45` as a date and raised ValueError, which was not caught: a traceback."""
    path = tmp_path / "exemptions.yaml"
    path.write_text("exemptions:\n- check: gpu-health-agent\n  reason: r\n  expires: 2999-13-45\n")
    with pytest.raises(InputError) as raised:
        load_exemptions(path)
    assert raised.value.one_line() == f"{path}: YAML that cannot be read as data: ValueError"


def test_two_documents_and_a_flow_style_file(tmp_path: Path) -> None:
    entry = "exemptions:\n- check: gpu-health-agent\n  reason: accepted\n"
    two = tmp_path / "two.yaml"
    two.write_text(entry + "---\n" + entry)
    with pytest.raises(InputError, match="holds 2 YAML documents; put every exemption in one"):
        load_exemptions(two)
    flow = tmp_path / "flow.yaml"
    flow.write_text("{exemptions: [{check: gpu-health-agent, reason: accepted}]}\n")
    assert [rule.check for rule in load_exemptions(flow).rules] == ["gpu-health-agent"]
