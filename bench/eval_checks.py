"""Check accuracy on real manifests: precision and recall per check and overall, dev and held-out apart.

    .venv/bin/python bench/eval_checks.py [--corpus evalset|realworld] [--part dev|heldout|all]
                                          [--check ID ...] [--unjudged] [--judgements DIR]

Two corpora live beside the project, read-only: `../shared/evalset` (563 manifests from 47 GPU/AI
repositories, split by repository in its own `split.yaml`) and `../shared/realworld` (171 manifests,
split in `bench/check_eval/realworld/split.yaml`). Every file is scanned on its own, as
`kubegap scan --manifests FILE` would. Each failing finding is matched with its judgement in
`bench/check_eval/<corpus>/judgements/<check-id>.yaml` (tp, fp or debatable, with a reason), and the
misses an expert sees in the same files are added for recall.

On the evalset every failing finding must be judged, whichever check reports it: a fail with no
judgement is listed and the exit status is 1, so a new check, or a check that starts to report
something new, is read by a person before its figures count. Judgements of findings that are no longer
reported are kept (they are how an earlier version was measured, "before") and listed as retired.

`--judgements DIR` reads the judgements from another folder, so the same judgements can measure an
older commit: check it out in a work tree and run its copy of the package with this script.
`--unjudged` prints the findings still to judge as YAML ready to paste. Prints Markdown tables.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import yaml

from kubegap.checker.finding import Status
from kubegap.checker.runner import run_checks
from kubegap.checker.sources.manifests import load_manifests
from kubegap.errors import KubegapError

HERE = Path(__file__).parent / "check_eval"
SHARED = Path(__file__).resolve().parents[2] / "shared"
VERDICTS = ("tp", "fp", "debatable")
PARTS = ("dev", "heldout")


@dataclass(frozen=True)
class Corpus:
    """Where a corpus's files, split and judgements are, and whether every fail must be judged."""

    name: str
    files: Path
    split_file: Path
    judgements: Path
    every_fail_judged: bool  # evalset: yes; realworld: only checks that have a judgement file

    def heldout(self) -> frozenset[str]:
        return frozenset(yaml.safe_load(self.split_file.read_text(encoding="utf-8"))["heldout"])

    def dev(self) -> frozenset[str] | None:
        """The dev repositories when the split names them (evalset), else None (all but held-out)."""
        listed = yaml.safe_load(self.split_file.read_text(encoding="utf-8")).get("dev")
        return frozenset(listed) if listed else None


def corpus(name: str, shared: Path = SHARED) -> Corpus:
    if name == "evalset":
        return Corpus(
            name, shared / "evalset", shared / "evalset" / "split.yaml", HERE / "evalset" / "judgements", True
        )
    if name == "realworld":
        folder = HERE / "realworld"
        return Corpus(name, shared / "realworld", folder / "split.yaml", folder / "judgements", False)
    raise SystemExit(f"unknown corpus {name!r}: evalset or realworld")


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


def manifest_files(root: Path, repositories: Iterable[str] | None = None) -> list[Path]:
    """The manifest files of a corpus, optionally only those of some repositories, in a stable order."""
    chosen = None if repositories is None else set(repositories)
    found = []
    for path in sorted(root.rglob("*")):
        if not path.is_file() or path.suffix.lower() not in (".yaml", ".yml", ".json"):
            continue
        relative = path.relative_to(root)
        if len(relative.parts) < 2 or (chosen is not None and relative.parts[0] not in chosen):
            continue
        found.append(path)
    return found


@cache
def scan_failures(root: Path, repositories: frozenset[str] | None = None) -> tuple[FoundFailure, ...]:
    """Every failing finding on the corpus (or on some of its repositories), one file per scan."""
    found: list[FoundFailure] = []
    for path in manifest_files(root, repositories):
        try:
            snapshot = load_manifests([path])
        except KubegapError:
            continue
        name = path.relative_to(root).as_posix()
        for finding in run_checks(snapshot).findings:
            if finding.status is Status.failed:
                found.append(FoundFailure(finding.check_id, name, finding.object.display()))
    return tuple(sorted(set(found), key=lambda f: (f.check, f.file, f.object)))


def _checked_entries(path: Path, data: dict[str, object], check: str | None) -> dict[str, dict[str, list]]:
    """The findings and misses of one file, grouped by check and checked for shape."""
    grouped: dict[str, dict[str, list]] = defaultdict(lambda: {"findings": [], "misses": []})
    for section in ("findings", "misses"):
        for entry in data.get(section) or []:  # type: ignore[attr-defined]
            name = check or entry.get("check")
            where = f"{path}: {entry.get('file')} {entry.get('object')}"
            if not name:
                raise SystemExit(f"{where}: each entry of a repository file names its check")
            if not entry.get("file") or not str(entry.get("reason", "")).strip():
                raise SystemExit(f"{where}: a file and a reason are required")
            if section == "findings" and entry.get("verdict") not in VERDICTS:
                raise SystemExit(f"{where}: verdict must be one of {VERDICTS}, with a reason")
            grouped[str(name)][section].append(entry)
    return grouped


def load_judgements(folder: Path) -> dict[str, dict[str, object]]:
    """check id -> its findings and misses, checked for shape (a slip in one must not skew the figures).

    A file is either one check's judgements (`check: ID`, the realworld layout) or one repository's
    (`repository: NAME`, each entry naming its check, the evalset layout: a judge reads a repository's
    files in their context and judges every check's findings there).
    """
    judgements: dict[str, dict[str, object]] = {}
    seen: set[tuple[str, str, str]] = set()
    for path in sorted(folder.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        if "check" in data:
            if data["check"] != path.stem:
                raise SystemExit(f"{path}: 'check' must be {path.stem!r}")
            grouped = _checked_entries(path, data, str(data["check"]))
        elif "repository" in data:
            repository = path.stem.split("--", 1)[0]  # <repository>--<topic>.yaml adds to a repository
            if data["repository"] != repository:
                raise SystemExit(f"{path}: 'repository' must be {repository!r}")
            grouped = _checked_entries(path, data, None)
            for entries in grouped.values():
                for entry in entries["findings"] + entries["misses"]:
                    if not str(entry["file"]).startswith(f"{repository}/"):
                        raise SystemExit(f"{path}: {entry['file']} is not a file of {repository}")
        else:
            raise SystemExit(f"{path}: a judgement file starts with 'check:' or 'repository:'")
        for check, entries in grouped.items():
            merged = judgements.setdefault(check, {"check": check, "findings": [], "misses": []})
            for key in ("tuned_on_all", "misses_judged"):
                if key in data and "check" in data:
                    merged[key] = data[key]
            for entry in entries["findings"]:
                identity = (check, str(entry["file"]), str(entry["object"]))
                if identity in seen:
                    raise SystemExit(f"{path}: {identity[1]} {identity[2]} is judged twice for {check}")
                seen.add(identity)
            merged["findings"] += entries["findings"]  # type: ignore[operator]
            merged["misses"] += entries["misses"]  # type: ignore[operator]
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
    failures: tuple[FoundFailure, ...],
    judgements: dict[str, dict[str, object]],
    heldout: frozenset[str],
    every_fail_judged: bool = False,
    parts: tuple[str, ...] = PARTS,
    repositories: frozenset[str] | None = None,
) -> Evaluation:
    """Tallies per (check, part). With `every_fail_judged`, a fail of a check with no file is unjudged.

    `repositories` limits misses and retired judgements to those repositories (the failures passed in
    are already limited to what was scanned).
    """

    def counted(file: str) -> bool:
        return repositories is None or file.split("/", 1)[0] in repositories

    tallies: dict[tuple[str, str], Tally] = defaultdict(Tally)
    verdicts = {
        (check, str(entry["file"]), str(entry["object"])): str(entry["verdict"])
        for check, data in judgements.items()
        for entry in data.get("findings") or []  # type: ignore[union-attr]
    }
    # A miss names a real gap for one check on one object: once the check reports it, it is a tp.
    missed = {
        (check, str(entry["file"]), str(entry["object"]))
        for check, data in judgements.items()
        for entry in data.get("misses") or []  # type: ignore[union-attr]
    }
    found_misses = set()
    unjudged = []
    seen = set()
    for failure in failures:
        judgement = judgements.get(failure.check)
        if judgement is None and not every_fail_judged:
            continue
        part = _part(judgement or {}, failure.repository, heldout)
        if part not in parts:
            continue
        key = (failure.check, failure.file, failure.object)
        seen.add(key)
        if key in verdicts:
            tallies[(failure.check, part)].counts[verdicts[key]] += 1
        elif key in missed:
            tallies[(failure.check, part)].counts["tp"] += 1
            found_misses.add(key)
        else:
            unjudged.append(failure)
    for check, data in judgements.items():
        for part in parts:
            if not data.get("tuned_on_all") or part == "dev":
                tallies.setdefault((check, part), Tally())
        if data.get("misses_judged") is False:
            for (name, _part_name), tally in tallies.items():
                if name == check:
                    tally.misses_judged = False
        for entry in data.get("misses") or []:  # type: ignore[union-attr]
            part = _part(data, str(entry["file"]).split("/", 1)[0], heldout)
            if (check, str(entry["file"]), str(entry["object"])) in found_misses:
                continue
            if part in parts and counted(str(entry["file"])):
                tallies[(check, part)].counts["miss"] += 1
    stale = sorted(
        key
        for key in verdicts
        if key not in seen and _part({}, key[1].split("/", 1)[0], heldout) in parts and counted(key[1])
    )
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
        if not any(c.values()):
            continue
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


def _repositories(chosen: Corpus, part: str) -> frozenset[str] | None:
    """Which repositories to scan: all, or only one side of the split (held-out files stay unread)."""
    if part == "all":
        return None
    heldout = chosen.heldout()
    if part == "heldout":
        return heldout
    dev = chosen.dev()
    if dev is not None:
        return dev
    return frozenset(p.name for p in chosen.files.iterdir() if p.is_dir() and p.name not in heldout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", choices=("evalset", "realworld"), default="evalset")
    parser.add_argument("--part", choices=("dev", "heldout", "all"), default="dev")
    parser.add_argument("--shared", type=Path, default=SHARED, help="the folder holding the corpora")
    parser.add_argument("--judgements", type=Path, help="read judgements from this folder instead")
    parser.add_argument("--check", action="append", default=[], help="only these checks (repeatable)")
    parser.add_argument("--repository", action="append", default=[], help="only these repositories")
    parser.add_argument("--unjudged", action="store_true", help="print findings without a judgement")
    args = parser.parse_args(argv)
    chosen = corpus(args.corpus, args.shared)
    if not chosen.files.is_dir():
        print(f"{chosen.files} is absent: the {chosen.name} manifests are needed", file=sys.stderr)
        return 2
    judgements = load_judgements(args.judgements or chosen.judgements)
    if args.check:
        judgements = {check: data for check, data in judgements.items() if check in args.check}
    parts = PARTS if args.part == "all" else (args.part,)
    repositories = _repositories(chosen, args.part)
    if args.repository:
        outside = set(args.repository) - (repositories if repositories is not None else set(args.repository))
        if outside:
            raise SystemExit(f"not in the {args.part} part: {', '.join(sorted(outside))}")
        repositories = frozenset(args.repository)
    failures = scan_failures(chosen.files.resolve(), repositories)
    if args.check:
        failures = tuple(f for f in failures if f.check in args.check)
    evaluation = evaluate(
        failures, judgements, chosen.heldout(), chosen.every_fail_judged, parts, repositories
    )
    if args.unjudged:
        for failure in evaluation.unjudged:
            print(f"- check: {failure.check}\n  file: {failure.file}\n  object: {failure.object}")
            print("  verdict:\n  reason:")
        return 0
    for part in parts:
        print("\n".join(table(evaluation, part)), end="\n\n")
    for failure in evaluation.unjudged:
        print(f"unjudged: {failure.check} {failure.file} {failure.object}")
    for check, file, obj in evaluation.stale:
        print(f"{'retired' if chosen.every_fail_judged else 'stale'} judgement: {check} {file} {obj}")
    broken = evaluation.unjudged or (evaluation.stale and not chosen.every_fail_judged)
    return 1 if broken else 0


if __name__ == "__main__":
    raise SystemExit(main())
