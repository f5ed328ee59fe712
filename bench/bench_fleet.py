"""Fleet benchmark: scans of 10 and 50 emulated clusters against a scan of one, through the real command.

Starts as many emulated API servers as the largest fleet (default fleets 10 and 50, each server a
GPU cluster of 200 nodes and 4,000 pods) with a fixed delay on every request, standing in for the
round trip to a remote API server, and one kubeconfig with a context per server. Then runs, each
as `kubegap scan ... -f json` in a fresh process, and takes the median of --repeat runs:

1. one cluster (`--context c00`);
2. the first fleet one cluster after another (`--concurrency 1`), the baseline;
3. each fleet at the default concurrency (no flag: 8 per CPU, between 4 and 16).

Each row also gives the CPU time of the scan process (user + system), so the CPU each cluster adds
is read off the same run. Requests are counted twice: by the report and by the emulators' own logs,
and a fleet's total must equal N times the single scan's (each cluster is scanned exactly as if
alone). Figures are ratios to the single scan measured in the same run. The emulators run in this
process, on the same cores as the scan. Prints a Markdown table for BENCHMARKS.md.

    .venv/bin/python bench/bench_fleet.py [--clusters 10,50] [--nodes N --pods M] [--latency S] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
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


def _scan(kubeconfig: Path, home: Path, *selection: str) -> tuple[float, float, dict[str, Any]]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("KUBECONFIG", "KUBERNETES_SERVICE_HOST")
    }
    env["HOME"] = str(home)
    command = [sys.executable, "-m", "kubegap", "scan", "--kubeconfig", str(kubeconfig), *selection]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [*command, "-f", "json", "--fail-on", "never"], capture_output=True, text=True, env=env
    )
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    if done.returncode != 0:
        raise SystemExit(f"scan failed ({done.returncode}): {done.stderr[-500:]}")
    document: dict[str, Any] = json.loads(done.stdout)
    return elapsed, cpu, document


Row = tuple[int, int, float, float, int, int]  # clusters, concurrency, wall, CPU, requests x2


def _median_scan(
    kubeconfig: Path, home: Path, emulators: list[KubeEmulator], repeat: int, *selection: str
) -> tuple[int, float, float, int, int]:
    """Concurrency used, median wall and CPU seconds, requests by the report and by the emulators."""
    times, cpus, reported, seen, used = [], [], set(), set(), 1
    for _ in range(repeat):
        for emulator in emulators:
            emulator.reset_log()
        elapsed, cpu, document = _scan(kubeconfig, home, *selection)
        times.append(elapsed)
        cpus.append(cpu)
        if document.get("kind") == "FleetReport":
            reported.add(document["fleet"]["requests"])
            used = document["fleet"]["concurrency"]
            assert document["fleet"]["scanned"] == len(emulators), "a cluster was not scanned"
        else:
            reported.add(document["scan"]["requests"])
        seen.add(sum(len(emulator.requests) for emulator in emulators))
    assert len(reported) == len(seen) == 1, (reported, seen)
    return used, statistics.median(times), statistics.median(cpus), reported.pop(), seen.pop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clusters", default="10,50", help="fleet sizes, comma-separated")
    parser.add_argument("--nodes", type=int, default=200)
    parser.add_argument("--pods", type=int, default=4000)
    parser.add_argument("--latency", type=float, default=0.05, help="seconds added to every request")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="fleets of 3 clusters of 20 nodes, one run each")
    args = parser.parse_args()
    if args.quick:
        args.clusters, args.nodes, args.pods, args.repeat = "3", 20, 200, 1
    sizes = sorted({int(size) for size in args.clusters.split(",")})
    objects = list(gpu_cluster(nodes=args.nodes, pods=args.pods))
    emulators = [KubeEmulator(objects, token=TOKEN).start() for _ in range(sizes[-1])]
    load = os.getloadavg()[0]
    try:
        for emulator in emulators:
            emulator.inject(Fault(pattern=".*", delay=args.latency))
        with tempfile.TemporaryDirectory() as folder:
            home = Path(folder)
            rows: list[Row] = []
            for size in sizes:
                names = {f"c{index:02d}": emulator.url for index, emulator in enumerate(emulators[:size])}
                kubeconfig = write_fleet_kubeconfig(home / f"kubeconfig-{size}", names)
                fleet = emulators[:size]
                if not rows:
                    single = _median_scan(kubeconfig, home, emulators[:1], args.repeat, "--context", "c00")
                    rows.append((1, *single))
                    sequential = _median_scan(
                        kubeconfig, home, fleet, args.repeat, "--all-contexts", "--concurrency", "1"
                    )
                    rows.append((size, *sequential))
                rows.append((size, *_median_scan(kubeconfig, home, fleet, args.repeat, "--all-contexts")))
    finally:
        for emulator in emulators:
            emulator.stop()
            assert_read_only(emulator)
    _table(args, rows, load)


def _table(args: argparse.Namespace, rows: list[Row], load: float) -> None:
    single_seconds, single_cpu, single_requests = rows[0][2], rows[0][3], rows[0][4]
    print(
        f"Fleet scan: emulated clusters of {args.nodes:,} GPU nodes and {args.pods:,} pods, "
        f"{args.latency * 1000:.0f} ms added to every request; `kubegap scan -f json` in a fresh process, "
        f"median of {args.repeat} run(s); {os.cpu_count()} CPU(s), load average {load:.2f} at the start.\n"
    )
    print(
        "| Scan | Concurrency | Wall time | × one cluster | CPU | CPU per added cluster "
        "| Requests (report) | Requests (servers) | = N × one |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for clusters, concurrency, seconds, cpu, reported, seen in rows:
        equal = "yes" if reported == seen == clusters * single_requests else "NO"
        scan = f"{clusters} cluster{'s' if clusters > 1 else ''}"
        added = f"{(cpu - single_cpu) / (clusters - 1):.2f} s" if clusters > 1 else ""
        print(
            f"| {scan} | {concurrency} | {seconds:.2f} s | {seconds / single_seconds:.2f} | {cpu:.2f} s "
            f"| {added} | {reported:,} | {seen:,} | {equal} |"
        )


if __name__ == "__main__":
    main()
