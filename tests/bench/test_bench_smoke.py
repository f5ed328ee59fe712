"""Every script in bench/ runs to the end at a tiny size, so a benchmark that breaks is seen the day it
breaks, not when someone next wants its figures.

Each runs as a user would run it (`python bench/<script>.py ...`, a fresh process, the same flags the
BENCHMARKS.md commands use, only smaller) and must exit 0 and print its Markdown table. The figures
themselves are not asserted: a smoke run on a shared machine measures nothing worth comparing. A
new script in bench/ fails `test_every_bench_script_has_a_smoke_run` until it gets a line here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BENCH = REPO / "bench"
SHARED = REPO.parent / "shared"

# script -> (arguments for a tiny run, a line its output must contain)
SMOKE_RUNS: dict[str, tuple[list[str], str]] = {
    "bench_library.py": (["--incidents", "60", "--queries", "12"], "| search + facets |"),
    "bench_checker.py": (["--nodes", "10", "--pods", "200", "--skip-throttled"], "| orjson parse (floor) |"),
    "bench_fleet.py": (
        ["--clusters", "2", "--nodes", "4", "--pods", "40", "--latency", "0", "--repeat", "1"],
        "| 2 clusters |",
    ),
    "bench_live_faults.py": (
        ["--nodes", "4", "--pods", "40", "--modes", "clean,looping-continue,encoded resource names"],
        "| clean |",
    ),
    "bench_mcp_startup.py": (["--runs", "1"], "| initialize answered |"),
    # Seeded with the run's own index (tests/conftest.py): a smoke run need not build it twice more.
    "bench_cold_start.py": (
        ["--runs", "1", "--seed-from", os.environ.get("XDG_CACHE_HOME", "")],
        "| warm `kubegap incidents list -q` |",
    ),
    "bench_web.py": (["--seconds", "1", "--connections", "2"], "| list page (kubegap serve) |"),
    "eval_search.py": ([], "| **all** |"),
    "eval_checks.py": (["--corpus", "realworld", "--part", "all"], "| **all** |"),
    "bench_kubeconfig_inputs.py": ([], "| YAML nested 5,000 levels | now |"),
    "bench_output_lines.py": (["--part", "dev"], "| plain (pipe) |"),
    "redaction_false_positives.py": (["--list", "0"], "| realworld |"),
}
NEEDS_SHARED = {"eval_checks.py", "bench_output_lines.py", "redaction_false_positives.py"}


def test_every_bench_script_has_a_smoke_run() -> None:
    scripts = sorted(path.name for path in BENCH.glob("*.py"))
    assert scripts == sorted(SMOKE_RUNS), "give each bench script a tiny run in SMOKE_RUNS"


@pytest.mark.parametrize("script", sorted(SMOKE_RUNS))
def test_bench_script_runs_at_a_tiny_size(script: str, tmp_path: Path) -> None:
    if script in NEEDS_SHARED and not SHARED.is_dir():
        pytest.skip("../shared is absent (a user's clone): this evaluation reads its corpora")
    arguments, expected = SMOKE_RUNS[script]
    environment = {**os.environ, "HOME": str(tmp_path), "KUBECONFIG": str(tmp_path / "none")}
    completed = subprocess.run(
        [sys.executable, str(BENCH / script), *arguments],
        cwd=REPO,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert expected in completed.stdout, completed.stdout[-3000:]
    assert "Traceback" not in completed.stderr, completed.stderr[-3000:]
