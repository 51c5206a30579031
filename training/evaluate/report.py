"""Tables for evaluation reports, in markdown (for pages) and aligned text (for a terminal), and their numbers.

Shared by every report the harness prints (an evaluation, a ladder), so they
read alike; the results themselves say which rows and cells to show.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence
from pathlib import PurePath
from typing import Any


def table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    """A markdown table as lines: the header, its rule, then one line per row of cells."""
    lines = [_line(header), "|" + "---|" * len(header)]
    return lines + [_line(row) for row in rows]


def aligned(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    """A plain-text table as lines: columns padded to their widest cell, text left and numbers right."""
    rows = [list(row) for row in rows]
    widths = [max(len(cell) for cell in column) for column in zip(header, *rows)]
    numeric = [all(_is_number(row[i]) for row in rows) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        padded = (c.rjust(w) if right else c.ljust(w) for c, w, right in zip(cells, widths, numeric))
        return "  ".join(padded).rstrip()

    return [line(header), *(line(row) for row in rows)]


def _is_number(cell: str) -> bool:
    return bool(cell) and cell.replace(",", "").replace(".", "").replace("-", "").isdigit()


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


def text_cells(agent: Any, bids: bool) -> list[str]:
    """An :class:`~training.evaluate.results.AgentReport` as a row of :func:`aligned`'s table (see ``legend``)."""
    label = PurePath(agent.agent).name if "/" in agent.agent else agent.agent
    points = agent.points_per_hand
    cells = [f"{label} ({agent.role})", str(agent.games), f"{agent.wins}-{agent.draws}-{agent.losses}"]
    cells += [agent.win_rate.as_text(), "-" if points is None else points.as_text(2)]
    if bids:
        cells += [number(agent.bid_rate, 2), number(agent.made_rate, 2), number(agent.mean_bid, 2)]
    return cells + [number(agent.median_ms, 3)]


def legend(bids: bool, unit: str = "hand") -> list[str]:
    """What the columns of the text report mean, for a reader who has not seen the harness's docs."""
    points = "before a set is subtracted" if unit == "hand" else "its score for the round"
    lines = [
        "win rate: the share of games won, a draw counting half, with its 95% interval.",
        f"points/{unit}: the points its side took a {unit} ({points}).",
    ]
    if bids:
        lines.append("bids: the share of hands its side won the bid; made: the share of those bids made; "
                     "mean bid: the mean winning bid.")  # fmt: skip
    lines.append("ms/decision: the median milliseconds a decision. --json FILE keeps every figure and game.")
    return [line for text in lines for line in wrapped(text)]


def wrapped(text: str, width: int = 100) -> list[str]:
    """``text`` as lines of at most ``width`` characters, for a terminal."""
    return textwrap.wrap(text, width, break_on_hyphens=False)
