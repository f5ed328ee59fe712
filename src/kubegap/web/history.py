"""When each knowledge file was added and last changed, read from the git history of its folder.

A citation needs "last updated", and the file's history is the honest answer: the YAML has no date of
its own that an editor could forget to bump. One `git log` over the folder answers for every file at
once, the first time a page asks; the answer is kept until the server stops. Outside a git checkout
(an installed wheel) or when git is missing or slow, files simply have no dates and the page says
nothing rather than guessing.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

_LOG = logging.getLogger("kubegap.web")
GIT_TIMEOUT = 10.0


@dataclass(frozen=True, slots=True)
class FileDates:
    added: str = ""  # ISO date of the first commit that has the file
    updated: str = ""  # ISO date of the last commit that changed it


class FileHistory:
    """Dates of the files under one folder, by file name (e.g. 'openai-2024-12-...yaml')."""

    def __init__(self, folder: Path) -> None:
        self._folder = folder
        self._dates: dict[str, FileDates] | None = None
        self._lock = threading.Lock()

    def dates(self, name: str) -> FileDates:
        with self._lock:
            if self._dates is None:
                self._dates = _read(self._folder)
            return self._dates.get(name, FileDates())


def _read(folder: Path) -> dict[str, FileDates]:
    git = shutil.which("git")
    if git is None or not folder.is_dir():
        return {}
    command = [git, "-C", str(folder), "log", "--format=@%cs", "--name-only", "--relative", "--", "."]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=GIT_TIMEOUT, check=False)
    except (OSError, subprocess.SubprocessError) as error:
        _LOG.info("no file history for %s: %s", folder, error)
        return {}
    if done.returncode != 0:
        return {}
    return parse_log(done.stdout)


def parse_log(output: str) -> dict[str, FileDates]:
    """`git log --format=@%cs --name-only` output (newest commit first) -> dates per file name."""
    updated: dict[str, str] = {}
    added: dict[str, str] = {}
    date = ""
    for line in output.splitlines():
        line = line.strip()
        if line.startswith("@"):
            date = line[1:]
        elif line and date:
            name = Path(line).name
            updated.setdefault(name, date)
            added[name] = date  # older commits come later: the last one seen is the first
    return {name: FileDates(added[name], updated[name]) for name in updated}
