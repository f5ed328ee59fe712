"""`bench_checker.py --curve` (the whole snapshot scan command at several sizes) runs at a tiny size.

The figures are not asserted: a smoke run on a shared machine measures nothing worth comparing. The
table must have a row for both shapes at both sizes and the start-up line it subtracts.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_curve_runs_both_shapes_at_a_tiny_size(tmp_path: Path) -> None:
    environment = {**os.environ, "HOME": str(tmp_path), "KUBECONFIG": str(tmp_path / "none")}
    completed = subprocess.run(
        [sys.executable, str(BENCH / "bench_checker.py"), "--curve", "--quick"],
        capture_output=True,
        text=True,
        env=environment,
        timeout=600,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
    for row in ("| cluster | 600 |", "| cluster | 3,000 |", "| specs | 600 |", "| specs | 3,000 |"):
        assert row in completed.stdout
    assert "start-up (the command on a 100-pod snapshot)" in completed.stdout
