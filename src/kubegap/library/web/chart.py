"""A horizontal bar chart as plain geometry, drawn by a template as inline SVG: no chart library, no JS.

Bars are laid out in percent of the chart's width, so the same SVG fits a 390px phone and a wide
screen while the text keeps its size; each row is a label line with its figure at the right end and
a bar under it. Colours come from the stylesheet (classes), because the page's CSP forbids inline style.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

ROW_HEIGHT = 46
LABEL_BASELINE = 17
BAR_TOP = 24
BAR_HEIGHT = 14


@dataclass(frozen=True, slots=True)
class Bar:
    label: str
    figure: str
    label_y: int
    bar_y: int
    width_percent: str  # e.g. "42.5%": SVG accepts percentages of the viewport width


@dataclass(frozen=True, slots=True)
class BarChart:
    dom_id: str
    title: str
    description: str
    height: int
    bar_height: int
    bars: tuple[Bar, ...]


@dataclass(frozen=True, slots=True)
class ChartRow:
    label: str
    count: int | None
    share_percent: float | None


def row_figure(count: int | None, share_percent: float | None, total: int | None) -> str:
    """'41.2% (268)', '268', or '41.2%', whatever the source gives; a share is computed from a total."""
    share = share_percent
    if share is None and count is not None and total:
        share = 100.0 * count / total
    parts = []
    if share is not None:
        parts.append(f"{share:.1f}%".replace(".0%", "%"))
    if count is not None:
        parts.append(f"({count:,})" if parts else f"{count:,}")
    return " ".join(parts)


def bar_chart(
    dom_id: str, title: str, description: str, rows: Sequence[ChartRow], total: int | None
) -> BarChart:
    """Rows in the given order, each bar scaled to the largest value (shares when known, else counts)."""
    use_share = all(row.share_percent is not None for row in rows) or (
        total is not None and total > 0 and all(row.count is not None for row in rows)
    )
    values = [_value(row, total) if use_share else float(row.count or 0) for row in rows]
    largest = max(values, default=0.0) or 1.0
    bars = tuple(
        Bar(
            label=row.label,
            figure=row_figure(row.count, row.share_percent, total),
            label_y=index * ROW_HEIGHT + LABEL_BASELINE,
            bar_y=index * ROW_HEIGHT + BAR_TOP,
            width_percent=f"{max(value / largest * 100.0, 0.5):.2f}%",
        )
        for index, (row, value) in enumerate(zip(rows, values, strict=True))
    )
    return BarChart(dom_id, title, description, max(len(rows), 1) * ROW_HEIGHT, BAR_HEIGHT, bars)


def _value(row: ChartRow, total: int | None) -> float:
    if row.share_percent is not None:
        return row.share_percent
    if row.count is not None and total:
        return 100.0 * row.count / total
    return 0.0
