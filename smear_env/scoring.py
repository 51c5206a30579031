"""Scoring a finished hand and deciding whether the match is over.

A hand's points are awarded by category to *sides*: the teams, or with a called
partner the bidder's partnership and each other player alone. The bidding side
then makes its bid (adds its points) or is set (subtracts the bid); the other
sides add what they took. Match scores are kept per team (per player without
partnerships), and the match ends by target score, number of hands, a moon,
or a bust-out, with the preset's tie-breaks.

Scoring reads a finished hand through :class:`FinishedHand`, the few attributes it
needs, rather than the engine's :class:`~smear_env.game.Game` itself: the engine
depends on scoring and not the other way round, and scoring changes nothing it is
given (the new match scores come back in :attr:`HandResult.scores_after`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from smear_env import actions as A
from smear_env.cards import JOKER1, JOKER2, RANKS, SUITS, format_card, mask_of
from smear_env.rules import Rules
from smear_env.trump import TrumpTable

#: card points toward Game: 10 = 10, A = 4, K = 3, Q = 2, J = 1 (jokers per rule option)
CARD_VALUES = tuple([{"T": 10, "A": 4, "K": 3, "Q": 2, "J": 1}.get(RANKS[c % 13], 0) for c in range(52)] + [0, 0])


class Trick(NamedTuple):
    """A completed trick: who led, the cards in play order as (seat, card id), and who won it."""

    leader: int
    cards: tuple[tuple[int, int], ...]
    winner: int


def as_tricks(tricks: list[tuple[int, list[tuple[int, int]], int]]) -> tuple[Trick, ...]:
    """The engine's (leader, plays, winner) records as immutable :class:`Trick` values."""
    return tuple(Trick(leader, tuple(plays), winner) for leader, plays, winner in tricks)


class Award(NamedTuple):
    """One scoring category of a hand: who took it and with which card."""

    category: str  # one of smear_env.rules.CATEGORIES: high, low, jack, jick, joker, joker2, trey, deuce, game
    side: int  # scoring side that took it
    points: int
    seat: int | None  # the seat that played the card (High/Low "played") or captured it; None for Game
    card: int | None  # the card that decided it; None for Game


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
    taken_by: dict[str, tuple[int, int]] = field(default_factory=dict)  # category -> (seat, card) that decided it
    values: dict[str, int] = field(default_factory=dict)  # points of each category the rules score
    scores_before: tuple[int, ...] = ()  # match score of each team before this hand
    scores_after: tuple[int, ...] = ()  # ... and after it (a made moon from zero or less resets to 0)
    trick_records: list[tuple[int, list[tuple[int, int]], int]] = field(default_factory=list)  # the engine's

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The hand's tricks, in order."""
        return as_tricks(self.trick_records)

    @property
    def breakdown(self) -> tuple[Award, ...]:
        """Each category awarded, in ``smear_env.rules.CATEGORIES`` order: side, points, seat and card.

        Built on demand from ``awards`` and ``taken_by``, so scoring a hand in training costs nothing more.
        """
        return tuple(
            Award(name, self.awards[name], value, *self.taken_by.get(name, (None, None)))
            for name, value in self.values.items()
            if name in self.awards
        )

    @property
    def unawarded(self) -> tuple[str, ...]:
        """Categories these rules score that nobody took (the card not in play, Game tied)."""
        return tuple(name for name in self.values if name not in self.awards)

    def hand_reward(self, seat: int, rival_weight: float = 1.0) -> float:
        """Score change of ``seat``'s side minus ``rival_weight`` times the best change among the other sides.

        The full difference suits two sides; with five free-for-all seats and weak rivals what wins is the
        side's own progress to the target, which a weight below 1 rewards more (training's ``rival_weight``).
        """
        side = self.side_of_seat[seat]
        others = [d for s, d in self.deltas.items() if s != side]
        return float(self.deltas[side] - rival_weight * max(others))

    def to_dict(self) -> dict[str, Any]:
        """The hand as plain JSON data: the contract, each category (who took it, with what), each side's
        points, card points and score change, made or set, every team's score before and after."""
        sides = sorted(set(self.side_of_seat))
        categories = [
            {"category": a.category, "points": a.points, "side": a.side, "seat": a.seat,
             "card": None if a.card is None else format_card(a.card)}
            for a in self.breakdown
        ]  # fmt: skip
        categories += [{"category": c, "points": 0, "side": None, "seat": None, "card": None} for c in self.unawarded]
        return {
            "bidder": self.bidder,
            "bid": "moon" if self.bid == A.MOON_BID else self.bid,
            "trump": SUITS[self.trump] if self.trump >= 0 else None,
            "made": self.made,
            "categories": categories,
            "sides": [
                {
                    "side": side,
                    "seats": [s for s, x in enumerate(self.side_of_seat) if x == side],
                    "points": self.points.get(side, 0),
                    "card_points": self.card_points.get(side, 0),
                    "score_change": self.deltas.get(side, 0),
                }
                for side in sides
            ],
            "scores_before": list(self.scores_before),
            "scores_after": list(self.scores_after),
            "match_winners": None if self.match_winners is None else sorted(self.match_winners),
            "tricks": [
                {"leader": t.leader, "cards": [[seat, format_card(c)] for seat, c in t.cards], "winner": t.winner}
                for t in self.tricks
            ],
        }


class FinishedHand(Protocol):
    """What scoring reads of a hand whose last trick is played (a :class:`~smear_env.game.Game` is one).

    Card sets are ``int`` bit masks per seat (see :mod:`smear_env.cards`).
    """

    rules: Rules
    table: TrumpTable  # the trump order of this hand
    bidder: int  # seat of the high bidder
    high_bid: int  # the winning bid (``actions.MOON_BID`` for a moon)
    trump: int  # trump suit index
    teams: list[int]  # match team of each seat
    sides: list[int]  # scoring side of each seat this hand (a called partner joins the bidder's side)
    played: list[int]  # cards each seat played to tricks
    won: list[int]  # cards in the tricks each seat won
    discarded: list[int]  # cards each seat put out of play
    tricks: list[tuple[int, list[tuple[int, int]], int]]  # (leader, plays, winner) of every trick, in order


def _seat_of_card(card: int, by: list[int]) -> int | None:
    """The seat whose mask in ``by`` (played or won) holds ``card``."""
    for seat, mask in enumerate(by):
        if mask >> card & 1:
            return seat
    return None


def _award_high_low(hand: FinishedHand, found: dict[str, tuple[int, int]]) -> None:
    """High and Low: category -> (seat, card) that decided it."""
    r, t = hand.rules, hand.table
    played_all = 0
    for mask in hand.played:
        played_all |= mask
    trumps_played = [c for c in t.order if played_all >> c & 1]
    if r.high == "ace_played":
        card, by = t.ace, hand.played
    elif r.high == "ace_captured":
        card, by = t.ace, hand.won
    elif r.high == "highest_played" and trumps_played:
        card, by = trumps_played[0], hand.played
    else:
        card, by = -1, hand.played
    seat = _seat_of_card(card, by) if card >= 0 else None
    if seat is not None:
        found["high"] = (seat, card)
    lows = [c for c in trumps_played if not (r.low_ignores_jokers and c in (JOKER1, JOKER2))]
    if r.low == "two_played":
        card, by = t.two, hand.played
    elif r.low == "lowest_played" and lows:
        card, by = lows[-1], hand.played
    elif r.low == "lowest_captured" and lows:
        card, by = lows[-1], hand.won
    else:
        card = -1
    seat = _seat_of_card(card, by) if card >= 0 else None
    if seat is not None:
        found["low"] = (seat, card)


def _card_points(hand: FinishedHand) -> dict[int, int]:
    """Card points toward Game per side: counted by value class with one bit count each."""
    r = hand.rules
    won: dict[int, int] = {}  # cards won per side: a side's seats pooled first, then counted once
    for side, mask in zip(hand.sides, hand.won):
        won[side] = won.get(side, 0) | mask
    if r.blind_discards_count and hand.bidder >= 0:
        won[hand.sides[hand.bidder]] |= hand.discarded[hand.bidder]  # out of play, so never also won
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


def score_hand(hand: FinishedHand, scores: Sequence[int], hands_played: int) -> HandResult:
    """Score the hand just finished, from match ``scores`` (one per team) after ``hands_played`` hands.

    ``hands_played`` counts this hand. Nothing given is changed: the match scores after
    the hand are ``scores_after`` of the result, and ``match_winners`` says whether it ended the match.
    """
    r, t = hand.rules, hand.table
    sides = list(hand.sides)
    result = HandResult(hand.bidder, hand.high_bid, hand.trump, sides, trick_records=hand.tricks)
    found: dict[str, tuple[int, int]] = {}  # category -> (seat, card) that took it
    _award_high_low(hand, found)
    captured = {"jack": t.jack, "jick": t.jick, "trey": t.three, "deuce": t.two, "joker": JOKER1, "joker2": JOKER2}
    values = r.point_values
    for name, card in captured.items():
        if name in values and card >= 0:
            seat = _seat_of_card(card, hand.won)
            if seat is not None:
                found[name] = (seat, card)
    awards = {name: sides[seat] for name, (seat, _) in found.items()}
    result.card_points = _card_points(hand)
    if r.game_points:
        best = max(result.card_points.values())
        top = [s for s, v in result.card_points.items() if v == best]
        if len(top) == 1:
            awards["game"] = top[0]
        elif r.game_tie == "low_side" and awards.get("low") in top:
            awards["game"] = awards["low"]
    points = {s: 0 for s in set(sides)}
    for name, side in awards.items():
        points[side] += values[name]
    result.awards, result.points, result.taken_by, result.values = awards, points, found, values
    _settle(hand, result, list(scores), hands_played)
    return result


def _settle(hand: FinishedHand, result: HandResult, scores: list[int], hands_played: int) -> None:
    """Make or set the bid, score the hand into ``scores`` (a copy of the match scores) and decide the match."""
    r = hand.rules
    sides = hand.sides
    bid_side = sides[hand.bidder]
    taken = result.points[bid_side]
    bid = hand.high_bid
    if bid == A.MOON_BID:
        made = all(p == 0 for s, p in result.points.items() if s != bid_side)
        bid_delta = taken if made else -r.max_hand_points
    elif r.smudge_bid and bid == r.top_bid:
        swept = all(sides[winner] == bid_side for _, _, winner in hand.tricks)
        made = swept and taken == r.max_hand_points
        bid_delta = bid if made else -bid
    else:
        made = taken >= bid
        bid_delta = (min(taken, r.max_bid) if r.smudge_bid else taken) if made else -bid  # only a smudge scores 5
    result.made = made
    team_side = {team: side for team, side in zip(hand.teams, sides)}  # a team's seats share one side
    result.deltas = {s: (bid_delta if s == bid_side else p) for s, p in result.points.items()}
    if r.non_bidder_cap is not None:
        for side in result.deltas:
            if side != bid_side:
                result.deltas[side] = _capped(r.non_bidder_cap, result.deltas[side], scores, team_side, side)
    bid_teams = {team for team, side in team_side.items() if side == bid_side}
    before = tuple(scores)
    for team in range(r.num_teams):
        scores[team] += result.deltas[team_side[team]]
    result.match_winners = _match_winners(r, result, bid_teams, before, scores, hands_played)
    bidder_team = hand.teams[hand.bidder]
    # A made moon from zero or less resets the score to 0: the side's change is what the score moved, not the
    # points taken, so hand rewards do not pay for a moon that gained nothing.
    result.deltas[bid_side] = scores[bidder_team] - before[bidder_team]
    result.scores_before, result.scores_after = before, tuple(scores)


def _capped(cap: int, points: int, scores: list[int], team_side: dict[int, int], side: int) -> int:
    """What a side that did not bid adds: its points, up to the cap (a score already above it stays)."""
    score = max(scores[team] for team, s in team_side.items() if s == side)
    return max(0, min(points, cap - score))


def _best(scores: list[int], teams: set[int] | list[int]) -> frozenset[int]:
    top = max(scores[t] for t in teams)
    return frozenset(t for t in teams if scores[t] == top)


def _match_winners(
    r: Rules, result: HandResult, bid_teams: set[int], before: tuple[int, ...], scores: list[int], hands_played: int
) -> frozenset[int] | None:
    """The winning teams if the hand ended the match, else None; a made moon from zero or less resets ``scores``."""
    teams = range(r.num_teams)
    others = [t for t in teams if t not in bid_teams]
    if result.bid == A.MOON_BID:
        if not result.made:
            return _best(scores, others)
        # each team on the bidder's side by its own score (a called partner's differs): from above zero it wins the
        # match, from zero or less its score resets to zero
        winners = frozenset(t for t in bid_teams if before[t] > 0)
        for t in bid_teams - winners:
            scores[t] = 0
        if winners:
            return winners
    if r.bust_out is not None:
        busted = [t for t in teams if scores[t] <= r.bust_out]
        if busted:
            alive = [t for t in teams if t not in busted]
            return _best(scores, alive) if alive else frozenset()
    if r.match_end == "hands":
        return _best(scores, list(teams)) if hands_played >= r.num_hands else None
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
