"""The library opens in the background once the host confirms the handshake, never before `initialize`
is answered and never twice, so the first search costs what a later one does."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import pytest

from kubegap.agents import mcp_app, mcp_library
from kubegap.agents.mcp_warmup import INITIALIZED, WarmUpMiddleware

pytestmark = pytest.mark.anyio


@dataclass
class _Context:
    method: str


async def _next(ctx: Any) -> str:
    return f"handled {ctx.method}"


async def test_the_warm_up_starts_after_the_handshake_once_and_in_the_background() -> None:
    started = threading.Event()
    release = threading.Event()
    calls: list[str] = []

    def warm_up() -> None:
        calls.append(threading.current_thread().name)
        started.set()
        release.wait(10)

    middleware = WarmUpMiddleware(warm_up)
    assert await middleware(_Context("initialize"), _next) == "handled initialize"  # type: ignore[arg-type]
    assert not started.wait(0.2), "nothing may run before the host confirms the handshake"
    result = await middleware(_Context(INITIALIZED), _next)  # type: ignore[arg-type]
    assert result == f"handled {INITIALIZED}", "the notification itself is not held up by the warm-up"
    assert started.wait(10)
    await middleware(_Context(INITIALIZED), _next)  # type: ignore[arg-type]
    release.set()
    assert calls == ["kubegap-warm-up"], "one warm-up per process, in its own thread"


async def test_a_failing_warm_up_is_quiet() -> None:
    done = threading.Event()

    def broken() -> None:
        done.set()
        raise RuntimeError("no index here")

    await WarmUpMiddleware(broken)(_Context(INITIALIZED), _next)  # type: ignore[arg-type]
    assert done.wait(10)


def test_the_server_warms_the_library_and_its_first_search(monkeypatch: pytest.MonkeyPatch) -> None:
    assert any(isinstance(item, WarmUpMiddleware) for item in mcp_app.server.middleware)
    monkeypatch.setattr(mcp_library, "_library", None)
    mcp_app._warm_up()
    opened = mcp_library._library
    assert opened is not None and opened.incident_count > 0
    assert mcp_library.library() is opened, "the tool call finds it open"
