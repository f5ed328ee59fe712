"""Which kubeconfig files an MCP tool call may use (SECURITY.md states the policy this implements).

A tool call's arguments are written by a model, and a model follows what it reads: a README, an
issue or a web page can ask it to scan "/tmp/x/kubeconfig". A kubeconfig is not data: its `exec:`
runs a command, and its `tokenFile:` sends a file's content as a Bearer token to the `server:` of the
same file. So the kubeconfigs an MCP server reads are chosen by the user, never by a call:

- started plainly (`kubegap mcp`), the server reads the user's own kubeconfig as kubectl finds it
  ($KUBECONFIG, else ~/.kube/config, else the pod's service account), and a call may name only one
  of those same files;
- started with `kubegap mcp --kubeconfig PATH ...`, those files (each resolved once, at start)
  replace the default, the first is used when a call names none, and a call may name only them.

A name in a call is compared by its real path (`~`, relative paths, `..`, symlinks and
/proc/self/fd/N all resolved), and the server then reads its own copy of the path, never the
caller's spelling; a ':'-joined list is refused. Nothing is opened before the name is accepted.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from pathlib import Path

from kubegap.errors import UsageError

logger = logging.getLogger("kubegap.mcp")

# Pseudo-filesystems whose "files" are not files (/proc/self/environ is a regular file to stat).
_NOT_FILES = ("/proc", "/sys", "/dev")
_SHOWN = 120

_allowed: tuple[str, ...] = ()


def allow(paths: Sequence[str]) -> tuple[str, ...]:
    """Set the server's own kubeconfigs (`kubegap mcp --kubeconfig`); one UsageError line for a bad one."""
    global _allowed
    _allowed = tuple(dict.fromkeys(_checked(str(path)) for path in paths))
    return _allowed


def allowed() -> tuple[str, ...]:
    return _allowed


def _checked(text: str) -> str:
    if os.pathsep in text:
        raise UsageError(
            f"--kubeconfig {_short(text)!r} holds {os.pathsep!r}; give each file as its own --kubeconfig"
        )
    real = _real(text)
    if real is None:
        raise UsageError(f"--kubeconfig {_short(text)!r} is not a usable path")
    for folder in _NOT_FILES:
        if Path(real).is_relative_to(folder):
            raise UsageError(f"--kubeconfig {_short(text)} is inside the system folder {folder}")
    if not os.path.exists(real):
        raise UsageError(f"--kubeconfig {_short(text)} does not exist")
    if not os.path.isfile(real):
        raise UsageError(f"--kubeconfig {_short(text)} is not a regular file")
    return real


def choose(argument: str | None) -> str | None:
    """The kubeconfig a call may use: None for kubectl's own choice, else a path the server holds.

    Raises UsageError (one line, naming what the call may use instead) for any other file.
    """
    text = (argument or "").strip()
    if not text:
        return _allowed[0] if _allowed else None
    trusted = _trusted()
    if os.pathsep not in text:
        real = _real(text)
        for shown, resolved in trusted:
            if real is not None and real == resolved:
                return shown
    logger.warning("refused a tool call's kubeconfig %r: not one the server may use", _short(text))
    raise UsageError(_refusal(text, [shown for shown, _ in trusted]))


def _trusted() -> list[tuple[str, str]]:
    """(path to read, its real path) of every file a call may name."""
    if _allowed:
        return [(path, path) for path in _allowed]
    from_env = os.environ.get("KUBECONFIG", "")
    named = [part for part in from_env.split(os.pathsep) if part] if from_env else ["~/.kube/config"]
    found = []
    for part in named:
        path = os.path.expanduser(part)
        real = _real(path)
        if real is not None and os.path.isfile(real):
            found.append((path, real))
    return found


def _real(text: str) -> str | None:
    """The real path of `text` (home, working directory, '..' and symlinks resolved), or None."""
    try:
        return os.path.realpath(os.path.abspath(os.path.expanduser(text)))
    except (OSError, ValueError):  # a NUL character, a string the filesystem cannot encode
        return None


def _refusal(text: str, trusted: list[str]) -> str:
    """One sentence an agent can act on: why, what it may use instead, how the user allows a file."""
    several = " (one file, not a list)" if os.pathsep in text else ""
    if _allowed:
        instead = "the server's own: " + ", ".join(trusted)
    else:
        instead = "the user's own ($KUBECONFIG, else ~/.kube/config)"
    return (
        f"kubeconfig {_short(text, 60)!r}{several} refused: a tool call may not choose a kubeconfig (one can "
        "run commands and send credentials); the user allows one with `kubegap mcp --kubeconfig PATH`. "
        f"Leave kubeconfig out to use {instead}."
    )


def _short(text: str, limit: int = _SHOWN) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"
