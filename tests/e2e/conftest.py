"""The browser tests' shared services: one `kubegap serve --demo` per session, headless chromium per module.

Both are started by the tests themselves (no service has to be running), on a free port and with HOME
and KUBECONFIG in an empty folder, so no test ever reads a real cluster. Modules that do not ask for
them (the MCP client tests) start neither.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`kubegap serve --demo` on a free port, over the bundled knowledge base, with an in-memory index.

    `--demo`, and HOME and KUBECONFIG in an empty folder, so the test never reads a real cluster.
    """
    port = _free_port()
    home = tmp_path_factory.mktemp("home")
    environment = {
        **os.environ,
        "KUBEGAP_DB": ":memory:",
        "HOME": str(home),
        "KUBECONFIG": str(home / "none"),
    }
    log_path = tmp_path_factory.mktemp("serve") / "serve.log"
    log = log_path.open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "kubegap", "serve", "--demo", "--host", "127.0.0.1", "--port", str(port)],
        env=environment,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(base + "/ko/incidents", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"kubegap serve did not start: {log_path.read_text(errors='replace')[-2000:]}")
            time.sleep(0.2)
        assert "cluster report: demo snapshot" in log_path.read_text(errors="replace")
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
        output = log_path.read_text(errors="replace")
        assert "Traceback" not in output, output[-4000:]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Per module: Playwright's sync API keeps an event loop running while it is open, and the tests
    that come after the browser modules (MCP clients over anyio) need the thread's loop free."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    if not CHROMIUM.exists():
        pytest.skip("Debian chromium is not installed at /usr/bin/chromium (run scripts/test-deps)")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()
