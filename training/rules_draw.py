"""The rules of each new match of a universal run: a preset, or a house-rule set of one, drawn from the run's RNG.

Why stateless: every draw is a function of the collector's Generator alone (the house-rule
generator is seeded from it), so a checkpoint that saves that Generator's state resumes
the very same sequence of rule sets. Held-out house-rule sets (``smear_env.house_rules``)
are never drawn.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from smear_env.house_rules import draw_house_rules, is_held_out
from smear_env.rules import Rules, get_rules

ONLY_TRIES = 2000  # generator draws that must find one set with a stage's house_options, or the stage is refused


class RulesDraw:
    """Draws a new match's rules: a house-rule set with chance ``house_share``, else one of ``presets`` uniformly.

    With ``fixed`` every match plays those rules (a run on one house-rule set, as an exploiter's). With
    ``focus`` (rule sets and their weights: :mod:`training.focus`) the house-rule sets are drawn from those
    by weight, not from the whole generator. With ``only`` (rule options and values) the generator's sets
    without those values are drawn again: a stage on one kind of table, where the agent plays it worst.
    With ``tables`` (rule sets and their shares) each share of the matches plays its table (where a table
    expert teaches).
    """

    def __init__(
        self,
        presets: list[str],
        house_share: float,
        fixed: Rules | None = None,
        focus: Sequence[tuple[Rules, float]] = (),
        only: dict[str, Any] | None = None,
        tables: Sequence[tuple[Rules, float]] = (),
    ) -> None:
        self.presets, self.house_share, self.fixed = tuple(presets), house_share, fixed
        self.tables = tuple(tables)
        self.only = dict(only or {})
        if self.only and not any(self._wanted(self._draw_set(np.random.default_rng(k))) for k in range(ONLY_TRIES)):
            raise ValueError(
                f"none of {ONLY_TRIES} training house-rule sets of {', '.join(self.presets)} has "
                f"{', '.join(f'{k} = {v!r}' for k, v in self.only.items())}: expected option values the generator draws"
            )
        self._preset_rules = {p: get_rules(p) for p in self.presets}  # one object each: their caches are kept
        self._focus = [rules for rules, _ in focus]
        weights = np.array([weight for _, weight in focus], dtype=np.float64)
        self._focus_p = weights / weights.sum() if len(focus) else weights

    def __call__(self, rng: np.random.Generator) -> Rules:
        if self.fixed is not None:
            return self.fixed
        if self.tables:  # no draw without a table: old runs replay
            rest = rng.random()  # one draw picks the table, so a run with one table replays as before
            for table, share in self.tables:
                if rest < share:
                    return table
                rest -= share
        if rng.random() >= self.house_share:
            return self._preset_rules[self.presets[int(rng.integers(len(self.presets)))]]
        if self._focus:
            return self._focus[int(rng.choice(len(self._focus), p=self._focus_p))]
        while True:
            rules = self._draw_set(rng)
            if self._wanted(rules):
                return rules

    def _draw_set(self, rng: np.random.Generator) -> Rules:
        """A training house-rule set from the generator (a held-out one is drawn again)."""
        while True:
            rules = draw_house_rules(random.Random(int(rng.integers(2**62))), self.presets)
            if not is_held_out(rules):
                return rules

    def _wanted(self, rules: Rules) -> bool:
        values = rules.to_dict()
        return all(_same(values.get(name), value) for name, value in self.only.items())


def _same(value: Any, wanted: Any) -> bool:
    """A rule option's value against one a config gives (TOML and JSON give lists where rules hold tuples)."""
    if isinstance(value, tuple | list) and isinstance(wanted, tuple | list):
        return len(value) == len(wanted) and all(_same(v, w) for v, w in zip(value, wanted, strict=True))
    return value == wanted
