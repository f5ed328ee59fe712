"""Pages asked for again are sent from memory: same bytes, no second build, and never a stale one.

The server keeps each rendered page by URL, Host and day, tied to the cluster scan it was built from
(see web/page_cache.py); a finished scan, another Host or a no-store page means a fresh build.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from starlette.testclient import TestClient
from web_fixture_ids import HBM

from kubegap.checker.check import CheckMeta
from kubegap.checker.scan_report import ScanReport
from kubegap.library import Library
from kubegap.web import compression, create_app, pages
from kubegap.web.cluster_scan import ClusterScan
from kubegap.web.cluster_source import ClusterSource
from kubegap.web.page_cache import CachedPage, PageCache


def _counting(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[int]:
    calls: list[int] = []
    original: Callable[..., Any] = getattr(module, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def _client(library: Library, checks: list[CheckMeta], scan: ClusterScan | None = None) -> TestClient:
    return TestClient(base_url="http://127.0.0.1", app=create_app(library, checks, cluster=scan))


def _checks(client: TestClient) -> list[CheckMeta]:
    return list(client.app.state.site.checks)  # type: ignore[attr-defined]


def test_a_page_asked_again_is_not_built_again(
    library: Library, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    builds = _counting(monkeypatch, pages, "build_list_page")
    with _client(library, _checks(client)) as fresh:
        first = fresh.get("/ko/incidents?cause=hardware-fault")
        again = fresh.get("/ko/incidents?cause=hardware-fault")
        other = fresh.get("/ko/incidents?cause=software-bug")
        as_json = fresh.get("/ko/incidents.json?cause=hardware-fault")
    assert first.status_code == again.status_code == other.status_code == as_json.status_code == 200
    assert again.content == first.content and again.headers["etag"] == first.headers["etag"]
    assert again.headers["content-type"] == first.headers["content-type"]
    assert other.content != first.content
    assert builds == [1, 1, 1], "the repeat came from memory; another query and the JSON twin were built"


def test_an_etag_still_gets_a_304_from_a_kept_page(library: Library, client: TestClient) -> None:
    with _client(library, _checks(client)) as fresh:
        etag = fresh.get("/en/incidents").headers["etag"]
        fresh.get("/en/incidents")
        revalidated = fresh.get("/en/incidents", headers={"If-None-Match": etag})
    assert revalidated.status_code == 304 and revalidated.content == b""


def test_another_host_gets_its_own_page(library: Library, client: TestClient) -> None:
    """Absolute links (the case page's citation) name the Host, so each Host is kept apart."""
    app = create_app(library, _checks(client), allowed_hosts=["127.0.0.1", "kubegap.test"])
    case = f"/en/incidents/{HBM}"
    with TestClient(base_url="http://127.0.0.1", app=app) as fresh:
        here = fresh.get(case)
        there = fresh.get(case, headers={"Host": "kubegap.test"})
        here_again = fresh.get(case)
    assert here.status_code == there.status_code == 200
    assert "http://kubegap.test/" in there.text and "http://kubegap.test/" not in here.text
    assert here_again.content == here.content


def test_a_finished_scan_is_shown_at_once_and_the_cluster_page_is_never_kept(
    library: Library, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    checks = _checks(client)
    release = threading.Event()

    def scanner() -> ScanReport:
        release.wait(10)
        from kubegap.checker.scan_report import summarize

        return ScanReport(
            findings=[],
            checks=[summarize(check, []) for check in checks],
            coverage=[],
            source="snapshot: cache.json",
            mode="snapshot",
            kubegap_version="test",
            started_at="2026-01-01T00:00:00Z",
            finished_at="2026-01-01T00:00:01Z",
        )

    scan = ClusterScan(ClusterSource("snapshot", "asked", "cache.json"), scanner)
    builds = _counting(monkeypatch, pages, "build_list_page")
    cluster_builds = _counting(monkeypatch, pages.cluster_page, "build_cluster_page")
    with _client(library, checks, scan) as fresh:
        scan.start()
        during = fresh.get("/en/checks")
        fresh.get("/en/incidents")
        fresh.get("/en/incidents")
        assert builds == [1]
        release.set()
        assert scan.wait(10).state == "done"
        fresh.get("/en/incidents")
        assert builds == [1, 1], "a page built before the scan finished is not sent after it"
        after = fresh.get("/en/checks")
        fresh.get("/en/cluster")
        fresh.get("/en/cluster")
    assert during.status_code == after.status_code == 200
    assert during.content != after.content, "the checks page shows the finished scan's badges"
    assert len(cluster_builds) == 2, "the cluster page (no-store) is built for every request"


def test_the_cache_is_bounded_by_entries_and_by_bytes() -> None:
    state = object()

    def page(size: int) -> CachedPage:
        return CachedPage(b"x" * size, "text/html", (), state)

    by_count = PageCache(max_entries=3, max_bytes=1000)
    for number in range(5):
        by_count.put(("/p", str(number), "h", "d", False), page(10))
    assert len(by_count) == 3
    assert by_count.get(("/p", "0", "h", "d", False), state) is None, "the oldest went first"
    assert by_count.get(("/p", "4", "h", "d", False), state) is not None
    assert by_count.get(("/p", "4", "h", "d", False), object()) is None, "another scan state is a miss"
    by_bytes = PageCache(max_entries=100, max_bytes=100)
    for number in range(20):
        by_bytes.put(("/q", str(number), "h", "d", False), page(12))
    assert by_bytes.size_bytes <= 100 and len(by_bytes) == 8
    by_bytes.put(("/big", "", "h", "d", False), page(13))
    assert by_bytes.get(("/big", "", "h", "d", False), state) is None, "over 1/8 of the budget: not kept"


def test_a_kept_page_is_compressed_once_per_coding(
    library: Library, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    compressions = _counting(monkeypatch, compression, "compress")
    with _client(library, _checks(client)) as fresh:
        bodies = [fresh.get("/ko/incidents", headers={"Accept-Encoding": "gzip"}) for _ in range(3)]
    assert all(response.headers["content-encoding"] == "gzip" for response in bodies)
    assert len({response.content for response in bodies}) == 1
    assert len(compressions) == 1
    assert "<html" in bodies[0].text  # the client decoded it
