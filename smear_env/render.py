"""Text rendering of a hand in progress (the env's ``ansi`` and ``human`` modes)."""

from __future__ import annotations

from smear_env import actions as A
from smear_env.cards import SUITS, format_card, format_cards
from smear_env.game import PHASE_NAMES, Game


def _bid_text(bid: int | None) -> str:
    return "-" if bid is None else "pass" if bid == 0 else "moon" if bid == A.MOON_BID else str(bid)


def render_text(game: Game) -> str:
    """A readable table of the hand: seats, teams, hands, bids, the trick, tricks won and scores."""
    r = game.rules
    contract = game.contract()
    trump = SUITS[contract.trump] if contract.trump is not None else "-"
    bidder = "-" if contract.bidder is None else contract.bidder
    lines = [
        f"{r.name}  hand {game.hands_played + 1}  phase {PHASE_NAMES[game.phase]}  dealer {game.dealer}  "
        f"bidder {bidder} ({_bid_text(contract.bid)})  trump {trump}",
        "teams: " + "  ".join(f"{t} = seats {' '.join(map(str, seats))}" for t, seats in enumerate(r.team_seats)),
    ]
    if contract.called_card is not None:
        partner = "nobody" if contract.partner is None else contract.partner
        lines.append(f"called {format_card(contract.called_card)}: partner {partner}")
    lines.append(f"{'seat':<6}{'team':<6}{'bid':<6}{'won':<5}hand")
    tricks, bids = game.completed_tricks(), game.auction()
    for seat in range(game.num_players):
        turn = ">" if seat == game.current_player else " "
        won = sum(1 for trick in tricks if trick.winner == seat)
        hand = format_cards(game.hand(seat))
        lines.append(f"{turn}{seat:<5}{r.team_of(seat):<6}{_bid_text(bids[seat]):<6}{won:<5}{hand}")
    trick = "  ".join(f"{s}:{format_card(c)}" for s, c in game.current_trick())
    lines.append(f"trick {len(tricks) + 1}: {trick or '(empty)'}")
    lines.append("scores: " + "  ".join(f"team {t}: {s}" for t, s in enumerate(game.match_scores())))
    if game.hand_results:
        last = game.hand_results[-1]
        awards = ", ".join(f"{k}->{v}" for k, v in last.awards.items())
        points = ", ".join(f"side {k}: {v:+d}" for k, v in last.deltas.items())
        made = "made" if last.made else "set"
        lines.append(f"last hand: bid {_bid_text(last.bid)} by seat {last.bidder} {made}; {awards}; score {points}")
    if game.is_over:
        lines.append(f"match over: winners {sorted(game.winners) or 'none (draw)'}")
    return "\n".join(lines)
