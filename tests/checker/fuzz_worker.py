"""Child process of the fuzz test: scan each hostile input as a snapshot and as manifests, render it.

Reads the case files named on stdin (one path a line), prints one JSON line per case: how long it
took, what each source said (`ok`, or the one-line error), and any exception that is not a
KubegapError, with its traceback (a traceback is a failure). A per-case alarm turns a case that runs
past its budget into a recorded hang instead of a stuck run; the parent caps memory with RLIMIT_AS.
"""

from __future__ import annotations

import json
import resource
import signal
import sys
import time
import traceback
from pathlib import Path
from typing import Any

CASE_ALARM_SECONDS = 30


class _Hang(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Hang()


def _scan_and_render(path: Path, mode: str) -> str:
    from kubegap.checker.reports import FORMATS, render
    from kubegap.checker.scanning import ScanRequest, run_scan
    from kubegap.errors import KubegapError

    try:
        if mode == "snapshot":
            report = run_scan(ScanRequest(snapshot_paths=[str(path)]))
        else:
            report = run_scan(ScanRequest(manifest_paths=[str(path)]))
    except KubegapError as error:
        line = error.one_line()
        assert "\n" not in line and len(line) < 2000, line[:300]
        return "error: " + line
    for fmt in FORMATS:
        render(report, fmt, "en")
    return "ok"


def main() -> None:
    memory = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    if memory:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    signal.signal(signal.SIGALRM, _alarm)
    from kubegap.checker.registry import all_checks

    all_checks()  # imported once, outside the timings
    for line in sys.stdin:
        path = Path(line.strip())
        started = time.perf_counter()
        outcome: dict[str, Any] = {"case": path.name}
        signal.alarm(CASE_ALARM_SECONDS)
        try:
            for mode in ("snapshot", "manifests"):
                outcome[mode] = _scan_and_render(path, mode)
        except _Hang:
            outcome["hang"] = True
        except BaseException:  # any escape is the finding this test looks for
            outcome["traceback"] = traceback.format_exc()[-3000:]
        finally:
            signal.alarm(0)
        outcome["seconds"] = time.perf_counter() - started
        outcome["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(json.dumps(outcome), flush=True)


if __name__ == "__main__":
    main()
