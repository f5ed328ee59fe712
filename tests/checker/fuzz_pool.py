"""The sweep's worker pool: reused worker processes fed from one queue, a dead or stuck one replaced.

Each worker (`fuzz_worker.py`) takes one job at a time, so a slow input holds one worker while the
others go on; a worker that dies (killed, or past its memory cap) or stays silent past the job's
alarm is recorded against that job and replaced, and the run goes on.
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
import threading
from collections import deque
from pathlib import Path
from typing import Any

from fuzz_worker import MAX_CASE_SECONDS

WORKER = Path(__file__).with_name("fuzz_worker.py")
MEMORY_CAP = 4 << 30
Job = dict[str, Any]


class _Worker:
    """One reused worker process; `run` sends a job and waits for its line, restarting a dead worker."""

    def __init__(self, environment: dict[str, str], log: Path) -> None:
        self._environment = environment
        self._log = log
        self._start()

    def _start(self) -> None:
        self._stderr = self._log.open("ab")
        self._process = subprocess.Popen(
            [sys.executable, str(WORKER), str(MEMORY_CAP)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env=self._environment,
            text=True,
        )
        self._selector = selectors.DefaultSelector()
        assert self._process.stdout is not None
        self._selector.register(self._process.stdout, selectors.EVENT_READ)

    def run(self, job: Job) -> dict[str, Any]:
        assert self._process.stdin is not None and self._process.stdout is not None
        try:
            self._process.stdin.write(json.dumps({"path": job["path"], "modes": job["modes"]}) + "\n")
            self._process.stdin.flush()
            ready = self._selector.select(timeout=MAX_CASE_SECONDS + 60)
            line = self._process.stdout.readline() if ready else ""
        except (BrokenPipeError, OSError):
            line = ""
        if line:
            return dict(json.loads(line))
        died = self._process.poll()
        self.close()
        self._start()
        case = Path(job["path"]).name
        if died is None:  # alive but silent past the alarm: stuck where no signal reaches
            return {"case": case, "hang": True, "seconds": 0.0, "cpu_seconds": 0.0, "peak_rss_mb": 0.0}
        said = self._log.read_text(errors="replace")[-2000:]
        return {
            "case": case,
            "traceback": f"worker died ({died}): {said}",
            "seconds": 0.0,
            "cpu_seconds": 0.0,
        }

    def close(self) -> None:
        self._selector.close()
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()
        for stream in (self._process.stdin, self._process.stdout):
            if stream is not None:
                stream.close()
        self._stderr.close()


def run_all(jobs: list[Job], home: Path, logs: Path, workers: int) -> list[dict[str, Any]]:
    """Every job's row, in the jobs' order, from `workers` reused workers fed from one queue."""
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in ("KUBECONFIG", "KUBERNETES_SERVICE_HOST")
    }
    environment["HOME"] = str(home)  # no kubeconfig of the machine's user is ever read
    pending = deque(enumerate(jobs))
    results: list[dict[str, Any]] = [{} for _ in jobs]
    lock = threading.Lock()

    def drive(number: int) -> None:
        worker = _Worker(environment, logs / f"worker-{number}.log")
        try:
            while True:
                with lock:
                    if not pending:
                        return
                    index, job = pending.popleft()
                results[index] = {**worker.run(job), "family": job["family"], "name": job["name"]}
        finally:
            worker.close()

    threads = [threading.Thread(target=drive, args=(number,)) for number in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results
