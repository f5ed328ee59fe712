"""The organisation facet and the date range, on the fixture library (see library_helpers.py).

Charlie Cloud belongs to Delta Compute in the fixture organisation list, so a filter on delta-compute
finds both incidents and the facet rolls Charlie's count up into Delta's.
"""

from __future__ import annotations

import datetime as dt
import sqlite3

import pytest
from library_helpers import ALPHA, BRAVO, CHARLIE, DELTA, ECHO, FOXTROT, ids, search

from kubegap.errors import UsageError
from kubegap.library import Library, SearchQuery
from kubegap.library.dates import RowDates, parse_day


def test_organisation_filter_rolls_up_to_the_parent(library: Library) -> None:
    assert ids(search(library, organization="delta-compute")) == {DELTA, CHARLIE}
    assert ids(search(library, organization="charlie-cloud")) == {CHARLIE}
    assert ids(search(library, org=["alpha-labs", "bravo-ai"])) == {ALPHA, BRAVO}
    # AND with the other facets: Delta's own incident is a software update, so is Charlie's.
    assert ids(search(library, organization="delta-compute", component="host-os")) == {CHARLIE}


def test_organisation_by_name_or_alias_in_any_case(library: Library) -> None:
    for spelling in ("Charlie Cloud", "찰리 클라우드", "CHARLIE", "  charlie   cloud "):
        query = SearchQuery.from_params({"organisation": spelling}, taxonomy=library.taxonomy, strict=True)
        assert query.filters == {"organization": ("charlie-cloud",)}, spelling


def test_organisation_counts(library: Library) -> None:
    everything = {value.term_id: value for value in library.search(SearchQuery()).facets["organization"]}
    assert everything["delta-compute"].count == 2 and everything["charlie-cloud"].count == 1
    assert everything["charlie-cloud"].parent == "delta-compute"
    assert everything["charlie-cloud"].label == "찰리 클라우드"
    narrowed = library.search(SearchQuery.from_params({"since": "2024", "lang": "en"}))
    counted = {value.term_id: value.count for value in narrowed.facets["organization"]}
    assert counted == {"bravo-ai": 1, "delta-compute": 1, "charlie-cloud": 1, "echo-research": 1}
    assert {value.label for value in narrowed.facets["organization"]} >= {"Charlie Cloud", "Echo Research"}


def test_unknown_organisation(library: Library) -> None:
    with pytest.raises(
        UsageError, match="unknown organization value 'charlie-clod'; did you mean charlie-cloud"
    ):
        SearchQuery.from_params({"organization": "charlie-clod"}, taxonomy=library.taxonomy, strict=True)
    lenient = SearchQuery.from_params({"organization": "nobody"}, taxonomy=library.taxonomy)
    assert lenient.filters == {} and lenient.ignored_filters == (("organization", "nobody"),)


@pytest.mark.parametrize(
    ("since", "until", "expected"),
    [
        ("2024", None, {ECHO, CHARLIE, BRAVO}),
        (None, "2022", {DELTA, FOXTROT}),
        ("2024-03-05", "2024-03-05", {BRAVO}),  # both ends are inclusive
        ("2024-03-06", "2024-06-08", set()),
        ("2022-09", "2023-01", {DELTA, ALPHA}),  # a month means its first day, or its last for until
        ("2025-02-14", None, {ECHO}),
        ("2025-02-15", None, set()),
        (None, "2021-05-19", set()),
        ("1999", "2099", {ECHO, CHARLIE, BRAVO, ALPHA, DELTA, FOXTROT}),
    ],
)
def test_date_range(library: Library, since: str | None, until: str | None, expected: set[str]) -> None:
    params = {key: value for key, value in (("since", since), ("until", until)) if value}
    result = search(library, params)
    assert ids(result) == expected and result.total == len(expected)


def test_date_range_with_text_and_facets(library: Library) -> None:
    result = search(library, {"q": "NCCL", "since": "2022", "cause": "hardware-fault"})
    assert ids(result) == {BRAVO}


@pytest.mark.parametrize(
    ("value", "last", "expected"),
    [
        ("2024", False, dt.date(2024, 1, 1)),
        ("2024", True, dt.date(2024, 12, 31)),
        ("2024-02", True, dt.date(2024, 2, 29)),
        ("2023-02", True, dt.date(2023, 2, 28)),
        ("2024-2-3", False, dt.date(2024, 2, 3)),
        ("2024-12", True, dt.date(2024, 12, 31)),
        ("2024-13", False, None),
        ("2024-04-31", False, None),
        ("0000", False, None),
        ("24-01-01", False, None),
        ("2024/01/01", False, None),
        ("", False, None),
    ],
)
def test_parse_day(value: str, last: bool, expected: dt.date | None) -> None:
    assert parse_day(value, last=last) == expected


def test_bad_dates_are_ignored_and_reported_unless_strict(library: Library) -> None:
    query = SearchQuery.from_params({"since": "soon", "until": ["2024-99", "2023"]})
    assert (query.since, query.until) == (None, dt.date(2023, 12, 31))
    assert query.ignored_filters == (("since", "soon"), ("until", "2024-99"))
    with pytest.raises(UsageError, match="since 'soon' is not a date"):
        SearchQuery.from_params({"since": "soon"}, strict=True)
    # An empty range is an error when strict and simply empty otherwise.
    with pytest.raises(UsageError, match="is after until"):
        SearchQuery.from_params({"since": "2025", "until": "2024"}, strict=True)
    assert search(library, {"since": "2025-03"}).total == 0
    assert library.search(SearchQuery.from_params({"since": "2025", "until": "2024"})).total == 0


def test_query_round_trips_with_organisation_and_dates(library: Library) -> None:
    query = SearchQuery.from_params(
        {"org": "Delta Compute", "since": "2022-09", "until": "2024"}, taxonomy=library.taxonomy
    )
    params = query.to_params()
    assert params["organization"] == ["delta-compute"]
    assert (params["since"], params["until"]) == (["2022-09-01"], ["2024-12-31"])
    assert SearchQuery.from_params(params, taxonomy=library.taxonomy) == query
    assert query.toggled("organization", "delta-compute").filters == {}


def test_similar_ignores_the_shared_organisation(library: Library) -> None:
    """Delta and Charlie share an organisation by roll-up and a cause: only the cause is a reason."""
    charlie = next(
        item for item in library.similar(DELTA, limit=10, lang="en") if item.incident.id == CHARLIE
    )
    assert {value.facet for value in charlie.shared_terms} <= {"cause", "component", "symptom"}


def test_text_search_finds_an_alias(library: Library) -> None:
    assert CHARLIE in ids(search(library, q="Charlie"))
    assert ids(search(library, q="델타 컴퓨트")) == {DELTA, CHARLIE}  # parent names are indexed too


def test_row_dates_mask_on_an_empty_index() -> None:
    connection = sqlite3.connect(":memory:")
    connection.execute("CREATE TABLE incidents (rowid INTEGER PRIMARY KEY, date TEXT)")
    dates = RowDates.load(connection)
    assert dates.mask(None, None) == 0 and dates.mask(dt.date(2024, 1, 1), None) == 0


def test_remembered_text_matches_do_not_carry_a_date_range() -> None:
    """A pasted signature searched first with a narrow range, then without, still finds every case."""
    from library_helpers import FIXTURE_ROOT

    fresh = Library.open(FIXTURE_ROOT, db_path=":memory:")
    pasted = "2026-01-02T03:00:00Z node7 kernel: GPU has fallen off the bus (code 3)"
    everywhere = ids(search(fresh, {"q": pasted, "component": "gpu"}))
    assert {DELTA, FOXTROT} <= everywhere  # both carry the signature
    fresh.forget_text_matches()
    dated = ids(search(fresh, {"q": pasted, "component": "gpu", "since": "2022"}))
    assert DELTA in dated and FOXTROT not in dated and dated < everywhere
    assert ids(search(fresh, {"q": pasted, "component": "gpu"})) == everywhere
