"""Every facet value's toggle_count is the total of the search a click on it runs: proven by running it.

Covers values inside and outside the results, selected values (a click removes them), parents whose
count includes their children, text searches, pasted signatures and relaxed long texts, on the fixture
library (hand-checkable) and on the bundled corpus.

Equal counts are not enough: with a parent selected, a click that added its child to the facet's OR
group changed nothing, and every child showed the parent's total (the issue saw "12" on every value)
while each count still equalled its click. So a click under a selected value must narrow, and one
above selected values must widen to exactly that value's incidents.
"""

from __future__ import annotations

import pytest
from library_helpers import ALPHA, FOXTROT, ids, search

from kubegap.knowledge import load_knowledge
from kubegap.library import Library, SearchQuery, SearchResult

RELAXED_TEXT = "overnight the nodes lost their routes after an os update quokka zebra"
VIEWS: list[dict[str, object]] = [
    {},
    {"cause": "hardware-fault"},
    {"component": "nccl"},
    {"component": ["nccl", "gpu"], "symptom": "training-hang"},
    {"cause": "gpu-memory-error", "symptom": "capacity-loss"},  # nothing matches: only ways out remain
    {"q": "GPU"},
    {"q": "GPU", "cause": "software-update"},
    {"q": RELAXED_TEXT},
    {"q": RELAXED_TEXT, "cause": "gpu-fault"},
    {"cause": "hardware-fault", "tab": "cause"},  # a parent selected: its children narrow
    {"cause": ["gpu-memory-error", "software-update"]},  # a child selected: its parent widens
]


def _assert_counts_are_clicks(library: Library, result: SearchResult) -> int:
    checked = 0
    for facet, values in result.facet_choices.items():
        for value in values:
            clicked = library.search(result.query.toggled(facet, value.term_id, library.taxonomy))
            assert value.toggle_count == clicked.total, (result.query, facet, value.term_id)
            checked += 1
    return checked


@pytest.mark.parametrize("params", VIEWS, ids=[str(view) for view in VIEWS])
def test_each_count_equals_what_its_click_gives(library: Library, params: dict[str, object]) -> None:
    result = search(library, params)
    assert _assert_counts_are_clicks(library, result) > 0


def test_within_one_facet_a_click_means_or(library: Library) -> None:
    result = search(library, component="nccl")
    choices = {value.term_id: value for value in result.facet_choices["component"]}
    # nccl: bravo, foxtrot; gpu (rolled up: alpha, delta, foxtrot); together four incidents
    assert choices["gpu"].count == 1 and choices["gpu"].toggle_count == 4
    assert choices["nccl"].selected and choices["nccl"].toggle_count == 6  # removing it: everything
    # a value outside the results is offered (it widens the search), the old counts leave it out
    assert "host-os" in choices and choices["host-os"].count == 0
    assert "host-os" not in {value.term_id for value in result.facets["component"]}


def test_a_click_under_a_selected_value_narrows_to_it(library: Library) -> None:
    result = search(library, cause="hardware-fault")
    choices = {value.term_id: value for value in result.facet_choices["cause"]}
    # hardware-fault: alpha (gpu-memory-error), bravo (network-hardware-fault), foxtrot (gpu-fault)
    assert result.total == 3
    assert choices["gpu-fault"].toggle_count == 2  # alpha and foxtrot, not the parent's 3
    assert choices["gpu-memory-error"].toggle_count == 1
    assert choices["network-hardware-fault"].toggle_count == 1
    narrowed = result.query.toggled("cause", "gpu-fault", library.taxonomy)
    assert narrowed.filters == {"cause": ("gpu-fault",)}
    assert ids(library.search(narrowed)) == {ALPHA, FOXTROT}


def test_a_click_above_selected_values_widens_to_it(library: Library) -> None:
    result = search(library, cause=["gpu-memory-error", "software-update"])
    choices = {value.term_id: value for value in result.facet_choices["cause"]}
    widened = result.query.toggled("cause", "hardware-fault", library.taxonomy)
    assert widened.filters == {"cause": ("software-update", "hardware-fault")}
    assert choices["hardware-fault"].toggle_count == library.search(widened).total == 5


def test_counts_after_a_filter_are_not_all_the_same(library: Library) -> None:
    """What the issue saw: one number beside every value of the selected value's tree."""
    result = search(library, cause="hardware-fault")
    under = [value.toggle_count for value in result.facet_choices["cause"] if value.parent is not None]
    assert len(set(under)) > 1, under


def test_parent_counts_include_children(library: Library) -> None:
    result = search(library)
    choices = {value.term_id: value for value in result.facet_choices["cause"]}
    assert choices["hardware-fault"].toggle_count == 3
    assert choices["gpu-fault"].toggle_count == 2 and choices["gpu-memory-error"].toggle_count == 1
    assert choices["gpu-memory-error"].parent == "gpu-fault"


def test_relaxed_text_counts_follow_the_relaxed_rule(library: Library) -> None:
    result = search(library, q=RELAXED_TEXT, cause="gpu-fault")
    assert result.total == 0 or result.relaxed
    _assert_counts_are_clicks(library, result)


def test_bundled_corpus_counts_equal_clicks() -> None:
    library = Library.from_knowledge(load_knowledge())
    for params in (
        {},
        {"component": "nccl"},
        {"component": ["nccl", "gpu"]},
        {"q": "NCCL", "cause": "hardware-fault"},
    ):
        result = library.search(SearchQuery.from_params(params, taxonomy=library.taxonomy))
        assert _assert_counts_are_clicks(library, result) > 10
