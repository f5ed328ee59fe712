"""Child process of the sweep: read each hostile input through the doors its modes name, and render.

Reads one JSON job a line on stdin, `{"path": ..., "modes": [...]}`, and answers one JSON line each:
what each mode said (`ok`, or the one-line error), how long the job took (wall and CPU seconds), and
any exception that is not a KubegapError, with its traceback (a traceback is a failure). Modes:

* `snapshot`, `manifests`: scan the path as that source and, when it loads, render every format;
* `exemptions`: load it as an `--exemptions` file and scan a small cluster with it, rendered in every
  format;
* `kubeconfig`: scan the live cluster through it (every server in the sweep is a closed local port,
  so the scan ends with a one-line error or, for a good file, a report of what could not be read).

The process is reused for many jobs (knowledge, checks and the kubernetes client load once). A
per-job alarm turns a job that runs past its budget into a recorded hang instead of a stuck run; the
parent caps memory with the argument (RLIMIT_AS).
"""

from __future__ import annotations

import hashlib
import json
import resource
import signal
import sys
import time
import traceback
from functools import cache
from pathlib import Path
from typing import Any

CASE_ALARM_SECONDS = 30  # wall seconds without CPU progress that make a job a hang
MAX_CASE_SECONDS = 150  # wall seconds a job that keeps computing may take on a loaded machine
BLOCKED_CPU_SECONDS = 0.25  # CPU used in an alarm's window under which a job is waiting, not working
EXEMPTION_BASE = (
    Path(__file__).resolve().parents[1]
    / "checks"
    / "gpu-health-agent"
    / "fail-agent-pod-pending-on-one-node.yaml"
)


class _Hang(BaseException):  # not an Exception: no `except Exception` in the code under test eats it
    pass


_job = {"wall": 0.0, "cpu": 0.0}


def _alarm(signum: int, frame: Any) -> None:
    """A hang is a job that waits (a FIFO with no writer): next to no CPU used since the last alarm.
    One that computes on a machine other work keeps busy (a load of 11 on 2 cores gave a job 2 s of
    CPU in 30 s) is given more wall time, up to MAX_CASE_SECONDS; its CPU seconds are what the sweep
    bounds."""
    cpu = time.process_time()
    if cpu - _job["cpu"] < BLOCKED_CPU_SECONDS or time.perf_counter() - _job["wall"] >= MAX_CASE_SECONDS:
        raise _Hang()
    _job["cpu"] = cpu
    signal.alarm(CASE_ALARM_SECONDS)


_RENDERED: set[str] = set()


def _render(report: Any, path: Path) -> str:
    """Every format; a report already rendered, but for the input's own name, is rendered once.

    The report's own text (its dataclass repr, every field and finding) is the key, with the input's
    path blanked out and the timestamps dropped: the 260 `wrong types` inputs scanned as manifests,
    for one, all give the same "nothing to check" report but for the file name, and rendering it 260
    times proves nothing the first time did not. Renderers are functions of the report, so this
    skips no input they would treat differently. (The key was the JSON report once: rendering it,
    every check's text redacted, cost more than all the rest of the sweep.)
    """
    from dataclasses import replace

    from kubegap.checker.reports import FORMATS, render

    text = repr(replace(report, started_at="", finished_at=""))
    blanked = text.replace(str(path), "<input>").replace(path.name, "<input>")
    key = hashlib.sha256(blanked.encode("utf-8", "surrogatepass")).hexdigest()
    if key in _RENDERED:
        return "ok"
    for fmt in FORMATS:
        render(report, fmt, "en")
    _RENDERED.add(key)
    return "ok"


def _one_line(error: Any) -> str:
    line = error.one_line()
    assert "\n" not in line and len(line) < 2000, line[:300]
    return "error: " + line


@cache
def _base_snapshot() -> Any:
    """A small cluster with fails, for exemption files to apply to."""
    from kubegap.checker.sources import load_snapshot_files

    return load_snapshot_files([EXEMPTION_BASE])


def _run(path: Path, mode: str) -> str:
    from kubegap.checker.exemptions import load_exemptions
    from kubegap.checker.live.limits import LiveLimits
    from kubegap.checker.runner import run_checks
    from kubegap.checker.scanning import LiveTarget, ScanRequest, run_scan
    from kubegap.errors import KubegapError

    try:
        if mode == "snapshot":
            return _render(run_scan(ScanRequest(snapshot_paths=[str(path)])), path)
        if mode == "manifests":
            return _render(run_scan(ScanRequest(manifest_paths=[str(path)])), path)
        if mode == "exemptions":
            return _render(run_checks(_base_snapshot(), exemptions=load_exemptions(path)), path)
        limits = LiveLimits(request_timeout=2, scan_timeout=5, max_retries=0)
        live = LiveTarget(kubeconfig=str(path), timeout=2, limits=limits)
        return _render(run_scan(ScanRequest(live=live)), path)
    except KubegapError as error:
        return _one_line(error)


def main() -> None:
    memory = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    if memory:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    signal.signal(signal.SIGALRM, _alarm)
    from kubegap.checker.registry import all_checks

    all_checks()  # imported once, outside the timings
    for line in sys.stdin:
        job = json.loads(line)
        path = Path(job["path"])
        started, cpu_started = time.perf_counter(), time.process_time()
        _job.update(wall=started, cpu=cpu_started)
        outcome: dict[str, Any] = {"case": path.name}
        signal.alarm(CASE_ALARM_SECONDS)
        try:
            for mode in job["modes"]:
                outcome[mode] = _run(path, mode)
        except _Hang:
            outcome["hang"] = True
        except BaseException:  # any escape is the finding this sweep looks for
            outcome["traceback"] = traceback.format_exc()[-3000:]
        finally:
            signal.alarm(0)
        outcome["seconds"] = time.perf_counter() - started
        outcome["cpu_seconds"] = time.process_time() - cpu_started
        outcome["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(json.dumps(outcome), flush=True)


if __name__ == "__main__":
    main()
