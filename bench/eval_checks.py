"""Check accuracy on real-world manifests: precision and recall per check, dev and held-out apart.

    .venv/bin/python bench/eval_checks.py [--realworld ../shared/realworld] [--check ID ...] [--unjudged]

Every file under the real-world folder is scanned on its own (as `kubegap scan --manifests FILE` would);
each failing finding is matched with its judgement in `bench/check_eval/judgements/<check-id>.yaml`
(tp, fp or debatable, with a reason) and each check's judged misses are added for recall. The split by
repository is in `bench/check_eval/split.yaml`. `--unjudged` prints the findings still to judge, as YAML
ready to paste. Prints Markdown tables for BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import yaml

from kubegap.checker.finding import Status
from kubegap.checker.runner import run_checks
from kubegap.checker.sources.manifests import load_manifests
from kubegap.errors import KubegapError

HERE = Path(__file__).parent / "check_eval"
DEFAULT_REALWORLD = Path(__file__).resolve().parents[2] / "shared" / "realworld"
VERDICTS = ("tp", "fp", "debatable")


@dataclass(frozen=True)
class FoundFailure:
    check: str
    file: str
    object: str

    @property
    def repository(self) -> str:
        return self.file.split("/", 1)[0]


@dataclass
class Tally:
    counts: Counter[str] = field(default_factory=Counter)
    misses_judged: bool = True  # False: nobody looked for misses, so recall is not known

    def precision(self) -> float | None:
        judged = self.counts["tp"] + self.counts["fp"]
        return self.counts["tp"] / judged if judged else None

    def recall(self) -> float | None:
        if not self.misses_judged:
            return None
        relevant = self.counts["tp"] + self.counts["miss"]
        return self.counts["tp"] / relevant if relevant else None


@cache
def scan_failures(realworld: Path) -> tuple[FoundFailure, ...]:
    """Every failing finding on the real-world set, one file per scan."""
    found: list[FoundFailure] = []
    for path in sorted(realworld.rglob("*")):
        if not path.is_file() or path.suffix.lower() not in (".yaml", ".yml", ".json"):
            continue
        try:
            snapshot = load_manifests([path])
        except KubegapError:
            continue
        name = path.relative_to(realworld).as_posix()
        for finding in run_checks(snapshot).findings:
            if finding.status is Status.failed:
                found.append(FoundFailure(finding.check_id, name, finding.object.display()))
    return tuple(sorted(set(found), key=lambda f: (f.check, f.file, f.object)))


def heldout_repositories(split_file: Path = HERE / "split.yaml") -> frozenset[str]:
    return frozenset(yaml.safe_load(split_file.read_text(encoding="utf-8"))["heldout"])


def load_judgements(folder: Path = HERE / "judgements") -> dict[str, dict[str, object]]:
    """check id -> its judgement file, checked for shape (a slip in one must not skew the figures)."""
    judgements: dict[str, dict[str, object]] = {}
    for path in sorted(folder.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        if data.get("check") != path.stem:
            raise SystemExit(f"{path}: 'check' must be {path.stem!r}")
        for entry in data.get("findings") or []:
            if entry.get("verdict") not in VERDICTS or not str(entry.get("reason", "")).strip():
                raise SystemExit(
                    f"{path}: {entry.get('object')}: verdict must be one of {VERDICTS}, with a reason"
                )
        for entry in data.get("misses") or []:
            if not str(entry.get("reason", "")).strip():
                raise SystemExit(f"{path}: miss {entry.get('object')}: a reason is required")
        judgements[path.stem] = data
    return judgements


@dataclass
class Evaluation:
    tallies: dict[tuple[str, str], Tally]
    unjudged: list[FoundFailure]
    stale: list[tuple[str, str, str]]


def _part(judgement: dict[str, object], repository: str, heldout: frozenset[str]) -> str:
    """dev or heldout; a check written before the split was tuned on every repository, so all is dev."""
    if judgement.get("tuned_on_all"):
        return "dev"
    return "heldout" if repository in heldout else "dev"


def evaluate(
    failures: tuple[FoundFailure, ...], judgements: dict[str, dict[str, object]], heldout: frozenset[str]
) -> Evaluation:
    tallies: dict[tuple[str, str], Tally] = defaultdict(Tally)
    verdicts = {
        (check, str(entry["file"]), str(entry["object"])): str(entry["verdict"])
        for check, data in judgements.items()
        for entry in data.get("findings") or []  # type: ignore[union-attr]
    }
    unjudged = []
    seen = set()
    for failure in failures:
        if failure.check not in judgements:
            continue
        part = _part(judgements[failure.check], failure.repository, heldout)
        key = (failure.check, failure.file, failure.object)
        seen.add(key)
        if key in verdicts:
            tallies[(failure.check, part)].counts[verdicts[key]] += 1
        else:
            unjudged.append(failure)
    for check, data in judgements.items():
        tallies.setdefault((check, "dev"), Tally())
        if data.get("misses_judged") is False:
            for (name, _part_name), tally in tallies.items():
                if name == check:
                    tally.misses_judged = False
        for entry in data.get("misses") or []:  # type: ignore[union-attr]
            part = _part(data, str(entry["file"]).split("/", 1)[0], heldout)
            tallies[(check, part)].counts["miss"] += 1
    stale = sorted(key for key in verdicts if key not in seen)
    return Evaluation(dict(tallies), unjudged, stale)


def _figure(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def table(evaluation: Evaluation, part: str) -> list[str]:
    lines = [
        f"**{part}**",
        "",
        "| check | findings | tp | fp | debatable | misses | precision | recall |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    total = Tally()
    for (check, where), tally in sorted(evaluation.tallies.items()):
        if where != part:
            continue
        c = tally.counts
        total.counts.update(c)
        total.misses_judged = total.misses_judged and tally.misses_judged
        findings = c["tp"] + c["fp"] + c["debatable"]
        lines.append(
            f"| {check} | {findings} | {c['tp']} | {c['fp']} | {c['debatable']} | {c['miss']} | "
            f"{_figure(tally.precision())} | {_figure(tally.recall())} |"
        )
    c = total.counts
    lines.append(
        f"| **all** | {c['tp'] + c['fp'] + c['debatable']} | {c['tp']} | {c['fp']} | {c['debatable']} | "
        f"{c['miss']} | {_figure(total.precision())} | {_figure(total.recall())} |"
    )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--realworld", type=Path, default=DEFAULT_REALWORLD)
    parser.add_argument("--check", action="append", default=[], help="only these checks (repeatable)")
    parser.add_argument("--unjudged", action="store_true", help="print findings without a judgement")
    args = parser.parse_args(argv)
    if not args.realworld.is_dir():
        print(f"{args.realworld} is absent: the real-world manifests are needed", file=sys.stderr)
        return 2
    judgements = load_judgements()
    if args.check:
        judgements = {check: data for check, data in judgements.items() if check in args.check}
    failures = scan_failures(args.realworld.resolve())
    if args.unjudged:
        for failure in failures:
            if args.check and failure.check not in args.check:
                continue
            judged = judgements.get(failure.check, {}).get("findings") or []
            if not any((e["file"], e["object"]) == (failure.file, failure.object) for e in judged):  # type: ignore[index]
                print(f"# {failure.check}\n- file: {failure.file}\n  object: {failure.object}")
                print("  verdict:\n  reason:")
        return 0
    evaluation = evaluate(failures, judgements, heldout_repositories())
    for part in ("dev", "heldout"):
        print("\n".join(table(evaluation, part)), end="\n\n")
    for failure in evaluation.unjudged:
        print(f"unjudged: {failure.check} {failure.file} {failure.object}")
    for check, file, obj in evaluation.stale:
        print(f"stale judgement (no such finding): {check} {file} {obj}")
    return 1 if evaluation.unjudged or evaluation.stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
