"""Start real programs on free loopback ports for a test, and always stop them."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.25)
    raise AssertionError(f"timed out after {timeout:g}s waiting for {what}")


def answers(url: str, status: int = 200) -> Callable[[], bool]:
    def probe() -> bool:
        try:
            return httpx.get(url, timeout=2).status_code == status
        except httpx.HTTPError:
            return False

    return probe


@contextlib.contextmanager
def running(
    command: Sequence[str], log: Path, env: dict[str, str] | None = None
) -> Iterator[subprocess.Popen[bytes]]:
    """A child process whose output goes to `log` (shown when a test fails), stopped on exit."""
    with log.open("wb") as sink:
        process = subprocess.Popen(list(command), stdout=sink, stderr=subprocess.STDOUT, env=env)
        try:
            yield process
        finally:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
