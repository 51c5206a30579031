"""Where a universal run trains most: house-rule sets drawn in proportion to the games its agent loses there.

Why: spreading more PPO evenly over every house-rule set the generator draws taught the
universal agent little (docs/research/experiments.md: a third stage at 80% house-rule
matches moved the held-out sets from 0.765 to 0.784 against rule), while 30 minutes on
one set it played badly lifted that set far (its exploiter on held-out set 7, 0.73
against rule where the agent won 0.21). So, as prioritized level replay does for
procedurally generated levels (Jiang et al., 2021), a run with ``focus_sets = N`` first
plays the agent it starts from against the rule bot on N training house-rule sets
(never a held-out one: :func:`smear_env.house_rules.training_rule_sets`), then draws its
house-rule matches from those sets by the games it lost on each: in proportion to its share of
games lost, smoothed (Laplace: a set it never lost keeps a small share), raised to ``focus_power``.
Loss shares alone spread the draws thinly: the stage 2 universal agent won 72% of 128 sets on
average, so its weakest set would be drawn 2.6 times as often as an average one and the 40
weakest would take 53% of the draws; squared (the default), 5 times and 69%.

The sets and their scores are part of the run's checkpoint (a resumed run draws from the
same sets) and of ``focus.json`` in its folder, for a reader to see where it trained.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from smear_env.house_rules import changes_from, describe_changes, first_distinct, training_rule_sets
from smear_env.rules import Rules, get_rules
from training.evaluate.seeds import derive_seed
from training.ray_start import start_ray

FOCUS_FILE = "focus.json"


@dataclass(frozen=True)
class FocusSet:
    """One house-rule set of a focused run: its rules, how its starting agent fared there, its share of draws."""

    preset: str
    changes: dict[str, Any]
    games: int
    won: float  # the starting agent's wins against the rule bot (a drawn game counts half)
    weight: float  # share of the run's house-rule matches played under these rules

    def rules(self) -> Rules:
        return get_rules(self.preset, **self.changes)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FocusSet:
        changes = {k: _tuples(v) for k, v in data["changes"].items()}  # JSON lists back to the engine's tuples
        return cls(data["preset"], changes, int(data["games"]), float(data["won"]), float(data["weight"]))


def _tuples(value: Any) -> Any:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def loss_weights(won: Sequence[float], games: Sequence[int], power: float = 1.0) -> list[float]:
    """Each set's share of draws: its smoothed share of games lost, ``(lost + 1) / (games + 2)``, to ``power``,
    normalised (``power`` 2: a set lost twice as often is drawn four times as often)."""
    raw = [((n - w + 1) / (n + 2)) ** power for w, n in zip(won, games)]
    total = sum(raw)
    return [r / total for r in raw]


def focus_rule_sets(count: int, seed: int, presets: Sequence[str]) -> list[Rules]:
    """``count`` distinct training house-rule sets of ``presets`` (never held out), the same for the same seed."""
    return first_distinct(training_rule_sets(derive_seed("focus", seed), tuple(presets)), count)


def score_focus_sets(
    agent: str,
    count: int,
    games: int,
    seed: int,
    presets: Sequence[str],
    power: float,
    log: Callable[[str], None] = print,
    workers: int = 0,
    address: str = "",
) -> list[FocusSet]:
    """Play ``agent`` against the rule bot on ``count`` training sets (``games`` duplicate games each, deals from
    ``seed``) and weight each set by the games it lost there (:func:`loss_weights`).

    ``workers`` > 0 plays the sets in Ray tasks, that many at a time on this machine or spread over the cluster at
    ``address``, as the run's collection is: scoring hundreds of sets one after another would otherwise be the
    serial part of a run whose PPO a cluster speeds up. The deals are the same, so the scores are too.
    """
    sets = focus_rule_sets(count, seed, presets)
    deals = [derive_seed("focus games", seed, k) for k in range(len(sets))]
    played = _in_ray(agent, sets, games, deals, workers, address) if workers > 0 else _here(agent, sets, games, deals)
    wins = [0.0] * len(sets)
    for done, (k, won) in enumerate(played, 1):
        wins[k] = won
        log(f"focus set {done}/{count} (#{k + 1}): {sets[k].name}, {describe_changes(sets[k])}: won {won:g} of {games}")
    weights = loss_weights(wins, [games] * len(sets), power)
    return [FocusSet(r.name, changes_from(r), games, w, p) for r, w, p in zip(sets, wins, weights)]


def score_set(agent: str, rules: Rules, games: int, deal_seed: int) -> float:
    """The games ``agent`` wins against the rule bot under ``rules`` (a drawn game counts half)."""
    from training.evaluate import evaluate

    result = evaluate(agent, "rule", rules.name, games, deal_seed, workers=1, rule_overrides=changes_from(rules))
    return result.a.win_rate.value * games


def _here(agent: str, sets: Sequence[Rules], games: int, deals: Sequence[int]) -> Iterator[tuple[int, float]]:
    for k, (rules, deal_seed) in enumerate(zip(sets, deals)):
        yield k, score_set(agent, rules, games, deal_seed)


def _in_ray(
    agent: str, sets: Sequence[Rules], games: int, deals: Sequence[int], workers: int, address: str
) -> Iterator[tuple[int, float]]:
    """Each set a Ray task, yielded as it finishes; the agent's file travels in Ray's object store, so a node of
    a cluster needs no copy of it on disk."""
    ray = start_ray(workers, address)
    task = ray.remote(num_cpus=1)(_score_set_from_bytes)
    data = ray.put(Path(agent).read_bytes())
    pending = {task.remote(data, Path(agent).suffix, rules, games, deal_seed): k
               for k, (rules, deal_seed) in enumerate(zip(sets, deals))}  # fmt: skip
    while pending:
        (ready,), _ = ray.wait(list(pending), num_returns=1)
        yield pending.pop(ready), float(ray.get(ready))


def _score_set_from_bytes(data: bytes, suffix: str, rules: Rules, games: int, deal_seed: int) -> float:
    with tempfile.TemporaryDirectory() as folder:
        agent = Path(folder) / f"agent{suffix}"
        agent.write_bytes(data)
        return score_set(str(agent), rules, games, deal_seed)


def write_focus(folder: Path, focus: Sequence[FocusSet]) -> None:
    """``focus.json``: the sets a run draws its house-rule matches from, most drawn first."""
    ordered = sorted(focus, key=lambda f: -f.weight)
    (folder / FOCUS_FILE).write_text(json.dumps([f.to_dict() for f in ordered], indent=1, default=list) + "\n")
