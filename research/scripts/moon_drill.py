"""Forced moons on `minnesota`: who makes them, and how well a hand before the kitty foretells it.

On `minnesota` nearly every match between the shipped agent and search ends on a moon, so what
decides it is the moons: which hands shoot it and how both sides play them. This plays the
forced moons ``python -m training.fit_moon_odds --network`` fitted the agent's moon chance on
(deal ``i``: seat ``i % 4`` moons, the others pass), from deal ``--start`` on, and prints:

- with ``--moon AGENT`` or ``--defence AGENT``: how often the moon is made when that agent makes
  the moon side's (or the defenders') decisions of ``--phases`` and the shipped network every other,
  beside the network at every seat on the same deals, with the paired difference;
- with ``--rollouts N``: the fitted chance (``agents.match_odds.network_moon_chance``) against an
  estimate from N play-outs of the same hand on deals sampled at random around it (the network at
  every seat), each scored by how well it ranks and predicts the real deal's outcome;
- with ``--auction``: moons forced where an auction puts them instead (in deal ``i`` the seats
  before seat ``i // 4 % 4`` bid as the network does, then it moons; a deal where one of them
  moons or calls a misdeal is left out), and the fitted chance's features refitted on them with
  and without what those bids showed (the first 80% of the rows fitted, the rest held out).

    .venv/bin/python research/scripts/moon_drill.py --deals 2000 --start 200000 --rollouts 32
    .venv/bin/python research/scripts/moon_drill.py --deals 300 --start 200000 --moon search --phases play
    .venv/bin/python research/scripts/moon_drill.py --deals 2000 --start 200000 --moon rule --phases trump
    .venv/bin/python research/scripts/moon_drill.py --deals 80000 --start 0 --auction

Deals from 200,000 on lie outside the fit's 200,000. The network is greedy and the rule bot
deterministic, so their rows depend on the deals alone; search stops at its time budget.
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Collection

import numpy as np

from agents.match_odds import network_moon_chance
from agents.neural_agent import moon_features_of
from agents.registry import make_agent
from smear_env import actions as A
from smear_env.game import DISCARD, PLAY, TRUMP, Deal, Game
from smear_env.observation import player_view
from smear_env.rules import Rules, get_rules
from training.cli import int_at_least
from training.fit_moon_odds import fit_logistic, forced_moon

PHASES = {"trump": TRUMP, "discard": DISCARD, "play": PLAY}
#: auction deal ``i`` is dealt from this seed plus ``i``
AUCTION_SEED_BASE = 20_000_000


def play_out(
    game: Game, bots: list, substitute: list | None = None, seats: Collection[int] = (), phases: Collection[int] = ()
) -> bool:
    """Play the hand in ``game`` to its end; whether the moon was made.

    ``substitute`` makes the decisions of ``seats`` in ``phases``, ``bots`` every other.
    """
    while not game.hand_results:
        seat = game.current_player
        chooser = substitute if seat in seats and game.phase in phases else bots
        game.apply(chooser[seat].act(player_view(game, seat)))
    return bool(game.hand_results[-1].made)


def rollout_chance(rules: Rules, game: Game, bidder: int, bots: list, samples: int, rng: random.Random) -> float:
    """The share of ``samples`` play-outs of the bidder's hand, on random deals around it, that make the moon."""
    hand = list(game.deals[-1].hands[bidder])
    made = 0
    for _ in range(samples):
        sample = Game(rules, seed=0, single_hand=True, dealer=0, deals=[Deal.around(rules, hand, bidder, rng)])
        for step in range(1, rules.num_players + 1):
            sample.apply(game.history[step - 1])  # the same forced bids
        made += play_out(sample, bots)
    return made / samples


def auction_moon(rules: Rules, bots: list, i: int) -> tuple[int, list[float], bool] | None:
    """Auction deal ``i``: the mooner's hand before the kitty, what the earlier bids showed, whether it was made."""
    n = rules.num_players
    game = Game(rules, seed=AUCTION_SEED_BASE + i, single_hand=True, dealer=i % n)
    mooner = i // n % n
    hand = game.hands[mooner]
    seen: dict[int, int] = {}  # by seats after the mooner: 1 its left-hand opponent, 2 its partner, 3 the other
    while game.current_player != mooner:
        seat = game.current_player
        action = bots[seat].act(player_view(game, seat))
        if action in (A.MOON, A.MISDEAL):
            return None
        seen[(seat - mooner) % n] = action
        game.apply(action)
    game.apply(A.MOON)
    return hand, auction_features(seen), play_out(game, bots)


def auction_features(seen: dict[int, int]) -> list[float]:
    """Partner passed; partner's bid; the opponents' highest bid; how many of them passed; bids seen."""

    def bid(action: int | None) -> float:
        return 0.0 if action is None or action == A.PASS else float(action - A.BID_BASE)

    partner, opponents = seen.get(2), [seen.get(1), seen.get(3)]
    passes = sum(action == A.PASS for action in opponents)
    return [float(partner == A.PASS), bid(partner), max(map(bid, opponents)), float(passes), float(len(seen))]


def auction_fits(deals: range) -> dict[str, tuple[float, float]]:
    """Held-out (AUC, log loss) of the fitted chance's features refitted without and with ``auction_features``."""
    rules = get_rules("minnesota")
    bots = [make_agent("neural", rules, seed=seat) for seat in range(rules.num_players)]
    rows = [row for row in (auction_moon(rules, bots, i) for i in deals) if row is not None]
    plain = np.array([moon_features_of(hand, rules) for hand, _, _ in rows])
    seen = np.c_[plain[:, :-1], [features for _, features, _ in rows], plain[:, -1:]]  # the intercept last
    made = np.array([m for _, _, m in rows])
    cut = int(len(made) * 0.8)
    scores = {"rows": (float(len(made)), float(made.mean()))}
    for name, x in (("hand", plain), ("hand and bids", seen)):
        chance = 1 / (1 + np.exp(-(x[cut:] @ fit_logistic(x[:cut], made[:cut].astype(float)))))
        scores[name] = (auc(chance, made[cut:]), log_loss(chance, made[cut:]))
    return scores


def auc(scores: np.ndarray, made: np.ndarray) -> float:
    """The chance that a made moon's score beats a failed one's (ties count half)."""
    pos, neg = scores[made], scores[~made]
    wins = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(wins / (len(pos) * len(neg)))


def log_loss(p: np.ndarray, made: np.ndarray) -> float:
    p = np.clip(p, 0.02, 0.98)  # a rollout share of 0 or 1 is not a certainty
    return float(-np.where(made, np.log(p), np.log(1 - p)).mean())


def drill(
    deals: range, spec: str = "", side: str = "moon", phases: Collection[int] = (), rollouts: int = 0
) -> dict[str, np.ndarray]:
    """Per deal: ``made`` with the network at every seat; ``substituted``, with ``spec`` making ``side``'s
    decisions of ``phases`` (``side``: "moon" or "defence"); ``fitted`` and ``rollouts``, the two chances."""
    rules = get_rules("minnesota")
    bots = [make_agent("neural", rules, seed=seat) for seat in range(rules.num_players)]
    substitute = [make_agent(spec, rules, seed=seat) for seat in range(rules.num_players)] if spec else None
    rows: dict[str, list] = {"made": [], "substituted": [], "fitted": [], "rollouts": []}
    for i in deals:
        game, bidder, hand = forced_moon(rules, i)
        rows["made"].append(play_out(game, bots))
        if substitute:
            moon_side = {bidder, (bidder + 2) % rules.num_players}
            seats = moon_side if side == "moon" else set(range(rules.num_players)) - moon_side
            rows["substituted"].append(play_out(forced_moon(rules, i)[0], bots, substitute, seats, phases))
        if rollouts:
            rows["fitted"].append(network_moon_chance(moon_features_of(hand, rules)))
            rows["rollouts"].append(rollout_chance(rules, game, bidder, bots, rollouts, random.Random(i)))
    return {name: np.array(values) for name, values in rows.items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int_at_least(10), default=300)
    parser.add_argument("--start", type=int_at_least(0), default=200_000, help="first forced-moon deal")
    who = parser.add_mutually_exclusive_group()
    who.add_argument("--moon", help="agent spec that makes the moon side's decisions of --phases")
    who.add_argument("--defence", help="agent spec that makes the defenders' decisions of --phases")
    parser.add_argument("--phases", default="trump,discard,play", help="comma-separated among trump, discard, play")
    parser.add_argument("--rollouts", type=int_at_least(1), default=0, help="play-outs per hand for the estimate")
    parser.add_argument("--auction", action="store_true", help="moons forced after an auction, and fits with its bids")
    args = parser.parse_args(argv)
    names = args.phases.split(",")
    if not set(names) <= set(PHASES):
        parser.error(f"--phases {args.phases!r}: expected a comma-separated list among {', '.join(PHASES)}")
    if not (args.moon or args.defence or args.rollouts or args.auction):
        parser.error("nothing to measure: expected --moon, --defence, --rollouts or --auction")
    deals = range(args.start, args.start + args.deals)
    if args.auction:
        fits = auction_fits(deals)
        count, made_share = fits.pop("rows")
        print(f"{count:.0f} moons after an auction from deal {args.start}: made {made_share:.4f}")
        for name, (area, loss) in fits.items():
            print(f"fitted on the {name}: held-out AUC {area:.4f}, log loss {loss:.4f}")
        return
    spec, side = (args.moon, "moon") if args.moon else (args.defence or "", "defence")
    rows = drill(deals, spec, side, {PHASES[name] for name in names}, args.rollouts)
    made = rows["made"]
    print(f"{args.deals} forced moons from deal {args.start}: the network at every seat made {made.mean():.4f}")
    if spec:
        diff = rows["substituted"].astype(float) - made
        mean, half = diff.mean(), 1.96 * diff.std(ddof=1) / math.sqrt(len(diff))
        whose = "moon side's" if args.moon else "defenders'"
        print(
            f"{spec} making the {whose} {args.phases} decisions: made "
            f"{rows['substituted'].mean():.4f}, {mean:+.4f} [{mean - half:+.4f}, {mean + half:+.4f}] "
            f"({int((diff != 0).sum())} deals changed)"
        )
    if args.rollouts:
        for name, key in (("fitted chance", "fitted"), (f"{args.rollouts} play-outs", "rollouts")):
            print(f"{name}: AUC {auc(rows[key], made):.3f}, log loss {log_loss(rows[key], made):.4f}")
        print(f"constant {made.mean():.3f}: log loss {log_loss(np.full(len(made), made.mean()), made):.4f}")


if __name__ == "__main__":
    main()
