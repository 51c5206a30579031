"""Fit the Bohemian Schneider search's evaluation (``agents/schneider_eval.json``).

At the search's depth limit (a trick boundary of a fully known deal) the bot
estimates the counter points the leader captures to the end of the round: a
linear model over :func:`agents.schneider_search.eval_features`, one weight
vector per number of tricks left. This script fits it, from the fewest tricks
left up:

* positions come from rounds of the rule bot against itself, each move replaced
  by a random card with probability ``--explore`` (the search's tree reaches
  poor positions too, and must rank them);
* with at most ``--exact-tricks`` tricks left (the pile empty: nothing hidden)
  a position's target is its exact value, solved to the end;
* with more, the target is (``--target playout``, the default) what the leader
  took when the rule bots played the real deal out: realistic play, where no
  one sees the other hand; or (``--target perfect``) a ``--depth``-trick search
  with perfect information whose leaves are valued by the weights already fitted.
  Both played alike head to head (92-18-90 in 200 games of an early version);
  the playout fit is the one shipped.

It prints each bucket's fit (R^2, residual sd) and writes the weights where the
bot reads them. Under ``nice`` the defaults take about 7 minutes on one core::

    nice -n 10 python -m training.fit_schneider_eval --seed 1 --out agents/schneider_eval.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

import numpy as np

from agents.schneider_bots import SchneiderRuleAgent
from agents.schneider_search import FEATURE_NAMES, DealSolver, eval_features
from smear_env.cards import mask_of
from smear_env.schneider.game import TRICKS_PER_ROUND, Game, SchneiderRules
from smear_env.schneider.observation import player_view

Position = tuple[int, int, tuple[int, ...]]  # leader's hand, follower's hand, pile (top first)


def collect_positions(
    rounds: int, explore: float, seed: int
) -> tuple[dict[int, list[Position]], dict[int, list[float]]]:
    """Trick-boundary positions of ``rounds`` rule-bot rounds with random moves mixed in, by tricks left,
    and for each the points its leader took when the rule bots played the rest without random moves."""
    rng = random.Random(seed)
    bots = [SchneiderRuleAgent(seed * 2 + 1), SchneiderRuleAgent(seed * 2 + 2)]
    by_tricks: dict[int, list[Position]] = {t: [] for t in range(1, TRICKS_PER_ROUND + 1)}
    playouts: dict[int, list[float]] = {t: [] for t in range(1, TRICKS_PER_ROUND + 1)}
    for i in range(rounds):
        game = Game(SchneiderRules(), seed=rng.randrange(2**63), dealer=i % 2, single_round=True)
        while not game.is_over:
            if not game.trick:
                leader = game.current_player
                tricks_left = TRICKS_PER_ROUND - len(game.tricks)
                by_tricks[tricks_left].append((game.hands[leader], game.hands[1 - leader], tuple(game.pile)))
                playouts[tricks_left].append(_playout(game, bots, leader))
            seat = game.current_player
            if rng.random() < explore:
                game.apply(rng.choice(game.legal_actions()))
            else:
                game.apply(bots[seat].act(player_view(game, seat)))
    return by_tricks, playouts


def _playout(game: Game, bots: list[SchneiderRuleAgent], seat: int) -> float:
    """Points ``seat`` captures from here to the round's end when the rule bots play it out."""
    game = game.clone()
    before = game.round_points(seat)
    while not game.is_over:
        game.apply(bots[game.current_player].act(player_view(game, game.current_player)))
    return float(game.round_results[-1].points[seat] - before)


def target(position: Position, depth: int, weights: list[tuple[float, ...]]) -> float:
    """The leader's future points: exact when ``depth`` reaches the end, else searched to ``weights`` leaves."""
    lead, follow, pile = position
    solver = DealSolver(pile, weights)
    return solver.lead_value(lead, follow, 0, -math.inf, math.inf, depth)


def fit(
    by_tricks: dict[int, list[Position]],
    exact_tricks: int,
    depth: int,
    playouts: dict[int, list[float]] | None = None,
) -> tuple[list[tuple[float, ...]], list[dict[str, float]]]:
    """Weights per tricks left (index 0 unused), fitted from the fewest tricks left up.

    With ``playouts``, positions with more than ``exact_tricks`` tricks left are fitted to those instead.
    """
    zero = (0.0,) * len(FEATURE_NAMES)
    weights: list[tuple[float, ...]] = [zero] * (TRICKS_PER_ROUND + 1)
    stats: list[dict[str, float]] = [{}]
    print("| tricks left | positions | target mean | R^2 | residual sd | sd/sqrt(remaining) | s |")
    print("|---|---|---|---|---|---|---|")
    for tricks_left in range(1, TRICKS_PER_ROUND + 1):
        positions = by_tricks[tricks_left]
        started = time.perf_counter()
        search_depth = 99 if tricks_left <= exact_tricks else depth
        if playouts is not None and tricks_left > exact_tricks:
            y = np.array(playouts[tricks_left])
        else:
            y = np.array([target(p, search_depth, weights) for p in positions])
        x = np.array([eval_features(lead, follow, mask_of(pile)) for lead, follow, pile in positions], dtype=float)
        w, *_ = np.linalg.lstsq(x, y, rcond=None)
        residual = y - x @ w
        weights[tricks_left] = tuple(round(float(v), 4) for v in w)
        remaining = x[:, 1]
        r2 = 1 - residual.var() / y.var() if y.var() > 0 else 1.0
        per_point = residual.std() / math.sqrt(max(remaining.mean(), 1.0))
        print(
            f"| {tricks_left} | {len(positions)} | {y.mean():.2f} | {r2:.3f} | {residual.std():.2f} | "
            f"{per_point:.2f} | {time.perf_counter() - started:.0f} |"
        )
        stats.append({"r2": round(float(r2), 3), "residual_sd": round(float(residual.std()), 3)})
    return weights, stats


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Fit the Bohemian Schneider search's evaluation weights.")
    parser.add_argument("--rounds", type=int, default=5000, help="rounds to draw positions from")
    parser.add_argument("--explore", type=float, default=0.25, help="share of moves played at random")
    parser.add_argument("--exact-tricks", type=int, default=6, help="tricks left up to which targets are exact")
    parser.add_argument("--depth", type=int, default=2, help="tricks searched for the other targets")
    parser.add_argument("--seed", type=int, default=1, help="seed of the rounds and bots")
    parser.add_argument("--out", type=Path, help="JSON file to write the weights to (agents/schneider_eval.json)")
    parser.add_argument(
        "--target",
        choices=("perfect", "playout"),
        default="playout",
        help="beyond --exact-tricks: rule-bot playouts of the real deal, or searched perfect-information values",
    )
    args = parser.parse_args(argv)
    if args.rounds < 10 or not 0 <= args.explore <= 1 or args.depth < 1 or args.exact_tricks < 1:
        parser.error("expected --rounds >= 10, 0 <= --explore <= 1, --depth >= 1 and --exact-tricks >= 1")
    by_tricks, playouts = collect_positions(args.rounds, args.explore, args.seed)
    weights, stats = fit(by_tricks, args.exact_tricks, args.depth, playouts if args.target == "playout" else None)
    if args.out:
        command = "python -m training.fit_schneider_eval " + " ".join(argv if argv is not None else sys.argv[1:])
        args.out.write_text(weights_json(weights, stats, command))
        print(f"wrote {args.out}")


def weights_json(weights: list[tuple[float, ...]], stats: list[dict[str, float]], command: str) -> str:
    """The weights file: one row of weights (and one of fit statistics) per tricks left, 0..16."""

    def rows(items: list) -> str:
        return ",\n".join("  " + json.dumps(item) for item in items)

    return (
        f'{{\n "fitted_by": {json.dumps(command)},\n "features": {json.dumps(list(FEATURE_NAMES))},\n'
        f' "weights": [\n{rows([list(w) for w in weights])}\n ],\n "fit": [\n{rows(stats)}\n ]\n}}\n'
    )


if __name__ == "__main__":
    main()
