"""Live-read fault benchmark: how long a scan takes to end, and how much memory it holds, when the
emulated API server misbehaves on purpose in each of the ways a real one has.

Each fault mode runs in a fresh subprocess (so peak RSS, ru_maxrss, belongs to that run alone, the
emulator included) against the same emulated GPU cluster, with the default live limits and a 5 s
request timeout (`kubegap scan --timeout 5`). A clean run comes first; memory is reported as a ratio
to it. Verdicts are the check statuses of the scan: no check may pass on a kind the fault spoiled.

    .venv/bin/python bench/bench_live_faults.py [--modes endless-continue,trickle ...] [--quick]

Prints a Markdown table for BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from k8s_emulator import Fault, KubeEmulator  # noqa: E402
from k8s_emulator.factories import gpu_cluster  # noqa: E402

LISTS = r"/api/v1/[a-z]+|/apis/[a-z0-9.-]+/[a-z0-9]+/[a-z]+"
ENCODED = {
    "kind": "APIResourceList",
    "groupVersion": "v1",
    "resources": [
        {"name": "..%2F..%2Fapi%2Fv1%2Fsecrets", "kind": "Pod", "namespaced": True, "verbs": ["list"]},
        {"name": "nodes", "kind": "Node", "namespaced": False, "verbs": ["list"]},
    ],
}
# mode -> (faults, the kind it spoils, what the issue measured before)
MODES: dict[str, tuple[list[Fault], str, str]] = {
    "clean": ([], "", ""),
    "endless-continue": ([Fault(r"/api/v1/pods", mode="endless-continue")], "Pod", "> 120 s, 2,344 requests"),
    "looping-continue": ([Fault(r"/api/v1/pods", mode="looping-continue")], "Pod", ""),
    "repeated-continue": ([Fault(r"/api/v1/pods", mode="repeated-continue")], "Pod", ""),
    "trickle (1 byte / 2 s)": ([Fault(r"/api/v1/nodes", mode="trickle", interval=2.0)], "Node", "> 300 s"),
    "trickle-headers (1 byte / 2 s)": (
        [Fault(r"/api/v1/nodes", mode="trickle-headers", interval=2.0)],
        "Node",
        "",
    ),
    "oversized (endless body)": ([Fault(r"/api/v1/pods", mode="oversized")], "Pod", "5.6 GB RSS for 1.5 GB"),
    "429 forever (Retry-After 5)": ([Fault(LISTS, status=429, retry_after="5")], "Node", "973 s"),
    "hostile discovery (groups: [1])": (
        [Fault(r"/apis", body={"groups": [1]})],
        "apps/DaemonSet",
        "traceback",
    ),
    "encoded resource names": ([Fault(r"/api/v1", body=ENCODED)], "Pod", "GET past the Secrets guard"),
}


def run_one(mode: str, nodes: int, pods: int) -> dict[str, Any]:
    """One scan under one fault mode; runs in its own process."""
    from kubegap.checker.live.limits import LiveLimits
    from kubegap.checker.live.rbac import kinds_read
    from kubegap.checker.live.reader import read_cluster
    from kubegap.checker.registry import all_checks
    from kubegap.checker.runner import run_checks

    faults, spoiled, _before = MODES[mode]
    checks = list(all_checks())
    kinds = kinds_read(check.meta for check in checks)
    with KubeEmulator(gpu_cluster(nodes=nodes, pods=pods)) as emulator:
        for fault in faults:
            emulator.inject(fault)
        kubeconfig = emulator.write_kubeconfig(Path(f"/tmp/kubegap-bench-faults-{mode[:8]}.yaml"))
        started = time.monotonic()
        snapshot = read_cluster(kinds, kubeconfig=str(kubeconfig), limits=LiveLimits(request_timeout=5.0))
        took = time.monotonic() - started
        report = run_checks(snapshot, checks=checks)
        verdicts = Counter(finding.status.value for finding in report.findings)
        needing = {summary.meta.id for summary in report.checks if spoiled and spoiled in summary.meta.needs}
        passed_on_spoiled = sum(
            1 for finding in report.findings if finding.check_id in needing and finding.status.value == "pass"
        )
        coverage = snapshot.status_of(spoiled) if spoiled else None
        return {
            "mode": mode,
            "seconds": took,
            "requests": len(emulator.requests),
            "non_get": len(emulator.non_get_requests()),
            "secret_paths": len(emulator.secret_requests()),
            "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "verdicts": dict(verdicts),
            "spoiled": f"{spoiled}: {coverage.status.value}" if coverage else "-",
            "passed_on_spoiled": passed_on_spoiled,
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--modes", default=",".join(MODES), help="comma-separated fault modes")
    parser.add_argument("--nodes", type=int, default=50)
    parser.add_argument("--pods", type=int, default=3000)
    parser.add_argument("--quick", action="store_true", help="a smaller cluster")
    options = parser.parse_args()
    nodes, pods = (10, 300) if options.quick else (options.nodes, options.pods)
    if options.one:
        print(json.dumps(run_one(options.one, nodes, pods)))
        return
    chosen = ["clean"] + [mode for mode in options.modes.split(",") if mode and mode != "clean"]
    rows = []
    for mode in chosen:
        command = [sys.executable, __file__, "--one", mode, "--nodes", str(nodes), "--pods", str(pods)]
        done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=REPO)
        rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
    baseline = rows[0]["rss_mib"]
    print(f"Cluster: {nodes} GPU nodes, {pods} pods; default limits, request timeout 5 s.\n")
    print("| fault mode | before | time to end | requests | peak RSS (x clean) | spoiled kind | verdicts |")
    print("|---|---|---:|---:|---:|---|---|")
    for row in rows:
        verdicts = ", ".join(f"{key} {value}" for key, value in sorted(row["verdicts"].items()))
        before = MODES[row["mode"]][2] or "-"
        print(
            f"| {row['mode']} | {before} | {row['seconds']:.1f} s | {row['requests']:,} | "
            f"{row['rss_mib']:.0f} MiB ({row['rss_mib'] / baseline:.2f}x) | {row['spoiled']} | {verdicts} |"
        )
    print()
    non_get = sum(row["non_get"] for row in rows)
    secret = sum(row["secret_paths"] for row in rows)
    passed = sum(row["passed_on_spoiled"] for row in rows)
    print(
        f"Every run: non-GET requests {non_get}, Secret-path requests {secret}, "
        f"checks passing on a spoiled kind {passed}."
    )


if __name__ == "__main__":
    main()
