"""A horizontal bar chart as plain geometry, drawn by a template as inline SVG: no chart library, no JS.

Rows are sorted largest first, inside groups when rows carry one (groups of two or more get a heading
and are ordered by their total; rows named "other" or "unknown" go last). Two layouts of the same
chart are built, and the stylesheet shows one: `columns` for wide screens (labels in a column of
LABEL_COLUMN percent, bars beside them) and `stacked` for phones (each label above its bar). Bars are
laid out in percent of the chart's width, so the SVG fits any width while the text keeps its size.
The numbers are also in the SVG's accessible description, and pages show a table beside it.
Colours come from the stylesheet (classes): the page's CSP forbids inline style.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace

LINE_HEIGHT = 18
FIRST_BASELINE = 14
BAR_GAP = 6
BAR_HEIGHT = 14
ROW_GAP = 14
GROUP_GAP = 10
BAR_SPACE = 70.0  # percent of the width the longest bar takes in the stacked layout
MAX_LINE_UNITS = 44  # a line of label at 14px on a 390px phone: Latin letters count 1, wide (Hangul) 2
LABEL_COLUMN = 40.0  # percent of the width for labels in the columns layout
COLUMN_BAR_SPACE = 46.0  # percent the longest bar takes beside the label column
COLUMN_LINE_UNITS = 46  # fits 40% of a 900 px chart, the narrowest that shows this layout
_LAST_WORDS = ("other", "unknown", "기타", "미상", "알 수 없")


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
    bar_x: str = "0%"
    figure_x: str = ""  # where the figure starts: just after the bar's end
    group: str = ""


@dataclass(frozen=True, slots=True)
class GroupLabel:
    text: str
    y: int


@dataclass(frozen=True, slots=True)
class BarChart:
    dom_id: str
    title: str
    description: str  # the caption and every row's figure, for screen readers
    height: int
    bar_height: int
    figure_dx: int
    bars: tuple[Bar, ...]
    caption: str = ""
    layout: str = "stacked"
    groups: tuple[GroupLabel, ...] = ()


@dataclass(frozen=True, slots=True)
class ChartRow:
    label: str
    count: int | None
    share_percent: float | None
    group: str = ""


def row_figure(count: int | None, share_percent: float | None, total: int | None) -> str:
    """'41.2% (268)', '268', or '41.2%', whatever the source gives; a share is computed from a total."""
    share = share_percent
    if share is None and count is not None and total:
        share = 100.0 * count / total
    parts = []
    if share is not None:
        parts.append(_percent(share))
    if count is not None:
        parts.append(f"({count:,})" if parts else f"{count:,}")
    return " ".join(parts)


def _percent(share: float) -> str:
    """'41.2%', '3%', and two decimals below 0.1% so that a small share never reads as '0%'."""
    if 0 < share < 0.1:
        return f"{share:.2f}%" if share >= 0.005 else "<0.01%"
    return f"{share:.1f}%".replace(".0%", "%")


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


def ordered(rows: Sequence[ChartRow], total: int | None) -> list[ChartRow]:
    """Largest first within each group, groups by their total, "other"/"unknown" rows and groups last.

    A group of one keeps its heading: a lone "Hardware fault" row is still a hardware fault, not one
    of the "other causes". Rows with no group come last.
    """
    use_share = _uses_share(rows, total)

    def value(row: ChartRow) -> float:
        return _value(row, total) if use_share else float(row.count or 0)

    groups: dict[str, list[ChartRow]] = {}
    for row in rows:
        groups.setdefault(row.group, []).append(row)
    for members in groups.values():
        members.sort(key=lambda row: (_is_last(row.label), -value(row)))
    keys = sorted(
        groups, key=lambda key: (_is_last(key) or key == "", -sum(value(row) for row in groups[key]))
    )
    return [row for key in keys for row in groups[key]]


def bar_chart(
    dom_id: str,
    title: str,
    description: str,
    rows: Sequence[ChartRow],
    total: int | None,
    *,
    layout: str = "stacked",
    sort: bool = False,
    rest_label: str = "",
) -> BarChart:
    """Bars scaled to the largest value (shares when known, else counts); `sort` orders and groups.

    `rest_label` heads the ungrouped rows after the groups, when there are groups.
    """
    shown = ordered(rows, total) if sort else list(rows)
    use_share = _uses_share(shown, total)
    values = [_value(row, total) if use_share else float(row.count or 0) for row in shown]
    largest = max(values, default=0.0) or 1.0
    columns = layout == "columns"
    space = COLUMN_BAR_SPACE if columns else BAR_SPACE
    headed = {row.group for row in shown if row.group}
    if headed and rest_label:
        shown = [row if row.group else replace(row, group=rest_label) for row in shown]
        headed.add(rest_label)
    bars: list[Bar] = []
    groups: list[GroupLabel] = []
    top, previous_group = 0, None
    for row, value in zip(shown, values, strict=True):
        group = row.group if row.group in headed else ""
        if group and group != previous_group:
            top += GROUP_GAP if bars else 0
            groups.append(GroupLabel(group, top + FIRST_BASELINE))
            top += LINE_HEIGHT + 4
        previous_group = group
        wrapped = wrap_label(row.label, COLUMN_LINE_UNITS if columns else MAX_LINE_UNITS)
        lines = tuple(Line(text, 0 if index == 0 else LINE_HEIGHT) for index, text in enumerate(wrapped))
        width = max(value / largest * space, 0.5)
        if columns:
            bar_y = top + FIRST_BASELINE - BAR_HEIGHT + 2
            bar_x = LABEL_COLUMN + 2
            bottom = max(top + FIRST_BASELINE + (len(lines) - 1) * LINE_HEIGHT + 4, bar_y + BAR_HEIGHT)
        else:
            bar_y = top + FIRST_BASELINE + (len(lines) - 1) * LINE_HEIGHT + BAR_GAP
            bar_x = 0.0
            bottom = bar_y + BAR_HEIGHT
        figure = row_figure(row.count, row.share_percent, total)
        bars.append(
            Bar(
                label=row.label,
                lines=lines,
                figure=figure,
                label_y=top + FIRST_BASELINE,
                bar_y=bar_y,
                figure_y=bar_y + BAR_HEIGHT - 2,
                width_percent=f"{width:.2f}%",
                bar_x=f"{bar_x:.2f}%" if columns else "0%",
                figure_x=f"{bar_x + width:.2f}%",
                group=group,
            )
        )
        top = bottom + ROW_GAP
    spoken = "; ".join(f"{bar.label}: {bar.figure}" for bar in bars)
    return BarChart(
        dom_id=dom_id,
        title=title,
        description=f"{description} — {spoken}" if spoken else description,
        height=max(top, LINE_HEIGHT),
        bar_height=BAR_HEIGHT,
        figure_dx=BAR_GAP,
        bars=tuple(bars),
        caption=description,
        layout=layout,
        groups=tuple(groups),
    )


def _uses_share(rows: Sequence[ChartRow], total: int | None) -> bool:
    return all(row.share_percent is not None for row in rows) or (
        total is not None and total > 0 and all(row.count is not None for row in rows)
    )


def _is_last(label: str) -> bool:
    lowered = label.lower()
    return any(lowered.startswith(word) for word in _LAST_WORDS)


def _value(row: ChartRow, total: int | None) -> float:
    if row.share_percent is not None:
        return row.share_percent
    if row.count is not None and total:
        return 100.0 * row.count / total
    return 0.0
