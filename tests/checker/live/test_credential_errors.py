"""A credential the client cannot use never reaches a log or an error: scan, exporter, serve and MCP.

The token here ends in a newline, as `token: |` writes it. The HTTP layer refused the header with a
ValueError quoting the whole `Bearer ...` value, and every face printed that traceback: the scan on
the terminal, the exporter and `kubegap serve` in their logs, the MCP server on its stderr.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from k8s_emulator import KubeEmulator
from k8s_emulator.factories import gpu_node
from k8s_emulator.testing import StartEmulator
from kubegap.checker.scanning import LiveTarget, ScanRequest

SECRET = "kgLeakCheck0123456789abcdefghijSECRET"


def _newline_token_kubeconfig(emulator: KubeEmulator, path: Path) -> Path:
    path.write_text(
        "apiVersion: v1\nkind: Config\ncurrent-context: lab\n"
        f"clusters: [{{name: lab, cluster: {{server: '{emulator.url}'}}}}]\n"
        f"users:\n- name: me\n  user:\n    token: |\n      {SECRET}\n"
        "contexts: [{name: lab, context: {cluster: lab, user: me}}]\n",
        encoding="utf-8",
    )
    return path


@pytest.fixture
def config(start_emulator: StartEmulator, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("KUBERNETES_SERVICE_HOST", raising=False)
    path = _newline_token_kubeconfig(start_emulator([gpu_node("gpu-0")], token=SECRET), tmp_path / "config")
    monkeypatch.setenv("KUBECONFIG", str(path))
    return path


def _clean(text: str) -> None:
    assert SECRET not in text and SECRET[:12] not in text, text[-2000:]
    assert "Traceback" not in text, text[-2000:]


def test_exporter_round_logs_one_line(
    config: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    from kubegap.metrics.loop import ScanLoop, Targets
    from kubegap.metrics.state import ExporterState

    caplog.set_level(logging.DEBUG)
    ScanLoop(Targets(ScanRequest(live=LiveTarget(kubeconfig=str(config)))), ExporterState(), 60).run_round()
    err = capsys.readouterr().err
    _clean(err + caplog.text)
    assert err.count("\n") == 1 and "token of user 'me'" in err


def test_serve_scan_state_and_log_hold_no_token(config: Path, caplog: pytest.LogCaptureFixture) -> None:
    from kubegap.web.cluster_scan import ClusterScan
    from kubegap.web.cluster_source import choose_source

    caplog.set_level(logging.DEBUG)
    state = ClusterScan(choose_source(kubeconfig=str(config))).run_now()
    assert state.state == "error"
    _clean(state.error + caplog.text)
    assert "token of user 'me'" in state.error


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_mcp_tool_error_and_stderr_hold_no_token(
    config: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from mcp.client import Client

    from kubegap.agents.mcp_server import server

    caplog.set_level(logging.DEBUG)
    async with Client(server, raise_exceptions=True) as client:
        result: Any = await client.call_tool("scan_cluster", {})
    assert result.is_error
    text = " ".join(item.text for item in result.content)
    _clean(text + caplog.text)
    assert "token of user 'me'" in text and "\n" not in text
