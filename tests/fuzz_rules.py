"""Fuzzing the engine under random rule sets: random legal play, invariants checked at every step.

A rule set is a random preset with a few options redrawn from what each option declares
(:func:`smear_env.rules.option_specs`: its choices, or values in and just around its range);
combinations the validator refuses are drawn again, so every match runs under rules the
engine accepts. Each match is played by random legal moves (bidding rarely and low, so
matches end) up to a step cap, some seats by the rule bot, checking that:

* every card is in exactly one place (hands, discards, tricks played, kitty, stock);
* the player on turn always has a legal move, and only cards in hand are playable;
* no seat holds a card it has shown it lacks (``smear_env.observation.shown_lacks``: what bots infer is true);
* scores change only as the hand results say (a made moon from zero or less resets to 0, and its
  result says so; a called partner's team, reset from another score, is the one exception);
* the record, through JSON, replays to the same state.

``tests/test_fuzz.py`` runs a few hundred matches in the suite. A long run, outside it::

    nice -n 10 .venv/bin/python -m tests.fuzz_rules --matches 20000 --seed 1
    nice -n 10 .venv/bin/python -m tests.fuzz_rules --presets-only --matches 2000 --seed 1
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from agents.rule_bot import RuleAgent
from smear_env import actions as A
from smear_env.cards import mask_of
from smear_env.game import BID, DISCARD, PLAY, Game, replay
from smear_env.observation import player_view, shown_lacks
from smear_env.rules import OptionSpec, Rules, get_rules, list_presets, option_specs

#: options never redrawn: the name is informational
FIXED = {"name"}
#: options drawn more often than their share: the house rules from real tables and the new joker order
HOUSE_RULES = (
    "lowest_rank", "joker_rank", "non_bidder_cap", "teams", "big_joker_above_jick", "discard_trump",
    "joker_follows_trump",
)  # fmt: skip


def draw_value(spec: OptionSpec, current: Any, num_players: int, rng: random.Random) -> Any:
    """A value for ``spec`` drawn from what it declares (and a little outside an open range's low end)."""
    if spec.kind == "choice":
        return rng.choice(spec.choices)
    if spec.kind == "bool":
        return rng.random() < 0.5
    if spec.kind == "names":
        return tuple(name for name in spec.choices if rng.random() < 0.3)
    if spec.kind == "teams":
        return _random_teams(num_players, rng) if rng.random() < 0.7 else ()
    if spec.optional and rng.random() < 0.4:
        return None
    assert spec.range is not None
    low = spec.range.low if spec.range.low is not None else (spec.range.high or 0) - 30
    high = spec.range.high if spec.range.high is not None else low + 12
    choices = [rng.randint(low, high)]
    if isinstance(current, int):
        choices.append(max(low, current + rng.randint(-2, 2)))
    return rng.choice(choices)


def _random_teams(num_players: int, rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """A random seating of ``num_players`` into 2..n teams of any sizes."""
    seats = list(range(num_players))
    rng.shuffle(seats)
    count = rng.randint(2, num_players)
    teams: list[list[int]] = [[] for _ in range(count)]
    for index, seat in enumerate(seats):
        teams[index if index < count else rng.randrange(count)].append(seat)
    return tuple(tuple(sorted(team)) for team in teams)


def random_rules(rng: random.Random, max_changes: int = 6, repairs: int = 8) -> tuple[Rules, int]:
    """Rules the validator accepts, and how many drawn sets it refused on the way.

    A random preset gets 1..max_changes options redrawn. When the validator refuses the set, one of
    the options its message names is redrawn (up to ``repairs`` times), so options that only work
    with companions (a short deck without the Trey's points, teams with more players) still appear.
    """
    specs = {s.name: s for s in option_specs() if s.name not in FIXED}
    refused = 0
    while True:
        base = get_rules(rng.choice(list_presets()))
        names = rng.sample(sorted(specs), rng.randint(1, max_changes))
        if rng.random() < 0.5:  # the house rules of issue 16 more often than their share
            names.append(rng.choice(HOUSE_RULES))
        changes: dict[str, Any] = {}
        for name in names:
            players = changes.get("num_players", base.num_players)
            changes[name] = draw_value(specs[name], getattr(base, name), players, rng)
        for _ in range(repairs):
            try:
                return base.replace(**changes), refused
            except ValueError as err:
                refused += 1
                named = [word for word in re.findall(r"\w+", str(err)) if word in specs]  # the options it names
                if not named:
                    break
                name = rng.choice(named)
                players = changes.get("num_players", base.num_players)
                changes[name] = draw_value(specs[name], getattr(base, name), players, rng)


def cautious_move(game: Game, rng: random.Random) -> int:
    """A random legal move that bids rarely and low, so sides make bids and matches end."""
    legal = game.legal_actions()
    if game.phase == BID:
        if A.PASS in legal and rng.random() < 0.75:
            return A.PASS
        bids = [a for a in legal if A.BID_BASE < a <= A.MAX_BID_ACTION]
        if bids:
            return bids[0]
    return rng.choice(legal)


class InvariantError(AssertionError):
    """An invariant failed; the message names it, with the rules and seed to reproduce it."""


def check_cards(game: Game) -> None:
    piles = [*game.hands, *game.discarded, *game.played, mask_of(game.kitty), mask_of(game.stock)]
    union = 0
    for pile in piles:
        if union & pile:
            raise InvariantError("a card is in two places")
        union |= pile
    if union != mask_of(game.rules.deck):
        raise InvariantError("a card of the deck is missing, or a card not in the deck is in play")


def check_turn(game: Game) -> None:
    legal = game.legal_mask()
    if game.is_over:
        if legal:
            raise InvariantError("legal moves after the match ended")
        return
    if not legal:
        raise InvariantError(f"seat {game.current_player} is on turn with no legal move (phase {game.phase})")
    if legal >> A.NUM_ACTIONS:
        raise InvariantError("a legal action id is out of range")
    hand = game.hands[game.current_player]
    if game.phase == PLAY and (legal >> A.PLAY_BASE) & ~hand:
        raise InvariantError("a card not in hand is playable")
    if game.phase == DISCARD and ((legal & ~(1 << A.DONE)) >> A.DISCARD_BASE) & ~hand:
        raise InvariantError("a card not in hand may be discarded")


def check_lacks(game: Game) -> None:
    """What every seat has shown it lacks (voids, and jokers under ``joker_follows_trump``) is true of its hand."""
    if game.phase != PLAY:
        return
    lacks = shown_lacks(game.tricks, game.trick, game.table, game.rules, game.called_card)
    for seat, (hand, lacked) in enumerate(zip(game.hands, lacks)):
        if hand & lacked:
            raise InvariantError(f"seat {seat} holds a card it has shown it lacks")


def check_hand_result(game: Game, before: tuple[int, ...]) -> None:
    """The newest hand result explains every team's score change."""
    result = game.hand_results[-1]
    if result.scores_before != before or result.scores_after != tuple(game.scores):
        raise InvariantError("the hand result's scores before/after are not the match's")
    for seat in range(game.num_players):
        result.hand_reward(seat)  # every seat has a side to measure against
    points = sum(result.points.values())
    if not 0 <= points <= game.rules.max_hand_points:
        raise InvariantError(f"a hand awarded {points} points")
    side_of_team = {game.rules.team_of(seat): side for seat, side in enumerate(result.side_of_seat)}
    moon_made = result.bid == A.MOON_BID and result.made
    bid_side = result.side_of_seat[result.bidder]
    for team, side in side_of_team.items():
        change = result.scores_after[team] - result.scores_before[team]
        # a called partner's team shares the bidder's side, but a made moon resets or wins by each team's own score
        partner_reset = moon_made and side == bid_side and team != game.rules.team_of(result.bidder)
        if change != result.deltas[side] and not partner_reset:
            raise InvariantError(f"team {team} scored {change}, the hand result says {result.deltas[side]}")
        cap = game.rules.non_bidder_cap
        if cap is not None and side != bid_side and change > 0 and result.scores_after[team] > cap:
            raise InvariantError(f"team {team} passed the cap {cap} without bidding")


def check_replay(game: Game) -> None:
    copy = replay(json.loads(json.dumps(game.record())))
    same = (
        copy.history == game.history
        and copy.hands == game.hands
        and copy.scores == game.scores
        and copy.phase == game.phase
        and copy.legal_mask() == game.legal_mask()
        and copy.winners == game.winners
    )
    if not same:
        raise InvariantError("the record does not replay to the same state")


@dataclass
class FuzzStats:
    """What a fuzz run covered."""

    matches: int = 0
    finished: int = 0
    hands: int = 0
    steps: int = 0
    refused: int = 0
    bot_moves: int = 0
    options_changed: Counter = field(default_factory=Counter)


def play_match(
    rules: Rules, seed: int, step_cap: int, stats: FuzzStats, bot_seats: frozenset[int] = frozenset()
) -> None:
    """One match under ``rules`` with every invariant checked; raises InvariantError naming rules and seed."""
    rng = random.Random(seed)
    start = [rng.randint(-10, 10) for _ in range(rules.num_teams)] if rng.random() < 0.3 else None
    game = Game(rules, seed=seed, dealer=rng.randrange(rules.num_players), scores=start)
    bots = {seat: RuleAgent(rules, seed + seat) for seat in bot_seats}
    try:
        for _ in range(step_cap):
            check_cards(game)
            check_turn(game)
            check_lacks(game)
            if game.is_over:
                break
            scored, before = len(game.hand_results), tuple(game.scores)
            if game.current_player in bots:
                action = bots[game.current_player].act(player_view(game, game.current_player))
                stats.bot_moves += 1
            else:
                action = cautious_move(game, rng)
            game.apply(action)
            stats.steps += 1
            if len(game.hand_results) > scored:
                check_hand_result(game, before)
            elif tuple(game.scores) != before:
                raise InvariantError("scores changed without a hand being scored")
        check_replay(game)
    except Exception as err:
        raise InvariantError(f"{err!r} under {rules.to_dict()} with seed {seed}, bots at {sorted(bot_seats)}") from err
    stats.matches += 1
    stats.finished += game.is_over
    stats.hands += game.hands_played


def fuzz(matches: int, seed: int, step_cap: int = 3000, presets_only: bool = False, bot_every: int = 5) -> FuzzStats:
    """Play ``matches`` matches under random accepted rule sets (or the presets as they are)."""
    rng = random.Random(seed)
    stats = FuzzStats()
    presets = list_presets()
    for index in range(matches):
        if presets_only:
            rules = get_rules(presets[index % len(presets)])
        else:
            rules, refused = random_rules(rng)
            stats.refused += refused
            base = get_rules(rules.name)
            stats.options_changed.update(k for k, v in rules.to_dict().items() if getattr(base, k) != v)
        bots = frozenset({rng.randrange(rules.num_players)}) if bot_every and index % bot_every == 0 else frozenset()
        play_match(rules, rng.getrandbits(32), step_cap, stats, bots)
    return stats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--step-cap", type=int, default=3000, help="moves per match at most")
    parser.add_argument("--presets-only", action="store_true", help="the presets as they are, in turn")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    stats = fuzz(args.matches, args.seed, args.step_cap, args.presets_only)
    spent = time.perf_counter() - start
    print(
        f"{stats.matches} matches ({stats.finished} finished within {args.step_cap} moves), {stats.hands} hands, "
        f"{stats.steps} moves ({stats.bot_moves} by the rule bot), {stats.refused} rule sets refused and redrawn, "
        f"{spent:.0f} s: no invariant violated"
    )
    if stats.options_changed:
        print("options changed from their preset, in how many matches:", dict(stats.options_changed.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
