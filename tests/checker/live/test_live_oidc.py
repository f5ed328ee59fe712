"""`auth-provider: oidc`: an expired id-token is renewed within the scan's budget, never forever.

The Kubernetes client renewed it itself with no time limit: an issuer that accepted the connection
and never answered held `kubegap scan --scan-timeout 5` for good. kubegap now renews it first,
bounded, and the client gets a fresh token. Each case runs the real command in a subprocess.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pytest
import yaml

from k8s_emulator.factories import gpu_node
from k8s_emulator.testing import StartEmulator, assert_read_only

REFRESH = "kgOidcRefresh0123456789abcdefSECRET"
CLIENT_SECRET = "kgOidcClientSecret0123456789abcdef"


def _jwt(expires: float) -> str:
    def part(value: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")

    return f"{part({'alg': 'none'})}.{part({'exp': int(expires), 'sub': 'me'})}.c2lnbmF0dXJl"


def _kubeconfig(path: Path, server: str, issuer: str) -> Path:
    provider = {
        "name": "oidc",
        "config": {
            "idp-issuer-url": issuer,
            "client-id": "kubegap-test",
            "client-secret": CLIENT_SECRET,
            "refresh-token": REFRESH,
            "id-token": _jwt(time.time() - 600),
        },
    }
    document = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": "lab", "cluster": {"server": server}}],
        "users": [{"name": "me", "user": {"auth-provider": provider}}],
        "contexts": [{"name": "lab", "context": {"cluster": "lab", "user": "me"}}],
        "current-context": "lab",
    }
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    return path


def _kubegap(*args: str, home: Path, timeout: float) -> tuple[subprocess.CompletedProcess[str], float]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("KUBECONFIG", "KUBERNETES_SERVICE_HOST")
    }
    env["HOME"] = str(home)
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "kubegap", "--lang", "en", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    return done, time.monotonic() - started


@pytest.fixture
def silent_issuer() -> Iterator[str]:
    """An issuer that accepts connections and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    stop.set()
    thread.join(2)
    for connection in held:
        connection.close()
    listener.close()


def test_a_silent_issuer_ends_within_the_scan_budget_in_one_line(
    start_emulator: StartEmulator, silent_issuer: str, tmp_path: Path
) -> None:
    emulator = start_emulator([gpu_node("gpu-0")])
    config = _kubeconfig(tmp_path / "config", emulator.url, silent_issuer)
    done, seconds = _kubegap(
        "scan", "--kubeconfig", str(config), "--scan-timeout", "5", home=tmp_path, timeout=40
    )
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.returncode == 2 and done.stderr.count("\n") == 1, (done.returncode, done.stderr[-2000:])
    line = done.stderr
    assert "OIDC id-token of user 'me' expired and could not be renewed" in line, line
    assert "did not finish within what was left of the scan's time budget" in line, line
    assert seconds < 15, seconds
    for secret in (REFRESH, CLIENT_SECRET):
        assert secret not in line and secret not in done.stdout
    assert emulator.requests == []


def test_an_expired_token_is_renewed_and_the_new_one_is_sent(
    start_emulator: StartEmulator, tmp_path: Path
) -> None:
    fresh = _jwt(time.time() + 3600)
    asked: list[dict[str, Any]] = []

    class Issuer(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def _json(self, value: dict[str, Any]) -> None:
            body = json.dumps(value).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            asked.append({"method": "GET", "path": self.path})
            self._json({"issuer": issuer, "token_endpoint": f"{issuer}/token"})

        def do_POST(self) -> None:
            form = parse_qs(self.rfile.read(int(self.headers["Content-Length"])).decode())
            asked.append(
                {"method": "POST", "path": self.path, "form": form, "auth": self.headers["Authorization"]}
            )
            self._json({"id_token": fresh, "refresh_token": "kgOidcRefreshNext", "token_type": "Bearer"})

    server = ThreadingHTTPServer(("127.0.0.1", 0), Issuer)
    issuer = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        emulator = start_emulator([gpu_node("gpu-0")], token=fresh)
        config = _kubeconfig(tmp_path / "config", emulator.url, issuer)
        before = config.read_bytes()
        done, _ = _kubegap(
            "scan",
            "--kubeconfig",
            str(config),
            "-f",
            "json",
            "--check",
            "gpu-health-agent",
            home=tmp_path,
            timeout=60,
        )
    finally:
        server.shutdown()
        server.server_close()
    assert done.returncode in (0, 1), done.stderr[-2000:]
    assert json.loads(done.stdout)["scan"]["requests"] > 0
    assert {request.authorization for request in emulator.requests} == {f"Bearer {fresh}"}
    assert [call["path"] for call in asked] == ["/.well-known/openid-configuration", "/token"]
    assert asked[1]["form"]["grant_type"] == ["refresh_token"] and asked[1]["form"]["refresh_token"] == [
        REFRESH
    ]
    expected = base64.b64encode(f"kubegap-test:{CLIENT_SECRET}".encode()).decode()
    assert asked[1]["auth"] == f"Basic {expected}"
    assert config.read_bytes() == before  # the renewed tokens stay in memory
    assert_read_only(emulator)
