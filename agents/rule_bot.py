"""A rule-based Smear player for every preset: the baseline a Smear player would respect.

Bidding estimates, for each candidate trump, the points the hand can take:
High, Low, Jack, Jick, jokers, Trey and Game by the cards held and the trump
length behind them, plus the cards the bidder will pick up (kitty, stock,
blinds) and a partner's expected help. It bids only what that estimate covers
with a safety margin (a set costs the whole bid), never a moon or smudge on hope.

Play counts cards from the view: it leads boss trumps to strip opponents when
its side bid, keeps the low trumps that score (Low, Trey) for tricks its side
wins, captures Jack/Jick/jokers with higher trumps, feeds counters to a
partner's winning trick, and ducks with its cheapest card when the trick is lost.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from agents.base import Agent
from agents.knowledge import Knowledge, card_value, knowledge_from_view, play_card, point_cards, require_legal
from agents.match_odds import (
    MATCH_MOON_PRESETS,
    bidding_threat,
    made_bid_wins,
    moon_wins_more,
    safe_to_go_out,
    unfitted_match_moon,
)
from smear_env import actions as A
from smear_env.cards import cards_of, mask_of
from smear_env.checks import as_real
from smear_env.observation import only_bids_win
from smear_env.rules import Rules, get_rules
from smear_env.trump import TrumpTable, beats, trick_winner, trump_table

#: going out: bid a bid that wins the match when made if the estimate less this covers it (the usual margin:
#: 0.5 to 1.5 points); blocking: outbid a side that goes out by a made bid up to the estimate less this
GO_OUT_MARGIN = 0.0
BLOCK_MARGIN = -1.0


class RuleAgent(Agent):
    """Heuristic bidding, trump choice, discards and card play with card counting."""

    name = "rule"

    def __init__(
        self,
        rules: Rules | str = "ten_point",
        seed: int | None = None,
        bid_margin: float | None = None,
        match_moon: bool = False,
        go_out: bool | None = None,
        block: bool | None = None,
        go_out_margin: float = GO_OUT_MARGIN,
        block_margin: float = BLOCK_MARGIN,
    ) -> None:
        super().__init__(seed)
        self.rules = get_rules(rules) if isinstance(rules, str) else rules
        #: points below the hand's estimate it bids; the default keeps sets rare, smaller is bolder
        self.bid_margin = default_bid_margin(self.rules) if bid_margin is None else as_real(bid_margin, "bid_margin")
        if not isinstance(match_moon, bool):
            raise ValueError(f"match_moon {match_moon!r} is not true or false")
        # go_out and block are on by default where only bidders go out, the rules where each won against the
        # bot without it (pitch_smudge, docs/bidding.md); go_out lost or tied on ten_point, minnesota and
        # ten_point_midwest, and block cannot apply where a side near the target goes out by defending
        #: when a made bid wins the match, bid it if the estimate less go_out_margin covers it
        self.go_out = only_bids_win(self.rules) if go_out is None else go_out
        #: when another side can go out only by a made bid, outbid it up to the estimate less block_margin
        self.block = only_bids_win(self.rules) if block is None else block
        for option, value in (("go_out", go_out), ("block", block)):
            if value is not None and not isinstance(value, bool):
                raise ValueError(f"{option} {value!r} is not true, false or None (by the rules)")
        self.go_out_margin = as_real(go_out_margin, "go_out_margin")
        self.block_margin = as_real(block_margin, "block_margin")
        if match_moon and self.rules.name not in MATCH_MOON_PRESETS:
            raise unfitted_match_moon(self.rules.name)
        #: call the moon by the match score (agents.match_odds) rather than by the hand alone
        self.match_moon = match_moon

    def act(self, view: dict[str, Any], observation: dict[str, np.ndarray] | None = None) -> int:
        self.legal_actions(view)
        return self.act_on(knowledge_from_view(view, self.rules))

    def act_on(self, k: Knowledge) -> int:
        """The move :meth:`act` makes, from what the player knows: code holding the engine's game
        skips the view with ``act_on(knowledge_from_game(game, seat, rules))``."""
        require_legal(k)
        if k.phase == "bid":
            return self._bid(k)
        if k.phase == "trump":
            return A.TRUMP_BASE + best_trump(k.hand, self.rules, k.seat == k.bidder)[0]
        if k.phase == "call":
            return self._call(k)
        if k.phase == "discard":
            return self._discard(k)
        return A.PLAY_BASE + choose_play(k)

    # ------------------------------------------------------------------ bidding
    def _bid(self, k: Knowledge) -> int:
        legal = set(k.legal)
        if A.MISDEAL in legal:
            return A.MISDEAL
        r = self.rules
        estimate = best_trump(k.hand, r, bidder=True)[1]
        ceiling, moon = bid_ceiling(estimate, r, self.bid_margin)
        if self.match_moon and A.MOON in legal:
            moon = self._moon_wins_match(k)
        if moon and A.MOON in legal:
            return A.MOON
        ceiling = max(ceiling, self._match_ceiling(k, estimate))
        for bid in range(ceiling, r.min_bid - 1, -1):
            if A.BID_BASE + bid in legal:
                return A.BID_BASE + bid
        if A.PASS in legal:
            return A.PASS
        return min(a for a in legal if A.BID_BASE < a <= A.MAX_BID_ACTION)  # forced to bid: the minimum

    def _match_ceiling(self, k: Knowledge, estimate: float) -> int:
        """The bid the match score calls for beyond the hand's own ceiling (0: none).

        Going out: the lowest legal bid that wins the match when made, if the
        estimate less ``go_out_margin`` covers it and a set cannot lose the match
        this hand (no other side can go out defending). Blocking: while another side
        can go out only by a made bid it may still hold, the estimate less
        ``block_margin`` (``agents.match_odds.bidding_threat``).
        """
        r, legal = self.rules, k.legal
        team = r.team_of(k.seat)
        ceiling = 0
        if self.go_out and safe_to_go_out(r, k.scores, team):
            bold = int(estimate - self.go_out_margin + 0.5)
            for bid in range(r.min_bid, min(bold, r.max_bid) + 1):
                if A.BID_BASE + bid in legal and made_bid_wins(r, k.scores, team, bid):
                    ceiling = bid
                    break
        if self.block and bidding_threat(k):
            ceiling = max(ceiling, min(int(estimate - self.block_margin + 0.5), r.max_bid))
        return ceiling

    def _moon_wins_match(self, k: Knowledge) -> bool:
        return moon_wins_match(k, self.rules)

    # ------------------------------------------------------------------ partner call (ten_point_5p)
    def _call(self, k: Knowledge) -> int:
        legal = [play_card(a) for a in k.legal]
        return A.CALL_BASE + max(legal, key=lambda c: k.table.power[c])

    # ------------------------------------------------------------------ discards
    def _discard(self, k: Knowledge) -> int:
        cards = [play_card(a) for a in k.legal if a != A.DONE]
        if A.DONE in k.legal:  # schmier's optional exchange: swap only cards not worth keeping
            cards = [c for c in cards if keep_value(c, k.table, self.rules) < 20]
            if not cards:
                return A.DONE
        return A.DISCARD_BASE + min(cards, key=lambda c: (keep_value(c, k.table, self.rules), c))


# ---------------------------------------------------------------------- hand evaluation
def moon_wins_match(k: Knowledge, rules: Rules) -> bool:
    """Whether the hand in ``k`` should shoot the moon at this match score (``match_moon``; minnesota's fits).

    The rule bot's estimate of the hand's best suit feeds :func:`agents.match_odds.moon_wins_more`; the
    neural agent asks the same question (``NeuralAgent(match_moon=True)``).
    """
    scores, team = k.scores, rules.team_of(k.seat)
    theirs = max(score for other, score in enumerate(scores) if other != team)
    suit, estimate = best_trump(k.hand, rules, bidder=True)
    return moon_wins_more(k.hand, rules, suit, estimate, scores[team], theirs)


def default_bid_margin(rules: Rules) -> float:
    """Bid this far below the estimate: in rule-bot self-play such bids are made about 75% of the time."""
    return 0.5 + (rules.max_hand_points - 4) / 6


class BoldRuleAgent(RuleAgent):
    """The rule bot bidding up to its full estimate: a sparring partner that contests every bid.

    Search bids far more than the rule bot (it values the stock and kitty it will see); training
    only against the cautious rule bot teaches an agent to win bids it would have to fight for.
    """

    name = "bold"

    def __init__(self, rules: Rules | str = "ten_point", seed: int | None = None) -> None:
        super().__init__(rules, seed, bid_margin=0.0)


def rule_bid_ceiling(hand: int, rules: Rules, margin: float) -> tuple[int, bool]:
    """The rule bot's bid with ``hand``: the highest number it would bid, and whether it calls a moon.

    The number may be below ``min_bid`` (it then passes); a smudge is never bid on hope.
    Search uses this to foresee what the opponents still to bid will do.
    """
    return bid_ceiling(best_trump(hand, rules, bidder=True)[1], rules, margin)


def bid_ceiling(estimate: float, rules: Rules, margin: float) -> tuple[int, bool]:
    """:func:`rule_bid_ceiling` from the hand's estimate (``best_trump``)."""
    moon = rules.moon_bid and estimate >= rules.max_hand_points - 0.25
    return min(int(estimate - margin + 0.5), rules.max_bid), moon


def keep_value(card: int, table: TrumpTable, rules: Rules) -> float:
    """How much a card is worth keeping: trumps by rank and points, then Game counters."""
    if table.trump_mask >> card & 1:
        return 40.0 + (table.power[card] - 180) + 10 * point_cards(table, rules).get(card, 0)
    if card >= 52:
        return 0.0
    rank = card % 13
    return {8: 30.0, 12: 28.0, 11: 18.0, 10: 12.0, 9: 8.0}.get(rank, rank * 0.5)


def best_trump(hand: int, rules: Rules, bidder: bool) -> tuple[int, float]:
    """(suit, estimated points) of the best trump suit for this hand."""
    estimates = [(estimate_points(hand, rules, suit, bidder), suit) for suit in range(4)]
    value, suit = max(estimates)
    return suit, value


def estimate_points(hand: int, rules: Rules, suit: int, bidder: bool = True) -> float:
    """Expected points my side takes with ``suit`` as trump (a deliberately cautious estimate).

    A card I do not hold may still come to me from the kitty or stock I pick up as bidder,
    with the chance that an unseen card is among the cards picked up.
    """
    table = trump_table(rules, suit)
    pickup = _expected_pickup(rules) if bidder else 0
    unseen = max(len(rules.deck) - hand.bit_count(), 1)
    p_pick = min(1.0, pickup / unseen)

    def have(card: int) -> float:
        return 1.0 if hand >> card & 1 else p_pick

    trumps = sum(have(c) for c in table.order)
    strength = min(1.0, trumps / 5.0)
    top = sum(have(c) for c in table.order[:4])
    points = _high_chance(rules, table, have) + _low_chance(rules, table, have, strength)
    for card, value in point_cards(table, rules).items():
        mine = have(card)
        points += value * (mine * min(0.95, 0.5 + 0.2 * top + 0.2 * strength) + (1 - mine) * 0.2 * strength)
    if rules.game_points:
        counters = sum(card_value(c, rules) for c in cards_of(hand))
        points += rules.game_points * min(0.85, 0.3 + 0.25 * strength + counters / 60 + 0.3 * p_pick)
    return points + _partner_help(rules)


def _expected_pickup(rules: Rules) -> float:
    """Cards the bidder adds to the hand before discarding."""
    if rules.stock_use == "to_bidder":
        return rules.stock_size
    if rules.stock_use == "blinds":
        return rules.blinds
    return rules.kitty_size


def _high_chance(rules: Rules, table: TrumpTable, have: Callable[[int], float]) -> float:
    if rules.high == "off":
        return 0.0
    ace = have(table.ace) * (0.97 if rules.high != "ace_captured" else 0.9)
    if rules.high == "highest_played" and len(table.order) > 1:
        dealt = rules.num_players * rules.hand_size / len(rules.deck)
        ace += (1 - have(table.ace)) * have(table.order[1]) * 0.9 * (1 - dealt)  # King is High if the Ace is out
    return ace


def _low_chance(rules: Rules, table: TrumpTable, have: Callable[[int], float], strength: float) -> float:
    if rules.low == "off":
        return 0.0
    if rules.low == "two_played":
        return have(table.two)
    lows = [c for c in reversed(table.order) if not (c >= 52 and rules.low_ignores_jokers)]
    lowest, second, third = (have(c) for c in (lows + [lows[-1]] * 2)[:3])  # short decks: fewer trumps
    chance = lowest + (1 - lowest) * (0.5 * second + 0.25 * third)
    return chance * (0.55 + 0.4 * strength) if rules.low == "lowest_captured" else chance


def _partner_help(rules: Rules) -> float:
    """Points a partner's unseen hand adds on average, by the size of the points pool."""
    if rules.has_teammates:
        return 0.12 * rules.max_hand_points
    return 0.08 * rules.max_hand_points if rules.called_partner else 0.0


# ---------------------------------------------------------------------- card play
def choose_play(k: Knowledge) -> int:
    """The card to play: lead or follow by the rules of thumb in the module docstring."""
    legal = [play_card(a) for a in k.legal]
    if len(legal) == 1:
        return legal[0]
    if not k.trick:
        return _lead(k, legal)
    return _follow(k, legal)


def _unseen_trumps(k: Knowledge) -> int:
    return k.table.trump_mask & k.unseen & mask_of(k.rules.deck)


def _is_boss(k: Knowledge, card: int) -> bool:
    """No unseen card can beat ``card`` when it leads."""
    t = k.table
    if t.trump_mask >> card & 1:
        return not any(t.power[c] > t.power[card] for c in cards_of(_unseen_trumps(k)))
    if _unseen_trumps(k):
        return False
    suit = t.suit_masks[t.effective_suit[card]] & k.unseen
    return not any(t.power[c] > t.power[card] for c in cards_of(suit))


def _lead(k: Knowledge, legal: list[int]) -> int:
    t, r = k.table, k.rules
    if k.trump < 0:  # this lead names trump: the highest card of the best suit
        suit, _ = best_trump(k.hand, r, bidder=True)
        in_suit = [c for c in legal if c < 52 and c // 13 == suit] or legal
        return max(in_suit, key=lambda c: t.power[c] if t.trump >= 0 else c % 13)
    trumps = [c for c in legal if t.trump_mask >> c & 1]
    keep_low = set(point_cards(t, r)) | ({t.two} if r.low != "off" else set())
    bosses = [c for c in trumps if _is_boss(k, c)]
    if trumps and (k.is_friend(k.bidder) or bosses) and _unseen_trumps(k):
        pick = bosses or [c for c in trumps if c not in keep_low] or trumps
        return max(pick, key=lambda c: t.power[c])
    side_bosses = [c for c in legal if not t.trump_mask >> c & 1 and _is_boss(k, c)]
    if side_bosses:
        return max(side_bosses, key=lambda c: card_value(c, r))
    plain = [c for c in legal if not t.trump_mask >> c & 1]
    if plain:
        return min(plain, key=lambda c: (card_value(c, r) > 0, t.power[c]))
    return min(trumps, key=lambda c: (c in keep_low, t.power[c]))


def _follow(k: Knowledge, legal: list[int]) -> int:
    t, r = k.table, k.rules
    winner_seat, winner_card = trick_winner(k.trick, t)
    led = t.effective_suit[k.trick[0][1]]
    last = len(k.trick) == k.n - 1
    values = point_cards(t, r)
    if k.is_friend(winner_seat) and (last or _is_boss(k, winner_card)):
        return max(legal, key=lambda c: (_feed_value(c, t, r, values), -t.power[c]))
    winners = [c for c in legal if beats(c, winner_card, led, t)]
    at_stake = sum(card_value(c, r) for _, c in k.trick) + 10 * sum(values.get(c, 0) for _, c in k.trick)
    if winners:
        safe = [c for c in winners if last or _is_boss(k, c)]
        if safe or at_stake >= 10:
            cheap = min(safe or winners, key=lambda c: (values.get(c, 0) > 0 and not safe, t.power[c]))
            return cheap
    return min(legal, key=lambda c: (_loss_value(c, t, r, values), t.power[c]))


def _feed_value(card: int, t: TrumpTable, r: Rules, values: dict[int, int]) -> float:
    """What a card adds to a trick my side will win: points first, then Game counters."""
    return 10 * values.get(card, 0) + card_value(card, r) + (5 if card == t.two and r.low != "off" else 0)


def _loss_value(card: int, t: TrumpTable, r: Rules, values: dict[int, int]) -> float:
    """What a card costs thrown to a trick the other side wins."""
    trump = t.trump_mask >> card & 1
    return 20 * values.get(card, 0) + card_value(card, r) + (8 if trump else 0) + (t.power[card] % 100) / 20
