"""Benchmark: the exporter's /metrics for 50 contexts whose names collide once redacted or cut.

    .venv/bin/python bench/bench_exporter_labels.py

20 contexts differ only by a GitHub token (all redact to `ops-[REDACTED]`), 20 share a 250-character
ARN prefix, and 10 carry an ESC sequence and bidi controls. Each is recorded with the demo cluster's
report, as a fleet exporter would after one round. Prints one Markdown row: series, duplicate series
(a label set seen twice, which Prometheus rejects), distinct `cluster` values, body size, longest
`cluster` value, and whether an ESC or a bidi control reached the body. Figures go to BENCHMARKS.md.
"""

from __future__ import annotations

import random
import string
from collections import Counter

from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from kubegap.checker.fleet.report import ClusterResult
from kubegap.checker.runner import run_checks
from kubegap.checker.sources import load_demo
from kubegap.metrics.app import exporter_registry
from kubegap.metrics.state import ExporterState


def context_names() -> list[str]:
    generator = random.Random(7)
    alphabet = string.ascii_letters + string.digits
    tokens = ["ghp_" + "".join(generator.choice(alphabet) for _ in range(36)) for _ in range(20)]
    prefix = "arn:aws:eks:ap-northeast-2:123456789012:cluster/" + "training-platform-" * 12
    return (
        [f"ops-{token}" for token in tokens]
        + [f"{prefix}{index:02d}" for index in range(20)]
        + [f"prod-\x1b[31m{index}\u202e-gpu" for index in range(10)]
    )


def main() -> None:
    report = run_checks(load_demo())
    state = ExporterState()
    names = context_names()
    for name in names:
        state.record(ClusterResult(name=name, status="scanned", report=report, seconds=1, requests=3))
    body = generate_latest(exporter_registry(state))
    text = body.decode()
    series = [
        (sample.name, tuple(sorted(sample.labels.items())))
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    ]
    duplicates = sum(count - 1 for count in Counter(series).values() if count > 1)
    clusters = {dict(labels)["cluster"] for _name, labels in series if "cluster" in dict(labels)}
    print("| contexts | series | duplicate series | distinct `cluster` | /metrics | longest | ESC | bidi |")
    print("|---:|---:|---:|---:|---:|---:|---|---|")
    print(
        f"| {len(names)} | {len(series):,} | {duplicates:,} | {len(clusters)} | {len(body) / 2**20:.1f} MiB "
        f"| {max(map(len, clusters))} | {'yes' if chr(27) in text else 'no'} "
        f"| {'yes' if chr(0x202E) in text else 'no'} |"
    )


if __name__ == "__main__":
    main()
