"""The "your cluster" page and the cluster badges, with scans injected into `create_app`.

A real demo scan feeds the page; hand-built reports for the fixture checks pin the badges, coverage
problems and redaction exactly; failing sources (a missing kubeconfig, an unreachable API server, a
broken snapshot, a bug) must each end as one sentence on the page and in JSON, never a 500.
No test here reads a real cluster: live sources point at files under tmp_path or at 127.0.0.1:1.
"""

from __future__ import annotations

import itertools
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from markupsafe import escape
from starlette.testclient import TestClient
from web_fixture_ids import HBM

from kubegap.checker.check import CheckMeta
from kubegap.checker.finding import Finding, ObjectRef, Severity, Status
from kubegap.checker.scan_report import CoverageRow, ScanReport, summarize
from kubegap.checker.scanning import LiveTarget, ScanRequest
from kubegap.errors import ClusterError
from kubegap.library import Library
from kubegap.web import create_app
from kubegap.web.cluster_results import MAX_FINDINGS_PER_CHECK
from kubegap.web.cluster_scan import ClusterScan
from kubegap.web.cluster_source import ClusterSource, choose_source

NCCL, OS_PLAN = "fixture-nccl-async-errors", "fixture-os-update-plan"
SECRET_TOKEN = "ghp_" + "Zx81Qv" * 6


def _json(client: TestClient, url: str) -> dict:
    response = client.get(url)
    assert response.status_code == 200, (url, response.text[:500])
    assert response.headers["content-type"].startswith("application/json")
    return response.json()


def _html(client: TestClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.text[:500])
    assert response.headers["content-type"].startswith("text/html")
    return response.text


@pytest.fixture(scope="module")
def checks(client: TestClient) -> list[CheckMeta]:
    """The fixture checks of conftest, as the session's app holds them."""
    found: list[CheckMeta] = client.app.state.site.checks  # type: ignore[attr-defined]
    assert [check.id for check in found] == [NCCL, OS_PLAN]
    return found


def _fixture_report(checks: list[CheckMeta]) -> ScanReport:
    """NCCL check fails on a hostile object with a secret in its evidence; the OS plan check passes."""
    nccl, plan = checks
    failing = Finding(
        NCCL,
        Status.failed,
        Severity.high,
        ObjectRef("Pod", "<script>alert(1)</script>", "train"),
        "TORCH_NCCL_ASYNC_ERROR_HANDLING is unset",
        evidence={"container": "trainer", "token": SECRET_TOKEN},
    )
    passing = Finding(OS_PLAN, Status.passed, Severity.medium, ObjectRef("Node", "gpu-1"), "staged")
    return ScanReport(
        findings=[failing, passing],
        checks=[summarize(nccl, [failing]), summarize(plan, [passing])],
        coverage=[
            CoverageRow("Pod", "read", "", 3, needed_by=(NCCL,)),
            CoverageRow("batch/Job", "forbidden", "403 Forbidden: cannot list jobs", 0, needed_by=(NCCL,)),
            CoverageRow("kubeflow.org/MPIJob", "absent", "CRD not installed", 0, optional_for=(NCCL,)),
            CoverageRow("Secret", "not-collected", "never read", 0),
        ],
        source="snapshot: fixture.json",
        mode="snapshot",
        kubegap_version="test",
        started_at="2026-01-01T00:00:00Z",
        finished_at="2026-01-01T00:00:01Z",
        notes=["one note"],
    )


def _scan(source: ClusterSource, scanner: object = None) -> ClusterScan:
    scan = ClusterScan(source, scanner)  # type: ignore[arg-type]
    scan.run_now()
    return scan


@pytest.fixture(scope="module")
def demo_client(library: Library, checks: list[CheckMeta]) -> Iterator[TestClient]:
    scan = _scan(choose_source(demo=True))
    assert scan.state().state == "done", scan.state().error
    with TestClient(base_url="http://127.0.0.1", app=create_app(library, checks, cluster=scan)) as client:
        yield client


@pytest.fixture(scope="module")
def fixture_client(library: Library, checks: list[CheckMeta]) -> Iterator[TestClient]:
    scan = _scan(ClusterSource("snapshot", "asked", "fixture.json"), lambda: _fixture_report(checks))
    with TestClient(base_url="http://127.0.0.1", app=create_app(library, checks, cluster=scan)) as client:
        yield client


def _error_client(
    library: Library, checks: list[CheckMeta], source: ClusterSource, scanner: object = None
) -> TestClient:
    return TestClient(
        base_url="http://127.0.0.1", app=create_app(library, checks, cluster=_scan(source, scanner))
    )


def test_demo_scan_page_counts_and_checks_worst_first(demo_client: TestClient) -> None:
    data = _json(demo_client, "/en/cluster.json")
    assert (data["kind"], data["state"], data["error"]) == ("cluster", "done", "")
    assert data["source"]["kind"] == "demo" and data["source"]["scanned"].startswith("demo:")
    assert data["message"].startswith("Scanned at ") and data["message"].endswith(" UTC.")
    checks = data["gaps"] + data["passed"]
    assert sum(count["count"] for count in data["check_counts"]) == len(checks) > 0
    findings = {count["key"]: count["count"] for count in data["counts"]}
    assert findings["fail"] > 0 and set(findings) == {"fail", "exempted", "unknown", "pass", "not-applicable"}
    statuses = [check["status"] for check in data["gaps"]]
    assert statuses == sorted(statuses, key=["fail", "unknown"].index) and statuses[0] == "fail"
    ranks = {"critical": 4, "high": 3, "medium": 2, "low": 1, "info": 0}
    fails = [ranks[check["severity"]] for check in data["gaps"] if check["status"] == "fail"]
    assert fails == sorted(fails, reverse=True)
    assert {check["status"] for check in data["passed"]} <= {"pass", "not-applicable"}
    first = data["gaps"][0]
    assert first["findings"] and first["findings"][0]["message"] and first["remediation"]
    # the demo cites real incidents, which the fixture library does not hold: ids without links
    assert first["incidents"] and all(incident["url"] == "" for incident in first["incidents"])
    assert data["read_only"].startswith("kubegap only reads")
    assert data["hint"] and data["rescan_url"] == "/en/cluster" and data["refresh_seconds"] == 0


def test_demo_scan_html_shows_the_json_context(demo_client: TestClient) -> None:
    data = _json(demo_client, "/ko/cluster.json")
    page = _html(demo_client, "/ko/cluster")
    assert '<html lang="ko">' in page and "<h1>내 클러스터</h1>" in page
    assert 'href="/ko/cluster" aria-current="page">내 클러스터</a>' in page
    assert str(escape(data["message"])) in page and str(escape(data["read_only"])) in page
    for check in data["gaps"]:
        assert f'id="{check["anchor"]}"' in page
        assert str(escape(check["title"])) in page
        for finding in check["findings"]:
            assert str(escape(finding["message"])) in page
            for item in finding["evidence_items"]:  # key by key, never the one-line `key={...}` text
                assert (
                    f"<dt><code>{escape(item['key'])}</code></dt>"
                    + "".join(f"<dd><code>{escape(value)}</code></dd>" for value in item["values"])
                    in page
                )
    for check in data["passed"]:
        assert f'<li id="{check["anchor"]}">' in page
    for count in data["check_counts"]:
        assert (
            f'<span class="tile-count">{count["count"]}</span> <span class="tile-label">{count["label"]}'
            in page
        )
    assert "http-equiv" not in page
    english = _html(demo_client, "/en/cluster")
    assert "<h1>Your cluster</h1>" in english and "Gaps and unknowns" in english


def test_cluster_page_is_never_cached_and_has_sound_structure(demo_client: TestClient) -> None:
    response = demo_client.get("/en/cluster")
    assert response.headers["cache-control"] == "no-store"
    assert response.headers["content-security-policy"].startswith("default-src 'none'")
    page = response.text
    assert not re.search(r"<script(?![^>]*\bsrc=)", page) and " style=" not in page
    for landmark in ("<header", "<nav", '<main id="main"', "<footer"):
        assert landmark in page
    levels = [int(level) for level in re.findall(r"<h([1-6])[\s>]", page)]
    assert levels[0] == 1 and levels.count(1) == 1
    assert all(after - before <= 1 for before, after in itertools.pairwise(levels)), levels


def test_badges_on_the_check_box_catalog_and_check_page(fixture_client: TestClient) -> None:
    listing = _json(fixture_client, "/en/incidents.json")
    badges = {check["id"]: check["cluster"] for check in listing["check_box"]["checks"]}
    assert badges[NCCL] == {
        "status": "fail",
        "label": "fail",
        "hint": "This check: fail (snapshot: fixture.json)",
        "url": f"/en/cluster#check-{NCCL}",
        "scope": "snapshot: fixture.json",
    }
    assert badges[OS_PLAN]["status"] == "pass"
    page = fixture_client.get("/en/incidents")
    assert page.headers["cache-control"] == "no-cache"
    assert f'class="status status-fail" href="/en/cluster#check-{NCCL}"' in page.text
    check = _json(fixture_client, f"/ko/checks/{NCCL}.json")
    assert check["summary"]["cluster"]["label"] == "틈 발견"
    assert check["summary"]["cluster"]["scope"] == "스냅숏: fixture.json"
    assert '<span class="status-scope">스냅숏: fixture.json</span>' in _html(
        fixture_client, f"/ko/checks/{NCCL}"
    )
    assert f'href="/ko/cluster#check-{NCCL}"' in _html(fixture_client, f"/ko/checks/{NCCL}")
    catalog = _json(fixture_client, "/en/checks.json")
    statuses = {item["id"]: item["cluster"]["status"] for area in catalog["areas"] for item in area["checks"]}
    assert statuses == {NCCL: "fail", OS_PLAN: "pass"}
    cluster = _html(fixture_client, "/en/cluster")
    assert f'id="check-{NCCL}"' in cluster and f'<li id="check-{OS_PLAN}">' in cluster


def test_badges_name_the_scan_they_come_from(demo_client: TestClient) -> None:
    """The demo's verdicts say "demo cluster" wherever they appear; a live scan names its context."""
    from kubegap.checker.scan_report import ScanReport
    from kubegap.web.cluster_source import ClusterSource
    from kubegap.web.cluster_status import cluster_badges, scan_scope

    for lang, scope in (("ko", "데모 클러스터"), ("en", "demo cluster")):
        badges = cluster_badges(demo_client.app.state.site, lang)  # type: ignore[attr-defined]
        assert badges and {badge.scope for badge in badges.values()} == {scope}
        assert all(badge.hint.endswith(f"({scope})") for badge in badges.values())
    report = ScanReport([], [], [], "live", "live", "0", "", "", context="gpu-prod")
    live = ClusterSource("live", "asked", "kubeconfig /k, context gpu-prod")
    assert scan_scope(live, report, "en") == "live: context gpu-prod"
    assert scan_scope(live, report, "ko") == "실제 클러스터: 컨텍스트 gpu-prod"
    files = ClusterSource("snapshot", "asked", "/tmp/a/one.json, /tmp/b/two.yaml, three.json")
    assert scan_scope(files, report, "en") == "snapshot: one.json, two.yaml +1"


def test_no_report_means_no_badge_and_public_caching(client: TestClient) -> None:
    listing = _json(client, "/en/incidents.json")
    assert all(check["cluster"] is None for check in listing["check_box"]["checks"])
    assert client.get("/en/incidents").headers["cache-control"].startswith("public")
    off = _json(client, "/en/cluster.json")
    assert (off["state"], off["source"]["kind"], off["gaps"], off["rescan_url"]) == ("off", "off", [], "")
    assert off["message"] == "This server was started without a cluster scan (--no-scan)."
    assert 'class="status status-' not in _html(client, "/en/checks")


def test_findings_are_redacted_escaped_and_cite_case_pages(fixture_client: TestClient) -> None:
    data = _json(fixture_client, "/en/cluster.json")
    [gap] = data["gaps"]
    [finding] = gap["findings"]
    assert finding["object"] == "Pod/train/<script>alert(1)</script>"
    assert "container=trainer" in finding["evidence"] and SECRET_TOKEN not in finding["evidence"]
    assert gap["incidents"] == [
        {"id": HBM, "title": gap["incidents"][0]["title"], "url": f"/en/incidents/{HBM}"}
    ]
    page = _html(fixture_client, "/en/cluster")
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert SECRET_TOKEN not in page and f'href="/en/incidents/{HBM}"' in page
    assert "Set TORCH_NCCL_ASYNC_ERROR_HANDLING=1." in page  # remediation of a failing check
    raw = fixture_client.get("/en/cluster.json").text
    assert SECRET_TOKEN not in raw and "<script>" not in raw


def test_coverage_problems_name_the_kind_and_why(fixture_client: TestClient) -> None:
    data = _json(fixture_client, "/ko/cluster.json")
    assert data["coverage"] == [
        {
            "kind": "batch/Job",
            "status": "forbidden",
            "status_label": "권한 없음",
            "detail": "403 Forbidden: cannot list jobs",
            "needed_by": [NCCL],
        }
    ]
    assert data["optional_unread"] == ["kubeflow.org/MPIJob"]  # Secrets are covered by the read-only line
    # the two kinds listed above; Secrets have their own line and are not counted here
    assert data["coverage_summary"] == "자원 1종류를 읽었습니다 (객체 3개). 읽지 못한 종류는 2개입니다."
    assert data["notes"] == ["one note"]
    page = _html(fixture_client, "/ko/cluster")
    assert "<code>batch/Job</code>" in page and "403 Forbidden: cannot list jobs" in page


def _kubeconfig(folder: Path, server: str) -> Path:
    path = folder / "config"
    path.write_text(
        "apiVersion: v1\nkind: Config\ncurrent-context: here\n"
        f"clusters: [{{name: c, cluster: {{server: '{server}'}}}}]\n"
        "contexts: [{name: here, context: {cluster: c, user: u}}]\n"
        "users: [{name: u, user: {token: not-a-real-token}}]\n",
        encoding="utf-8",
    )
    return path


def test_failing_sources_are_one_sentence_never_a_500(
    library: Library, checks: list[CheckMeta], tmp_path: Path
) -> None:
    unreachable = _kubeconfig(tmp_path, "https://127.0.0.1:1")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    cases = [
        (ScanRequest(live=LiveTarget(kubeconfig=str(tmp_path / "missing"))), "does not exist"),
        (ScanRequest(live=LiveTarget(kubeconfig=str(unreachable), timeout=2)), "127.0.0.1:1"),
        (ScanRequest(snapshot_paths=(str(broken),)), "broken.json"),
    ]
    for request, expected in cases:
        kind = "snapshot" if request.snapshot_paths else "live"
        with _error_client(library, checks, ClusterSource(kind, "asked", "", request)) as client:
            data = _json(client, "/en/cluster.json")
            assert data["state"] == "error" and expected in data["error"], data["error"]
            assert "\n" not in data["error"] and data["gaps"] == [] and data["counts"] == []
            assert data["message"] == f"The scan could not finish: {data['error']}"
            assert str(escape(data["message"])) in _html(client, "/en/cluster")
            assert data["rescan_url"] == "/en/cluster" and data["rescan_token"]
            assert "스캔을 마치지 못했습니다: " in _json(client, "/ko/cluster.json")["message"]
            assert all(
                check["cluster"] is None
                for check in _json(client, "/en/incidents.json")["check_box"]["checks"]
            )


def test_a_bug_in_the_scan_is_named_in_one_line(library: Library, checks: list[CheckMeta]) -> None:
    def broken() -> ScanReport:
        raise RuntimeError("boom\nsecond line")

    def refused() -> ScanReport:
        raise ClusterError(f"forbidden: User cannot list nodes with token {SECRET_TOKEN}")

    with _error_client(library, checks, ClusterSource("live", "asked"), broken) as client:
        assert _json(client, "/en/cluster.json")["error"] == "unexpected RuntimeError: boom second line"
    with _error_client(library, checks, ClusterSource("live", "asked"), refused) as client:
        error = _json(client, "/en/cluster.json")["error"]
        assert error == "forbidden: User cannot list nodes with token [REDACTED]"


def test_while_scanning_the_page_says_so_and_reloads_itself(
    library: Library, checks: list[CheckMeta]
) -> None:
    release = threading.Event()

    def slow() -> ScanReport:
        assert release.wait(10)
        return _fixture_report(checks)

    scan = ClusterScan(ClusterSource("snapshot", "asked"), slow)
    with TestClient(base_url="http://127.0.0.1", app=create_app(library, checks, cluster=scan)) as client:
        assert _json(client, "/en/cluster.json")["state"] == "waiting"
        assert scan.start() and not scan.start()  # never two at a time
        data = _json(client, "/en/cluster.json")
        assert (data["state"], data["refresh_seconds"], data["rescan_url"]) == ("scanning", 3, "")
        assert data["message"] == "Scanning… this page reloads by itself."
        page = _html(client, "/en/cluster")
        assert '<meta http-equiv="refresh" content="3; url=/en/cluster">' in page
        assert 'href="/en/cluster">Reload</a>' in page
        running = client.post("/en/cluster.json", headers={"X-Kubegap-Token": scan.action_token})
        assert running.json()["notices"] == ["A scan is already running."]
        release.set()
        assert scan.wait(10).state == "done"
        assert _json(client, "/en/cluster.json")["gaps"][0]["id"] == NCCL


def test_rescan_is_rate_limited_and_links_drop_the_action(library: Library, checks: list[CheckMeta]) -> None:
    now = [100.0]
    scan = ClusterScan(
        ClusterSource("snapshot", "asked"), lambda: _fixture_report(checks), clock=lambda: now[0]
    )
    assert scan.run_now().state == "done"
    outcome = scan.request_rescan()
    assert (outcome.outcome, outcome.wait) == ("too-soon", 30)
    now[0] += 29.5
    assert scan.request_rescan().wait == 1
    now[0] += 1
    assert scan.request_rescan().outcome == "started"
    assert scan.wait(10).state == "done"
    assert ClusterScan.off().request_rescan().outcome == "off"
    with TestClient(base_url="http://127.0.0.1", app=create_app(library, checks, cluster=scan)) as client:
        assert _json(client, "/en/cluster.json?rescan=1")["notices"] == []  # a GET never scans
        data = client.post("/en/cluster.json", data={"token": scan.action_token}).json()
        assert data["notices"] == ["A scan started moments ago; try again in 30 s."]
        page = _html(client, "/en/cluster?rescan=1&x=%3Cb%3E")
        assert 'href="/ko/cluster?x=%3Cb%3E"' in page and 'href="/en/cluster.json?x=%3Cb%3E"' in page
        for query in ("rescan=%ff", "rescan=1&rescan=2", "rescan=" + "1" * 5000, "rescan"):
            assert client.get("/en/cluster?" + query).status_code == 200, query
            assert client.get("/ko/cluster.json?" + query).status_code == 200, query


def test_default_source_is_live_with_a_kubeconfig_and_the_demo_without(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("KUBECONFIG", raising=False)
    monkeypatch.delenv("KUBERNETES_SERVICE_HOST", raising=False)
    demo = choose_source()
    assert (demo.kind, demo.reason) == ("demo", "no-kubeconfig") and demo.request and demo.request.demo
    assert demo.startup_line() == "cluster report: demo snapshot (no kubeconfig found)"
    config = _kubeconfig(tmp_path, "https://127.0.0.1:1")
    monkeypatch.setenv("KUBECONFIG", str(config))
    live = choose_source()
    assert (live.kind, live.reason) == ("live", "kubeconfig-found")
    assert (
        live.startup_line()
        == f"cluster report: live cluster, read-only (kubeconfig {config}, current context)"
    )
    named = choose_source(context="here")
    assert named.request is not None and named.request.live.context == "here"
    assert choose_source(no_scan=True).startup_line() == "cluster report: off (--no-scan)"
    assert choose_source(demo=True).startup_line() == "cluster report: demo snapshot (--demo)"
    snapshot = choose_source(snapshot_paths=["a.json", "b.json"])
    assert snapshot.startup_line() == "cluster report: snapshot files (a.json, b.json)"


@pytest.mark.parametrize(
    "flags",
    [
        {"demo": True, "snapshot_paths": ["a.json"]},
        {"demo": True, "manifest_paths": ["m.yaml"]},
        {"no_scan": True, "demo": True},
        {"no_scan": True, "kubeconfig": "x"},
        {"snapshot_paths": ["a.json"], "context": "prod"},
    ],
)
def test_contradictory_flags_are_a_usage_error(flags: dict) -> None:
    from kubegap.errors import UsageError

    with pytest.raises(UsageError):
        choose_source(**flags)


def test_a_huge_check_is_capped_and_exemptions_are_named(library: Library, checks: list[CheckMeta]) -> None:
    nccl = checks[0]
    findings = [
        Finding(NCCL, Status.failed, Severity.high, ObjectRef("Pod", f"worker-{index:02}", "train"), "unset")
        for index in range(30)
    ]
    findings.append(
        Finding(
            NCCL, Status.failed, Severity.high, ObjectRef("Pod", "old"), "unset", exempted_by="team-x.yaml:3"
        )
    )
    report = _fixture_report(checks)
    report.findings = findings
    report.checks = [summarize(nccl, findings)]
    scan = _scan(ClusterSource("snapshot", "asked"), lambda: report)
    with TestClient(base_url="http://127.0.0.1", app=create_app(library, checks, cluster=scan)) as client:
        [gap] = _json(client, "/en/cluster.json")["gaps"]
        assert len(gap["findings"]) == MAX_FINDINGS_PER_CHECK and gap["more_findings"] == 6
        assert {count["key"]: count["count"] for count in gap["counts"]} == {"fail": 30, "exempted": 1}
        assert "and 6 more (kubegap scan shows all)" in _html(client, "/en/cluster")
        assert _json(client, "/en/cluster.json")["counts"][:2] == [
            {"key": "fail", "label": "fail", "count": 30},
            {"key": "exempted", "label": "exempted", "count": 1},
        ]
    scan = _scan(ClusterSource("snapshot", "asked"), lambda: report.filtered(["exempted"]))
    with TestClient(base_url="http://127.0.0.1", app=create_app(library, checks, cluster=scan)) as client:
        [finding] = _json(client, "/en/cluster.json")["gaps"][0]["findings"]
        assert finding["exempted_by"] == "team-x.yaml:3"
        assert "Exempted by: team-x.yaml:3" in _html(client, "/en/cluster")


def test_every_state_source_reason_and_coverage_status_has_both_labels() -> None:
    from kubegap.checker.snapshot import Coverage
    from kubegap.web.labels import web_label_keys

    keys = set(web_label_keys())
    wanted = (
        [f"cluster.state.{state}" for state in ("off", "waiting", "scanning", "done", "error")]
        + [f"cluster.source.{kind}" for kind in ("live", "demo", "snapshot", "manifests", "off")]
        + [
            f"cluster.reason.{reason}"
            for reason in ("asked", "kubeconfig-found", "in-cluster", "no-kubeconfig")
        ]
        + [f"cluster.rescan.{outcome}" for outcome in ("started", "running", "too-soon", "off")]
        + [f"cluster.hint.{kind}" for kind in ("demo", "off")]
        + [f"coverage.{status.value}" for status in Coverage]
    )
    assert [key for key in wanted if key not in keys] == []
