"""Bidding by the match score: when a made bid wins the match, when the other side can only go out by
bidding, and (minnesota) when a moon wins the match more often than playing on.

The first two hold for every preset and are decided from the rules and the
scores alone (:func:`made_bid_wins`, :func:`bidding_threat`); the bots weigh them
in their bids (``agents.rule_bot``, ``agents.search_bot``; measured in
``docs/bidding.md``).

Match-aware moon calls for minnesota: shoot the moon when it wins the match more often than playing on.

On minnesota a made moon wins the match outright (from a positive score) and a
failed one loses it, so a moon is a bet on the match, not on the hand: from far
behind, a hand that takes every point in play half the time is worth mooning,
from far ahead almost none is. The bot compares two fitted chances:

- ``moon_chance``: that a moon on this hand (before the kitty) takes every point
  in play, a logistic fit on 120,000 deals where the hand was made bidder and
  every seat played by the rule bot;
- ``match_odds``: that a side wins the match from a score, a logistic fit in the
  square roots of the points each side still needs, on 200,000 hand starts of
  20,000 rule-bot matches; played on from this hand, it is taken at the scores
  the hand's estimate leads to (a linear fit of each side's points on the rule
  estimate, over the same deals).

It moons when the first beats the second by ``MOON_EDGE``. ``python -m training.fit_moon_odds``
regenerates the data and prints the coefficients below.

The neural agent calls its moons another way (``network_moon_call``), fitted to its own play: the
rule bot's fits above describe rule-bot matches, where moons are rare, and the third-stage network
takes every point of a moon more often than the rule bot does (41% of random forced moons, the
rule bot 36%). In its own matches a moon ends most of them, so being behind by a few points costs
little and the rule bot's match odds, which never saw that, make it moon too soon from behind and
never from ahead. ``network_moon_chance`` is a logistic fit on 200,000 forced moons played by the
third-stage network at every seat (``python -m training.fit_moon_odds --network``, which now plays the agent
shipped since); the agent moons when
that chance beats one threshold, a higher one when ahead and a lower one when another side is near
the target, picked by matches against the rule bot's call, the rule bot and random players
(docs/results.md).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from agents.knowledge import Knowledge
from smear_env.cards import JOKER1, JOKER2, cards_of
from smear_env.observation import only_bids_win
from smear_env.rules import Rules
from smear_env.trump import trump_table

#: presets (by ``Rules.name``) the fits below were made on: the moon call is theirs only
MATCH_MOON_PRESETS = frozenset({"minnesota"})


def unfitted_match_moon(rules_name: object) -> ValueError:
    """The error for ``match_moon`` asked of rules the fits were not made on (the rule and neural agents raise it)."""
    return ValueError(f"match_moon is fitted for {', '.join(sorted(MATCH_MOON_PRESETS))} only, not {rules_name!r}")


#: how much more often the moon must win than playing on: against the rule bot over 4,000 games (seed 1) an
#: edge of 0 won 0.564 of matches, 0.1 0.578, 0.2 0.577, 0.3 0.549 (a build that rounded the projected scores;
#: this one with 0.1: 0.579 on seed 1, 0.590 on seed 2)
MOON_EDGE = 0.1

#: logistic weights of moon_chance: Ace, 2, Jack, King, Queen of trump held, trump count,
#: off-suit tens held, the rule estimate of the best suit, and the intercept
MOON_WEIGHTS = (0.642, 0.532, 0.391, 0.164, 0.110, 0.170, -0.125, 0.213, -2.418)

#: logistic weights of match_odds on d = sqrt(my need) - sqrt(their need), on (my need - their need) / 10,
#: and on d * (my need + their need) / 20, where a side's need is the target less its score (at least 1);
#: the refit's Newton optimum is (-1.551, 1.179, -0.174), the same log loss to nine decimals
ODDS_WEIGHTS = (-1.552, 1.183, -0.175)

#: scores are clipped to this range before the match odds: the fit saw few beyond it
SCORE_CLIP = (-15, 20)

#: points my side (bidding) and the other side take, linear in the rule estimate: (intercept, slope)
BIDDER_POINTS = (0.661, 0.700)
DEFENDER_POINTS = (2.088, -0.426)


def made_bid_wins(rules: Rules, scores: list[int], team: int, bid: int) -> bool:
    """Whether ``team`` making a numeric bid of ``bid`` this hand wins the match, whatever the others take.

    A made bid scores at least the bid (a smudge exactly), so the team ends the
    hand at ``scores[team] + bid`` or more; every other team takes at most the
    points the bid leaves, and wins only if the rules let it beat the bidder on
    the same hand. Fixed-length matches are never won by one bid here.
    """
    if rules.match_end != "target" or scores[team] + bid < rules.target_score:
        return False
    if only_bids_win(rules) or rules.target_tiebreak == "bidder_if_made":
        return True
    mine, left = scores[team] + bid, rules.max_hand_points - bid  # both reaching: the higher wins, a tie the bidder
    return all(score + left <= mine for other, score in enumerate(scores) if other != team)


def safe_to_go_out(rules: Rules, scores: list[int], team: int) -> bool:
    """Whether a failed bid of ``team`` cannot lose the match this hand: no other team can go out defending.

    Going out is a bet a set bid pays for; it is worth a bolder bid only where the
    set costs points, not the match.
    """
    return not any(wins_by_defending(rules, scores, other) for other in range(len(scores)) if other != team)


def wins_by_defending(rules: Rules, scores: list[int], team: int) -> bool:
    """Whether ``team`` could reach the target this hand without the bid (every point taken on defence)."""
    return (
        not only_bids_win(rules)
        and rules.match_end == "target"
        and (scores[team] + rules.max_hand_points >= rules.target_score)
    )


def bidding_threat(k: Knowledge) -> bool:
    """Whether a side other than mine can go out only by making a bid, and can still get it.

    So I (to bid now) block it by outbidding: the side holds the high bid, or
    one of its seats bids after me, and a made bid it could hold wins the match
    for it, while it could not reach the target by defending (``pitch_smudge``:
    a side past the target wins only on a made bid).
    """
    r = k.rules
    later = [(k.seat + i) % k.n for i in range(1, (k.dealer - k.seat) % k.n + 1)]
    holder = r.team_of(k.bidder) if k.bidder >= 0 else None
    for other in ({r.team_of(s) for s in later} | {holder}) - {None, r.team_of(k.seat)}:
        lowest = max(r.min_bid, k.high_bid if other == holder else k.high_bid + 1)
        goes_out = lowest <= r.max_bid and made_bid_wins(r, k.scores, other, lowest)
        if goes_out and not wins_by_defending(r, k.scores, other):
            return True
    return False


def _logistic(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z))


def moon_features(hand: int, rules: Rules, suit: int, estimate: float) -> list[float]:
    """What ``moon_chance`` weighs, in ``MOON_WEIGHTS`` order (also the fit's inputs)."""
    t = trump_table(rules, suit)
    held = [float(hand >> card & 1) for card in (t.ace, t.two, t.jack, t.order[1], t.order[2])]
    trumps = (hand & t.trump_mask).bit_count()
    tens = sum(1 for c in cards_of(hand & ~t.trump_mask) if c < 52 and c % 13 == 8)
    return [*held, float(trumps), float(tens), estimate, 1.0]


def moon_chance(hand: int, rules: Rules, suit: int, estimate: float) -> float:
    """Chance that a moon on ``hand`` (before the kitty) takes every point in play.

    ``suit`` and ``estimate``: the rule bot's best trump for the hand and its estimate of the points.
    """
    features = moon_features(hand, rules, suit, estimate)
    return _logistic(sum(w * x for w, x in zip(MOON_WEIGHTS, features)))


def odds_features(mine: Any, theirs: Any, target: int) -> np.ndarray:
    """What ``match_odds`` weighs, in ``ODDS_WEIGHTS`` order, for scores (numbers or arrays of them)."""
    need_mine = np.maximum(target - np.clip(mine, *SCORE_CLIP), 1.0)
    need_theirs = np.maximum(target - np.clip(theirs, *SCORE_CLIP), 1.0)
    d = np.sqrt(need_mine) - np.sqrt(need_theirs)
    return np.stack([d, (need_mine - need_theirs) / 10, d * (need_mine + need_theirs) / 20], axis=-1)


def match_odds(mine: float, theirs: float, target: int) -> float:
    """Chance that my side wins the match from scores ``mine`` and ``theirs`` (0.5 when level)."""
    return _logistic(float(odds_features(mine, theirs, target) @ np.array(ODDS_WEIGHTS)))


def moon_wins_more(hand: int, rules: Rules, suit: int, estimate: float, mine: int, theirs: int) -> bool:
    """Whether mooning on ``hand`` wins the match more often than bidding as usual, at these scores.

    Never from a score of zero or less: a made moon there only resets it to zero.
    """
    if mine <= 0:
        return False
    gain_mine = BIDDER_POINTS[0] + BIDDER_POINTS[1] * estimate
    gain_theirs = DEFENDER_POINTS[0] + DEFENDER_POINTS[1] * estimate
    play_on = match_odds(mine + gain_mine, theirs + gain_theirs, rules.target_score)
    return moon_chance(hand, rules, suit, estimate) > play_on + MOON_EDGE


#: how the match odds call a neural agent's moons: the call fitted to the third-stage network's moons, or the rule bot's
MOON_MODELS = ("network", "rule")

#: logistic weights of network_moon_chance, in network_moon_features order: the third-stage minnesota network's moons
NETWORK_MOON_WEIGHTS = (
    *(0.656, 0.058, 0.002, 0.296, -0.111),  # Ace, King, Queen, Jack, Jick of trump
    *(-0.118, -0.134, -0.126, -0.149, -0.135, -0.174, -0.128, -0.138, 0.562),  # 10 down to 2 of trump
    *(-0.063, 0.051, -0.049),  # jokers held, trump count, its square / 10
    *(0.062, 0.022, -0.013, 0.013, -0.224),  # off-suit aces, kings, tens; void suits; off-suit cards
    *(0.067, 0.052, 0.024),  # rule estimates of the best and second suit; intercept
)
#: the network moons when its chance beats this, level or behind ...
NETWORK_MOON_THRESHOLD = 0.55
#: ... this, ahead (lower wins more against agents that moon from behind, loses more against the rule bot) ...
NETWORK_MOON_AHEAD = 0.65
#: ... or this, when another side is within NETWORK_MOON_REACH points of the target (it may go out this hand)
NETWORK_MOON_DANGER = 0.3
NETWORK_MOON_REACH = 4


def network_moon_features(hand: int, rules: Rules, suit: int, best: float, second: float) -> list[float]:
    """What ``network_moon_chance`` weighs: the hand with ``suit`` trump (the rule estimate's best suit).

    Each trump held, high to low (the jokers counted together); the trump count and its square; the
    off-suit aces, kings and tens, void suits and off-suit cards; the rule estimates of the best and
    second-best suit (the kitty may turn the bidder to the second); an intercept.
    """
    t = trump_table(rules, suit)
    held = [float(hand >> card & 1) for card in t.order if card not in (JOKER1, JOKER2)]
    jokers = float(sum(hand >> card & 1 for card in t.order if card in (JOKER1, JOKER2)))
    trumps = (hand & t.trump_mask).bit_count()
    off = [c for c in cards_of(hand & ~t.trump_mask) if c < 52]
    ranks = [c % 13 for c in off]
    voids = 3 - len({c // 13 for c in off} - {suit})
    counts = [ranks.count(12), ranks.count(11), ranks.count(8)]  # aces, kings, tens
    shape = [float(trumps), trumps * trumps / 10, *counts, float(voids), float(len(off))]
    return [*held, jokers, *shape, best, second, 1.0]


def network_moon_trumps(rules: Rules) -> int:
    """How many trumps, the jokers apart, the network moon call weighs one by one under ``rules``."""
    return sum(1 for card in trump_table(rules, 0).order if card not in (JOKER1, JOKER2))


def network_moon_reads(rules: Rules) -> bool:
    """Whether the network moon call can weigh a hand under ``rules``: it weighs each trump held, minnesota's
    fourteen, so a table whose trump suit has other cards (no jick, a shorter deck) has cards it holds no weight for.
    """
    return len(network_moon_features(0, rules, 0, 0.0, 0.0)) == len(NETWORK_MOON_WEIGHTS)


def moon_model_for(rules: Rules, moon_model: str) -> str:
    """The match odds' call made under ``rules``: ``moon_model``, or the rule bot's where the network's cannot read
    the hand (:func:`network_moon_reads`). The rule bot's call reads any hand, and a network trained with the match
    odds calling its moons never learned to call them itself."""
    return "rule" if moon_model == "network" and not network_moon_reads(rules) else moon_model


def network_moon_chance(features: list[float]) -> float:
    """Chance that the third-stage minnesota network, mooning on ``features``'s hand, takes every point in play.

    The shipped agent since 2026-12-03 (its card-head successor) trained with this call and keeps it unrefitted.
    """
    return _logistic(sum(w * x for w, x in zip(NETWORK_MOON_WEIGHTS, features, strict=True)))


def network_moon_call(
    chance: float, rules: Rules, scores: list[int], team: int, thresholds: tuple[float, float, float]
) -> bool:
    """Whether to moon with this ``chance`` of making it, by ``thresholds`` (level or behind, ahead, danger).

    Never from zero or less; sooner when another side is near the target; later when ahead.
    """
    mine, theirs = scores[team], max(score for other, score in enumerate(scores) if other != team)
    if mine <= 0:
        return False
    level_or_behind, ahead, danger = thresholds
    if theirs >= rules.target_score - NETWORK_MOON_REACH:
        return chance > danger
    return chance > (ahead if mine > theirs else level_or_behind)
