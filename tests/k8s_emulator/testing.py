"""Helpers for tests that run kubegap against the emulator."""

from __future__ import annotations

from collections.abc import Callable

from .server import KubeEmulator

TOKEN = "kubegap-test-token"  # the bearer token emulators started by the test fixtures require

StartEmulator = Callable[..., KubeEmulator]


def assert_read_only(emulator: KubeEmulator) -> None:
    """Nothing but GET reached the server, and nothing named Secrets."""
    assert emulator.non_get_requests() == []
    assert emulator.secret_requests() == []
