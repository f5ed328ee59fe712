"""Benchmark: how fast `kubegap mcp` answers `initialize`, and its first tool calls, as a host sees it.

    .venv/bin/python bench/bench_mcp_startup.py [--runs 10]

Starts the console script as Claude Code and Codex do (a subprocess on stdio), sends the legacy
`initialize` handshake and times the answer; then times a first `list_checks` (imports the checker)
and a first `search_incidents` (opens the library index). Prints a Markdown table (p50/p95/max in
seconds) with the goal: `initialize` answered within 1 s. Hosts give up at 10 s (Codex's default).
Figures go to BENCHMARKS.md; note the machine's load, since start-up is mostly imports.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path

GOAL_SECONDS = 1.0


def _command() -> list[str]:
    script = Path(sys.executable).with_name("kubegap")
    return [str(script), "mcp"] if script.exists() else [sys.executable, "-m", "kubegap", "mcp"]


def _request(identifier: int, method: str, params: Mapping[str, object]) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": identifier, "method": method, "params": params}) + "\n"


def one_run() -> tuple[float, float, float]:
    """Seconds to the initialize answer, then to the first list_checks and search_incidents answers."""
    started = time.perf_counter()
    with subprocess.Popen(
        _command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        hello = {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "bench", "version": "0"},
        }
        process.stdin.write(_request(1, "initialize", hello))
        process.stdin.flush()
        process.stdout.readline()
        initialize = time.perf_counter() - started
        process.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
        timings = []
        for identifier, (name, arguments) in enumerate(
            [("list_checks", {}), ("search_incidents", {"query": "NCCL"})], start=2
        ):
            begun = time.perf_counter()
            process.stdin.write(_request(identifier, "tools/call", {"name": name, "arguments": arguments}))
            process.stdin.flush()
            process.stdout.readline()
            timings.append(time.perf_counter() - begun)
        process.stdin.close()
        process.wait(timeout=30)
    return initialize, timings[0], timings[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    runs = parser.parse_args().runs
    one_run()  # warm the OS file cache and the library index, as a second session would find them
    results = [one_run() for _ in range(runs)]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"`kubegap mcp`, {runs} runs, {os.cpu_count()} CPUs, load average {load:.2f}\n")
    print("| step | p50 (s) | p95 (s) | max (s) | goal |")
    print("|---|---|---|---|---|")
    for index, label in enumerate(["initialize answered", "first list_checks", "first search_incidents"]):
        values = sorted(result[index] for result in results)
        p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
        goal = f"<= {GOAL_SECONDS:g} s" if index == 0 else ""
        print(f"| {label} | {statistics.median(values):.3f} | {p95:.3f} | {values[-1]:.3f} | {goal} |")


if __name__ == "__main__":
    main()
