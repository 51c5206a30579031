"""What one Bohemian Schneider player may know, as a vector and as a plain dict.

Hidden information: a player sees their own hand and the cards they drew from
the pile, never the opponent's hand, the opponent's draws or the pile order.
Everything played is public. Card blocks use the 54 shared card ids of
:mod:`smear_env.cards` (only the 32 ids 7..A of each suit are ever set), so a
card bit means the same card as the action id and as in Smear's observations.
Seats are relative: "mine" is the observing player, "opp" the other one.

=================  =====  ==========================================================
block              size   meaning
=================  =====  ==========================================================
hand               54     cards in my hand
my_draws           54     cards I drew from the pile this round
played_mine        54     cards I played this round
played_opp         54     cards the opponent played this round
won_mine           54     cards in the tricks I won this round
won_opp            54     cards in the tricks the opponent won this round
trick              54     the led card on the table (set only while the follower is on turn)
pile_size          1      cards left in the pile / 20
leader             2      one-hot: I lead the current trick / the opponent does (0 when over)
dealer             2      one-hot: I dealt this round / the opponent did
round_points       2      counter points captured this round (mine, opp) / 20, before multipliers
match_scores       2      match totals (mine, opp) / (60 * num_rounds)
tricks_done        1      tricks completed this round / 16
rounds_progress    1      rounds finished / num_rounds
=================  =====  ==========================================================

Total 389 floats, all in ``[0, 1]``. The action mask is ``int8[54]`` over card ids.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from smear_env.cards import NUM_CARDS, card_names, format_card
from smear_env.schneider.game import (
    MAX_ROUND_SCORE,
    NUM_ACTIONS,
    PHASE_NAMES,
    PILE_SIZE,
    PLAY,
    ROUND_POINTS,
    TRICKS_PER_ROUND,
    Game,
    format_action,
)

CARD_BLOCKS = ("hand", "my_draws", "played_mine", "played_opp", "won_mine", "won_opp", "trick")
SCALAR_BLOCKS = (
    ("pile_size", 1),
    ("leader", 2),
    ("dealer", 2),
    ("round_points", 2),
    ("match_scores", 2),
    ("tricks_done", 1),
    ("rounds_progress", 1),
)


def layout() -> list[tuple[str, int, int]]:
    """(block name, start, size) of every block of the vector, in order."""
    sizes = [(name, NUM_CARDS) for name in CARD_BLOCKS] + list(SCALAR_BLOCKS)
    out, start = [], 0
    for name, size in sizes:
        out.append((name, start, size))
        start += size
    return out


OBSERVATION_SIZE = sum(size for _, _, size in layout())  # 389
_SCALAR_START = len(CARD_BLOCKS) * NUM_CARDS
_OFFSETS = {name: start - _SCALAR_START for name, start, _ in layout()}
# gather indices keeping the 54 card bits of each 64-bit block
_CARD_BITS = (np.arange(len(CARD_BLOCKS))[:, None] * 64 + np.arange(NUM_CARDS)).ravel()


def card_masks(game: Game, seat: int) -> list[int]:
    """The card-block bit masks of ``seat``'s observation, in :data:`CARD_BLOCKS` order."""
    opp = 1 - seat
    trick = 0
    for _, card in game.trick:
        trick |= 1 << card
    return [
        game.hands[seat],
        game.drawn[seat],
        game.played[seat],
        game.played[opp],
        game.won[seat],
        game.won[opp],
        trick,
    ]


def observation_vector(game: Game, seat: int) -> np.ndarray:
    """The observation vector of ``seat`` (float32, see the module docstring)."""
    raw = b"".join(m.to_bytes(8, "little") for m in card_masks(game, seat))
    bits = np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little")[_CARD_BITS]
    scalars = np.zeros(OBSERVATION_SIZE - _SCALAR_START, dtype=np.float32)
    _fill_scalars(scalars, game, seat)
    return np.concatenate((bits.astype(np.float32), scalars))


def _fill_scalars(out: np.ndarray, game: Game, seat: int) -> None:
    off, num_rounds = _OFFSETS, game.rules.num_rounds
    out[off["pile_size"]] = len(game.pile) / PILE_SIZE
    if game.phase == PLAY:
        out[off["leader"] + (game.leader - seat) % 2] = 1.0
    out[off["dealer"] + (game.dealer - seat) % 2] = 1.0
    for k, s in enumerate((seat, 1 - seat)):
        out[off["round_points"] + k] = game.round_points(s) / ROUND_POINTS
        out[off["match_scores"] + k] = game.scores[s] / (MAX_ROUND_SCORE * num_rounds)
    out[off["tricks_done"]] = len(game.tricks) / TRICKS_PER_ROUND
    out[off["rounds_progress"]] = game.rounds_played / num_rounds


def action_mask(legal: int) -> np.ndarray:
    """int8 mask over the 54 action ids from the engine's legal-move bit mask."""
    raw = np.frombuffer(legal.to_bytes(8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:NUM_ACTIONS].astype(np.int8)


def player_view(game: Game, seat: int) -> dict[str, Any]:
    """A structured, human-readable view of what ``seat`` may know (seats absolute).

    Holds the same information as the vector, plus the public trick history, for
    rule-based bots and front ends.
    """

    legal = game.legal_actions() if game.current_player == seat else []
    return {
        "seat": seat,
        "num_players": game.num_players,
        "preset": game.rules.name,
        "phase": PHASE_NAMES[game.phase],
        "dealer": game.dealer,
        "current_player": game.current_player,
        "leader": game.leader if game.phase == PLAY else -1,
        "hand": card_names(game.hands[seat]),
        "my_draws": card_names(game.drawn[seat]),
        "pile_size": len(game.pile),
        "trick": [(s, format_card(c)) for s, c in game.trick],
        "tricks": [
            {"leader": leader, "cards": [(s, format_card(c)) for s, c in plays], "winner": winner}
            for leader, plays, winner in game.tricks
        ],
        "played": [card_names(m) for m in game.played],
        "won": [card_names(m) for m in game.won],
        "round_points": [game.round_points(s) for s in range(game.num_players)],
        "scores": list(game.scores),
        "rounds_played": game.rounds_played,
        "num_rounds": game.rules.num_rounds,
        "legal_actions": legal,
        "legal_moves": [format_action(a) for a in legal],
    }
