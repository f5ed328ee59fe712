"""The last resort: an exception nobody expected is one redacted line, never a traceback.

Expected failures are KubegapErrors and already speak in one line. Anything else is a bug or a
library raising what it was never meant to (a client quoting an HTTP header, a parser choking on a
token), and its message may carry the credential it choked on. So wherever such an exception could
surface, it is described by `describe` alone: its type, the place it was raised, and its first line
redacted and bounded. `install` sets that for the whole process when the `kubegap` command starts:

- the log lines of every part and library (the web server's, the MCP SDK's) go to stderr through
  `OneLineFormatter`: one redacted line each, an exception named by `describe`, no traceback;
- an exception that escapes a thread (the exporter's scan loop, a web scan) or the interpreter's
  last frame is written the same way.

The command itself (`kubegap.cli.main`) catches what escapes a subcommand, prints
`Error: unexpected <describe>` and exits with `exit_code`: 3 ("could not read") for an operating
system or network error, 2 for anything else.
"""

from __future__ import annotations

import logging
import sys
import threading
import traceback
from types import TracebackType

MAX_LINE = 500


def describe(error: BaseException) -> str:
    """'ValueError at kubegap/checker/live/client.py:312 in _send_get: <redacted first line>'."""
    from kubegap.redaction import redact_text  # on first use: `kubegap --help` stays quick

    frames = traceback.extract_tb(error.__traceback__)
    inner = frames[-1] if frames else None
    place = f" at {'/'.join(inner.filename.split('/')[-3:])}:{inner.lineno} in {inner.name}" if inner else ""
    said = redact_text(" ".join(str(error).split()), limit=200)
    return one_line(f"{type(error).__name__}{place}" + (f": {said}" if said else ""))


def one_line(text: str) -> str:
    """Redacted, on one line, at most MAX_LINE characters."""
    from kubegap.redaction import redact_text

    line = " ".join(redact_text(text, limit=4 * MAX_LINE).split())
    return line if len(line) <= MAX_LINE else line[: MAX_LINE - 1] + "…"


def exit_code(error: BaseException) -> int:
    """3 when the failure was a read the system refused (OSError: files, sockets), else 2."""
    return 3 if isinstance(error, OSError) else 2


class OneLineFormatter(logging.Formatter):
    """'kubegap: error: <message>; <describe(exception)>': one redacted line, never a traceback."""

    def format(self, record: logging.LogRecord) -> str:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text = f"{text}; {describe(record.exc_info[1])}"
        return one_line(f"{record.name}: {record.levelname.lower()}: {text}")


class _StderrHandler(logging.StreamHandler):
    """Writes to sys.stderr as it is at each write (a test or a host may swap it)."""

    @property
    def stream(self) -> object:
        return sys.stderr

    @stream.setter
    def stream(self, _value: object) -> None:
        pass


def _write(text: str) -> None:
    try:
        sys.stderr.write(text + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):  # stderr closed: nothing left to tell
        pass


def _process_hook(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
    if isinstance(error, KeyboardInterrupt):
        _write("aborted")
        return
    _write(f"Error: unexpected {describe(error.with_traceback(trace))}")


def _thread_hook(arguments: threading.ExceptHookArgs) -> None:
    error = arguments.exc_value
    if error is None or isinstance(error, SystemExit):
        return
    where = arguments.thread.name if arguments.thread is not None else "a thread"
    _write(f"Error: unexpected in {where}: {describe(error)}")


def install(level: int = logging.WARNING) -> None:
    """Every log line one redacted line on stderr; every escaping exception one line too."""
    root = logging.getLogger()
    if not any(isinstance(handler.formatter, OneLineFormatter) for handler in root.handlers):
        handler = _StderrHandler()
        handler.setFormatter(OneLineFormatter())
        root.addHandler(handler)
        root.setLevel(level)
    sys.excepthook = _process_hook
    threading.excepthook = _thread_hook
