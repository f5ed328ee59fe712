"""`/ko/cluster` in a real browser reads as Korean: no Latin-only text other than ids, code and names.

Debian's chromium (Playwright) opens the cluster page of `kubegap serve --demo`, waits for the scan,
and collects every visible text node outside `<code>`, `<pre>`, `<kbd>` and `<samp>`. A node
written only in Latin letters must consist of ids, code and proper nouns (`korean_words` tells them
from English words); a node with Hangul must not carry English prose either. The finding messages,
notes and coverage lines come from bilingual templates, so this holds for every one of them.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

_TESTS = Path(__file__).resolve().parents[1]
if str(_TESTS) not in sys.path:
    sys.path.insert(0, str(_TESTS))

from korean_words import english_words  # noqa: E402

pytestmark = pytest.mark.e2e

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
if not CHROMIUM.exists():
    pytest.skip("Debian chromium is not installed at /usr/bin/chromium", allow_module_level=True)

# Every visible text node, with whether it sits inside code.
_TEXT_NODES = """
() => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const text = node.textContent.replace(/\\s+/g, " ").trim();
    const parent = node.parentElement;
    if (!text || !parent || parent.closest("script, style, template, [hidden]")) continue;
    const style = getComputedStyle(parent);
    if (style.display === "none" || style.visibility === "hidden") continue;
    found.push({text, code: Boolean(parent.closest("code, pre, kbd, samp"))});
  }
  return found;
}
"""
# Words of the page that are names in the demo cluster or product names written in lowercase.
_DEMO_NAMES = frozenset({"cilium", "default", "kubegap", "demo"})
# Practitioner terms the check metadata keeps in Latin letters, as Korean engineers write them.
_TERMS = frozenset(
    {"taint", "toleration", "condition", "priority", "level", "class", "device", "plugin", "master"}
    | {
        "systemd",
        "kubelet",
        "torchrun",
        "etcd",
        "conntrack",
        "dcgmi",
        "diag",
        "watchdog",
        "endpoints",
        "pods",
    }
    | {"unhealthy", "medium", "never", "concurrency", "rank", "flight", "recorder", "networking"}
)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    home = tmp_path_factory.mktemp("home")
    environment = {
        **os.environ,
        "KUBEGAP_DB": ":memory:",
        "HOME": str(home),
        "KUBECONFIG": str(home / "none"),
    }
    log_path = tmp_path_factory.mktemp("serve") / "serve.log"
    with log_path.open("wb") as log:
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
                    if httpx.get(base + "/ko/cluster.json", timeout=2).json().get("state") == "done":
                        break
                except (httpx.HTTPError, ValueError):
                    pass
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"kubegap serve did not finish its scan: {log_path.read_text()[-2000:]}")
                time.sleep(0.3)
            yield base
        finally:
            process.terminate()
            process.wait(timeout=15)
    assert "Traceback" not in log_path.read_text(errors="replace")


def test_korean_cluster_page_has_no_english_text(server: str) -> None:
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_context(viewport={"width": 1280, "height": 900}, locale="ko-KR").new_page()
            page.goto(server + "/ko/cluster")
            page.wait_for_load_state()
            assert page.get_attribute("html", "lang") == "ko"
            nodes = page.evaluate(_TEXT_NODES)
        finally:
            browser.close()
    prose = [node["text"] for node in nodes if not node["code"]]
    assert len(prose) > 100, "the page shows the scan's findings"
    latin_only = [text for text in prose if re.search("[A-Za-z]", text) and not re.search("[가-힣]", text)]
    assert latin_only, "ids and object names are on the page"
    allowed = _DEMO_NAMES | _TERMS
    english = {text: english_words(text, allowed) for text in prose}
    left = {text: words for text, words in english.items() if words}
    assert not left, f"English on /ko/cluster: {left}"
    korean_findings = [
        text for text in prose if re.search("[가-힣]", text) and ("노드" in text or "파드" in text)
    ]
    assert len(korean_findings) > 10
