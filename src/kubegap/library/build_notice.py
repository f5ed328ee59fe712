"""One line on stderr when building the search index takes more than a second, and one when it is done.

The index is built once per knowledge change (see store.py): at install by `kubegap knowledge index`
(which `make run` calls), or else by the first command that searches. That first build reads every
record and analyses the Korean text, some seconds on a small machine; a command that sat silent that
long would look hung. Faster builds (a small knowledge folder, a test fixture) say nothing: the notice
waits a second before it speaks, and only a notice that spoke is closed with the time it took.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from kubegap.bilingual import Message, message
from kubegap.cli_support import resolve_lang

NOTICE_AFTER_SECONDS = 1.0
# Seconds before the notice speaks, or "off" (scripts and test runs that read stderr exactly).
NOTICE_ENV = "KUBEGAP_BUILD_NOTICE"


def _after_default() -> float | None:
    setting = os.environ.get(NOTICE_ENV, "").strip().lower()
    if setting in {"off", "0", "no", "false"}:
        return None
    try:
        return float(setting) if setting else NOTICE_AFTER_SECONDS
    except ValueError:
        return NOTICE_AFTER_SECONDS


@dataclass
class Build:
    kept_in: str = ""  # the index file the build wrote; empty while it lives in memory only


@contextmanager
def building_notice(incidents: int, *, after: float | None = None) -> Iterator[Build]:
    """Around an index build: a line on stderr once it has run `after` seconds (default:
    $KUBEGAP_BUILD_NOTICE, else one second), and its time at the end."""
    build = Build()
    after = _after_default() if after is None else after
    if after is None:
        yield build
        return
    started = time.perf_counter()
    lock = threading.Lock()
    state = {"finished": False, "shown": False}

    def show() -> None:
        with lock:
            if state["finished"]:
                return
            state["shown"] = True
            _say(
                message(
                    "kubegap: 검색 색인을 만드는 중입니다(사례 {count}건, 한 번만 하며 몇 초 걸립니다)…",
                    "kubegap: building the search index ({count} incidents; done once, takes a few seconds)…",
                    count=f"{incidents:,}",
                )
            )

    timer = threading.Timer(after, show)
    timer.daemon = True
    timer.start()
    try:
        yield build
    finally:
        timer.cancel()
        with lock:
            state["finished"] = True
            shown = state["shown"]
        if shown:
            seconds = f"{time.perf_counter() - started:.1f}"
            if not build.kept_in:
                done = message(
                    "kubegap: 검색 색인을 {seconds}초 만에 만들었습니다(메모리에만 둡니다).",
                    "kubegap: search index built in {seconds} s (kept in memory only).",
                    seconds=seconds,
                )
            else:
                done = message(
                    "kubegap: 검색 색인을 {seconds}초 만에 만들었습니다. 다음부터는 {where}의 색인을 씁니다.",
                    "kubegap: search index built in {seconds} s; later runs use it from {where}.",
                    seconds=seconds,
                    where=build.kept_in,
                )
            _say(done)


def _say(text: Message) -> None:
    with contextlib.suppress(OSError, ValueError):  # stderr closed: the build goes on without the notice
        print(text.render(resolve_lang()), file=sys.stderr, flush=True)
