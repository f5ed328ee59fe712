"""Shared names for the library tests.

The library tests run on a small knowledge base of their own (fixtures/knowledge), so every expected
result is worked out by hand and does not move as the real corpus grows.

The six fixture incidents, newest first, with the tags that matter:
    echo     2025-02-14  configuration-change | checkpoint-storage           | job-failure
    charlie  2024-06-09  software-update      | host-os, host-networking     | network-loss, capacity-loss
    bravo    2024-03-05  network-hw-fault     | infiniband-rdma, nccl        | training-hang
    alpha    2023-01-10  gpu-memory-error     | gpu-memory                   | job-failure
    delta    2022-09-01  software-update      | gpu-driver, gpu              | node-failure, capacity-loss
    foxtrot  2021-05-20  gpu-fault            | gpu, nccl                    | training-hang, job-failure
"""

from __future__ import annotations

from pathlib import Path

from kubegap.library import Library, SearchQuery, SearchResult

FIXTURE_ROOT = Path(__file__).parent / "fixtures" / "knowledge"

ALPHA = "alpha-2023-01-ecc-relaunches"
BRAVO = "bravo-2024-03-infiniband-nccl-stall"
CHARLIE = "charlie-2024-06-os-update-routes"
DELTA = "delta-2022-09-driver-upgrade"
ECHO = "echo-2025-02-checkpoint-volume-full"
FOXTROT = "foxtrot-2021-05-gpu-off-bus"
NEWEST_FIRST = [ECHO, CHARLIE, BRAVO, ALPHA, DELTA, FOXTROT]


def search(library: Library, params: dict[str, object] | None = None, **more: object) -> SearchResult:
    """Search with query-string style parameters (per_page defaults to 100 so every hit is on page 1)."""
    merged: dict[str, object] = {"per_page": 100, **(params or {}), **more}
    return library.search(SearchQuery.from_params(merged, taxonomy=library.taxonomy, strict=True))


def ids(result: SearchResult) -> set[str]:
    return {hit.incident.id for hit in result.hits}
