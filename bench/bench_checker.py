"""Checker benchmark: how a scan of a large GPU cluster compares with just parsing its snapshot.

Generates a cluster (default 5,000 GPU nodes and 150,000 pods, plus GPU-agent DaemonSets, Jobs,
JobSets and PyTorchJobs), writes it as one `kubectl get -o json` style List, then measures, each in
a fresh subprocess so peak RSS (ru_maxrss) belongs to that measurement alone:

1. orjson parse of the file (the floor any scan pays), also with the garbage collector paused,
   which shows what a loader gains by pausing it while it parses;
2. a full snapshot scan (load the file and run every registered check);
3. a live scan of an emulated API server serving the same objects: requests sent against the
   minimum (discovery plus Σ over kinds of ⌈objects/500⌉ pages), and wall time at the default
   20 qps and unthrottled.

Prints a Markdown table for BENCHMARKS.md.

With --curve, measures instead the whole command a user runs, `kubegap scan --snapshot FILE -f json
-o OUT`, each in a fresh process, at several sizes (default 15,000, 150,000 and 300,000 pods) of two
shapes: `cluster` (the GPU cluster above: many pods sharing few templates, owned by Jobs and
DaemonSets) and `specs` (bare one-container pods with 300 distinct specs). Each is set against the
floor (an orjson parse of the same file with the garbage collector paused) in CPU seconds; start-up
is the same command on a 100-pod snapshot of the same shape, and "less start-up" takes it off.

    .venv/bin/python bench/bench_checker.py [--nodes N --pods M] [--quick]
    .venv/bin/python bench/bench_checker.py --curve [--sizes 15000,150000,300000] [--quick]
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from k8s_emulator import KubeEmulator  # noqa: E402
from k8s_emulator.factories import gpu_cluster, pod  # noqa: E402

PAGE = 500


def _peak_rss_mb() -> float:
    """This process's peak RSS in MB.

    VmHWM rather than ru_maxrss where there is /proc: on Linux ru_maxrss survives exec, so a worker
    forked from this (large) parent would report the parent's size instead of its own.
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


class _Clock:
    """Wall and CPU seconds since start: CPU time stays honest on a machine busy with other work."""

    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def lap(self, prefix: str = "") -> dict[str, float]:
        return {
            f"{prefix}seconds": time.perf_counter() - self.wall,
            f"{prefix}cpu_seconds": time.process_time() - self.cpu,
        }


def _worker(mode: str, path: str, extra: dict[str, Any]) -> dict[str, Any]:
    """Run one measurement in this (fresh) process and return its figures."""
    if mode == "baseline":
        return {"rss_mb": _peak_rss_mb()}
    if mode in ("parse", "parse-gc-paused"):
        raw = Path(path).read_bytes()
        clock = _Clock()
        if mode == "parse-gc-paused":
            gc.disable()
        document = orjson.loads(raw)
        return {
            **clock.lap(),
            "objects": len(document["items"]),
            "rss_mb": _peak_rss_mb(),
            "file_mb": len(raw) / 1e6,
        }
    try:
        from kubegap.checker.registry import all_checks
        from kubegap.checker.runner import run_checks
        from kubegap.checker.sources import load_snapshot_files
    except ImportError as missing:
        return {"error": f"scan engine not importable: {missing}"}
    checks = len(all_checks())
    from kubegap.checker.live.reader import read_cluster

    clock = _Clock()
    if mode == "scan":
        snapshot = load_snapshot_files([path])
        first = clock.lap("load_")
    else:
        snapshot = read_cluster(extra["kinds"], kubeconfig=path, qps=extra["qps"], timeout=60)
        first = clock.lap("read_")
    report = run_checks(snapshot)
    return {
        **first,
        **clock.lap(),
        "requests": snapshot.requests,
        "findings": len(report.findings),
        "checks": checks,
        "rss_mb": _peak_rss_mb(),
    }


def _measure(mode: str, path: Path, **extra: Any) -> dict[str, Any]:
    command = [sys.executable, __file__, "--worker", mode, "--file", str(path), "--extra", json.dumps(extra)]
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"error": f"{mode} worker failed: {tail}"}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _kind_key(obj: dict[str, Any]) -> str:
    group = str(obj["apiVersion"]).rpartition("/")[0]
    return f"{group}/{obj['kind']}" if group else str(obj["kind"])


def _scan_kinds(objects: list[dict[str, Any]]) -> list[str]:
    """What `kubegap scan` reads (the needs of every check) plus every kind in the generated cluster."""
    kinds = {_kind_key(obj) for obj in objects}
    try:
        from kubegap.checker.live.rbac import kinds_read
        from kubegap.checker.registry import all_checks

        kinds |= set(kinds_read(check.meta for check in all_checks()))
    except ImportError:
        pass
    return sorted(kinds - {"Secret"})


def _mb(value: float) -> str:
    return f"{value:,.0f} MB"


SPECS = 300  # distinct pod specs of the `specs` shape


def _spec_pods(pods: int) -> Iterator[dict[str, Any]]:
    """Bare one-container pods (no owner: each is its own workload) cycling through SPECS specs."""
    for index in range(pods):
        spec = index % SPECS
        yield pod(
            f"app-{spec:03d}-{index:07d}",
            f"team-{index % 20:02d}",
            node=f"node-{index % 1000:04d}",
            gpus=spec % 4,
            image=f"registry.example.com/team/app-{spec:03d}:1.{spec}",
        )


def _write_shape(path: Path, shape: str, pods: int) -> None:
    """Stream one shape's List JSON to `path`, item by item (300,000 pods never sit in memory whole)."""
    objects = gpu_cluster(max(1, pods // 30), pods) if shape == "cluster" else _spec_pods(pods)
    with path.open("wb") as out:
        out.write(b'{"apiVersion":"v1","kind":"List","items":[')
        for index, obj in enumerate(objects):
            out.write(b"," if index else b"")
            out.write(orjson.dumps(obj))
        out.write(b"]}")


def _run_command(path: Path, out: Path) -> dict[str, float]:
    """`kubegap scan --snapshot path -f json -o out` in a fresh process: wall, CPU and peak RSS."""
    command = [sys.executable, "-m", "kubegap", "scan", "--snapshot", str(path), "-f", "json"]
    command += ["-o", str(out), "--fail-on", "never"]
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    started = time.perf_counter()
    child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    errors = child.stderr.read().decode() if child.stderr else ""
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"scan failed ({child.returncode}): {errors[-500:]}")
    return {"seconds": wall, "cpu_seconds": usage.ru_utime + usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024}


def curve(sizes: list[int], start_up_runs: int = 2) -> str:
    """Pods -> seconds, RSS and ratio to the floor for both shapes, all measured in this one run."""
    rows = [
        "| shape | pods | file | floor CPU | command wall | command CPU | less start-up | ratio to floor "
        "| peak RSS |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    start_ups = []
    with tempfile.TemporaryDirectory(prefix="kubegap-bench-") as scratch:
        folder = Path(scratch)
        for shape in ("cluster", "specs"):
            tiny = folder / f"{shape}-tiny.json"
            _write_shape(tiny, shape, 100)
            runs = [_run_command(tiny, folder / "out.json") for _ in range(start_up_runs)]
            start_up = min(run["cpu_seconds"] for run in runs)
            start_ups.append(f"{shape} {start_up:.2f} s")
            for pods in sizes:
                path = folder / f"{shape}-{pods}.json"
                _write_shape(path, shape, pods)
                floor = _measure("parse-gc-paused", path)
                scan = _run_command(path, folder / "out.json")
                path.unlink()
                work = scan["cpu_seconds"] - start_up
                rows.append(
                    f"| {shape} | {pods:,} | {floor['file_mb']:,.0f} MB | {floor['cpu_seconds']:.2f} s "
                    f"| {scan['seconds']:.2f} s | {scan['cpu_seconds']:.2f} s | {work:.2f} s "
                    f"| {work / floor['cpu_seconds']:.1f}x | {_mb(scan['rss_mb'])} |"
                )
                print(rows[-1], file=sys.stderr)
        rows.append(f"\nstart-up (the command on a 100-pod snapshot), CPU: {', '.join(start_ups)}")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--pods", type=int, default=150_000)
    parser.add_argument("--quick", action="store_true", help="a smoke-sized run: 200 nodes, 6,000 pods")
    parser.add_argument("--keep", type=Path, help="also write the generated List JSON here")
    parser.add_argument("--skip-throttled", action="store_true", help="skip the live scan at 20 qps")
    parser.add_argument("--curve", action="store_true", help="the whole command at --sizes, two shapes")
    parser.add_argument("--sizes", default="15000,150000,300000", help="pods per --curve point")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--file", help=argparse.SUPPRESS)
    parser.add_argument("--extra", default="{}", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(_worker(args.worker, args.file, json.loads(args.extra))))
        return
    if args.curve:
        sizes = [600, 3000] if args.quick else [int(size) for size in args.sizes.split(",")]
        print(curve(sizes, start_up_runs=1 if args.quick else 2))
        return
    if args.quick:
        args.nodes, args.pods = 200, 6000

    started = time.perf_counter()
    objects = list(gpu_cluster(args.nodes, args.pods))
    counts: dict[str, int] = {}
    for obj in objects:
        counts[_kind_key(obj)] = counts.get(_kind_key(obj), 0) + 1
    kinds = _scan_kinds(objects)
    with tempfile.TemporaryDirectory(prefix="kubegap-bench-") as scratch:
        snapshot_path = args.keep or Path(scratch) / "cluster.json"
        snapshot_path.write_bytes(orjson.dumps({"apiVersion": "v1", "kind": "List", "items": objects}))
        size_mb = snapshot_path.stat().st_size / 1e6
        print(
            f"generated {len(objects):,} objects ({size_mb:,.0f} MB) in {time.perf_counter() - started:.1f}s",
            file=sys.stderr,
        )

        results = {
            "baseline": _measure("baseline", snapshot_path),
            "parse": _measure("parse", snapshot_path),
            "parse-gc-paused": _measure("parse-gc-paused", snapshot_path),
            "scan": _measure("scan", snapshot_path),
        }
        with KubeEmulator(objects, enable=kinds) as emulator:
            kubeconfig = emulator.write_kubeconfig(Path(scratch) / "kubeconfig")
            results["unthrottled"] = _measure("live", kubeconfig, kinds=kinds, qps=0)
            discovery = sum(1 for request in emulator.requests if "limit" not in request.query)
            if not args.skip_throttled:
                results["throttled"] = _measure("live", kubeconfig, kinds=kinds, qps=20)
    pages = sum(max(1, math.ceil(counts.get(kind, 0) / PAGE)) for kind in kinds)
    print(_table(args, size_mb, len(objects), len(kinds), results, pages, discovery))


def _table(
    args: argparse.Namespace,
    size_mb: float,
    total: int,
    kinds: int,
    results: dict[str, dict[str, Any]],
    pages: int,
    discovery: int,
) -> str:
    """Markdown rows; RSS ratios use the RSS above a bare worker's, so interpreter start-up is not counted.

    Time ratios use CPU seconds, which other work on the machine disturbs far less than wall time.
    """
    baseline = results["baseline"].get("rss_mb", 0.0)
    parse, scan = results["parse"], results["scan"]
    rows = [
        f"Checker benchmark: {args.nodes:,} GPU nodes, {args.pods:,} pods, {total:,} objects, "
        f"{size_mb:,.0f} MB List JSON, {kinds} kinds listed live; a bare worker peaks at {_mb(baseline)}; "
        f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}\n",
        "| measure | wall | CPU | peak RSS | ratio |",
        "|---|---:|---:|---:|---|",
    ]

    def row(title: str, result: dict[str, Any], ratio: str) -> None:
        if "error" in result:
            rows.append(f"| {title} | {result['error']} | | | |")
            return
        times = f"{result['seconds']:.2f} s | {result['cpu_seconds']:.2f} s"
        rows.append(f"| {title} | {times} | {_mb(result['rss_mb'])} | {ratio} |")

    def memory(result: dict[str, Any]) -> str:
        return f"(RSS - bare) / file = {(result['rss_mb'] - baseline) / size_mb:.1f}x"

    def cpu_ratio(result: dict[str, Any], base: dict[str, Any], name: str) -> str:
        if "cpu_seconds" not in result or "cpu_seconds" not in base:
            return ""
        return f"CPU / {name} = {result['cpu_seconds'] / base['cpu_seconds']:.2f}x"

    row("orjson parse (floor)", parse, memory(parse) if "error" not in parse else "")
    row(
        "orjson parse, GC paused",
        results["parse-gc-paused"],
        cpu_ratio(results["parse-gc-paused"], parse, "parse"),
    )
    if "error" not in scan:
        title = f"full snapshot scan, {scan['checks']} checks (load {scan['load_cpu_seconds']:.2f} s CPU)"
        row(title, scan, f"{cpu_ratio(scan, parse, 'parse')}; {memory(scan)}")
    else:
        row("full snapshot scan", scan, "")
    for name, title in (
        ("unthrottled", "live scan, unthrottled"),
        ("throttled", "live scan, 20 qps (default)"),
    ):
        live = results.get(name)
        if not live or "error" in live:
            if live:
                row(title, live, "")
            continue
        lists = live["requests"] - discovery
        ratio = f"requests {live['requests']:,} = {discovery} discovery + {lists:,} lists"
        ratio += f" (Σ⌈objects/500⌉ = {pages:,}); {cpu_ratio(live, scan, 'snapshot scan')}; {memory(live)}"
        row(
            f"{title} (read {live['read_seconds']:.2f} s wall, {live['read_cpu_seconds']:.2f} s CPU)",
            live,
            ratio,
        )
    return "\n".join(rows)


if __name__ == "__main__":
    main()
