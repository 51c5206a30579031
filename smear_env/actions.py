"""The one action space shared by every Smear preset, and move notation.

Every phase draws from the same ``Discrete(NUM_ACTIONS)`` space, laid out in
blocks so an action id means the same move in every preset:

=========  =====  ==========================================
ids        count  move (label)
=========  =====  ==========================================
0          1      ``pass`` (bidding)
1..11      11     ``bid N`` for N = 1..11 (smudge is ``bid 5`` in pitch_smudge; ``smudge`` parses too)
12         1      ``bid moon`` (shoot the moon)
13         1      ``misdeal`` (call a misdeal at your bidding turn)
14..17     4      ``trump C`` / ``trump D`` / ``trump H`` / ``trump S``
18..71     54     ``call <card>``: the bidder calls a partner's card (card id + 18)
72..125    54     ``discard <card>`` (card id + 72)
126        1      ``done``: stop exchanging cards (schmier's redraw)
127..180   54     ``play <card>`` (card id + 127)
=========  =====  ==========================================

Card ids are those of :mod:`smear_env.cards` (``play TH``, ``discard JK2``).
"""

from __future__ import annotations

from typing import Any

from smear_env.cards import SUITS, format_card, parse_card
from smear_env.checks import as_int

PASS = 0
BID_BASE = 0  # bid N is action BID_BASE + N
MAX_BID_ACTION = 11
MOON = 12
MISDEAL = 13
TRUMP_BASE = 14
CALL_BASE = 18
DISCARD_BASE = 72
DONE = 126
PLAY_BASE = 127
NUM_ACTIONS = 181

#: internal bid value of a moon bid: above every number
MOON_BID = 12


def format_action(action: int) -> str:
    """Move label of an action id, e.g. ``bid 4``, ``trump H``, ``play AS``; ``ValueError`` for anything else."""
    action = as_int(action, "action", 0, NUM_ACTIONS - 1)
    if action == PASS:
        return "pass"
    if action <= MAX_BID_ACTION:
        return f"bid {action}"
    if action == MOON:
        return "bid moon"
    if action == MISDEAL:
        return "misdeal"
    if action < CALL_BASE:
        return f"trump {SUITS[action - TRUMP_BASE]}"
    if action < DISCARD_BASE:
        return f"call {format_card(action - CALL_BASE)}"
    if action < DONE:
        return f"discard {format_card(action - DISCARD_BASE)}"
    if action == DONE:
        return "done"
    return f"play {format_card(action - PLAY_BASE)}"


_CARD_VERBS = {"call": CALL_BASE, "discard": DISCARD_BASE, "play": PLAY_BASE}
_WORDS = {"pass": PASS, "misdeal": MISDEAL, "done": DONE, "moon": MOON, "smudge": 5}


def parse_action(text: str, rules: Any = None) -> int:
    """Action id of a move label (case-insensitive): ``pass``, ``bid 4``, ``trump h``, ``play 10s``.

    ``smudge`` is the top numeric bid of ``rules`` (``bid 5`` in pitch_smudge, the bid when no rules are given);
    with rules that have no smudge bid it is refused rather than read as an ordinary bid.
    """
    if not isinstance(text, str):
        raise ValueError(f"move {text!r} is not text: expected a label such as 'pass', 'bid 4' or 'play TH'")
    words = text.strip().lower().split()
    if words in (["smudge"], ["bid", "smudge"]) and rules is not None:
        if not rules.smudge_bid:
            raise ValueError(f"{text!r}: these rules have no smudge bid (smudge_bid is false): expected bid N or pass")
        return BID_BASE + rules.top_bid
    if len(words) == 1 and words[0] in _WORDS:
        return _WORDS[words[0]]
    if len(words) == 2:
        verb, arg = words
        if verb == "bid":
            if arg in ("moon", "smudge"):
                return _WORDS[arg]
            if arg.isascii() and arg.isdigit() and 1 <= int(arg) <= MAX_BID_ACTION:
                return BID_BASE + int(arg)
        elif verb == "trump" and len(arg) == 1 and arg.upper() in SUITS:
            return TRUMP_BASE + SUITS.index(arg.upper())
        elif verb in _CARD_VERBS:
            return _CARD_VERBS[verb] + parse_card(arg)
    raise ValueError(
        f"{text!r} is not a move: expected pass, bid N (1..11), bid moon, misdeal, trump C/D/H/S, "
        "call <card>, discard <card>, done or play <card>"
    )
