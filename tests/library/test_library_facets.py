"""Facet filters, counts, recurring components, sorting and pages, against hand-computed answers."""

from __future__ import annotations

import pytest
from library_helpers import ALPHA, BRAVO, CHARLIE, DELTA, ECHO, FOXTROT, NEWEST_FIRST, ids, search

from kubegap.errors import UsageError
from kubegap.knowledge.model import FACETS
from kubegap.library import Library, SearchQuery, SearchResult, bitsets, sql
from kubegap.text import result_range


def counts(result: SearchResult, facet: str) -> dict[str, int]:
    return {value.term_id: value.count for value in result.facets[facet]}


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"cause": "hardware-fault"}, {ALPHA, BRAVO, FOXTROT}),  # a parent matches its descendants
        ({"cause": "gpu-fault"}, {ALPHA, FOXTROT}),
        ({"cause": "gpu-memory-error"}, {ALPHA}),
        ({"cause": ["software-update", "configuration-change"]}, {CHARLIE, DELTA, ECHO}),  # OR within
        ({"cause": "software-update,configuration-change"}, {CHARLIE, DELTA, ECHO}),  # comma form
        ({"cause": "hardware-fault", "component": "nccl"}, {BRAVO, FOXTROT}),  # AND across
        ({"cause": ["gpu-memory-error", "software-update"], "symptom": "capacity-loss"}, {CHARLIE, DELTA}),
        ({"component": "network"}, {BRAVO, CHARLIE}),
        ({"contributing-factor": "fleet-wide-change"}, {CHARLIE, DELTA}),
        ({"factor": "automatic-updates"}, {CHARLIE}),
        ({"cause": "software-bug"}, set()),
        ({"q": "GPU", "cause": "software-update"}, {DELTA}),
    ],
)
def test_filters(library: Library, params: dict[str, object], expected: set[str]) -> None:
    assert ids(search(library, params)) == expected


def test_counts_roll_up_over_everything(library: Library) -> None:
    result = search(library)
    assert result.total == 6
    assert counts(result, "cause") == {
        "hardware-fault": 3,
        "gpu-fault": 2,
        "gpu-memory-error": 1,
        "network-hardware-fault": 1,
        "software-update": 2,
        "configuration-change": 1,
    }  # software-bug has no incident and is not selected: left out
    assert counts(result, "component") == {
        "accelerator": 3,
        "gpu": 3,
        "gpu-memory": 1,
        "network": 2,
        "infiniband-rdma": 1,
        "host-networking": 1,
        "nccl": 2,
        "host-os": 1,
        "gpu-driver": 1,
        "storage": 1,
        "checkpoint-storage": 1,
    }
    assert counts(result, "contributing-factor") == {
        "hang-instead-of-fail": 2,
        "monitoring-gap": 2,
        "fleet-wide-change": 2,
        "automatic-updates": 1,
        "manual-recovery": 2,
    }
    parents = {value.term_id: value.parent for value in result.facets["component"]}
    assert parents["gpu-memory"] == "gpu" and parents["gpu"] == "accelerator" and parents["nccl"] is None
    # Recurring components count direct tags only: gpu (delta, foxtrot), nccl (bravo, foxtrot), then
    # the ones named once, in taxonomy order.
    recurring = [(value.term_id, value.count) for value in result.recurring_components]
    assert recurring == [
        ("gpu", 2),
        ("nccl", 2),
        ("gpu-memory", 1),
        ("infiniband-rdma", 1),
        ("host-networking", 1),
    ]


def test_counts_follow_the_result_set_and_keep_selected_values(library: Library) -> None:
    result = search(library, cause="hardware-fault")
    assert counts(result, "cause") == {
        "hardware-fault": 3,
        "gpu-fault": 2,
        "gpu-memory-error": 1,
        "network-hardware-fault": 1,
    }
    assert counts(result, "symptom") == {"training-hang": 2, "job-failure": 2}
    selected = [value.term_id for value in result.facets["cause"] if value.selected]
    assert selected == ["hardware-fault"]
    recurring = [(value.term_id, value.count) for value in result.recurring_components]
    assert recurring == [("nccl", 2), ("gpu", 1), ("gpu-memory", 1), ("infiniband-rdma", 1)]

    empty = search(library, cause="software-bug", component="nccl")
    assert empty.total == 0 and empty.hits == () and empty.recurring_components == ()
    assert [(v.term_id, v.count, v.selected) for v in empty.facets["cause"]] == [("software-bug", 0, True)]
    assert [(v.term_id, v.count, v.selected) for v in empty.facets["component"]] == [("nccl", 0, True)]
    assert empty.facets["symptom"] == ()


def test_bit_set_counts_agree_with_sql_group_by(library: Library) -> None:
    for params in ({}, {"cause": "hardware-fault"}, {"q": "GPU"}, {"component": ["gpu", "network"]}):
        result = search(library, params)
        rowids = [library._rowids[hit.incident.id] for hit in result.hits]
        for facet in FACETS:
            statement = sql.facet_counts_reference(facet, rowids)
            expected = dict(library._run(statement))
            assert counts(result, facet) == expected, (params, facet)


def test_sorting_and_pages(library: Library) -> None:
    newest = search(library)
    assert [hit.incident.id for hit in newest.hits] == NEWEST_FIRST
    oldest = search(library, sort="oldest")
    assert [hit.incident.id for hit in oldest.hits] == NEWEST_FIRST[::-1]
    page = search(library, per_page=2, page=2)
    assert [hit.incident.id for hit in page.hits] == [BRAVO, ALPHA]
    assert (page.total, page.start, page.end, page.page_count) == (6, 3, 4, 3)
    assert result_range(page.total, page.start, page.end, "ko") == "6건 중 3~4번째"
    assert result_range(page.total, page.start, page.end, "en") == "3-4 of 6"
    beyond = search(library, per_page=4, page=99)
    assert (beyond.query.page, beyond.start, beyond.end) == (2, 5, 6)
    assert [hit.incident.id for hit in beyond.hits] == [DELTA, FOXTROT]
    none = search(library, q="zzzzzz")
    assert (none.total, none.start, none.end, none.page_count) == (0, 0, 0, 1)
    assert result_range(none.total, none.start, none.end, "ko") == "0건"
    # relevance without text falls back to newest
    assert [hit.incident.id for hit in search(library, sort="relevance").hits] == NEWEST_FIRST


def test_from_params_cleans_and_clamps(library: Library) -> None:
    query = SearchQuery.from_params(
        {
            "q": ["  노드\x00  가  "],
            "page": ["-5"],
            "per_page": ["100000"],
            "lang": ["EN-us"],
            "sort": ["bogus"],
            "component": ["GPU", "gpu", ""],
            "unknown": ["x"],
        },
        taxonomy=library.taxonomy,
    )
    assert query.text == "노드 가"
    assert (query.page, query.per_page, query.lang, query.sort) == (1, 100, "en", "relevance")
    assert query.filters == {"component": ("gpu",)}
    assert SearchQuery.from_params({"page": "x", "per_page": None}).page == 1
    assert SearchQuery.from_params({"q": "x" * 10_000}).text == "x" * 500
    assert SearchQuery.from_params({}).sort == "newest"


def test_unknown_facet_value(library: Library) -> None:
    lenient = SearchQuery.from_params({"cause": ["gpu-fault", "gpu-faults"]}, taxonomy=library.taxonomy)
    assert lenient.filters == {"cause": ("gpu-fault",)}
    assert lenient.ignored_filters == (("cause", "gpu-faults"),)
    with pytest.raises(UsageError, match="unknown cause value 'gpu-faults'; did you mean gpu-fault"):
        SearchQuery.from_params({"cause": "gpu-faults"}, taxonomy=library.taxonomy, strict=True)


def test_query_round_trips_and_toggles() -> None:
    query = SearchQuery.from_params({"q": "노드", "cause": ["gpu-fault"], "page": "3", "lang": "en"})
    assert SearchQuery.from_params(query.to_params()) == query
    toggled = query.toggled("cause", "software-update")
    assert toggled.filters == {"cause": ("gpu-fault", "software-update")} and toggled.page == 1
    assert toggled.toggled("cause", "gpu-fault").toggled("cause", "software-update").filters == {}


def test_bit_helpers() -> None:
    mask = bitsets.mask_of([1, 5, 9], 10)
    assert list(bitsets.rowids_descending(mask)) == [9, 5, 1]
    assert list(bitsets.rowids_ascending(mask)) == [1, 5, 9]
    members = bitsets.as_bytes(mask, 10)
    assert [bitsets.has(members, rowid) for rowid in (0, 1, 5, 9, 10, 999)] == [
        False,
        True,
        True,
        True,
        False,
        False,
    ]


def test_from_params_reads_every_value_of_a_multi_dict() -> None:
    from starlette.datastructures import QueryParams

    params = QueryParams("q=gpu&cause=gpu-fault&cause=software-update&page=2")
    query = SearchQuery.from_params(params)
    assert query.filters == {"cause": ("gpu-fault", "software-update")}
    assert (query.text, query.page) == ("gpu", 2)


@pytest.mark.parametrize(
    ("text", "filters"),
    [
        ("GPU", {"cause": "hardware-fault"}),
        ("GPU", {"component": ["gpu", "network"], "symptom": "job-failure"}),
        ("NCCL에서", {"contributing-factor": "hang-instead-of-fail"}),
        ("kernel: GPU has fallen off the bus", {"cause": "software-update"}),
        ("재시작", {"cause": "software-bug"}),
    ],
)
def test_ranked_search_with_filters_keeps_the_unfiltered_order(
    library: Library, text: str, filters: dict[str, object]
) -> None:
    """Relevance searches with filters run them inside FTS5; the answer must equal filtering afterwards."""
    filtered = search(library, filters, q=text, sort="relevance")
    allowed = ids(search(library, filters))
    unfiltered = search(library, q=text, sort="relevance")
    expected = [hit.incident.id for hit in unfiltered.hits if hit.incident.id in allowed]
    assert [hit.incident.id for hit in filtered.hits] == expected
    assert [hit.score for hit in filtered.hits] == [
        hit.score for hit in unfiltered.hits if hit.incident.id in allowed
    ]
    newest = search(library, filters, q=text, sort="newest")
    assert ids(newest) == set(expected)
