"""Benchmark: what the redactor hides in real manifests that is not a secret.

    .venv/bin/python bench/redaction_false_positives.py [--shared ../shared] [--list N]

Every YAML and JSON file of the two corpora beside the project (`../shared/realworld`,
`../shared/evalset`) is parsed and every document goes through `redact_value`, the path a check's
evidence takes to every output. Files that do not parse (Helm templates) are redacted line by line
with `redact_text`, as free text. Each hidden span is then put in one of three groups:

- `credential`: the span is a credential on its own (redacting it alone hides it again): a real
  token format, a URL password, a key block, random key material;
- `placeholder`: a stand-in under a secret name (`<your-hf-token>`, `insert-your-token-here`,
  `changeme`): not a secret, but what a secret name must hide whatever it holds;
- `other`: everything else, printed with its context so a reader can judge it. These are the false
  positives to drive down: secret *references* (a Secret's name, a key inside a Secret), paths,
  counts of LLM tokens, image tags, digests, prose.

Prints a Markdown table of counts per corpus and group, then the spans of one group (`--group`,
`other` unless told; most frequent first, `--list` of them). Figures go to BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from kubegap.redaction import REDACTED, redact_text, redact_value

SHARED = Path(__file__).resolve().parents[2] / "shared"
CORPORA = ("realworld", "evalset")
_CUT_NOTE = re.compile(r"… \(\+[\d,]+ characters\)$")
_PLACEHOLDER = re.compile(
    r"^<[^<>]*>$|\b(?:your|insert|changeme|change-me|replace|placeholder|example|dummy|xxx+|todo)\b|"
    r"^\*+$|^\.\.\.$",
    re.IGNORECASE,
)
_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass
class Tally:
    files: int = 0
    documents: int = 0
    template_lines: int = 0
    strings: int = 0
    groups: Counter[str] = field(default_factory=Counter)
    spans: dict[str, Counter[str]] = field(default_factory=dict)


def hidden_spans(original: str, redacted: str) -> Iterator[tuple[int, int]]:
    """(start, end) in `original` of each part that `redacted` shows as the marker."""
    redacted = _CUT_NOTE.sub("", redacted)
    pieces = redacted.split(REDACTED)
    if len(pieces) == 1 or not original.startswith(pieces[0]):
        return
    cursor = len(pieces[0])
    for number, piece in enumerate(pieces[1:], start=1):
        last = number == len(pieces) - 1
        if not piece and not last:
            continue  # two markers in a row: one span
        found = original.find(piece, cursor + 1) if piece else len(original)
        if found == -1:
            yield cursor, len(original)
            return
        yield cursor, found
        cursor = found + len(piece)


def _group(span: str) -> str:
    if redact_text(span, limit=len(span) + 1) != span:
        return "credential"
    return "placeholder" if _PLACEHOLDER.search(span.strip()) else "other"


def _record(tally: Tally, original: str, redacted: str) -> None:
    tally.strings += 1
    if original == redacted or REDACTED not in redacted:
        return
    for start, end in hidden_spans(original, redacted):
        span = original[start:end]
        group = _group(span)
        tally.groups[group] += 1
        before = original[max(0, start - 40) : start].rsplit("\n", 1)[-1]
        tally.spans.setdefault(group, Counter())[f"{before}«{span[:80]}»".replace("\n", "⏎")] += 1


def _walk(tally: Tally, original: Any, redacted: Any) -> None:
    if isinstance(original, str) and isinstance(redacted, str):
        _record(tally, original, redacted)
    elif isinstance(original, dict) and isinstance(redacted, dict):
        for (key, value), (shown_key, shown_value) in zip(original.items(), redacted.items(), strict=False):
            if isinstance(key, str) and isinstance(shown_key, str):
                _record(tally, key, shown_key)
            _walk(tally, value, shown_value)
    elif isinstance(original, list) and isinstance(redacted, list):
        for item, shown in zip(original, redacted, strict=False):
            _walk(tally, item, shown)


def measure(folder: Path) -> Tally:
    tally = Tally()
    for path in sorted(folder.rglob("*")):
        if path.suffix not in (".yaml", ".yml", ".json") or not path.is_file():
            continue
        tally.files += 1
        text = path.read_text(encoding="utf-8", errors="replace")
        try:
            documents = [document for document in yaml.load_all(text, Loader=_LOADER) if document is not None]
        except yaml.YAMLError:
            for line in text.splitlines():
                tally.template_lines += 1
                _record(tally, line, redact_text(line, limit=len(line) + 1))
            continue
        for document in documents:
            tally.documents += 1
            _walk(tally, document, redact_value(document))
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", type=Path, default=SHARED, help="the folder holding the corpora")
    parser.add_argument("--list", type=int, default=60, help="how many spans to print")
    parser.add_argument("--group", default="other", help="whose spans to print (other, credential ...)")
    args = parser.parse_args()
    tallies = {name: measure(args.shared / name) for name in CORPORA if (args.shared / name).is_dir()}
    if not tallies:
        raise SystemExit(f"Error: no corpus under {args.shared}")
    print("| corpus | files | documents | template lines | strings | credential | placeholder | other |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, tally in tallies.items():
        groups = tally.groups
        sizes = f"{tally.files:,} | {tally.documents:,} | {tally.template_lines:,} | {tally.strings:,}"
        print(f"| {name} | {sizes} | {groups['credential']} | {groups['placeholder']} | {groups['other']} |")
    spans: Counter[str] = Counter()
    for tally in tallies.values():
        spans.update(tally.spans.get(args.group, Counter()))
    print(f"\n`{args.group}` spans ({sum(spans.values())}, {len(spans)} distinct):\n")
    for text, count in spans.most_common(args.list):
        print(f"- {count} × `{text}`")


if __name__ == "__main__":
    main()
