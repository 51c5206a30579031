"""Fit the coefficients of ``agents.match_odds`` from rule-bot self-play on minnesota.

``python -m training.fit_moon_odds`` plays the two data sets the moon call rests
on and prints the fitted constants, for pasting into ``agents/match_odds.py``:

- forced bids: in deal ``i`` seat ``i % 4`` bids 2 and the others pass; every seat
  then plays by the rule bot. Each row is the bidder's hand before the kitty and
  the points each side took. A moon is made when the other side took none.
- matches: rule bot against rule bot; each row is the scores at the start of a
  hand and whether that side went on to win the match (both sides' views).

Logistic fits are by Newton's method: the moon's on the first 80% of the rows
(its held-out log loss is printed next to a constant model's), the match odds'
and the linear fits on every row. The rule bot is deterministic, so the rows
depend on the counts alone.

The shipped constants came from ``--deals 120000 --matches 20000`` (the
defaults), 9.5 minutes on two cores.

``--network`` fits the neural agent's moon chance instead (``NETWORK_MOON_WEIGHTS``):
in deal ``i`` seat ``i % 4`` shoots the moon, the others pass, and the shipped
minnesota network plays every seat (greedy, so the rows depend on the count alone).
The shipped weights came from ``--network --deals 200000``.
"""

from __future__ import annotations

import math
import multiprocessing
from collections.abc import Callable

import numpy as np

from agents.match_odds import moon_chance, moon_features, odds_features
from agents.neural_agent import moon_features_of
from agents.rule_bot import RuleAgent, best_trump
from smear_env import actions as A
from smear_env.game import OVER, Game
from smear_env.observation import player_view
from smear_env.rules import Rules, get_rules
from training.cli import ArgumentParser, int_at_least

PRESET = "minnesota"
#: match ``i`` is dealt from this seed plus ``i`` (forced-bid deal ``i`` from seed ``i``)
MATCH_SEED_BASE = 1_000_000
#: forced-moon deal ``i`` of the network's fit is dealt from this seed plus ``i``
MOON_SEED_BASE = 10_000_000


def forced_bid_rows(deals: range) -> list[tuple[int, float, float]]:
    """(bidder's hand mask, points its side took, points the other side took) for each deal."""
    rules = get_rules(PRESET)
    bots = [RuleAgent(rules) for _ in range(rules.num_players)]  # deterministic: no seeds needed
    rows = []
    for i in deals:
        game = Game(rules, seed=i, single_hand=True, dealer=0)
        bidder = i % rules.num_players
        hand = game.hands[bidder]
        for step in range(1, rules.num_players + 1):
            seat = step % rules.num_players  # from the dealer's left, the dealer last
            game.apply(A.BID_BASE + 2 if seat == bidder else A.PASS)
        while not game.hand_results:
            seat = game.current_player
            game.apply(bots[seat].act(player_view(game, seat)))
        points = game.hand_results[-1].points
        side = game.sides[bidder]
        other = sum(p for s, p in points.items() if s != side)
        rows.append((hand, float(points[side]), float(other)))
    return rows


def forced_moon_rows(deals: range) -> list[tuple[int, bool]]:
    """(bidder's hand mask before the kitty, moon made) for each deal, the shipped network at every seat."""
    from agents.registry import make_agent  # the shipped agents: only for --network

    rules = get_rules(PRESET)
    bots = [make_agent("neural", rules, seed=seat) for seat in range(rules.num_players)]
    rows = []
    for i in deals:
        game, bidder, hand = forced_moon(rules, i)
        while not game.hand_results:
            seat = game.current_player
            game.apply(bots[seat].act(player_view(game, seat)))
        rows.append((hand, game.hand_results[-1].made))
    return rows


def forced_moon(rules: Rules, i: int) -> tuple[Game, int, int]:
    """Forced-moon deal ``i`` after the bids (seat ``i % n`` moons, the rest pass), that seat, its pre-kitty hand."""
    game = Game(rules, seed=MOON_SEED_BASE + i, single_hand=True, dealer=0)
    bidder = i % rules.num_players
    hand = game.hands[bidder]
    for step in range(1, rules.num_players + 1):
        seat = step % rules.num_players  # from the dealer's left, the dealer last
        game.apply(A.MOON if seat == bidder else A.PASS)
    return game, bidder, hand


def fit_network(deals: int, workers: int) -> dict[str, object]:
    """Play the forced moons and fit ``NETWORK_MOON_WEIGHTS``; with held-out log losses beside the rule bot's fit."""
    rules = get_rules(PRESET)
    rows = _parallel(forced_moon_rows, deals, workers, 500)
    x = np.array([moon_features_of(hand, rules) for hand, _ in rows])
    made = np.array([float(m) for _, m in rows])
    train, test = _split(len(made))
    weights = fit_logistic(x[train], made[train])
    rule = np.clip([moon_chance(hand, rules, *best_trump(hand, rules, bidder=True)) for hand, _ in rows], 1e-12, 1)
    rule_loss = float(-(made * np.log(rule) + (1 - made) * np.log(1 - rule))[test].mean())
    constant = math.log(made[train].mean() / (1 - made[train].mean()))
    return {
        "NETWORK_MOON_WEIGHTS": weights,
        "moons made": float(made.mean()),
        "log loss (held out; the rule bot's moon_chance; constant model)": (
            log_loss(x[test], made[test], weights),
            rule_loss,
            log_loss(x[test][:, -1:], made[test], np.array([constant])),
        ),
        "rows": len(made),
    }


def match_rows(matches: range) -> list[tuple[int, int, int]]:
    """(my score, their score, won) at each hand start of each match, for both teams."""
    rules = get_rules(PRESET)
    bots = [RuleAgent(rules) for _ in range(rules.num_players)]
    rows = []
    for i in matches:
        game = Game(rules, seed=MATCH_SEED_BASE + i, dealer=i % rules.num_players)
        starts, hands_seen = [], -1
        while game.phase != OVER:
            if len(game.hand_results) != hands_seen:
                hands_seen = len(game.hand_results)
                starts.append(tuple(game.scores))
            seat = game.current_player
            game.apply(bots[seat].act(player_view(game, seat)))
        for a, b in starts:
            rows += [(a, b, int(0 in game.winners)), (b, a, int(1 in game.winners))]
    return rows


def fit_logistic(x: np.ndarray, y: np.ndarray, steps: int = 50) -> np.ndarray:
    """Maximum-likelihood logistic weights by Newton's method (``x`` carries any intercept column)."""
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(x @ w)))
        hessian = x.T @ (x * (p * (1 - p))[:, None]) + 1e-9 * np.eye(x.shape[1])
        step = np.linalg.solve(hessian, x.T @ (y - p))
        w += step
        if np.abs(step).max() < 1e-10:
            break
    return w


def log_loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    p = np.clip(1 / (1 + np.exp(-(x @ w))), 1e-12, 1 - 1e-12)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def _split(rows: int) -> tuple[slice, slice]:
    cut = int(rows * 0.8)
    return slice(0, cut), slice(cut, rows)


def _parallel(job: Callable[[range], list], count: int, workers: int, chunk: int) -> list:
    """``job`` over chunks of ``range(count)``, rows in order (spawned workers, like the harness)."""
    parts = [range(start, min(start + chunk, count)) for start in range(0, count, chunk)]
    if workers <= 1:
        return [row for part in parts for row in job(part)]
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        return [row for part in pool.imap(job, parts) for row in part]


def fit(deals: int, matches: int, workers: int) -> dict[str, object]:
    """Play both data sets and fit every constant; returns them with held-out log losses."""
    rules = get_rules(PRESET)
    forced = _parallel(forced_bid_rows, deals, workers, 500)
    x = np.array([moon_features(hand, rules, *best_trump(hand, rules, bidder=True)) for hand, _, _ in forced])
    made = np.array([float(other == 0) for _, _, other in forced])
    train, test = _split(len(made))
    moon = fit_logistic(x[train], made[train])
    constant = math.log(made[train].mean() / (1 - made[train].mean()))
    estimate = np.c_[np.ones(len(made)), x[:, 7]]  # column 7: the rule estimate
    bidder = np.linalg.lstsq(estimate, np.array([p for _, p, _ in forced]), rcond=None)[0]
    defender = np.linalg.lstsq(estimate, np.array([o for _, _, o in forced]), rcond=None)[0]

    starts = np.array(_parallel(match_rows, matches, workers, 250), dtype=float)
    xo = odds_features(starts[:, 0], starts[:, 1], rules.target_score)
    won = starts[:, 2]
    odds = fit_logistic(xo, won)  # no intercept: level scores are even odds
    return {
        "MOON_WEIGHTS": moon,
        "moon log loss (held out; constant model)": (
            log_loss(x[test], made[test], moon),
            log_loss(x[test][:, -1:], made[test], np.array([constant])),
        ),
        "ODDS_WEIGHTS": odds,
        "odds log loss (in sample; even odds)": (log_loss(xo, won, odds), math.log(2)),
        "BIDDER_POINTS": bidder,
        "DEFENDER_POINTS": defender,
        "rows (forced bids, hand starts)": (len(made), len(won)),
    }


def main(argv: list[str] | None = None) -> None:
    parser = ArgumentParser(prog="python -m training.fit_moon_odds", description=__doc__.split("\n\n")[0])
    # at least 10 deals and 2 matches: each fit needs both outcomes
    parser.add_argument("--deals", type=int_at_least(10), default=120_000, help="forced-bid deals (default 120000)")
    parser.add_argument("--matches", type=int_at_least(2), default=20_000, help="rule-bot matches (default 20000)")
    parser.add_argument("--workers", type=int_at_least(1), default=None, help="processes (default: every core)")
    parser.add_argument("--network", action="store_true", help="fit the neural agent's moon chance (forced moons)")
    args = parser.parse_args(argv)
    workers = args.workers or multiprocessing.cpu_count()
    fitted = fit_network(args.deals, workers) if args.network else fit(args.deals, args.matches, workers)
    for name, value in fitted.items():
        shown = tuple(round(float(v), 3) for v in np.atleast_1d(value)) if name.isupper() else value
        print(f"{name} = {shown}")


if __name__ == "__main__":
    main()
