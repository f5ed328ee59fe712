"""The metric families, built at scrape time from ExporterState with the official prometheus_client.

Labels are `cluster`, `check`, `severity` and `status`. Check status is a state set (one series per
status, 1 for the current one), so `kubegap_check_status{status="fail"} == 1` is an alert expression
and a check that goes from fail to pass flips two series instead of vanishing. Every label value
passes the output chokepoint of the reports (redaction, control characters shown as escapes), since
context names are free text from a kubeconfig, and the `cluster` values are also bounded and unique
(`labels.py`).
"""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, InfoMetricFamily
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector

from kubegap import __version__
from kubegap.checker.finding import Severity, Status
from kubegap.checker.reports._common import name_text
from kubegap.checker.scan_report import COUNT_KEYS
from kubegap.checker.snapshot import Coverage
from kubegap.metrics.labels import cluster_labels
from kubegap.metrics.state import ClusterState, ExporterState

CHECK_STATUSES = tuple(status.value for status in Status)
CLUSTER_STATUSES = ("scanned", "forbidden", "unreachable", "error")
COVERAGE_STATUSES = tuple(status.value for status in Coverage)


def _label(value: str) -> str:
    """A label value through the output chokepoint the reports use: redacted, every control, bidi and
    line-breaking character shown as an escape, so a context name cannot add a line to /metrics."""
    return name_text(value, 200)


class KubegapCollector(Collector):
    """Collects from the state on every scrape, so /metrics never shows half of a scan."""

    def __init__(self, state: ExporterState) -> None:
        self._state = state

    def collect(self) -> Iterator[Metric]:
        clusters = self._state.clusters()
        yield InfoMetricFamily(
            "kubegap_build", "kubegap version of this exporter", value={"version": __version__}
        )
        yield from self._scan_families(clusters)
        yield from self._check_families(clusters)

    def _scan_families(self, clusters: list[ClusterState]) -> Iterator[Metric]:
        success = GaugeMetricFamily(
            "kubegap_scan_success",
            "1 when the last scan of the cluster succeeded, else 0",
            labels=["cluster"],
        )
        status = GaugeMetricFamily(
            "kubegap_scan_status",
            "Outcome of the last scan attempt (state set): scanned, forbidden, unreachable or error",
            labels=["cluster", "status"],
        )
        duration = GaugeMetricFamily(
            "kubegap_scan_duration_seconds", "Wall time of the last scan attempt", labels=["cluster"]
        )
        requests = GaugeMetricFamily(
            "kubegap_scan_requests", "API requests the last scan sent (retries included)", labels=["cluster"]
        )
        requests_total = CounterMetricFamily(
            "kubegap_api_requests", "API requests sent to the cluster since start", labels=["cluster"]
        )
        scans = CounterMetricFamily(
            "kubegap_scans", "Scan attempts since start, by outcome", labels=["cluster", "result"]
        )
        last_success = GaugeMetricFamily(
            "kubegap_last_success_timestamp_seconds",
            "Unix time of the last successful scan (0 before the first)",
            labels=["cluster"],
        )
        names = cluster_labels(cluster.name for cluster in clusters)
        for cluster in clusters:
            name = names[cluster.name]
            success.add_metric([name], 1.0 if cluster.last_status == "scanned" else 0.0)
            for value in CLUSTER_STATUSES:
                status.add_metric([name, value], 1.0 if cluster.last_status == value else 0.0)
            duration.add_metric([name], cluster.last_duration)
            requests.add_metric([name], float(cluster.last_requests))
            requests_total.add_metric([name], float(cluster.requests_total))
            for result in CLUSTER_STATUSES:
                scans.add_metric([name, result], float(cluster.scans_total.get(result, 0)))
            last_success.add_metric([name], cluster.last_success)
        yield from (success, status, duration, requests, requests_total, scans, last_success)

    def _check_families(self, clusters: list[ClusterState]) -> Iterator[Metric]:
        labels = ["cluster", "check", "severity"]
        check_status = GaugeMetricFamily(
            "kubegap_check_status",
            "Status of each check in the last good scan (state set: fail, unknown, pass, not-applicable)",
            labels=[*labels, "status"],
        )
        findings = GaugeMetricFamily(
            "kubegap_check_findings",
            "Findings of each check by status (fail counts open fails; exempted ones apart)",
            labels=[*labels, "status"],
        )
        open_fails = GaugeMetricFamily(
            "kubegap_open_fails", "Open (not exempted) fails by severity", labels=["cluster", "severity"]
        )
        unknown_checks = GaugeMetricFamily(
            "kubegap_unknown_checks",
            "Checks that could not decide (a needed kind was forbidden, absent or failed to read)",
            labels=["cluster"],
        )
        coverage = GaugeMetricFamily(
            "kubegap_coverage_kinds",
            "Kinds the last successful scan wanted, by how they were read",
            labels=["cluster", "status"],
        )
        names = cluster_labels(cluster.name for cluster in clusters)
        for cluster in clusters:
            report = cluster.last_report
            if report is None:
                continue
            name = names[cluster.name]
            for summary in report.checks:
                base = [name, _label(summary.check_id), summary.meta.severity.value]
                for value in CHECK_STATUSES:
                    check_status.add_metric([*base, value], 1.0 if summary.status.value == value else 0.0)
                for key in COUNT_KEYS:
                    findings.add_metric([*base, key], float(summary.counts.get(key, 0)))
            for severity in Severity:
                open_fails.add_metric([name, severity.value], float(report.severity_counts[severity.value]))
            unknown_checks.add_metric(
                [name], float(sum(1 for summary in report.checks if summary.status is Status.unknown))
            )
            by_status = {value: 0 for value in COVERAGE_STATUSES}
            for row in report.coverage:
                by_status[row.status] = by_status.get(row.status, 0) + 1
            for value, count in by_status.items():
                coverage.add_metric([name, value], float(count))
        yield from (check_status, findings, open_fails, unknown_checks, coverage)
