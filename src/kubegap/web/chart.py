"""A horizontal bar chart as plain geometry, drawn by a template as inline SVG: no chart library, no JS.

Each row is its label (wrapped onto as many lines as a phone needs), then a bar with its figure just
after the bar's end. Bars are laid out in percent of the chart's width and scaled so the longest takes
BAR_SPACE percent, leaving room for the figure; so one SVG fits a 390px phone and a wide screen while
the text keeps its size. Colours come from the stylesheet (classes): the page's CSP forbids inline style.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

LINE_HEIGHT = 18
FIRST_BASELINE = 14
BAR_GAP = 6
BAR_HEIGHT = 14
ROW_GAP = 14
BAR_SPACE = 70.0  # percent of the width the longest bar takes; the rest is for its figure
MAX_LINE_UNITS = 44  # a line of label at 14px on a 390px phone: Latin letters count 1, wide (Hangul) 2


@dataclass(frozen=True, slots=True)
class Line:
    text: str
    dy: int  # offset from the previous line's baseline


@dataclass(frozen=True, slots=True)
class Bar:
    label: str
    lines: tuple[Line, ...]
    figure: str
    label_y: int
    bar_y: int
    figure_y: int
    width_percent: str  # e.g. "42.50%": SVG accepts percentages of the viewport width


@dataclass(frozen=True, slots=True)
class BarChart:
    dom_id: str
    title: str
    description: str
    height: int
    bar_height: int
    figure_dx: int
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


def _units(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(character) in "WF" else 1 for character in text)


def wrap_label(text: str, max_units: int = MAX_LINE_UNITS) -> list[str]:
    """Break a label at spaces into lines that fit a phone; a word longer than a line is cut."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        while _units(word) > max_units:
            cut = len(word)
            while _units(word[:cut]) > max_units:
                cut -= 1
            if current:
                lines.append(current)
                current = ""
            lines.append(word[:cut])
            word = word[cut:]
        candidate = f"{current} {word}" if current else word
        if _units(candidate) <= max_units:
            current = candidate
        else:
            lines.append(current)
            current = word
    if current or not lines:
        lines.append(current)
    return lines


def bar_chart(
    dom_id: str, title: str, description: str, rows: Sequence[ChartRow], total: int | None
) -> BarChart:
    """Rows in the given order, each bar scaled to the largest value (shares when known, else counts)."""
    use_share = all(row.share_percent is not None for row in rows) or (
        total is not None and total > 0 and all(row.count is not None for row in rows)
    )
    values = [_value(row, total) if use_share else float(row.count or 0) for row in rows]
    largest = max(values, default=0.0) or 1.0
    bars: list[Bar] = []
    top = 0
    for row, value in zip(rows, values, strict=True):
        wrapped = wrap_label(row.label)
        lines = tuple(Line(text, 0 if index == 0 else LINE_HEIGHT) for index, text in enumerate(wrapped))
        bar_y = top + FIRST_BASELINE + (len(lines) - 1) * LINE_HEIGHT + BAR_GAP
        bars.append(
            Bar(
                label=row.label,
                lines=lines,
                figure=row_figure(row.count, row.share_percent, total),
                label_y=top + FIRST_BASELINE,
                bar_y=bar_y,
                figure_y=bar_y + BAR_HEIGHT - 2,
                width_percent=f"{max(value / largest * BAR_SPACE, 0.5):.2f}%",
            )
        )
        top = bar_y + BAR_HEIGHT + ROW_GAP
    return BarChart(dom_id, title, description, max(top, LINE_HEIGHT), BAR_HEIGHT, BAR_GAP, tuple(bars))


def _value(row: ChartRow, total: int | None) -> float:
    if row.share_percent is not None:
        return row.share_percent
    if row.count is not None and total:
        return 100.0 * row.count / total
    return 0.0
