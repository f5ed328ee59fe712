"""Search quality on judged queries: recall@5 and MRR per query type, tune and held-out parts apart.

    .venv/bin/python bench/eval_search.py [--queries bench/search_eval/queries.yaml] [--misses]

Each query in the file has a type (keyword, question, colloquial, log, code), a language, the
incidents judged relevant, and a split: `tune` queries may be looked at while adjusting the ranking,
`heldout` ones never are, so their figures say how the ranking does on questions nobody tuned for.

recall@5: the share of a query's relevant incidents among its first five results (out of at most
five, so a query with seven relevant incidents can still score 1.0). MRR: the mean of 1/rank of the
first relevant result (0 when none is in the first 20). Targets: recall@5 >= 0.95 overall and
>= 0.9 for every type. Results: the median number of incidents a query counts (the figure the list
page and MCP report as the total), as a share of the library: a question should count the incidents
that answer it, not every one that shares a common word. Prints Markdown tables for BENCHMARKS.md;
`--misses` lists every query below 1.0 recall with what it found.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

import yaml

from kubegap.library import Library
from kubegap.library.query import SearchQuery

DEFAULT_QUERIES = Path(__file__).parent / "search_eval" / "queries.yaml"
TYPES = ("keyword", "question", "colloquial", "log", "code")
DEPTH = 20


def evaluate(library: Library, queries: list[dict[str, object]]) -> list[dict[str, object]]:
    rows = []
    for item in queries:
        relevant = set(item["relevant"])  # type: ignore[call-overload]
        params = {"q": item["query"], "per_page": DEPTH, "lang": item["lang"]}
        started = time.perf_counter()
        result = library.search(SearchQuery.from_params(params))
        elapsed = (time.perf_counter() - started) * 1000.0
        found = [hit.incident.id for hit in result.hits]
        top = found[:5]
        recall = len(relevant & set(top)) / min(5, len(relevant))
        rank = next((index + 1 for index, incident_id in enumerate(found) if incident_id in relevant), None)
        rows.append(
            {
                **item,
                "recall": recall,
                "rr": 1.0 / rank if rank else 0.0,
                "top": top,
                "ms": elapsed,
                "total": result.total,
            }
        )
    return rows


def _table(rows: list[dict[str, object]], title: str) -> list[str]:
    lines = [f"**{title}**", "", "| type | queries | recall@5 | MRR |", "|---|---:|---:|---:|"]
    groups: dict[str, list[dict[str, object]]] = defaultdict(list)
    for row in rows:
        groups[str(row["type"])].append(row)
    for kind in TYPES:
        members = groups.get(kind, [])
        if members:
            recall = statistics.mean(float(row["recall"]) for row in members)  # type: ignore[arg-type]
            mrr = statistics.mean(float(row["rr"]) for row in members)  # type: ignore[arg-type]
            lines.append(f"| {kind} | {len(members)} | {recall:.3f} | {mrr:.3f} |")
    if rows:
        recall = statistics.mean(float(row["recall"]) for row in rows)  # type: ignore[arg-type]
        mrr = statistics.mean(float(row["rr"]) for row in rows)  # type: ignore[arg-type]
        lines.append(f"| **all** | {len(rows)} | {recall:.3f} | {mrr:.3f} |")
    return [*lines, ""]


def _results_table(rows: list[dict[str, object]], size: int) -> list[str]:
    """How many incidents a query counts: the median and the largest, each also as a share of the library."""
    lines = ["**results counted per query**", "", "| type | median | max |", "|---|---:|---:|"]
    for kind in TYPES:
        totals = sorted(int(row["total"]) for row in rows if row["type"] == kind)  # type: ignore[call-overload]
        if totals:
            median, largest = statistics.median(totals), totals[-1]
            lines.append(f"| {kind} | {median:g} ({median / size:.0%}) | {largest} ({largest / size:.0%}) |")
    return [*lines, ""]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=Path, default=DEFAULT_QUERIES)
    parser.add_argument("--misses", action="store_true", help="list queries below full recall")
    arguments = parser.parse_args()
    queries = yaml.safe_load(arguments.queries.read_text(encoding="utf-8"))["queries"]
    library = Library.open()
    rows = evaluate(library, queries)
    languages = sorted({str(row["lang"]) for row in rows})
    print(
        f"## Search quality: {len(rows)} judged queries ({', '.join(languages)}), "
        f"{library.incident_count} incidents\n"
    )
    for split in ("tune", "heldout"):
        print("\n".join(_table([row for row in rows if row["split"] == split], f"{split} part")))
    print("\n".join(_table(rows, "both parts")))
    times = sorted(float(row["ms"]) for row in rows)  # type: ignore[arg-type]
    print(f"Search time per query: median {statistics.median(times):.1f} ms, max {times[-1]:.1f} ms.\n")
    print("\n".join(_results_table(rows, library.incident_count)))
    if arguments.misses:
        for row in rows:
            if float(row["recall"]) < 1.0:  # type: ignore[arg-type]
                print(
                    f"- {row['id']} [{row['type']}/{row['split']}] {row['query']!r}: "
                    f"recall {row['recall']:.2f}"
                )
                print(f"    relevant {row['relevant']}\n    found    {row['top']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
