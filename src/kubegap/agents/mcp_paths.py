"""Which files and folders an MCP scan may read: resolved first, then refused when too broad or private.

An agent can be steered by what it reads (a README, an issue, a tool result), so `scan_files` must not
become a way to walk the machine: the scope is decided on the real, symlink-resolved path, never on
the spelling (`//`, `$HOME/..`, a symlink to `/etc` are all caught), and for a folder on the real path
of every file the scan would read, not only the folder's: a link inside an allowed folder that leads
out of it is never read (the file walker leaves it out), and a folder that holds a credential or
system folder (`~/.config` holds `gcloud`) is refused.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from kubegap.errors import InputError, UsageError

# Folders a scan must never walk: the machine's own state and devices, and where credentials live.
SYSTEM_FOLDERS = (
    "/proc",
    "/sys",
    "/dev",
    "/etc",
    "/run",
    "/var/run",
    "/boot",
    "/private/etc",
    "/private/var/run",
)
CREDENTIAL_FOLDERS = (".ssh", ".kube", ".aws", ".gnupg", ".docker", ".azure", ".config/gcloud")


def existing_paths(paths: Sequence[str]) -> list[str]:
    """Real (symlink-resolved) paths that exist and may be scanned; relative ones resolve against the
    server's working directory.

    An agent can be steered by what it reads, so the scope is checked on the resolved path: the
    filesystem root (`/`, `//`), system folders (`/proc`, `/sys`, `/dev`, `/etc`, ...), credential
    folders in the home folder, and the home folder itself or anything above it are refused, since
    walking them would read files that are not manifests (and `$HOME/..` is just `/home`).
    """
    if not paths:
        raise UsageError("give at least one file or folder in paths")
    home = Path(os.path.realpath(Path.home()))
    found = []
    for raw in paths:
        text = str(raw)
        shown = _short(text)
        if "\x00" in text:
            raise UsageError(f"path {shown!r} contains a NUL character; pass a plain file or folder path")
        try:
            path = Path(text).expanduser()
            absolute = path if path.is_absolute() else Path.cwd() / path
            real = Path(os.path.realpath(absolute))
            exists = real.exists()
        except (OSError, ValueError, RuntimeError) as error:
            reason = getattr(error, "strerror", None) or "not a usable path"
            raise InputError(f"path {shown!r} cannot be used: {str(reason).lower()}") from None
        _refuse_broad_or_system(real, home, shown)
        if not exists:
            where = "" if path.is_absolute() else f" (relative paths resolve against {Path.cwd()})"
            raise InputError(f"path {shown} does not exist{where}; pass an absolute path")
        if real.is_dir():
            _refuse_files_within(real, home)
        found.append(str(real))
    return found


def _refuse_files_within(folder: Path, home: Path) -> None:
    """Every file the scan of `folder` would read, judged on its own real path."""
    from kubegap.checker.sources._files import expand_paths

    for file, _explicit in expand_paths([folder]):  # links leading outside the folder are left out
        try:
            real = Path(os.path.realpath(file))
        except (OSError, ValueError, RuntimeError):
            continue  # the walker reads only regular files; one that cannot be resolved is not one
        _refuse_broad_or_system(real, home, _short(str(file)))


def _refuse_broad_or_system(real: Path, home: Path, shown: str) -> None:
    if real == Path(real.anchor or "/"):
        raise UsageError(
            f"{shown} is too broad (the filesystem root); name the folder that holds the manifests"
        )
    if home == real or home.is_relative_to(real):
        raise UsageError(
            f"{shown} is too broad (it holds the whole home folder {home}); "
            "name the folder that holds the manifests"
        )
    for folder in SYSTEM_FOLDERS:
        if real.is_relative_to(folder):
            raise UsageError(
                f"{shown} is inside the system folder {folder}; kubegap scans only manifests and snapshots"
            )
    for folder in CREDENTIAL_FOLDERS:
        if real.is_relative_to(home / folder):
            raise UsageError(
                f"{shown} is inside {home / folder}, where credentials live; kubegap does not scan it"
            )


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 200 else f"{text[:200]}… ({len(text):,} characters)"
