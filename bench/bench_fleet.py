"""Fleet benchmark: a scan of 10 emulated clusters against a scan of one, through the real command.

Starts N emulated API servers (default 10, each a GPU cluster of 200 nodes and 4,000 pods) with a
fixed delay on every request, standing in for the round trip to a remote API server, and one
kubeconfig with a context per server. Then runs, each as `kubegap scan ... -f json` in a fresh
process, and takes the median of --repeat runs:

1. one cluster (`--context c00`);
2. the whole fleet with `--all-contexts` at --concurrency 1 (one after another), the default 4, and N.

Requests are counted twice: by the report and by the emulators' own logs, and the fleet's total
must equal N times the single scan's (each cluster is scanned exactly as if alone). Figures are
ratios to the single scan measured in the same run. Prints a Markdown table for BENCHMARKS.md.

    .venv/bin/python bench/bench_fleet.py [--clusters N] [--nodes N --pods M] [--latency S] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from k8s_emulator import KubeEmulator  # noqa: E402
from k8s_emulator.factories import gpu_cluster  # noqa: E402
from k8s_emulator.server import Fault  # noqa: E402
from k8s_emulator.testing import TOKEN, assert_read_only, write_fleet_kubeconfig  # noqa: E402


def _scan(kubeconfig: Path, home: Path, *selection: str) -> tuple[float, dict[str, Any]]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("KUBECONFIG", "KUBERNETES_SERVICE_HOST")
    }
    env["HOME"] = str(home)
    command = [sys.executable, "-m", "kubegap", "scan", "--kubeconfig", str(kubeconfig), *selection]
    started = time.perf_counter()
    done = subprocess.run(
        [*command, "-f", "json", "--fail-on", "never"], capture_output=True, text=True, env=env
    )
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"scan failed ({done.returncode}): {done.stderr[-500:]}")
    document: dict[str, Any] = json.loads(done.stdout)
    return elapsed, document


def _median_scan(
    kubeconfig: Path, home: Path, emulators: list[KubeEmulator], repeat: int, *selection: str
) -> tuple[float, int, int]:
    """Median wall seconds, requests by the report, requests the emulators saw (per run)."""
    times, reported, seen = [], set(), set()
    for _ in range(repeat):
        for emulator in emulators:
            emulator.reset_log()
        elapsed, document = _scan(kubeconfig, home, *selection)
        times.append(elapsed)
        if document.get("kind") == "FleetReport":
            reported.add(document["fleet"]["requests"])
            assert document["fleet"]["scanned"] == len(emulators), "a cluster was not scanned"
        else:
            reported.add(document["scan"]["requests"])
        seen.add(sum(len(emulator.requests) for emulator in emulators))
    assert len(reported) == len(seen) == 1, (reported, seen)
    return statistics.median(times), reported.pop(), seen.pop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clusters", type=int, default=10)
    parser.add_argument("--nodes", type=int, default=200)
    parser.add_argument("--pods", type=int, default=4000)
    parser.add_argument("--latency", type=float, default=0.05, help="seconds added to every request")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="3 clusters of 20 nodes, one run each")
    args = parser.parse_args()
    if args.quick:
        args.clusters, args.nodes, args.pods, args.repeat = 3, 20, 200, 1
    objects = list(gpu_cluster(nodes=args.nodes, pods=args.pods))
    emulators = [KubeEmulator(objects, token=TOKEN).start() for _ in range(args.clusters)]
    try:
        for emulator in emulators:
            emulator.inject(Fault(pattern=".*", delay=args.latency))
        with tempfile.TemporaryDirectory() as folder:
            home = Path(folder)
            names = {f"c{index:02d}": emulator.url for index, emulator in enumerate(emulators)}
            kubeconfig = write_fleet_kubeconfig(home / "kubeconfig", names)
            single = _median_scan(kubeconfig, home, emulators[:1], args.repeat, "--context", "c00")
            rows = [("1 cluster", 1, *single)]
            for concurrency in sorted({1, 4, args.clusters}):
                measured = _median_scan(
                    kubeconfig,
                    home,
                    emulators,
                    args.repeat,
                    "--all-contexts",
                    "--concurrency",
                    str(concurrency),
                )
                rows.append((f"{args.clusters} clusters", concurrency, *measured))
    finally:
        for emulator in emulators:
            emulator.stop()
            assert_read_only(emulator)
    _table(args, rows)


def _table(args: argparse.Namespace, rows: list[tuple[str, int, float, int, int]]) -> None:
    single_seconds, single_requests = rows[0][2], rows[0][3]
    print(
        f"Fleet scan: {args.clusters} emulated clusters of {args.nodes:,} GPU nodes and {args.pods:,} pods, "
        f"{args.latency * 1000:.0f} ms added to every request; `kubegap scan -f json` in a fresh process, "
        f"median of {args.repeat} run(s); {os.cpu_count()} CPU(s).\n"
    )
    print(
        "| Scan | Concurrency | Wall time | × one cluster | Requests (report) | Requests (servers) "
        "| = N × one |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for name, concurrency, seconds, reported, seen in rows:
        clusters = 1 if name == "1 cluster" else args.clusters
        equal = "yes" if reported == seen == clusters * single_requests else "NO"
        print(
            f"| {name} | {concurrency} | {seconds:.2f} s | {seconds / single_seconds:.2f} | {reported:,} | "
            f"{seen:,} | {equal} |"
        )


if __name__ == "__main__":
    main()
