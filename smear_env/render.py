"""Text rendering of a hand in progress (the env's ``ansi`` and ``human`` modes)."""

from __future__ import annotations

from smear_env import actions as A
from smear_env.cards import SUITS, cards_of, format_card, format_cards
from smear_env.game import PHASE_NAMES, Game


def _bid_text(bid: int | None) -> str:
    return "-" if bid is None else "pass" if bid == 0 else "moon" if bid == A.MOON_BID else str(bid)


def render_text(game: Game) -> str:
    """A readable table of the hand: seats, hands, bids, the trick, tricks won and scores."""
    r = game.rules
    trump = SUITS[game.trump] if game.trump >= 0 else "-"
    lines = [
        f"{r.name}  hand {game.hands_played + 1}  phase {PHASE_NAMES[game.phase]}  dealer {game.dealer}  "
        f"bidder {game.bidder if game.bidder >= 0 else '-'} ({_bid_text(game.high_bid or None)})  trump {trump}",
    ]
    if game.called_card >= 0:
        partner = game.partner if game.partner >= 0 else "nobody"
        lines.append(f"called {format_card(game.called_card)}: partner {partner}")
    lines.append(f"{'seat':<6}{'team':<6}{'bid':<6}{'won':<5}hand")
    for seat in range(game.num_players):
        turn = ">" if seat == game.current_player else " "
        won = sum(1 for _, _, w in game.tricks if w == seat)
        hand = format_cards(cards_of(game.hands[seat]))
        lines.append(f"{turn}{seat:<5}{r.team_of(seat):<6}{_bid_text(game.bids[seat]):<6}{won:<5}{hand}")
    trick = "  ".join(f"{s}:{format_card(c)}" for s, c in game.trick)
    lines.append(f"trick {len(game.tricks) + 1}: {trick or '(empty)'}")
    lines.append("scores: " + "  ".join(f"team {t}: {s}" for t, s in enumerate(game.scores)))
    if game.hand_results:
        last = game.hand_results[-1]
        awards = ", ".join(f"{k}->{v}" for k, v in last.awards.items())
        points = ", ".join(f"side {k}: {v:+d}" for k, v in last.deltas.items())
        made = "made" if last.made else "set"
        lines.append(f"last hand: bid {_bid_text(last.bid)} by seat {last.bidder} {made}; {awards}; score {points}")
    if game.is_over:
        lines.append(f"match over: winners {sorted(game.winners) or 'none (draw)'}")
    return "\n".join(lines)
