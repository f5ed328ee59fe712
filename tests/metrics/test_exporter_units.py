"""The exporter without Prometheus: what /metrics says after good, failed and recovered scans."""

from __future__ import annotations

import pytest
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import TestClient

from kubegap.checker.fleet.report import ClusterResult
from kubegap.checker.registry import all_checks
from kubegap.checker.runner import run_checks
from kubegap.checker.sources import load_demo
from kubegap.metrics.app import create_exporter_app, exporter_registry
from kubegap.metrics.labels import MAX_LABEL, cluster_labels
from kubegap.metrics.state import ExporterState


def _samples(state: ExporterState) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    text = generate_latest(exporter_registry(state)).decode()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def _demo_result(name: str = "prod") -> ClusterResult:
    report = run_checks(load_demo())
    return ClusterResult(name=name, status="scanned", report=report, seconds=1.5, requests=37)


def test_a_failed_scan_keeps_the_last_good_check_series_and_marks_the_scan_failed() -> None:
    state = ExporterState()
    state.record(_demo_result(), now=1000.0)
    state.record(
        ClusterResult(name="prod", status="unreachable", error="connection refused", seconds=5), now=1300.0
    )
    samples = _samples(state)
    assert samples[("kubegap_scan_success", (("cluster", "prod"),))] == 0.0
    assert samples[("kubegap_scan_status", (("cluster", "prod"), ("status", "unreachable")))] == 1.0
    assert samples[("kubegap_last_success_timestamp_seconds", (("cluster", "prod"),))] == 1000.0
    assert samples[("kubegap_api_requests_total", (("cluster", "prod"),))] == 37.0
    assert samples[("kubegap_scans_total", (("cluster", "prod"), ("result", "scanned")))] == 1.0
    assert samples[("kubegap_scans_total", (("cluster", "prod"), ("result", "unreachable")))] == 1.0
    key = (
        "kubegap_check_status",
        (("check", "gpu-health-agent"), ("cluster", "prod"), ("severity", "high"), ("status", "fail")),
    )
    assert samples[key] == 1.0  # the gap seen at 1000 is still reported, beside its age
    checks = {labels[0][1] for name, labels in samples if name == "kubegap_check_status"}
    assert checks == {check.id for check in all_checks()}


def test_label_values_pass_the_redaction_chokepoint() -> None:
    state = ExporterState()
    leaked = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    state.record(ClusterResult(name=f"ctx-{leaked}", status="error", error="bad"))
    text = generate_latest(exporter_registry(state)).decode()
    assert leaked not in text and "[REDACTED]" in text


def test_readiness_waits_for_the_first_round_and_metrics_is_served_at_its_exact_path() -> None:
    state = ExporterState()
    with TestClient(create_exporter_app(state)) as client:
        assert client.get("/healthz").status_code == 200
        assert client.get("/readyz").status_code == 503
        state.record(_demo_result())
        state.finish_round()
        assert client.get("/readyz").status_code == 200
        answer = client.get("/metrics", follow_redirects=False)
        assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/plain")
        assert 'kubegap_scan_success{cluster="prod"} 1.0' in answer.text
        assert client.get("/metrics?name[]=x", follow_redirects=False).status_code == 200
        assert client.get("/nothing").status_code == 404


def _fifty_hostile_contexts() -> list[str]:
    """Names that redact alike, share a 250-character prefix, or carry ESC and bidi characters."""
    tokens = [
        "ghp_"
        + "".join("abcdefghijKLMNOPQRST0123456789uvwxyz"[(index * 7 + step) % 36] for step in range(36))
        for index in range(20)
    ]
    prefix = "arn:aws:eks:ap-northeast-2:123456789012:cluster/" + "training-platform-" * 11
    return (
        [f"ops-{token}" for token in tokens]
        + [f"{prefix}{index:02d}" for index in range(20)]
        + [f"prod-\x1b[31m{index}\u202e-gpu\u2066" for index in range(10)]
    )


def test_fifty_contexts_that_redact_alike_or_share_a_prefix_keep_their_own_series() -> None:
    """Before: 12 distinct `cluster` values for 50 contexts, 21,508 duplicate series, ESC and bidi raw."""
    names = _fifty_hostile_contexts()
    assert len(set(names)) == 50
    report = run_checks(load_demo())
    state = ExporterState()
    for name in names:
        state.record(ClusterResult(name=name, status="scanned", report=report, seconds=1, requests=3))
    text = generate_latest(exporter_registry(state)).decode()
    series = [
        (sample.name, tuple(sorted(sample.labels.items())))
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    ]
    assert len(series) == len(set(series)), "no two clusters share a series"
    clusters = {dict(labels)["cluster"] for _name, labels in series if "cluster" in dict(labels)}
    assert len(clusters) == 50
    assert max(len(value) for value in clusters) <= MAX_LABEL + 3
    assert not {"\x1b", "\u202e", "\u2066"} & set(text)
    assert "prod-\\x1b[31m0\\u202e-gpu\\u2066" in clusters
    assert all("ghp_" not in value or "[REDACTED]" in value for value in clusters)
    assert not any(name[4:20] in text for name in names[:20])


def test_cluster_labels_are_unique_even_against_a_name_that_looks_numbered() -> None:
    labels = cluster_labels(["a-ghp_" + "x1Y2z3" * 6, "a-ghp_" + "Q9w8E7" * 6, "a-[REDACTED]#1", "b"])
    assert len(set(labels.values())) == 4 and labels["b"] == "b"
    assert labels == cluster_labels(reversed(list(labels)))  # order of arrival does not matter


def test_an_unexpected_error_in_a_round_is_one_line_and_the_loop_goes_on(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A bug in a round (here: the scanner) must not end the loop thread with a traceback."""
    import time

    from kubegap.checker.scanning import ScanRequest
    from kubegap.metrics.loop import ScanLoop, Targets

    token = "ghp_" + "Zq7Lm2Xv9Rt4Wp8Ks3Nd6Hf1Jb5Gc0Ya2Eu7"

    def scanner(context: str, request: ScanRequest) -> ClusterResult:
        raise ValueError(f"header Authorization: Bearer {token} rejected")

    state = ExporterState()
    loop = ScanLoop(Targets(ScanRequest(), contexts=("prod",)), state, 0.01, scanner=scanner)
    loop.start()
    deadline = time.monotonic() + 20
    while state.rounds < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    loop.stop(timeout=5)
    err = capsys.readouterr().err
    assert state.rounds >= 2  # the thread lived on after the first failure
    assert "Traceback" not in err and token not in err
    first = err.splitlines()[0]
    assert first.startswith("Error: unexpected ValueError at ") and first.endswith("(retrying in 0.01s)")
