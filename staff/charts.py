"""Bar charts as plain geometry for the dashboard template to draw as inline SVG.

No JavaScript and no style attributes (the CSP forbids inline styles): the template writes
SVG presentation attributes (x, y, width, height, fill) from these numbers.
"""

from collections.abc import Callable
from dataclasses import dataclass

WIDTH = 560
HEIGHT = 180
_TOP = 16  # room for the maximum's label
_BOTTOM = 22  # room for the x labels
_LEFT = 4


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    label: str
    value_text: str
    show_label: bool
    label_x: float
    label_y: float


@dataclass(frozen=True)
class Chart:
    title: str
    width: int
    height: int
    bars: list[Bar]
    max_text: str
    baseline_y: float
    empty: bool
    horizontal: bool = False


def column_chart(
    title: str, points: list[tuple[str, float | None]], *, value_format: Callable[[float], str] = str
) -> Chart:
    """One column per point (e.g. per day); a missing value draws no column."""
    values = [value for _, value in points if value is not None]
    top = max(values, default=0) or 1
    plot_height = HEIGHT - _TOP - _BOTTOM
    slot = (WIDTH - _LEFT) / max(len(points), 1)
    every = max(1, len(points) // 8)  # at most ~8 x labels
    bars = []
    for index, (label, value) in enumerate(points):
        height = round(plot_height * (value or 0) / top, 1)
        x = round(_LEFT + index * slot + slot * 0.1, 1)
        bars.append(
            Bar(
                x=x,
                y=round(HEIGHT - _BOTTOM - height, 1),
                width=round(slot * 0.8, 1),
                height=height,
                label=label,
                value_text="-" if value is None else value_format(value),
                show_label=index % every == 0,
                label_x=x,
                label_y=HEIGHT - 6,
            )
        )
    return Chart(
        title=title,
        width=WIDTH,
        height=HEIGHT,
        bars=bars,
        max_text=value_format(max(values, default=0)),
        baseline_y=HEIGHT - _BOTTOM,
        empty=not any(values),
    )


def row_chart(title: str, items: list[tuple[str, int]]) -> Chart:
    """One horizontal bar per item, largest first (e.g. blocks per rule)."""
    items = sorted(items, key=lambda item: -item[1])[:12]
    row_height, label_width = 22, 200
    height = max(len(items), 1) * row_height + 8
    top = max((value for _, value in items), default=0) or 1
    bars = [
        Bar(
            x=label_width,
            y=4 + index * row_height,
            width=round((WIDTH - label_width - 40) * value / top, 1),
            height=row_height - 6,
            label=label,
            value_text=str(value),
            show_label=True,
            label_x=4,
            label_y=4 + index * row_height + 12,
        )
        for index, (label, value) in enumerate(items)
    ]
    return Chart(
        title=title,
        width=WIDTH,
        height=height,
        bars=bars,
        max_text=str(top),
        baseline_y=height,
        empty=not items,
        horizontal=True,
    )
