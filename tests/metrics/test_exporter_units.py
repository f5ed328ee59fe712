"""The exporter without Prometheus: what /metrics says after good, failed and recovered scans."""

from __future__ import annotations

from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import TestClient

from kubegap.checker.fleet.report import ClusterResult
from kubegap.checker.registry import all_checks
from kubegap.checker.runner import run_checks
from kubegap.checker.sources import load_demo
from kubegap.metrics.app import create_exporter_app, exporter_registry
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


def test_symptoms_are_counted_per_signature_with_bounded_labels() -> None:
    import datetime as dt
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from k8s_emulator.symptoms import hostile_events, seeded_cluster
    from kubegap.checker.snapshot import Snapshot
    from kubegap.checker.symptoms import collect_symptoms
    from kubegap.checker.symptoms.catalog import SIGNALS, catalog

    now = dt.datetime.now(dt.UTC)
    snapshot = Snapshot(mode="snapshot", created_at=now.isoformat())
    for obj in [*seeded_cluster(now), *hostile_events(2000, now, message_bytes=64)]:
        snapshot.add(obj)
    report = run_checks(snapshot, checks=[])
    report.symptoms = collect_symptoms(snapshot)
    state = ExporterState()
    state.record(ClusterResult(name="prod", status="scanned", report=report, seconds=1.0), now=1000.0)
    samples = _samples(state)
    assert samples[("kubegap_symptoms_status", (("cluster", "prod"), ("status", "read")))] == 1.0
    assert samples[("kubegap_symptom_events", (("cluster", "prod"), ("symptom", "xid-95")))] == 1.0
    assert samples[("kubegap_symptom_places", (("cluster", "prod"), ("symptom", "xid-79")))] == 98.0
    labels = {dict(labels)["symptom"] for name, labels in samples if name == "kubegap_symptom_events"}
    assert labels <= set(catalog().entries) | set(SIGNALS)  # 7 free-text reasons: one signal id


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
