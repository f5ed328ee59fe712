"""Bar charts: sorted, grouped, laid out in two ways, with every number in the accessible description."""

from __future__ import annotations

from kubegap.web.chart import LABEL_COLUMN, ChartRow, bar_chart, ordered, row_figure

ROWS = [
    ChartRow("Other host issues", 50, None, "Host"),
    ChartRow("Link flaps", 10, None, "Network"),
    ChartRow("Faulty GPU", 30, None, "GPU"),
    ChartRow("Cable", 40, None, "Network"),
    ChartRow("HBM", 35, None, "GPU"),
    ChartRow("Software bug", 20, None, ""),
]


def test_groups_by_total_then_largest_first_and_other_last() -> None:
    labels = [row.label for row in ordered(ROWS, total=None)]
    # GPU (65), then Host and Network (50 each, in the order met); a one-row group is still a group;
    # the row with no group comes last
    assert labels == ["HBM", "Faulty GPU", "Other host issues", "Cable", "Link flaps", "Software bug"]


def test_every_group_is_headed_and_the_rest_is_named() -> None:
    chart = bar_chart("c", "t", "Interruptions", ROWS, None, sort=True, rest_label="Other causes")
    assert [group.text for group in chart.groups] == ["GPU", "Host", "Network", "Other causes"]
    first, gpu_second, host_first = chart.groups[0].y, chart.bars[1].label_y, chart.groups[1].y
    assert first < chart.bars[0].label_y < gpu_second < host_first < chart.bars[2].label_y
    flat = bar_chart("c", "t", "d", [ChartRow("a", 1, None), ChartRow("b", 3, None)], None, sort=True)
    assert flat.groups == () and [bar.label for bar in flat.bars] == ["b", "a"]


def test_description_speaks_every_figure() -> None:
    chart = bar_chart("c", "t", "Interruptions", ROWS, 185, sort=True)
    assert chart.caption == "Interruptions"
    for bar in chart.bars:
        assert f"{bar.label}: {bar.figure}" in chart.description


def test_columns_layout_puts_bars_beside_a_label_column() -> None:
    chart = bar_chart("c", "t", "d", ROWS, None, layout="columns", sort=True)
    for bar in chart.bars:
        assert float(bar.bar_x.rstrip("%")) > LABEL_COLUMN
        assert float(bar.figure_x.rstrip("%")) == float(bar.bar_x.rstrip("%")) + float(
            bar.width_percent.rstrip("%")
        )
        assert bar.bar_y <= bar.label_y  # the bar sits on the label's first line, not under it
    stacked = bar_chart("c", "t", "d", ROWS, None, sort=True)
    assert all(bar.bar_x == "0%" and bar.bar_y > bar.label_y for bar in stacked.bars)


def test_small_shares_never_read_as_zero() -> None:
    assert row_figure(3, 0.02, None) == "0.02% (3)"
    assert row_figure(1, None, 1_000_000) == "<0.01% (1)"
    assert row_figure(None, 42.57, None) == "42.6%"
    assert row_figure(5, 3.0, None) == "3% (5)"
