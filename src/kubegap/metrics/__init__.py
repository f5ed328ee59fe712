"""The Prometheus exporter: re-scan clusters on an interval and expose the results on /metrics."""
