"""Helpers for fleet and exporter tests: several emulated API servers behind one kubeconfig.

Every emulator a Fleet started is checked when it stops: nothing but GET, nothing about Secrets.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

_TESTS = Path(__file__).resolve().parents[2]
if str(_TESTS) not in sys.path:
    sys.path.insert(0, str(_TESTS))

from k8s_emulator import KubeEmulator  # noqa: E402
from k8s_emulator.testing import TOKEN, assert_read_only, write_fleet_kubeconfig  # noqa: E402


def closed_port_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"


class Fleet:
    """Emulators by context name plus the kubeconfig that names them all."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.emulators: dict[str, KubeEmulator] = {}
        self.servers: dict[str, str] = {}

    def add(self, name: str, objects: list[dict[str, Any]], **options: Any) -> KubeEmulator:
        options.setdefault("token", TOKEN)
        emulator = KubeEmulator(objects, **options).start()
        self.emulators[name] = emulator
        self.servers[name] = emulator.url
        return emulator

    def add_unreachable(self, name: str) -> None:
        self.servers[name] = closed_port_url()

    def kubeconfig(self) -> Path:
        return write_fleet_kubeconfig(self.folder / "kubeconfig", self.servers)

    def stop(self) -> None:
        for emulator in self.emulators.values():
            emulator.stop()
            assert_read_only(emulator)


def run_kubegap(*args: str, home: Path, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    """The real command in a child process, with no kubeconfig but the one a test passes."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("KUBECONFIG", "KUBERNETES_SERVICE_HOST")
    }
    env["HOME"] = str(home)
    command = [sys.executable, "-m", "kubegap", *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=timeout, check=False)
