"""DNS rebinding and cross-site requests against a real `kubegap serve`: foreign Host and Origin headers.

A page on another site can point a name it controls at 127.0.0.1 and read our pages as its own
origin; only the Host header tells it apart. The server answers 127.0.0.1, localhost, [::1], the
--host address and each --allowed-host, nothing else. A scan starts only by a POST from this origin
carrying the page's token: a GET with the old `?rescan=1`, a cross-site form, or a token-less POST
start nothing. The last test clicks the real button in Debian's chromium.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

pytestmark = pytest.mark.e2e

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """`kubegap serve --demo --allowed-host kubegap.test` on a free port; yields its URL and log."""
    port = _free_port()
    home = tmp_path_factory.mktemp("home")
    environment = {
        **os.environ,
        "KUBEGAP_DB": ":memory:",
        "HOME": str(home),
        "KUBECONFIG": str(home / "none"),
    }
    log_path = tmp_path_factory.mktemp("serve") / "serve.log"
    command = [sys.executable, "-m", "kubegap", "serve", "--demo", "--port", str(port)]
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [*command, "--allowed-host", "kubegap.test"],
            env=environment,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(base + "/en/cluster.json", timeout=2).json()["state"] == "done":
                        break
                except (httpx.HTTPError, ValueError):
                    pass
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(
                        f"kubegap serve did not start: {log_path.read_text(errors='replace')[-2000:]}"
                    )
                time.sleep(0.2)
            yield base, log_path
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    assert "Traceback" not in log_path.read_text(errors="replace")


def _started_at(base: str) -> str:
    return str(httpx.get(base + "/en/cluster.json").json()["started_at"])


@pytest.mark.parametrize(
    "host",
    ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "localhost.", "", "kubegap.test.evil"],
)
def test_foreign_host_headers_get_nothing(server: tuple[str, Path], host: str) -> None:
    base, _ = server
    for path in (
        "/en/cluster.json",
        "/en/cluster",
        "/ko/incidents",
        "/export/incidents.json",
        "/static/style.css",
    ):
        response = httpx.get(base + path, headers={"Host": host})
        assert response.status_code == 400, (host, path)
        assert b"cluster" not in response.content and b"incident" not in response.content


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "LOCALHOST:1234", "kubegap.test", "[::1]"])
def test_the_hosts_it_was_started_for_are_served(server: tuple[str, Path], host: str) -> None:
    base, log_path = server
    response = httpx.get(base + "/en/cluster.json", headers={"Host": host})
    assert response.status_code == 200 and response.json()["state"] == "done"
    assert "Serving requests for: 127.0.0.1, localhost, [::1], kubegap.test" in log_path.read_text()


def test_a_get_or_a_cross_site_post_starts_no_scan(server: tuple[str, Path]) -> None:
    base, _ = server
    before = _started_at(base)
    token = httpx.get(base + "/en/cluster.json").json()["rescan_token"]
    assert token
    assert httpx.get(base + "/en/cluster?rescan=1").status_code == 200
    assert httpx.get(base + "/en/cluster.json?rescan=1", headers={"Host": "evil.example"}).status_code == 400
    refused = [
        httpx.post(base + "/en/cluster", data={"token": token}, headers={"Origin": "https://evil.example"}),
        httpx.post(base + "/en/cluster", data={"token": token}, headers={"Origin": "null"}),
        httpx.post(base + "/en/cluster", data={"token": token}, headers={"Sec-Fetch-Site": "cross-site"}),
        httpx.post(base + "/en/cluster", data={"token": "guess"}),
        httpx.post(base + "/en/cluster", data={}),
        httpx.post(base + "/en/cluster.json", content=b"token=" + b"x" * 100_000),
    ]
    assert [response.status_code for response in refused] == [403] * len(refused)
    assert refused[0].headers["content-type"].startswith("text/html")
    assert refused[-1].json()["error"]["code"] == "forbidden"
    evil = httpx.post(base + "/en/cluster", data={"token": token}, headers={"Host": "evil.example"})
    assert evil.status_code == 400
    assert _started_at(base) == before


def test_the_pages_own_button_starts_a_scan_in_a_real_browser(server: tuple[str, Path]) -> None:
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    if not CHROMIUM.exists():
        pytest.skip("Debian chromium is not installed at /usr/bin/chromium (run scripts/test-deps)")
    base, _ = server
    before = _started_at(base)
    time.sleep(1.1)  # started_at has one-second resolution
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.goto(base + "/en/cluster")
        page.wait_for_selector("form.inline-form button", timeout=30_000)
        page.click("form.inline-form button")
        page.wait_for_selector(".notices .notice", timeout=30_000)
        notice = page.locator(".notices .notice").inner_text()
        browser.close()
    assert notice in ("A new scan has started.", "A scan is already running.") or "try again" in notice
    if notice == "A new scan has started.":
        assert _started_at(base) != before
