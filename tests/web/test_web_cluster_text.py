"""The cluster page renders what the reports say: commands as code, evidence key by key, counts that add up.

Sentences quote commands in backticks (`kubegap rbac`); the page shows them as <code>, never as
literal backticks. Evidence that is a mapping (`blockers={DaemonSet/...: untolerated taint}`) is
shown key by key, never as a raw dict. The check tiles add up to the checks run, the unknowns are
one line per cause, and the coverage count leaves Secrets out (they have their own line).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from kubegap.library import Library
from kubegap.web.app import create_app
from kubegap.web.cluster_scan import ClusterScan
from kubegap.web.cluster_source import choose_source


def _client(source: object) -> Iterator[TestClient]:
    scan = ClusterScan(source)  # type: ignore[arg-type]
    assert scan.run_now().state == "done"
    with TestClient(create_app(Library.open(), None, cluster=scan), base_url="http://127.0.0.1") as client:
        yield client


@pytest.fixture(scope="module")
def demo() -> Iterator[TestClient]:
    yield from _client(choose_source(demo=True))


def _text(page: str) -> str:
    """What a reader sees: the page without its markup, code elements included as their text."""
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_commands_are_code_and_evidence_is_never_a_raw_dict(demo: TestClient, lang: str) -> None:
    page = demo.get(f"/{lang}/cluster").text
    assert "`" not in _text(page)
    assert "<code>kubegap checks show ID</code>" in page  # the unknown group's way out, as code
    assert not re.search(r"\w=\{", _text(page))  # no `blockers={...}`
    assert re.search(
        r"<dt><code>blockers</code></dt><dd><code>DaemonSet/gpu-operator/nvidia-dcgm-exporter: "
        r"untolerated taint dedicated=alignment-team:NoSchedule</code></dd>",
        page,
    )
    if lang == "ko":  # the demo hint names a command in backticks
        assert "<code>kubegap serve --kubeconfig 경로</code>" in page


def test_the_check_tiles_add_up_to_the_checks_run(demo: TestClient) -> None:
    data = demo.get("/en/cluster.json").json()
    checks = len(data["gaps"]) + len(data["passed"])
    assert sum(count["count"] for count in data["check_counts"]) == checks
    assert [count["label"] for count in data["check_counts"]] == [
        "with a gap",
        "unknown",
        "passed",
        "not applicable",
    ]
    assert data["groups"] and data["groups"][0].startswith("3 checks unknown: ")


def test_a_manifest_page_says_once_what_files_cannot_show(tmp_path: Path) -> None:
    manifest = tmp_path / "web.yaml"
    manifest.write_text(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: default}\n"
        "spec: {replicas: 1, template: {spec: {containers: [{name: c, image: nginx}]}}}\n"
        "---\napiVersion: widgets.example.com/v1\nkind: Widget\nmetadata: {name: m}\nspec: {}\n"
    )
    for client in _client(choose_source(manifest_paths=(str(manifest),))):
        data = client.get("/en/cluster.json").json()
        reach = next(count for count in data["check_counts"] if count["key"] == "out-of-reach")
        assert reach["label"] == "need a live cluster or snapshot" and reach["count"] > 10
        assert [line for line in data["groups"] if "need a live cluster or snapshot" in line] == data[
            "groups"
        ][:1]
        assert data["read_not_checked"] == "Read, not checked: widgets.example.com/Widget (1)"
        # every unread kind is listed (problems, then the optional ones); the count is theirs, no Secret
        unread = len(data["coverage"]) + len(data["optional_unread"])
        assert "Secret" not in {row["kind"] for row in data["coverage"]} | set(data["optional_unread"])
        assert data["coverage_summary"].endswith(f"; {unread} not read.")
