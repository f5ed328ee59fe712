"""Benchmark: how fast `kubegap mcp` answers `initialize`, and its first tool calls, as a host sees it.

    .venv/bin/python bench/bench_mcp_startup.py [--runs 10]

Starts the console script as Claude Code and Codex do (a subprocess on stdio), sends the
`initialize` handshake and times the answer; then, as a host does, `notifications/initialized` and
`tools/list`, and after a pause (`--pause`, default 1 s: the time a person or a model takes before
the first call) times a first `list_checks`, a first `search_incidents` and three later
`search_incidents` with other queries (each run starts with another of the four, so first and later
searches are the same mix). Prints a Markdown table (p50/p95/max in seconds) with the
goals: `initialize` answered within 0.5 s, the first search within 1.2x the later ones (the ratio of
medians). Hosts give up at 10 s (Codex's default). Figures go to BENCHMARKS.md; note the machine's
load, since start-up is mostly imports.
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

GOAL_SECONDS = 0.5
FIRST_SEARCH_RATIO = 1.2
# Run i asks QUERIES[i % 4] first and the other three later, so over the runs the first and the
# later searches are the same mix of queries (a broad one costs more than a narrow one).
QUERIES = ("NCCL", "Xid 79", "etcd overload", "checkpoint storage full")


def _command() -> list[str]:
    script = Path(sys.executable).with_name("kubegap")
    return [str(script), "mcp"] if script.exists() else [sys.executable, "-m", "kubegap", "mcp"]


def _request(identifier: int, method: str, params: Mapping[str, object]) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": identifier, "method": method, "params": params}) + "\n"


def one_run(pause: float, turn: int = 0) -> tuple[float, ...]:
    """Seconds to the initialize answer, then to the list_checks, first and later search answers."""
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
        process.stdin.write(_request(2, "tools/list", {}))
        process.stdin.flush()
        process.stdout.readline()
        time.sleep(pause)
        order = QUERIES[turn % len(QUERIES) :] + QUERIES[: turn % len(QUERIES)]
        calls: list[tuple[str, dict[str, str]]] = [("list_checks", {})]
        calls += [("search_incidents", {"query": query}) for query in order]
        timings = []
        for identifier, (name, arguments) in enumerate(calls, start=3):
            begun = time.perf_counter()
            process.stdin.write(_request(identifier, "tools/call", {"name": name, "arguments": arguments}))
            process.stdin.flush()
            process.stdout.readline()
            timings.append(time.perf_counter() - begun)
        process.stdin.close()
        process.wait(timeout=30)
    return (initialize, *timings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--pause", type=float, default=1.0, help="seconds between tools/list and the calls")
    args = parser.parse_args()
    one_run(args.pause)  # warm the OS file cache and the library index, as a second session would find them
    results = [one_run(args.pause, turn) for turn in range(args.runs)]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"`kubegap mcp`, {args.runs} runs, {args.pause:g} s pause, {os.cpu_count()} CPUs, load {load:.2f}\n"
    )
    print("| step | p50 (s) | p95 (s) | max (s) | goal |")
    print("|---|---|---|---|---|")
    later = [statistics.median(result[3:]) for result in results]
    rows = [
        ("initialize answered", [result[0] for result in results], f"<= {GOAL_SECONDS:g} s"),
        ("first list_checks", [result[1] for result in results], ""),
        ("first search_incidents", [result[2] for result in results], ""),
        ("later search_incidents (median of 3 per run)", later, ""),
    ]
    for label, samples, goal in rows:
        values = sorted(samples)
        p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
        print(f"| {label} | {statistics.median(values):.3f} | {p95:.3f} | {values[-1]:.3f} | {goal} |")
    ratio = statistics.median(result[2] for result in results) / statistics.median(later)
    print(f"\nFirst search / later searches (medians): {ratio:.2f}x (goal <= {FIRST_SEARCH_RATIO}x).")


if __name__ == "__main__":
    main()
