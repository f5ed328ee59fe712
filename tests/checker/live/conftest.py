"""Fixtures for live-cluster tests: an emulated API server and a kubeconfig that points at it.

Every test that touches the emulator also calls `assert_read_only`, and the fixture re-checks at
teardown, so no test can pass while kubegap sent a write verb or touched Secrets.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

_TESTS = Path(__file__).resolve().parents[2]
if str(_TESTS) not in sys.path:
    sys.path.insert(0, str(_TESTS))

from k8s_emulator import KubeEmulator  # noqa: E402
from k8s_emulator.testing import TOKEN, StartEmulator, assert_read_only  # noqa: E402


@pytest.fixture
def start_emulator() -> Iterator[StartEmulator]:
    """Start an emulator serving `objects`; it requires the bearer token TOKEN unless told otherwise."""
    started: list[KubeEmulator] = []

    def start(objects: Iterable[dict[str, Any]] = (), **options: Any) -> KubeEmulator:
        options.setdefault("token", TOKEN)
        emulator = KubeEmulator(objects, **options).start()
        started.append(emulator)
        return emulator

    yield start
    for emulator in started:
        emulator.stop()
        assert_read_only(emulator)


@pytest.fixture
def kubeconfig_for(tmp_path: Path) -> Callable[[KubeEmulator], Path]:
    def write(emulator: KubeEmulator, context: str = "emulator") -> Path:
        return emulator.write_kubeconfig(tmp_path / f"kubeconfig-{context}", context=context, token=TOKEN)

    return write


@pytest.fixture
def closed_port_url() -> str:
    """An address where nothing listens, so connections are refused at once."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"
