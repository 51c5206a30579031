"""Markdown for evaluation reports: tables, and the number formats their cells use.

Shared by every report the harness prints (an evaluation, a ladder), so they
read alike; the results themselves say which rows and cells to show.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    """A markdown table as lines: the header, its rule, then one line per row of cells."""
    lines = [_line(header), "|" + "---|" * len(header)]
    return lines + [_line(row) for row in rows]


def _line(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def number(value: float | None, digits: int = 3) -> str:
    """``value`` with ``digits`` decimals, or ``-`` when there is none."""
    return "-" if value is None else f"{value:.{digits}f}"


def speed(per_second: float | None) -> str:
    """Decisions per second: thousands separators when large, three significant digits when slow (search)."""
    if per_second is None:
        return "-"
    return f"{per_second:,.0f}" if per_second >= 100 else f"{per_second:.3g}"
