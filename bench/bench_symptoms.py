"""Symptoms benchmark: a hostile stream of Events read live, in time and memory, with and without the digest.

The emulated API server (in a child process, so its memory is not ours) serves N events (default
100,000) under both core/v1 and events.k8s.io/v1, as a real API server does (`--core-only`: core
only, to weigh the second group), of 97 nodes and 7 reasons: 2 KiB messages with control
characters, bidi overrides and credentials, an Xid line in every fifth, a 1 MB message in every
thousandth. Each measured run is its
own subprocess, so peak RSS (ru_maxrss) belongs to it alone:

* `symptoms`: `read_cluster` of Events (both groups), Nodes, Pods and Jobs as every scan now does
  (each event folded into a bounded digest as it is listed), then `collect_symptoms`;
* `raw list`: the core Event LIST kept whole (every event as a compacted dict, what the reader does for
  every other kind), for the memory ratio.

Reported: wall time against the live scan's automatic time budget, peak RSS above the interpreter's
start, events kept, and what the section counted. Prints a Markdown table for BENCHMARKS.md.

    .venv/bin/python bench/bench_symptoms.py [--events 100000]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))


def _serve(count: int, folder: Path, core_only: bool) -> None:
    """Child: serve the hostile stream until stdin closes; print the kubeconfig path when ready."""
    from k8s_emulator import KubeEmulator
    from k8s_emulator.symptoms import hostile_events, seeded_cluster, served_by_both_groups

    now = dt.datetime.now(dt.UTC)
    objects = [obj for obj in seeded_cluster(now) if obj["kind"] != "Event"]
    objects += hostile_events(count, now, message_bytes=2048)
    objects = objects if core_only else served_by_both_groups(objects)
    with KubeEmulator(objects) as emulator:
        print(emulator.write_kubeconfig(folder / "kubeconfig", context="bench"), flush=True)
        sys.stdin.read()


def _measure(mode: str, kubeconfig: str) -> None:
    """Child: one measured read; prints a JSON line."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    from kubegap.checker.live.client import ReadOnlyClient
    from kubegap.checker.live.discovery import discover
    from kubegap.checker.live.limits import LiveLimits, ScanClock
    from kubegap.checker.live.pages import list_all
    from kubegap.checker.live.reader import read_cluster
    from kubegap.checker.sources._compact import Compactor
    from kubegap.checker.symptoms import SIGNAL_KINDS, collect_symptoms
    from kubegap.checker.symptoms.events import EVENT_KINDS

    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.monotonic()
    result: dict[str, Any] = {"mode": mode}
    if mode == "symptoms":
        snapshot = read_cluster(list(SIGNAL_KINDS), kubeconfig=kubeconfig)
        report = collect_symptoms(snapshot)
        result |= {
            "kept": sum(len(snapshot.of(key)) for key in EVENT_KINDS),
            "coverage": snapshot.status_of("Event").status.value,
            "counted": report.events,
            "groups": len(report.groups) + report.more_groups,
            "budget_note": str(snapshot.notes[-1]),
        }
    else:
        client = ReadOnlyClient.from_kubeconfig(kubeconfig)
        clock = ScanClock()
        found = discover(client, ["Event"], deadline=clock.deadline).find("Event")
        assert found is not None
        items = list_all(client, found, None, LiveLimits(), clock, lambda count: None, Compactor().compact)
        result |= {
            "kept": len(items),
            "coverage": "read",
            "counted": len(items),
            "groups": 0,
            "budget_note": "",
        }
    result["seconds"] = time.monotonic() - started
    result["peak_mib"] = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) / 1024
    result["import_mib"] = (base - before) / 1024
    print(json.dumps(result))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--serve", type=Path)
    parser.add_argument("--core-only", action="store_true")
    parser.add_argument("--measure", nargs=2)
    options = parser.parse_args()
    if options.serve:
        _serve(options.events, options.serve, options.core_only)
        return
    if options.measure:
        _measure(*options.measure)
        return
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [sys.executable, __file__, "--events", str(options.events), "--serve", folder]
            + (["--core-only"] if options.core_only else []),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert server.stdout is not None and server.stdin is not None
        kubeconfig = server.stdout.readline().strip()
        rows = []
        for mode in ("symptoms", "raw list"):
            done = subprocess.run(
                [sys.executable, __file__, "--measure", mode, kubeconfig],
                capture_output=True,
                text=True,
                check=True,
            )
            rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
        server.stdin.close()
        server.wait(timeout=60)
    symptoms, raw = rows
    print(
        f"{options.events:,} hostile events (2 KiB messages, one 1 MB message per thousand), "
        "live through the emulator\n"
    )
    print("| read | wall time | peak RSS above start | events kept in memory | distinct events counted |")
    print("| --- | --- | --- | --- | --- |")
    for row in rows:
        print(
            f"| {row['mode']} | {row['seconds']:.1f} s | {row['peak_mib']:.0f} MiB | {row['kept']:,} | "
            f"{row['counted']:,} |"
        )
    print(f"\nmemory, symptoms / raw list: {symptoms['peak_mib'] / max(raw['peak_mib'], 1):.2f}")
    print(f"symptom groups: {symptoms['groups']}; {symptoms['budget_note']}")


if __name__ == "__main__":
    main()
