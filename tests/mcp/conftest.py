"""Fixtures for the MCP server tests: anyio on asyncio, an in-process client, the emulator on sys.path."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest

_TESTS = Path(__file__).resolve().parents[1]
if str(_TESTS) not in sys.path:
    sys.path.insert(0, str(_TESTS))


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def client() -> AsyncIterator[object]:
    """The real server object, connected in-process (the modern per-request path, middleware included)."""
    from mcp.client import Client

    from kubegap.agents.mcp_server import server

    async with Client(server, raise_exceptions=True) as connected:
        yield connected


@pytest.fixture
def no_cluster(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A HOME without ~/.kube/config, no KUBECONFIG and not in a pod: kubegap has no cluster to reach."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("KUBECONFIG", raising=False)
    monkeypatch.delenv("KUBERNETES_SERVICE_HOST", raising=False)
    return home


@pytest.fixture(autouse=True)
def _plain_server_start(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test starts as `kubegap mcp` without --kubeconfig or --lang, whatever a test before it
    allowed, in an environment that names no language (so answers default to English)."""
    from kubegap.agents import mcp_kubeconfigs
    from kubegap.agents.mcp_language import set_server_lang

    for variable in ("KUBEGAP_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    mcp_kubeconfigs.allow([])
    set_server_lang(None)
    yield
    mcp_kubeconfigs.allow([])
    set_server_lang(None)


@pytest.fixture
def allow_kubeconfig() -> Callable[[Path], Path]:
    """`kubegap mcp --kubeconfig PATH` for the in-process server: tool calls may then name PATH
    (returned resolved, as the server reports it)."""
    from kubegap.agents import mcp_kubeconfigs

    def allow(path: Path) -> Path:
        mcp_kubeconfigs.allow([*mcp_kubeconfigs.allowed(), str(path)])
        return Path(os.path.realpath(path))

    return allow
