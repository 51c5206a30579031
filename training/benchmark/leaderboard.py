"""The leaderboard: every rated agent and every panel member of each task, one row each, best first.

A panel member's row is its place on the task's published scale: its rating from the
round robin's fit, its win rate against each other member from that round robin, and the
command that plays it (``--fit-scale``). Every other row is a rating file
(``smear-rl rate --json``), with the command that made it. The leaderboard page embeds
these tables as :func:`leaderboard` prints them, and a test keeps it so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from training.benchmark.rate import Rating, reduced_games
from training.benchmark.scale import Scale
from training.evaluate import report


@dataclass(frozen=True)
class Row:
    name: str
    rating: float
    rating_text: str
    win_rates: dict[str, float]  # opponent spec -> this row's win rate against it
    mean_ms: str
    command: str


def short(spec: str) -> str:
    """A panel member as a column names it: the agent's name without its options (``search``)."""
    return spec.partition(":")[0]


def panel_rows(scale: Scale) -> list[Row]:
    """Each member of the scale as a row: its rating and its round robin's win rates."""
    rows = []
    for member in scale.members:
        rates = {}
        for p in scale.pairs:
            score = (p.wins + p.draws / 2) / p.games
            if p.a == member.agent:
                rates[p.b] = score
            elif p.b == member.agent:
                rates[p.a] = 1 - score
        interval = "" if member.low == member.high else f" [{member.low:.0f}, {member.high:.0f}]"
        text, command = f"{member.rating:.0f}{interval}", f"`smear-rl rate --fit-scale --task {scale.task}`"
        rows.append(Row(f"{member.agent} (panel)", member.rating, text, rates, "-", command))
    return rows


def rating_row(rating: Rating) -> Row:
    rates = {m.opponent: m.win_rate.value for m in rating.match_ups}
    time_cell = f"{rating.mean_ms:.3g}" + ("" if rating.within_time_limit else " (over the limit)")
    command = f"`{rating.command}`" if rating.command else "-"
    name = f"{rating.name} ({rating.reduced_note()})" if rating.reduced else rating.name
    return Row(name, rating.rating, rating.rating_text(), rates, time_cell, command)


def leaderboard(ratings: Sequence[Rating], scales: Sequence[Scale]) -> str:
    """One table per task (those of ``scales``, in order), best first; ratings of other tasks are refused."""
    known = {(s.task, s.task_version) for s in scales}
    strays = sorted({f"{r.task} v{r.task_version}" for r in ratings} - {f"{t} v{v}" for t, v in known})
    if strays:
        raise ValueError(f"ratings of {', '.join(strays)}: no published scale of that task and version here")
    blocks = []
    for scale in scales:
        own = [r for r in ratings if (r.task, r.task_version) == (scale.task, scale.task_version)]
        for rating in own:
            check_on_scale(rating, scale)
        rows = panel_rows(scale) + [rating_row(r) for r in own]
        opponents = [m.agent for m in scale.members]
        header = ["agent", "rating [95% CI]", *(f"vs {short(o)}" for o in opponents), "ms/decision", "reproduce"]
        cells = [[row.name, row.rating_text, *(_rate(row.win_rates.get(o)) for o in opponents), row.mean_ms,
                  row.command] for row in sorted(rows, key=lambda row: -row.rating)]  # fmt: skip
        title = (f"**`{scale.task}`** v{scale.task_version} ({scale.env_id}), scale `{scale.scale_id()}` of "
                 f"{scale.published}")  # fmt: skip
        blocks.append("\n".join([title, "", *report.table(header, cells)]))
    return "\n\n".join(blocks)


def check_on_scale(rating: Rating, scale: Scale) -> None:
    """``ValueError`` unless ``rating`` was read on ``scale`` under its protocol: its id, time limit and game counts."""
    where = f"the rating of {rating.name} on task {rating.task!r} v{rating.task_version}"
    if rating.scale_id != scale.scale_id():
        made = f"scale {rating.scale_id!r}" if rating.scale_id else "a scale it does not name"
        raise ValueError(f"{where} was read on {made}, not the published scale {scale.scale_id()!r} of "
                         f"{scale.published}: rate the agent again")  # fmt: skip
    if rating.max_decision_ms != scale.max_decision_ms:
        raise ValueError(f"{where} was held to {rating.max_decision_ms:g} ms a decision, the protocol's limit is "
                         f"{scale.max_decision_ms:g} ms")  # fmt: skip
    played = {up.opponent for up in rating.match_ups}
    members = {m.agent for m in scale.members}
    if played != members:
        raise ValueError(f"{where} played {sorted(played)}, and the scale's members are {sorted(members)}")
    for up in rating.match_ups:
        asked = reduced_games(scale.panel[up.opponent], rating.games_fraction)
        if up.games != asked:
            raise ValueError(f"{where} played {up.games} games against {up.opponent}, where the protocol says "
                             f"{asked} (its {scale.panel[up.opponent]} games times the rating's share "
                             f"{rating.games_fraction:g})")  # fmt: skip


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"
