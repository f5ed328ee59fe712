"""A broken kubeconfig reaches an agent as the same one sentence the CLI prints, as a tool error."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mcp_helpers import error_text

from kubegap.checker.live.client import ReadOnlyClient
from kubegap.errors import KubeconfigError

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    "text",
    [
        "garbage: [\n",
        "apiVersion: v1\nkind: Config\n",
        "contexts:\n- name: a\n  context: {cluster: gone, user: u}\ncurrent-context: a\n",
    ],
    ids=["malformed-yaml", "no-context", "context-without-cluster"],
)
@pytest.mark.usefixtures("no_cluster")
async def test_scan_cluster_says_what_the_cli_says(
    client: Any, tmp_path: Path, text: str, allow_kubeconfig: Callable[[Path], Path]
) -> None:
    path = tmp_path / "kubeconfig"
    path.write_text(text, encoding="utf-8")
    allow_kubeconfig(path)
    with pytest.raises(KubeconfigError) as raised:
        ReadOnlyClient.from_kubeconfig(str(path))
    # the same sentence; only the CLI's hint (`kubegap scan --demo`) becomes the agent's hint
    sentence = raised.value.one_line().split("; try `kubegap")[0]
    answer = error_text(await client.call_tool("scan_cluster", {"kubeconfig": str(path)}))
    assert sentence in answer and "ParserError" not in answer and "unexpectedly" not in answer
    assert "\n" not in answer.strip()
