"""What a finished training run made and how good it is, in plain words: the closing lines of ``smear-rl train``.

A run ends with files and a curve of numbers; a person who has just started it wants to know
what was made, where it is, whether it is any good, and what to do next. This reads the run's
``curve.csv`` (every evaluation, :mod:`training.ppo`) and says, for each opponent, the win rate
before PPO (the first evaluation, where the run made one at its start) and at the end, with the
interval and the points a hand, and what each figure means; then where the files are and the
commands that go further.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from training.config import TrainConfig
from training.evaluate.report import aligned, wrapped

#: how the table names each evaluation opponent
OPPONENT_NAMES = {
    "rule": "the rule bot",
    "random": "random players",
    "neural": "the shipped agent",
    "search": "the search bot",
    "bold": "the bold rule bot",
    "searchbid": "searchbid",
    "fixed": "the fixed agent",
}


@dataclass(frozen=True)
class Standing:
    """One opponent's evaluations in a run: the first (if earlier than the last) and the last."""

    opponent: str
    start: float | None  # win rate at the run's first evaluation, when that came before the last
    end: float
    low: float
    high: float
    games: int
    hand_reward: float | None  # its side's score change a hand less the opponent's, at the end
    start_minutes: float = 0.0  # training minutes at that first evaluation (0: before PPO, after any imitation)

    def verdict(self) -> str:
        """Who is ahead at the end, as far as the interval tells."""
        name = OPPONENT_NAMES.get(self.opponent, self.opponent)
        if self.low > 0.5:
            return f"it beats {name}"
        if self.high < 0.5:
            return f"{name} still beats it"
        return f"it is level with {name} (the interval holds 0.5)"


def standings(curve: Path) -> list[Standing]:
    """Each opponent's first and last evaluation in ``curve`` (a run's curve.csv), in the order first met."""
    rows = list(csv.DictReader(curve.open()))
    out = []
    for opponent in dict.fromkeys(row["opponent"] for row in rows):
        mine = [row for row in rows if row["opponent"] == opponent]
        first, last = mine[0], mine[-1]
        reward = last.get("hand_reward") or ""
        out.append(
            Standing(
                opponent=opponent,
                start=float(first["win_rate"]) if first["step"] != last["step"] else None,
                end=float(last["win_rate"]),
                low=float(last["ci_low"]),
                high=float(last["ci_high"]),
                games=int(last["matches"]),
                hand_reward=float(reward) if reward else None,
                start_minutes=0.0 if int(first["step"]) == 0 else float(first["train_minutes"]),
            )
        )
    return out


def _options(options: dict) -> str:
    return ", ".join(f"{name}={value!r}" for name, value in options.items())


def agent_kind(c: TrainConfig) -> str:
    """What the run's agent plays, in words: its preset, one house-rule set of it, or rules drawn per match, with
    every option that changes which rules its matches play (so the plan a run prints is the whole plan)."""
    if c.house_rules:
        return f"{c.preset} agent under house rules ({_options(c.house_rules)})"
    if not c.universal:
        return f"{c.preset} agent"
    drawn = f"house rules {c.house_share:g}"
    drawn += f" from {c.focus_sets} sets weighted by its losses" if c.focus_sets else ""
    drawn += f" with {_options(c.house_options)}" if c.house_options else ""
    if c.fixed_house_rules:
        drawn += f"; against the fixed agent {c.preset} with {_options(c.fixed_house_rules)}"
    for expert in c.table_experts():
        options = f" with {_options(expert.rules)}" if expert.rules else ""
        drawn += f"; {expert.share:g} at {expert.preset}{options}, taught there by {expert.teacher}"
    return f"universal agent (rules drawn per match: {len(c.train_presets)} presets, {drawn})"


def plan(out: Path, config: TrainConfig, step: int = 0) -> str:
    """What the run is about to do, and for how long: its first words (``step`` > 0: a run resumed there)."""
    c = config
    what = f"Training a {agent_kind(c)} into {out}: " if not step else f"Resuming the run in {out} at {step:,}: "
    if c.bc_hands and not step:
        what += f"first it imitates the rule bot's moves for {c.bc_hands:,} hands, then "
    what += f"it trains by PPO until {c.total_steps:,} decisions"
    what += f" or {c.time_limit_minutes:g} training minutes, whichever comes first" if c.time_limit_minutes else ""
    names = " and ".join(OPPONENT_NAMES.get(name, name) for name in c.eval_opponents)
    when = "at the start and at the end" if c.eval_at_start and not step else "at the end"
    if c.eval_every_minutes:
        when += f" and every {c.eval_every_minutes:g} training minutes"
    what += f". It is measured against {names} {when} ({c.final_eval_matches} games each at the end)."
    return "\n".join(wrapped(what))


def summary(out: Path, config: TrainConfig, step: int, train_minutes: float) -> str:
    """The closing words of a run in ``out``: what it made, its table against each opponent, what to try next."""
    made = f"{out / 'agent.pt'} is a {agent_kind(config)}: "
    if config.bc_hands:
        made += f"it imitated the rule bot for {config.bc_hands:,} hands, then "
    made += f"trained by self-play PPO on {step:,} decisions ({train_minutes:.1f} minutes of training in all)."
    lines = ["", "Done.", *wrapped(made), ""]
    table = standings(out / "curve.csv")
    if table:
        lines += _table(table) + [""]
    lines += ["Files:", *_files(out), "", "Next:", *_next_steps(out, config)]
    return "\n".join(lines)


def _table(table: list[Standing]) -> list[str]:
    """The table of win rates, what its figures mean, and one line of verdicts."""
    started = any(s.start is not None for s in table)
    minutes = max((s.start_minutes for s in table if s.start is not None), default=0.0)  # the first evaluation's
    first, when = "before PPO", "before PPO (after imitation alone)"  # its column, and its words in the legend
    if minutes:
        first, when = f"at {minutes:.0f} min", f"after {minutes:.0f} training minutes"
    header = ["against", *([first] if started else []), "at the end [95% interval]", "games", "points a hand"]
    rows = []
    for s in table:
        cells = [OPPONENT_NAMES.get(s.opponent, s.opponent)]
        cells += [("-" if s.start is None else f"{s.start:.2f}")] if started else []
        cells += [f"{s.end:.2f} [{s.low:.2f}, {s.high:.2f}]", str(s.games)]
        rows.append(cells + ["-" if s.hand_reward is None else f"{s.hand_reward:+.2f}"])
    meaning = (
        "The share of games won (every deal played twice with the seats swapped, a draw counting half)"
        + (f", {when} and at the end" if started else ", at the end")
        + "; points a hand: its side's score change less the opponent's, sets counted."
    )
    verdicts = "; ".join(s.verdict() for s in table)
    learned = [s for s in table if s.start is not None]
    if learned:
        moves = ", ".join(f"{s.start:.2f} to {s.end:.2f} against {OPPONENT_NAMES.get(s.opponent)}" for s in learned)
        since = "PPO took it" if minutes == 0 else f"From {minutes:.0f} training minutes to the end PPO took it"
        verdicts = f"{since} from {moves}: {verdicts}."
    else:
        verdicts = f"At the end {verdicts}."
    return ["How it plays:", *aligned(header, rows), "", *wrapped(meaning), *wrapped(verdicts)]


def _files(out: Path) -> list[str]:
    return [
        f"  {out / 'agent.pt'}       the agent (smear-rl export {out / 'agent.pt'} -o agent.npz: a torch-free copy)",
        f"  {out / 'checkpoint.pt'}  the whole run, to train on",
        f"  {out / 'curve.csv'}      every evaluation; tensorboard --logdir {out} shows the rest",
    ]


def _next_steps(out: Path, config: TrainConfig) -> list[str]:
    agent, preset = out / "agent.pt", config.preset
    longer = max(2 * config.total_steps, 3_000_000)
    return [
        f"  smear-rl play --preset {preset} --bots {agent}        play against it (it takes every other seat)",
        f"  smear-rl evaluate {agent} rule --preset {preset} --matches 2000   measure it closely",
        f"  smear-rl train --resume {out / 'checkpoint.pt'} --set total_steps={longer}   train it on",
        f"  smear-rl train --config {preset} --out runs/{preset}   a full run (docs/training.md)",
    ]
