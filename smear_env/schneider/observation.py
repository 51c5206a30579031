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

:func:`player_view` gives the same knowledge as a plain dict (absolute seats, card
names), and :func:`vector_from_view` rebuilds the exact vector from such a view, so
an agent can act on a view alone (say one sent to a bot service) without the env.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from smear_env.cards import NUM_CARDS, card_names, format_card, mask_of, parse_cards
from smear_env.checks import as_int
from smear_env.schneider.game import (
    DECK_MASK,
    GAME_NAME,
    MAX_ROUND_SCORE,
    NUM_ACTIONS,
    NUM_PLAYERS,
    PHASE_NAMES,
    PILE_SIZE,
    PLAY,
    ROUND_POINTS,
    TRICKS_PER_ROUND,
    Game,
    SchneiderRules,
    format_action,
)

OBSERVATION_VERSION = 1  # the layout above; a network records it, and a change of layout must bump it

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


# ---------------------------------------------------------------------- vector from a view
_VIEW_KEYS = (
    "seat, preset, phase, dealer, leader, hand, my_draws, pile_size, trick, tricks, played, won, "
    "round_points, scores, rounds_played, num_rounds"
)


def vector_from_view(view: dict[str, Any]) -> np.ndarray:
    """The observation vector of the player whose :func:`player_view` this is.

    Equal to ``observation_vector(game, view["seat"])`` at every position (tested),
    so a torch-free agent can act on a view alone, e.g. one received over HTTP
    (tuples may arrive as lists). A malformed view raises ``ValueError`` naming
    the part that is wrong and what was expected.
    """
    state = _ViewState(view)
    return observation_vector(state, state.seat)  # type: ignore[arg-type]  # reads only what _ViewState holds


class _ViewState:
    """The parts of a :class:`Game` :func:`observation_vector` reads, rebuilt from one player's view.

    The opponent's hand and draws are unknown to the view and stay empty: the
    vector never shows them. Only the lengths of ``pile`` and ``tricks`` are read.
    """

    def __init__(self, view: dict[str, Any]) -> None:
        if not isinstance(view, Mapping):
            raise ValueError(f"view {view!r} is not a dict: expected a player_view dict with {_VIEW_KEYS}")
        preset = _get(view, "preset")
        if preset != GAME_NAME:
            raise ValueError(f"view 'preset' is {preset!r}: expected {GAME_NAME!r} (a Bohemian Schneider view)")
        self.seat = seat = _seat(view, "seat")
        self.rules = _rules(view)
        self.phase = _phase(view)
        self.dealer = _seat(view, "dealer")
        self.leader = _seat(view, "leader") if self.phase == PLAY else -1  # a view shows -1 once over
        self.hands, self.drawn = [0, 0], [0, 0]
        self.hands[seat] = _cards(_get(view, "hand"), "'hand'")
        self.drawn[seat] = _cards(_get(view, "my_draws"), "'my_draws'")
        self.played = [_cards(c, f"'played'[{s}]") for s, c in enumerate(_pair(view, "played"))]
        self.won = [_cards(c, f"'won'[{s}]") for s, c in enumerate(_pair(view, "won"))]
        self.trick = _trick(_get(view, "trick"))
        self.pile = range(as_int(_get(view, "pile_size"), "view 'pile_size'", 0, PILE_SIZE))
        self.tricks = _list(view, "tricks", TRICKS_PER_ROUND)
        self.points = [
            as_int(p, f"view 'round_points'[{s}]", 0, ROUND_POINTS) for s, p in enumerate(_pair(view, "round_points"))
        ]
        top = MAX_ROUND_SCORE * self.rules.num_rounds
        self.scores = [as_int(p, f"view 'scores'[{s}]", 0, top) for s, p in enumerate(_pair(view, "scores"))]
        self.rounds_played = as_int(_get(view, "rounds_played"), "view 'rounds_played'", 0, self.rules.num_rounds)

    def round_points(self, seat: int) -> int:
        return self.points[seat]


def _get(view: Mapping[str, Any], key: str) -> Any:
    """``view[key]``; a missing key is named with the keys a view must hold."""
    if key not in view:
        raise ValueError(f"view has no {key!r}: expected a player_view dict with {_VIEW_KEYS}")
    return view[key]


def _seat(view: Mapping[str, Any], key: str) -> int:
    return as_int(_get(view, key), f"view {key!r}", 0, NUM_PLAYERS - 1)


def _rules(view: Mapping[str, Any]) -> SchneiderRules:
    """The match length, checked as the engine checks it (an even number of rounds)."""
    try:
        return SchneiderRules(num_rounds=as_int(_get(view, "num_rounds"), "view 'num_rounds'", 2))
    except ValueError as err:
        raise ValueError(f"view 'num_rounds': {err}") from None


def _phase(view: Mapping[str, Any]) -> int:
    phase = _get(view, "phase")
    if phase not in PHASE_NAMES:
        raise ValueError(f"view 'phase' is {phase!r}: expected one of {', '.join(map(repr, PHASE_NAMES))}")
    return PHASE_NAMES.index(phase)


def _list(view: Mapping[str, Any], key: str, most: int) -> list[Any] | tuple[Any, ...]:
    """``view[key]`` if it is a list of at most ``most`` entries (JSON turns tuples into lists)."""
    value = _get(view, key)
    if isinstance(value, str) or not isinstance(value, list | tuple) or len(value) > most:
        raise ValueError(f"view {key!r} is {value!r}: expected a list of at most {most} entries")
    return value


def _pair(view: Mapping[str, Any], key: str) -> list[Any] | tuple[Any, ...]:
    """``view[key]`` if it holds one entry per seat (absolute seats, as :func:`player_view` lists them)."""
    value = _get(view, key)
    if isinstance(value, str) or not isinstance(value, list | tuple) or len(value) != NUM_PLAYERS:
        raise ValueError(f"view {key!r} is {value!r}: expected a list of {NUM_PLAYERS} entries, one per seat")
    return value


def _cards(names: Any, what: str) -> int:
    """Bit mask of a list of card names from the 32-card deck; ``what`` names the part for errors."""
    if isinstance(names, str) or not isinstance(names, list | tuple):
        raise ValueError(f"view {what} is {names!r}: expected a list of card names such as ['7S', 'TH']")
    try:
        mask = mask_of(parse_cards(names))
    except ValueError as err:
        raise ValueError(f"view {what}: {err}") from None
    if mask & ~DECK_MASK:
        strays = ", ".join(card_names(mask & ~DECK_MASK))
        raise ValueError(f"view {what} holds {strays}: expected cards of the 32-card deck (7..A of C D H S)")
    return mask


def _trick(trick: Any) -> list[tuple[int, int]]:
    """The led card on the table as ``[(seat, card id)]``: empty, or one ``(seat, name)`` pair."""
    expected = "expected [] or [[seat, card]], the led card while the follower is on turn, e.g. [[1, '8S']]"
    if isinstance(trick, str) or not isinstance(trick, list | tuple) or len(trick) > 1:
        raise ValueError(f"view 'trick' is {trick!r}: {expected}")
    out = []
    for play in trick:
        if isinstance(play, str) or not isinstance(play, list | tuple) or len(play) != 2:
            raise ValueError(f"view 'trick' holds {play!r}: {expected}")
        seat = as_int(play[0], "view 'trick' seat", 0, NUM_PLAYERS - 1)
        card = _cards([play[1]], "'trick' card").bit_length() - 1
        out.append((seat, card))
    return out
