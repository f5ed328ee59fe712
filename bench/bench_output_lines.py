"""How many lines a file scan prints, against how many fails it has: the signal-first budget.

    .venv/bin/python bench/bench_output_lines.py [--part dev|heldout] [--width 120]

Every manifest of the evalset repositories of one part of `../shared/evalset/split.yaml` (dev by
default: tune on dev, never on heldout) is scanned on its own, as `kubegap scan FILE` does, and the
default report is rendered twice: `plain` (what a pipe or CI log gets) and `table` at `--width`
columns (a terminal). For each it counts the lines and the fail lines, and prints the distribution
of lines beyond the fails and the share of files within "fails + 8". A file that does not parse is
left out (the CLI prints one error line for it); a file with no Kubernetes object counts as the one
error line the CLI prints. Run with another checkout's package on PYTHONPATH to measure it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

import yaml

from kubegap.checker.finding import Status
from kubegap.checker.reports import render
from kubegap.checker.runner import run_checks
from kubegap.checker.sources.manifests import load_manifests
from kubegap.errors import KubegapError

EVALSET = Path(__file__).resolve().parents[2] / "shared" / "evalset"
_SUFFIXES = (".yaml", ".yml", ".json")
BUDGET = 8


def _files(part: str) -> list[Path]:
    split = yaml.safe_load((EVALSET / "split.yaml").read_text())
    found: list[Path] = []
    for repository in split[part]:
        found += sorted(path for path in (EVALSET / repository).rglob("*") if path.suffix in _SUFFIXES)
    return found


def _measure(path: Path, width: int) -> tuple[int, int, int] | None:
    """(fails, plain lines, table lines) of one file's default report; None when it does not parse."""
    try:
        snapshot = load_manifests([path])
    except KubegapError:
        return None
    report = run_checks(snapshot)
    fails = sum(
        1 for finding in report.findings if finding.status is Status.failed and not finding.exempted_by
    )
    if not any(row.objects for row in report.coverage if row.status == "read"):
        return fails, 1, 1  # the CLI prints one error line: no Kubernetes object in it
    plain = render(report, "plain").rstrip("\n").count("\n") + 1
    table = render(report, "table", width=width).rstrip("\n").count("\n") + 1
    return fails, plain, table


def _row(name: str, extra: list[int]) -> str:
    within = sum(1 for value in extra if value <= BUDGET)
    quartiles = statistics.quantiles(extra, n=4) if len(extra) > 1 else [extra[0]] * 3
    return (
        f"| {name} | {statistics.median(extra):g} | {quartiles[0]:g}-{quartiles[2]:g} | {max(extra)} "
        f"| {within}/{len(extra)} ({within / len(extra):.0%}) |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=("dev", "heldout"), default="dev")
    parser.add_argument("--width", type=int, default=120)
    arguments = parser.parse_args(argv)
    if not EVALSET.is_dir():
        print(f"{EVALSET} is absent: nothing to measure", file=sys.stderr)
        return 2
    measured = [(path, _measure(path, arguments.width)) for path in _files(arguments.part)]
    kept = [(path, found) for path, found in measured if found is not None]
    plain_extra = [plain - fails for _, (fails, plain, _) in kept]
    table_extra = [table - fails for _, (fails, _, table) in kept]
    fails = Counter(min(found[0], 4) for _, found in kept)
    skipped = len(measured) - len(kept)
    print(f"{len(kept)} of {len(measured)} {arguments.part} files scanned ({skipped} do not parse)")
    print("fails per file: " + ", ".join(f"{'4+' if n == 4 else n}: {fails[n]}" for n in sorted(fails)))
    print()
    print("| Layout | Median lines beyond the fails | Middle half | Most | Files within fails + 8 |")
    print("| --- | --- | --- | --- | --- |")
    print(_row("plain (pipe)", plain_extra))
    print(_row(f"table ({arguments.width} columns)", table_extra))
    worst = sorted(kept, key=lambda item: item[1][1] - item[1][0], reverse=True)[:5]
    print()
    for path, (fail_count, plain, _) in worst:
        print(f"  {plain - fail_count:>4} beyond {fail_count} fail(s): {path.relative_to(EVALSET)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
