"""Scoring a finished hand and deciding whether the match is over.

A hand's points are awarded by category to *sides*: the teams, or with a called
partner the bidder's partnership and each other player alone. The bidding side
then makes its bid (adds its points) or is set (subtracts the bid); the other
sides add what they took. Match scores are kept per team (per player without
partnerships), and the match ends by target score, number of hands, a moon,
or a bust-out, with the preset's tie-breaks.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from smear_env import actions as A
from smear_env.cards import JOKER1, JOKER2, RANKS, mask_of

if TYPE_CHECKING:
    from smear_env.game import Game

#: card points toward Game: 10 = 10, A = 4, K = 3, Q = 2, J = 1 (jokers per rule option)
CARD_VALUES = tuple([{"T": 10, "A": 4, "K": 3, "Q": 2, "J": 1}.get(RANKS[c % 13], 0) for c in range(52)] + [0, 0])


@dataclass
class HandResult:
    """What one hand awarded and how it changed the match."""

    bidder: int  # seat of the bidder
    bid: int  # bid value (A.MOON_BID for a moon)
    trump: int  # trump suit index
    side_of_seat: list[int]  # scoring side of each seat in this hand
    awards: dict[str, int] = field(default_factory=dict)  # category -> side that took it
    points: dict[int, int] = field(default_factory=dict)  # side -> hand points taken
    card_points: dict[int, int] = field(default_factory=dict)  # side -> card points toward Game
    made: bool = False  # the bidding side made its bid
    deltas: dict[int, int] = field(default_factory=dict)  # side -> change of its members' match score
    match_winners: frozenset[int] | None = None  # winning teams if this hand ended the match

    def hand_reward(self, seat: int) -> float:
        """Score change of ``seat``'s side minus the best change among the other sides."""
        side = self.side_of_seat[seat]
        others = [d for s, d in self.deltas.items() if s != side]
        return float(self.deltas[side] - max(others))


def _side_of_card(game: Game, card: int, by: list[int]) -> int | None:
    """Side of the seat whose mask in ``by`` (played or won) holds ``card``."""
    for seat, mask in enumerate(by):
        if mask >> card & 1:
            return game.side_of(seat)
    return None


def _award_high_low(game: Game, awards: dict[str, int]) -> None:
    r, t = game.rules, game.table
    played_all = 0
    for mask in game.played:
        played_all |= mask
    trumps_played = [c for c in t.order if played_all >> c & 1]
    if r.high == "ace_played":
        side = _side_of_card(game, t.ace, game.played)
    elif r.high == "ace_captured":
        side = _side_of_card(game, t.ace, game.won)
    elif r.high == "highest_played" and trumps_played:
        side = _side_of_card(game, trumps_played[0], game.played)
    else:
        side = None
    if side is not None:
        awards["high"] = side
    lows = [c for c in trumps_played if not (r.low_ignores_jokers and c in (JOKER1, JOKER2))]
    if r.low == "two_played":
        side = _side_of_card(game, t.two, game.played)
    elif r.low == "lowest_played" and lows:
        side = _side_of_card(game, lows[-1], game.played)
    elif r.low == "lowest_captured" and lows:
        side = _side_of_card(game, lows[-1], game.won)
    else:
        side = None
    if side is not None:
        awards["low"] = side


def _card_points(game: Game) -> dict[int, int]:
    """Card points toward Game per side: counted by value class with one bit count each."""
    r = game.rules
    won: dict[int, int] = {}  # cards won per side: a side's seats pooled first, then counted once
    for side, mask in zip(game.sides, game.won):
        won[side] = won.get(side, 0) | mask
    if r.blind_discards_count and game.bidder >= 0:
        won[game.sides[game.bidder]] |= game.discarded[game.bidder]  # out of play, so never also won
    classes = _value_classes(r.joker_card_value)
    return {side: _points_in(mask, classes) for side, mask in won.items()}


def _points_in(cards: int, classes: tuple[tuple[int, int], ...]) -> int:
    return sum(value * (cards & mask).bit_count() for value, mask in classes)


@functools.cache
def _value_classes(joker_value: int) -> tuple[tuple[int, int], ...]:
    """(card value, mask of the cards worth it) for every non-zero value."""
    values = list(CARD_VALUES)
    values[JOKER1] = values[JOKER2] = joker_value
    return tuple((v, mask_of(c for c, w in enumerate(values) if w == v)) for v in sorted(set(values) - {0}))


def score_hand(game: Game) -> HandResult:
    """Score the hand ``game`` has just finished and update its match scores."""
    r, t = game.rules, game.table
    sides = list(game.sides)
    result = HandResult(game.bidder, game.high_bid, game.trump, sides)
    awards: dict[str, int] = {}
    _award_high_low(game, awards)
    captured = {
        "jack": (t.jack, r.jack_points),
        "jick": (t.jick, r.jick_points),
        "trey": (t.three, r.trey_points),
        "deuce": (t.two, r.deuce_points),
        "joker": (JOKER1, r.joker_points),
        "joker2": (JOKER2, r.joker_points),
    }
    for name, (card, value) in captured.items():
        if value and card >= 0:
            side = _side_of_card(game, card, game.won)
            if side is not None:
                awards[name] = side
    result.card_points = _card_points(game)
    if r.game_points:
        best = max(result.card_points.values())
        top = [s for s, v in result.card_points.items() if v == best]
        if len(top) == 1:
            awards["game"] = top[0]
        elif r.game_tie == "low_side" and awards.get("low") in top:
            awards["game"] = awards["low"]
    values = {"high": 1, "low": 1, "jack": r.jack_points, "jick": r.jick_points, "trey": r.trey_points}
    values |= {"deuce": r.deuce_points, "joker": r.joker_points, "joker2": r.joker_points, "game": r.game_points}
    points = {s: 0 for s in set(sides)}
    for name, side in awards.items():
        points[side] += values[name]
    result.awards, result.points = awards, points
    _settle(game, result)
    return result


def _settle(game: Game, result: HandResult) -> None:
    """Make or set the bid, update match scores and decide the match."""
    r = game.rules
    bid_side = game.sides[game.bidder]
    taken = result.points[bid_side]
    bid = game.high_bid
    if bid == A.MOON_BID:
        made = all(p == 0 for s, p in result.points.items() if s != bid_side)
        bid_delta = taken if made else -r.max_hand_points
    elif r.smudge_bid and bid == r.top_bid:
        swept = all(winner_side == bid_side for winner_side in (game.side_of(w) for _, _, w in game.tricks))
        made = swept and taken == r.max_hand_points
        bid_delta = bid if made else -bid
    else:
        made = taken >= bid
        bid_delta = (min(taken, r.max_bid) if r.smudge_bid else taken) if made else -bid  # only a smudge scores 5
    result.made = made
    result.deltas = {s: (bid_delta if s == bid_side else p) for s, p in result.points.items()}
    sides, teams = game.sides, game.teams
    bid_teams = {team for team, side in zip(teams, sides) if side == bid_side}
    before = list(game.scores)
    for team in range(r.num_teams):
        game.scores[team] += result.deltas[sides[teams.index(team)]]  # a team's seats share one side
    result.match_winners = _match_winners(game, result, bid_teams, before)


def _best(scores: list[int], teams: set[int] | list[int]) -> frozenset[int]:
    top = max(scores[t] for t in teams)
    return frozenset(t for t in teams if scores[t] == top)


def _match_winners(game: Game, result: HandResult, bid_teams: set[int], before: list[int]) -> frozenset[int] | None:
    r, scores = game.rules, game.scores
    teams = range(r.num_teams)
    others = [t for t in teams if t not in bid_teams]
    if result.bid == A.MOON_BID:
        if not result.made:
            return _best(scores, others)
        if all(before[t] > 0 for t in bid_teams):
            return frozenset(bid_teams)
        for t in bid_teams:
            scores[t] = 0  # a made moon from a score of zero or less resets it to zero
    if r.bust_out is not None:
        busted = [t for t in teams if scores[t] <= r.bust_out]
        if busted:
            alive = [t for t in teams if t not in busted]
            return _best(scores, alive) if alive else frozenset()
    if r.match_end == "hands":
        return _best(scores, list(teams)) if game.hands_played >= r.num_hands else None
    reached = [t for t in teams if scores[t] >= r.target_score]
    if r.win_requires_made_bid:
        reached = [t for t in reached if t in bid_teams and result.made]
    if not reached:
        return None
    if r.target_tiebreak == "bidder_if_made":
        if result.made and any(t in bid_teams for t in reached):
            return frozenset(t for t in reached if t in bid_teams)
        reached_others = [t for t in reached if t not in bid_teams]
        if reached_others:
            return _best(scores, reached_others)
        return None
    best = _best(scores, reached)
    if len(best) > 1 and best & bid_teams:
        return frozenset(best & bid_teams)
    return best
