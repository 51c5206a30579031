"""Text rendering of a Bohemian Schneider round (the env's ``ansi`` and ``human`` modes)."""

from __future__ import annotations

from smear_env.cards import cards_of, format_card, format_cards
from smear_env.schneider.game import GAME_NAME, NUM_PLAYERS, PHASE_NAMES, TRICKS_PER_ROUND, Game


def render_text(game: Game) -> str:
    """A readable table of the round: hands, pile, the trick, points captured and match scores."""
    lines = [
        f"{GAME_NAME}  round {min(game.rounds_played + 1, game.rules.num_rounds)}/{game.rules.num_rounds}  "
        f"phase {PHASE_NAMES[game.phase]}  dealer {game.dealer}  pile {len(game.pile)}  "
        f"trick {min(len(game.tricks) + 1, TRICKS_PER_ROUND)}/{TRICKS_PER_ROUND}",
        f"{'seat':<6}{'points':<8}hand",
    ]
    for seat in range(NUM_PLAYERS):
        turn = ">" if seat == game.current_player else " "
        lines.append(f"{turn}{seat:<5}{game.round_points(seat):<8}{format_cards(cards_of(game.hands[seat]))}")
    trick = "  ".join(f"{s}:{format_card(c)}" for s, c in game.trick)
    lines.append(f"trick: {trick or '(empty)'}")
    if game.tricks:
        leader, plays, winner = game.tricks[-1]
        lines.append(f"last trick: {'  '.join(f'{s}:{format_card(c)}' for s, c in plays)} -> seat {winner}")
    lines.append(f"scores: seat 0: {game.scores[0]}  seat 1: {game.scores[1]}")
    if game.round_results:
        last = game.round_results[-1]
        lines.append(f"last round: points {last.points[0]}-{last.points[1]}, scores {last.scores[0]}-{last.scores[1]}")
    if game.is_over:
        lines.append(f"match over: winners {sorted(game.winners) if len(game.winners) == 1 else 'none (draw)'}")
    return "\n".join(lines)
