"""Benchmark: the Incident Library at 10,000 incidents, search + facets and full page renders.

    .venv/bin/python bench/bench_library.py [--incidents 10000] [--queries 300]

Generates synthetic incidents (valid per the knowledge model, both languages, varied tags, some with
error signatures) as YAML files in a temporary knowledge folder, opens the Library on it (building the
SQLite index), then times a few hundred varied queries in-process:

- search + facets: `Library.search` (hits, every facet's counts, recurring components);
- list page: the page context plus its template, as `kubegap serve` does for `/ko/incidents?...`;
- list page through the ASGI app (Starlette TestClient: routing, middleware, headers, ETag);
- case page through the ASGI app;
- the list page's full view (nine sections per card) through the ASGI app, beside the compact default;
- page weight: bytes of each kind of page as sent plain, gzip and brotli, on the bundled corpus and
  on the synthetic one, with the compact/full and compressed/plain ratios measured in the same run.

Prints Markdown tables (p50/p95/max in ms) with the goals: search + facets p95 <= 15 ms,
page render p95 <= 30 ms on a 2-core machine. Figures go to BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import gc
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import yaml

from kubegap.knowledge.loader import BUNDLED_ROOT, load_knowledge
from kubegap.knowledge.model import FACETS
from kubegap.library import Library
from kubegap.library.query import SearchQuery
from kubegap.text import Lang

SEED = 20261202
GOALS = {
    "search + facets": 15.0,
    "search + facets, text cache off": 15.0,
    "list page (context + template)": 30.0,
    "list page (ASGI)": 30.0,
    "case page (ASGI)": 30.0,
    "list page, full view (ASGI)": 30.0,
}

_KO_SUBJECTS = [
    "GPU 노드",
    "학습 작업",
    "NCCL 통신",
    "InfiniBand 링크",
    "kube-apiserver",
    "etcd",
    "디바이스 플러그인",
    "GPU 드라이버",
    "체크포인트 저장소",
    "추론 서버",
    "데이터 로더",
    "호스트 OS",
    "DNS",
    "로드 밸런서",
]
_KO_VERBS = [
    "멈췄다",
    "재시작했다",
    "응답하지 않았다",
    "메모리 오류를 냈다",
    "네트워크를 잃었다",
    "느려졌다",
    "과부하됐다",
    "잘못된 결과를 냈다",
    "사라졌다",
    "시간 초과로 실패했다",
]
_EN_SUBJECTS = [
    "GPU node",
    "training job",
    "NCCL communicator",
    "InfiniBand link",
    "kube-apiserver",
    "etcd",
    "device plugin",
    "GPU driver",
    "checkpoint storage",
    "inference server",
    "data loader",
    "host OS",
    "DNS",
    "load balancer",
]
_EN_VERBS = [
    "hung",
    "restarted",
    "stopped answering",
    "raised a memory error",
    "lost the network",
    "slowed down",
    "was overloaded",
    "returned wrong results",
    "vanished",
    "timed out",
]
_SIGNATURES = [
    "NCCL WARN NET/IB : Got completion with error 12",
    "Xid 79, GPU has fallen off the bus",
    "CUDA error: an illegal memory access was encountered",
    "etcdserver: request timed out",
    "watchdog caught collective operation timeout",
    "DBE (double bit error) ECC error",
]
_KO_QUERIES = [
    "노드",
    "학습 작업이 멈췄다",
    "메모리 오류",
    "재시작",
    "네트워크",
    "드라이버",
    "과부하",
    "체크포인트",
]
_EN_QUERIES = [
    "hang",
    "memory error",
    "restart",
    "NCCL timeout",
    "network",
    "driver upgrade",
    "overloaded etcd",
    "wrong results",
]


def _sentence(generator: random.Random) -> tuple[str, str]:
    subject, verb = generator.randrange(len(_KO_SUBJECTS)), generator.randrange(len(_KO_VERBS))
    number = generator.randint(2, 4096)
    return (
        f"{_KO_SUBJECTS[subject]} {number}대가 {_KO_VERBS[verb]}.",
        f"{number} {_EN_SUBJECTS[subject]}s {_EN_VERBS[verb]}.",
    )


def _text(generator: random.Random, sentences: int = 2) -> dict[str, str]:
    pairs = [_sentence(generator) for _ in range(sentences)]
    return {"ko": " ".join(ko for ko, _ in pairs), "en": " ".join(en for _, en in pairs)}


def synthetic_incident(
    index: int, generator: random.Random, terms: dict[str, list[str]]
) -> dict[str, object]:
    """One incident document as it would be written in YAML; tags drawn with a skew so facets vary."""
    date = dt.date(2015, 1, 1) + dt.timedelta(days=generator.randrange(4000))
    tags = {
        facet: sorted(
            {
                generator.choice(terms[facet][: max(3, len(terms[facet]) // (1 + index % 3))])
                for _ in range(generator.randint(1, 3))
            }
        )
        for facet in FACETS
    }
    document: dict[str, object] = {
        "id": f"synthetic-{date.year}-{index:05d}",
        "title": _text(generator, 1),
        "summary": _text(generator, 2),
        "date": date.isoformat(),
        "scope": "ai-infra" if index % 4 else "platform",  # about the bundled library's share
        "organization": f"org-{index % 97}",
        "sources": [
            {
                "url": f"https://example.org/incidents/{index}",
                "title": f"Report {index}",
                "publisher": f"Org {index % 97}",
                "kind": "postmortem",
            }
        ],
        "sections": {
            "symptom": _text(generator),
            "trigger": _text(generator, 1),
            "cause": dict(_text(generator), basis=generator.choice(["stated", "inferred"])),
            "contributing_factors": [dict(_text(generator, 1), basis="inferred") for _ in range(2)],
            "detection": _text(generator, 1),
            "actions": [_text(generator, 1) for _ in range(3)],
            "follow_ups": [_text(generator, 1)],
            "lessons": _text(generator),
        },
        "tags": tags,
        "impact": {"duration_hours": round(generator.uniform(0.5, 48), 1)},
    }
    if index % 5 == 0:
        document["error_signatures"] = [{"text": generator.choice(_SIGNATURES) + f" (code {index % 13})"}]
    return document


def write_knowledge(root: Path, count: int) -> None:
    shutil.copytree(BUNDLED_ROOT / "taxonomy", root / "taxonomy")
    organizations = [
        {"id": f"org-{number}", "name": {"ko": f"조직 {number}", "en": f"Org {number}"}, "kind": "company"}
        for number in range(97)
    ]
    (root / "organizations.yaml").write_text(
        yaml.safe_dump({"organizations": organizations}), encoding="utf-8"
    )
    (root / "incidents").mkdir()
    taxonomy = load_knowledge(root).taxonomy
    terms = {facet: [term.id for term in taxonomy.terms(facet)] for facet in FACETS}
    generator = random.Random(SEED)
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    for index in range(count):
        document = synthetic_incident(index, generator, terms)
        text = yaml.dump(document, Dumper=dumper, allow_unicode=True, sort_keys=False)
        (root / "incidents" / f"{document['id']}.yaml").write_text(text, encoding="utf-8")


def varied_queries(count: int, terms: dict[str, list[str]]) -> list[dict[str, list[str]]]:
    """Query-string dicts: facet filters alone, text alone (ko, en, pasted log lines), both, sorts, pages."""
    generator = random.Random(SEED + 1)
    queries: list[dict[str, list[str]]] = []
    for index in range(count):
        params: dict[str, list[str]] = {}
        kind = index % 5
        if kind in (1, 3):
            params["q"] = [generator.choice(_KO_QUERIES + _EN_QUERIES)]
        if kind == 4:
            params["q"] = [f"2026-01-0{index % 9 + 1}T03:00:00Z node{index} {generator.choice(_SIGNATURES)}"]
        if kind in (0, 2, 3):
            for facet in generator.sample(FACETS, generator.randint(1, 2)):
                params[facet] = [generator.choice(terms[facet])]
        params["sort"] = [generator.choice(["newest", "oldest", "relevance"])]
        params["page"] = [str(generator.choice([1, 1, 1, 2, 5]))]
        params["lang"] = [generator.choice(["ko", "en"])]
        queries.append(params)
    return queries


def _time(function: Callable[[], object]) -> float:
    started = time.perf_counter()
    function()
    return (time.perf_counter() - started) * 1000.0


def _row(name: str, samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    goal = GOALS.get(name)
    verdict = "" if goal is None else (f"≤ {goal:g} ms: {'met' if p95 <= goal else 'MISSED'}")
    median = statistics.median(ordered)
    return f"| {name} | {len(samples)} | {median:.2f} | {p95:.2f} | {ordered[-1]:.2f} | {verdict} |"


def measure_search(
    library: Library, queries: list[dict[str, list[str]]], incidents: int
) -> dict[str, list[float]]:
    """Library.search alone (hits, facet counts, recurring components), overall and by kind of query."""
    taxonomy = library.knowledge.taxonomy
    samples: dict[str, list[float]] = {"search + facets": [], "_totals": []}
    for params in queries:
        query = SearchQuery.from_params(params, taxonomy=taxonomy)
        started = time.perf_counter()
        total = library.search(query).total
        elapsed = (time.perf_counter() - started) * 1000.0
        samples["search + facets"].append(elapsed)
        samples.setdefault(f"... {_kind(params, total, incidents)}", []).append(elapsed)
        samples["_totals"].append(float(total))
    return samples


def measure_rendering(library: Library, queries: list[dict[str, list[str]]]) -> dict[str, list[float]]:
    """The list page as `kubegap serve` builds it: context (search included) + template; template alone."""
    from urllib.parse import urlencode

    from starlette.datastructures import QueryParams

    from kubegap.web.layout import build_layout
    from kubegap.web.listing import build_list_page
    from kubegap.web.pages import labeler
    from kubegap.web.render import render_html
    from kubegap.web.site import Site
    from kubegap.web.state import parse_list_state

    site = Site(library, [])
    taxonomy = library.knowledge.taxonomy
    samples: dict[str, list[float]] = {
        "list page (context + template)": [],
        "... template only (20 compact rows)": [],
    }
    for params in queries:
        lang: Lang = "en" if params["lang"][0] == "en" else "ko"
        started = time.perf_counter()
        context = build_list_page(
            site, parse_list_state(QueryParams(urlencode(params, doseq=True)), lang, taxonomy)
        )
        layout = build_layout(None, lang, context.title, "incidents")
        built = time.perf_counter()
        render_html("list.html", {"layout": layout, "page": context, "L": labeler(lang)})
        finished = time.perf_counter()
        samples["list page (context + template)"].append((finished - started) * 1000.0)
        samples["... template only (20 compact rows)"].append((finished - built) * 1000.0)
    return samples


async def _asgi_get(app: object, path: str, query: bytes) -> int:
    """One GET straight through the ASGI app (routing, middleware, headers, ETag), no HTTP client."""
    status, _ = await _asgi_fetch(app, path, query)
    return status


async def _asgi_fetch(
    app: object, path: str, query: bytes, encoding: bytes = b"identity"
) -> tuple[int, bytes]:
    """A GET through the ASGI app with this Accept-Encoding: the status and the body as sent."""
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
        "path": path, "raw_path": path.encode(), "query_string": query, "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), (b"accept-encoding", encoding)], "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
    }  # fmt: skip
    status = 0
    body: list[bytes] = []
    requested = False

    async def receive() -> dict[str, object]:
        """The request once; then nothing more, as a client that stays connected (a file response
        listens for a disconnect while it streams, and must not hear one)."""
        nonlocal requested
        if requested:
            await asyncio.Event().wait()
        requested = True
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, object]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = int(message["status"])  # type: ignore[call-overload]
        elif message["type"] == "http.response.body":
            body.append(message.get("body", b""))  # type: ignore[arg-type]

    await app(scope, receive, send)  # type: ignore[operator]
    return status, b"".join(body)


WEIGHT_PAGES = [
    ("list, compact (default)", "/ko/incidents", ""),
    ("list, full view", "/ko/incidents", "view=full"),
    ("list, filtered", "/ko/incidents", "cause=hardware-fault&component=nccl"),
    ("search", "/en/incidents", "q=NCCL"),
    ("list JSON", "/ko/incidents.json", ""),
    ("stylesheet", "/static/style.css", ""),
]


def measure_weight(library: Library, case_id: str, study_id: str | None) -> list[tuple[str, int, int, int]]:
    """(page, plain bytes, gzip bytes, brotli bytes) for each kind of page."""
    import asyncio

    from kubegap.web.app import create_app

    app = create_app(library, [])
    pages = [*WEIGHT_PAGES, ("case", f"/ko/incidents/{case_id}", "")]
    if study_id:
        pages += [("study", f"/ko/studies/{study_id}", ""), ("studies index", "/ko/studies", "")]

    async def run() -> list[tuple[str, int, int, int]]:
        rows = []
        for name, path, query in pages:
            sizes = []
            for encoding in (b"identity", b"gzip", b"br"):
                status, body = await _asgi_fetch(app, path, query.encode(), encoding)
                assert status == 200, (path, status)
                sizes.append(len(body))
            rows.append((name, sizes[0], sizes[1], sizes[2]))
        return rows

    return asyncio.run(run())


def weight_table(title: str, rows: list[tuple[str, int, int, int]]) -> str:
    lines = [
        f"### {title}\n",
        "| page | plain KB | gzip KB | brotli KB | brotli / plain |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, plain, zipped, brotli in rows:
        sizes = f"{plain / 1024:.1f} | {zipped / 1024:.1f} | {brotli / 1024:.1f}"
        lines.append(f"| {name} | {sizes} | {brotli / plain:.2f} |")
    by_name = {name: plain for name, plain, _, _ in rows}
    if "list, compact (default)" in by_name and "list, full view" in by_name:
        ratio = by_name["list, compact (default)"] / by_name["list, full view"]
        lines.append(f"\nCompact list / full list (plain bytes): {ratio:.2f}.")
    return "\n".join(lines) + "\n"


def measure_asgi(
    library: Library, queries: list[dict[str, list[str]]], incidents: int
) -> dict[str, list[float]]:
    import asyncio
    from urllib.parse import urlencode

    from kubegap.web.app import create_app

    app = create_app(library, [])
    generator = random.Random(SEED + 2)
    # Ids carry the year of a random date, so draw them from the index rather than rebuild them.
    everything = library.search(
        SearchQuery(per_page=100, page=1 + generator.randrange(max(1, incidents // 100)))
    )
    known = [hit.incident.id for hit in everything.hits]
    case_paths = [
        f"/{generator.choice(['ko', 'en'])}/incidents/{generator.choice(known)}"
        for _ in range(min(100, len(queries)))
    ]
    samples: dict[str, list[float]] = {
        "list page (ASGI)": [],
        "case page (ASGI)": [],
        "list page, full view (ASGI)": [],
    }

    async def run() -> None:
        for params in queries:
            query = urlencode(params, doseq=True).encode()
            started = time.perf_counter()
            status = await _asgi_get(app, f"/{params['lang'][0]}/incidents", query)
            samples["list page (ASGI)"].append((time.perf_counter() - started) * 1000.0)
            assert status == 200, status
        for params in queries[:100]:
            query = urlencode({**params, "view": ["full"]}, doseq=True).encode()
            started = time.perf_counter()
            status = await _asgi_get(app, f"/{params['lang'][0]}/incidents", query)
            samples["list page, full view (ASGI)"].append((time.perf_counter() - started) * 1000.0)
            assert status == 200, status
        for path in case_paths:
            started = time.perf_counter()
            status = await _asgi_get(app, path, b"")
            samples["case page (ASGI)"].append((time.perf_counter() - started) * 1000.0)
            assert status == 200, (path, status)

    asyncio.run(run())
    return samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--incidents", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=300)
    arguments = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="kubegap-bench-"))
    try:
        root = workdir / "knowledge"
        started = time.perf_counter()
        write_knowledge(root, arguments.incidents)
        generated = time.perf_counter() - started
        started = time.perf_counter()
        library = Library.open(root, db_path=workdir / "library.sqlite3")
        built = time.perf_counter() - started
        started = time.perf_counter()
        Library.open(root, db_path=workdir / "library.sqlite3").close()
        reopened = time.perf_counter() - started
        taxonomy = library.knowledge.taxonomy
        gc.collect()
        gc.freeze()  # as `kubegap serve` does once the knowledge base is loaded
        terms = {facet: [term.id for term in taxonomy.terms(facet)] for facet in FACETS}
        queries = varied_queries(arguments.queries, terms)
        measure_search(library, queries[:10], arguments.incidents)  # warm the caches and templates once
        measure_rendering(library, queries[:10])
        samples = measure_search(library, queries, arguments.incidents)
        samples.update(measure_rendering(library, queries))
        samples.update(measure_asgi(library, queries, arguments.incidents))
        # The same queries narrowed by a date range (about the middle 60% of the years) and, apart, by
        # one of the 97 organisations: what the two new filters add to a search, measured in this run.
        generator = random.Random(SEED + 3)
        dated = [{**params, "since": ["2017"], "until": ["2023-06"]} for params in queries]
        by_org = [{**params, "organization": [f"org-{generator.randrange(97)}"]} for params in queries]
        # The plain queries once more first, so both sides of the ratio meet the same warm caches.
        samples["search + facets, again"] = measure_search(library, queries, arguments.incidents)[
            "search + facets"
        ]
        samples["search + facets + date range"] = measure_search(library, dated, arguments.incidents)[
            "search + facets"
        ]
        samples["search + facets + organisation"] = measure_search(library, by_org, arguments.incidents)[
            "search + facets"
        ]
        # The same queries again with no remembered text matches: every search is a first search.
        library.text_cache_size = 0
        library.forget_text_matches()
        cold = measure_search(library, queries, arguments.incidents)
        samples["search + facets, text cache off"] = cold["search + facets"]
        library.text_cache_size = Library.text_cache_size
        # Ids carry the year of a random date: take a real one from the index.
        some_case = library.search(SearchQuery(per_page=1)).hits[0].incident.id
        synthetic_weight = measure_weight(library, some_case, None)
        library.close()
        bundled = Library.open(db_path=":memory:")
        studies = bundled.knowledge.studies
        bundled_weight = measure_weight(
            bundled, bundled.knowledge.incidents[0].id, studies[0].id if studies else None
        )
        bundled.close()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    totals = samples.pop("_totals")
    print(
        f"## Incident Library at {arguments.incidents:,} incidents "
        f"({os.cpu_count()} CPUs, Python {sys.version.split()[0]})\n"
    )
    print(
        f"Generated the YAML in {generated:.1f} s; first open (validate + build the index) "
        f"took {built:.1f} s; "
        f"reopening the unchanged index took {reopened * 1000:.0f} ms. Median result set: "
        f"{statistics.median(totals):,.0f} incidents.\n"
    )
    print("| measure | runs | p50 ms | p95 ms | max ms | goal |")
    print("|---|---:|---:|---:|---:|---|")
    for name, values in samples.items():
        print(_row(name, values))
    print()
    print(weight_table(f"Page weight, bundled corpus ({len(bundled_weight)} pages)", bundled_weight))
    print(weight_table(f"Page weight, {arguments.incidents:,} synthetic incidents", synthetic_weight))
    plain = statistics.median(samples["search + facets, again"])
    dated_median = statistics.median(samples["search + facets + date range"])
    print(
        f"\nA date range costs {dated_median / plain:.2f}× the p50 of the same searches without one "
        "(one run, same queries)."
    )
    return 0


def _kind(params: dict[str, list[str]], total: int, incidents: int) -> str:
    """Which sort of query this was, so a slow class shows up on its own row."""
    has_facets = any(facet in params for facet in FACETS)
    text = params.get("q", [""])[0]
    if not text:
        return "facets only"
    if "T03:00:00Z" in text:
        return "pasted log line" + (" + facets" if has_facets else "")
    breadth = "broad" if total > incidents // 2 else "narrow"
    return f"text ({breadth} match)" + (" + facets" if has_facets else "")


if __name__ == "__main__":
    raise SystemExit(main())
