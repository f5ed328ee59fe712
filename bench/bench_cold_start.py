"""Benchmark: how long the `kubegap` command takes to answer, cold and warm, and how much memory it peaks at.

    .venv/bin/python bench/bench_cold_start.py [--runs 5]

Every row is the console script in a fresh process (as a person types it), timed from start to exit,
with its peak RSS read from the kernel (`wait4`). Each run gets an empty cache folder
(XDG_CACHE_HOME), so "cold" means what a new user meets:

- first search with no index yet: the command builds the index itself (the notice on stderr says so);
- `kubegap incidents index`: the same build as an install step (`make run` runs it once);
- first search after that step: a fresh process, Kiwi never loaded, nothing remembered;
- warm search: the same search again (median of the runs), in English and in Korean;
- `--help`, `--version` and `checks list`, which need no index at all.

Goals (issue #30): a first search <= 1.5 s and <= 150 MiB, a warm one <= 0.3 s. Prints a Markdown
table; figures go to BENCHMARKS.md with the machine's load, since start-up is mostly imports.
`--seed-from CACHE` copies an index already built into each run's cache instead of building it (the
test suite's smoke run: the build rows are then left out).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FIRST_SEARCH_SECONDS = 1.5
FIRST_SEARCH_MIB = 150
WARM_SECONDS = 0.3
QUERY = ["incidents", "list", "-q", "NCCL timeout"]
KOREAN_QUERY = ["incidents", "list", "-q", "노드가 멈췄다"]


def _command() -> list[str]:
    script = Path(sys.executable).with_name("kubegap")
    return [str(script)] if script.exists() else [sys.executable, "-m", "kubegap"]


def run(arguments: list[str], cache: Path) -> tuple[float, float, str]:
    """(seconds, peak RSS in MiB, stderr) of one `kubegap` process with this cache folder."""
    environment = {key: value for key, value in os.environ.items() if key not in ("KUBEGAP_DB",)}
    environment.update(XDG_CACHE_HOME=str(cache), KUBEGAP_WORD_CACHE=str(cache / "words.sqlite3"))
    environment["KUBEGAP_LANG"] = "en"
    started = time.perf_counter()
    process = subprocess.Popen(
        [*_command(), *arguments],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=environment,
    )
    assert process.stderr is not None
    errors = process.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"kubegap {' '.join(arguments)} exited {process.returncode}: {errors[-2000:]}")
    return seconds, usage.ru_maxrss / 1024, errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed-from", type=Path, help="a cache folder whose kubegap/ index is copied in")
    args = parser.parse_args()
    runs = max(1, args.runs)
    workdir = Path(tempfile.mkdtemp(prefix="kubegap-cold-"))
    rows: list[tuple[str, list[tuple[float, float]], str]] = []
    try:
        noticed = True
        built_by_search, installed, first, warm, korean = [], [], [], [], []
        for attempt in range(runs):
            installed_cache = workdir / f"install-{attempt}"
            if args.seed_from is not None:
                shutil.copytree(args.seed_from / "kubegap", installed_cache / "kubegap")
            else:
                fresh = workdir / f"search-{attempt}"
                seconds, rss, errors = run(QUERY, fresh)
                built_by_search.append((seconds, rss))
                noticed = noticed and "building the search index" in errors
                shutil.rmtree(fresh, ignore_errors=True)
            installed.append(run(["incidents", "index"], installed_cache)[:2])
            first.append(run(QUERY, installed_cache)[:2])
            warm.append(run(QUERY, installed_cache)[:2])
            korean.append(run(KOREAN_QUERY, installed_cache)[:2])
        if built_by_search:
            note = "notice on stderr" if noticed else "NO notice on stderr"
            label = "first `kubegap incidents list -q`, no index yet (builds it)"
            rows.append((label, built_by_search, note))
            rows.append(("`kubegap incidents index` (the install step)", installed, ""))
        else:
            rows.append(("`kubegap incidents index`, index copied in (nothing to build)", installed, ""))
        first_goal = f"<= {FIRST_SEARCH_SECONDS} s, <= {FIRST_SEARCH_MIB} MiB"
        rows.append(("first `kubegap incidents list -q` after install", first, first_goal))
        rows.append(("warm `kubegap incidents list -q`", warm, f"<= {WARM_SECONDS} s"))
        rows.append(("warm `kubegap incidents list -q` (Korean words)", korean, f"<= {WARM_SECONDS} s"))
        empty = workdir / "no-index"
        for label, arguments in (
            ("`kubegap --help`", ["--help"]),
            ("`kubegap --version`", ["--version"]),
            ("`kubegap checks list`", ["checks", "list"]),
        ):
            rows.append((label, [run(arguments, empty)[:2] for _ in range(runs)], ""))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"`kubegap` start-up, {runs} run(s) each, {os.cpu_count()} CPUs, load average {load:.2f}\n")
    print("| command | median s | max s | peak RSS MiB (max) | goal |")
    print("|---|---:|---:|---:|---|")
    for label, samples, goal in rows:
        seconds = [sample[0] for sample in samples]
        peak = max(sample[1] for sample in samples)
        print(f"| {label} | {statistics.median(seconds):.2f} | {max(seconds):.2f} | {peak:.0f} | {goal} |")


if __name__ == "__main__":
    main()
