"""What a person types at the table, read as a command or as moves, and why a move is refused.

A move may be typed in notation (``play AS``, ``bid 4``, ``trump H``), as a bare
card (``AS`` means ``play AS``, ``discard AS`` or ``call AS`` as the phase
implies), as a bare suit while naming trump, or as its number in the list of
legal moves. Suit symbols (``A♠``) and ``10`` for the ten are read too. While
discarding, several cards may go at once (``discard 7C 8D``, ``7C 8D``) or the
cards to hold on to (``keep AH KH QH JH 2H 3C``). Anything else raises a
``ValueError`` whose message is one line saying what was wrong, for a person to
read; :func:`why_illegal` explains a well-formed move that the rules refuse.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from smear_env import actions as A
from smear_env.cards import SUITS, format_card, parse_card
from smear_env.rules import Rules
from smear_env.trump import trump_table
from smear_rl.play.games import GameKind, SmearKind
from smear_rl.play.hand import sort_cards

#: what a person may type besides moves, with its help line
COMMANDS = {
    "hint": "what the hint bot would play, with its probabilities or values",
    "score": "the match score, this hand's bid and tricks so far",
    "last": "the last trick played",
    "show": "the table again: scores, bids, trump, the trick, your hand",
    "save": "save FILE: write the game record so far (JSON that smear_env.replay rebuilds)",
    "help": "this help",
    "quit": "leave the game (the record is kept with --record or save)",
}
ALIASES = {"?": "help", "q": "quit", "exit": "quit"}  # no one-letter alias that is a suit

SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}
SUIT_WORDS = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}

#: the phase each kind of move belongs to, and how a person would name that phase
_MOVE_PHASE = {"pass": "bid", "bid": "bid", "misdeal": "bid", "trump": "trump", "call": "call"}
_MOVE_PHASE |= {"discard": "discard", "done": "discard", "play": "play"}
PHASE_DOING = {
    "bid": "the bidding",
    "trump": "time to name trump",
    "call": "time to call a partner's card",
    "discard": "time to discard",
    "play": "time to play a card",
    "over": "the end of the match",
}
_CARD_VERB = {"play": "play", "discard": "discard", "call": "call"}


@dataclass(frozen=True)
class Entry:
    """One line typed at the table: a command (with its argument) or the moves to make, in order."""

    command: str = ""  # one of COMMANDS, or "" for moves
    argument: str = ""
    actions: tuple[int, ...] = ()


def read_entry(text: str, view: dict[str, Any], kind: GameKind) -> Entry:
    """Read ``text`` typed by the player whose ``view`` this is; ``ValueError`` with a one-line reason if bad.

    The moves returned are legal as far as the view can tell for the first one;
    a run of discards is checked move by move by the session.
    """
    words = normalise(text).split()
    if not words:
        raise ValueError("type a move, its number in the list, or help")
    head = ALIASES.get(words[0].lower(), words[0].lower())
    if head in COMMANDS:
        rest = text.strip()[len(text.strip().split()[0]) :].strip()
        if head == "save" and not rest:
            raise ValueError("save needs a file name: save FILE")
        if head != "save" and rest:
            raise ValueError(f"{head} takes nothing after it")
        return Entry(command=head, argument=rest)
    legal = ordered_moves(view, kind)
    if len(words) == 1 and words[0].isdigit():
        number = int(words[0])
        if not 1 <= number <= len(legal):
            raise ValueError(f"there is no move {number}: choose a number from 1 to {len(legal)}")
        return Entry(actions=(legal[number - 1],))
    actions = _moves(words, view, kind)
    if len(actions) == 1 and actions[0] not in legal:
        raise ValueError(why_illegal(kind, view, actions[0]))
    return Entry(actions=tuple(actions))


def ordered_moves(view: dict[str, Any], kind: GameKind) -> list[int]:
    """The legal moves as they are listed and numbered: bids and other words first, cards as the hand shows them.

    Cards follow :func:`~smear_rl.play.hand.sort_cards` (trumps first, then suit by suit,
    highest first), so the list reads like the hand; ``done`` comes last.
    """
    legal = view["legal_actions"]
    labels = {action: kind.format_action(action).partition(" ") for action in legal}
    cards = [arg for verb, _, arg in labels.values() if verb in _CARD_VERB]
    rules = kind.rules if isinstance(kind, SmearKind) else None
    place = {card: i for i, card in enumerate(sort_cards(cards, rules, view.get("trump")))}

    def key(action: int) -> tuple[int, int]:
        verb, _, arg = labels[action]
        if verb in _CARD_VERB:
            return 1, place[arg]
        return (2 if verb == "done" else 0), action

    return sorted(legal, key=key)


def normalise(text: str) -> str:
    """Suit symbols and suit names as their letters: ``A♠`` -> ``AS``, ``trump hearts`` -> ``trump H``."""
    for symbol, letter in SUIT_SYMBOLS.items():
        text = text.replace(symbol, letter)
    return " ".join(SUIT_WORDS.get(word.lower(), word) for word in text.split())


def _moves(words: list[str], view: dict[str, Any], kind: GameKind) -> list[int]:
    """The moves ``words`` name, by notation first, then by what the phase implies."""
    phase = view["phase"]
    verb = words[0].lower()
    if (
        isinstance(kind, SmearKind)
        and phase == "discard"
        and (verb == "keep" or (verb == "discard" and len(words) > 2))
    ):
        return _discards(words, view, kind)
    try:
        return [kind.parse_action(" ".join(words))]
    except ValueError:
        pass
    if len(words) == 1 and phase == "trump" and words[0].upper() in SUITS:
        return [A.TRUMP_BASE + SUITS.index(words[0].upper())]
    cards = _cards(words)
    if cards is not None and phase not in _CARD_VERB:
        raise ValueError(f"{' '.join(words)}: it is {PHASE_DOING[phase]} now, not a card")
    if cards is not None:
        if len(cards) > 1 and phase != "discard":
            raise ValueError(f"one card at a time: it is {PHASE_DOING[phase]}")
        if phase == "discard":
            return _discards(["discard", *words], view, kind)
        return [kind.parse_action(f"{_CARD_VERB[phase]} {words[0]}")]
    example = kind.format_action(view["legal_actions"][0])
    raise ValueError(
        f"{' '.join(words)!r} is not a move{_did_you_mean(words)}: type a move like '{example}', "
        "its number in the list, or help"
    )


#: the words a line may start with: every kind of move, keep, and the commands
FIRST_WORDS = sorted({*_MOVE_PHASE, "keep", *COMMANDS})


def _did_you_mean(words: list[str]) -> str:
    """`` (did you mean 'discard 7C'?)`` when the first word is a near miss of a move's or a command's word."""
    first = words[0].lower()
    close = difflib.get_close_matches(first, FIRST_WORDS, n=1, cutoff=0.6)
    if not close or first in FIRST_WORDS:
        return ""
    return f" (did you mean {' '.join([close[0], *words[1:]])!r}?)"


def _cards(words: list[str]) -> list[int] | None:
    """Every word as a card, or None when one is not a card."""
    try:
        return [parse_card(word) for word in words]
    except ValueError:
        return None


def _discards(words: list[str], view: dict[str, Any], kind: GameKind) -> list[int]:
    """``discard C1 C2 ...`` or ``keep C1 C2 ...`` as discard moves, non-trumps first."""
    rules: Rules = kind.rules
    verb, names = words[0].lower(), words[1:]
    cards = _cards(names)
    if cards is None or not cards:
        bad = next((n for n in names if _cards([n]) is None), "nothing")
        raise ValueError(f"{verb}: {bad!r} is not a card (cards are like AS, 10H, JK)")
    if len(set(cards)) != len(cards):
        raise ValueError(f"{verb}: a card is named twice")
    hand = set(view["hand"])
    missing = [format_card(c) for c in cards if format_card(c) not in hand]
    if missing:
        raise ValueError(f"{verb}: you do not hold {' '.join(missing)}")
    names = [format_card(c) for c in cards]
    if verb == "keep":
        if rules.stock_use == "redraw":
            raise ValueError("keep: in the redraw, name the cards to exchange (discard 7C 8D), then done")
        if len(names) != rules.play_hand_size:
            raise ValueError(f"keep: name the {rules.play_hand_size} cards you play with, not {len(names)}")
        names = [c for c in view["hand"] if c not in names]
    ordered = sort_cards(names, rules, view["trump"])  # trumps first, highest first: discard from the back
    return [A.DISCARD_BASE + parse_card(c) for c in reversed(ordered)]


def why_illegal(kind: GameKind, view: dict[str, Any], action: int) -> str:
    """One line saying why ``action`` is not a legal move for the player whose ``view`` this is."""
    label = kind.format_action(action)
    if view["current_player"] != view["seat"]:
        return f"{label}: it is not your turn"
    if not isinstance(kind, SmearKind):
        card = label.split()[-1]
        return f"{label}: you do not hold {card}" if card not in view["hand"] else f"{label} is not legal now"
    verb = label.split()[0]
    phase = view["phase"]
    if _MOVE_PHASE[verb] != phase:
        return f"{label}: it is {PHASE_DOING[phase]} now"
    reason = {"bid": _bid_reason, "trump": None, "call": _call_reason, "discard": _discard_reason}
    explain = reason.get(phase, _play_reason)
    return f"{label}: {explain(kind.rules, view, action) if explain else 'not legal now'}"


def _bid_reason(rules: Rules, view: dict[str, Any], action: int) -> str:
    high = view["high_bid"]
    if action == A.PASS:
        return "the dealer must bid when everyone else has passed"
    if action == A.MISDEAL:
        return "a misdeal needs a hand of only 3s to 9s" if rules.misdeal_call else "these rules have no misdeal"
    if action == A.MOON:
        return "these rules have no moon bid" if not rules.moon_bid else "the moon has already been bid"
    bid = action - A.BID_BASE
    if high == A.MOON_BID:
        return "the moon has been bid: only pass is left"
    if bid > rules.top_bid:
        return f"the highest bid is {rules.top_bid}" + (" (smudge)" if rules.smudge_bid else "")
    if bid < rules.min_bid:
        return f"the lowest bid is {rules.min_bid}"
    if view["seat"] == view["dealer"] and rules.dealer_steals:
        return f"the dealer may take the bid at {high} or bid more, not less"
    return f"a bid must beat the high bid of {high}"


def _call_reason(rules: Rules, view: dict[str, Any], action: int) -> str:
    card = format_card(action - A.CALL_BASE)
    table = trump_table(rules, SUITS.index(view["trump"]))
    if card in view["hand"]:
        return f"you hold {card}: call a trump you do not hold"
    if action - A.CALL_BASE == table.three:
        return "the 3 of trump may not be called"
    if action - A.CALL_BASE not in rules.deck:
        return f"{card} is not in this deck"
    return f"call a trump card ({SUIT_NAMES[view['trump']]}, the Jick or a joker)"


def _discard_reason(rules: Rules, view: dict[str, Any], action: int) -> str:
    in_redraw = rules.stock_use == "redraw" and view["seat"] != view["dealer"]
    if action == A.DONE:
        return f"discard until you hold {rules.play_hand_size} cards"
    card_id = action - A.DISCARD_BASE
    card = format_card(card_id)
    if card not in view["hand"]:
        return f"you do not hold {card}"
    table = trump_table(rules, SUITS.index(view["trump"]) if view["trump"] else -1)
    is_trump = bool(table.trump_mask >> card_id & 1)
    if in_redraw:
        if len(view["my_discards"]) >= rules.redraw_limit:
            return f"you have exchanged {rules.redraw_limit} cards, the most allowed: type done"
        return "only cards that are not trumps may be exchanged"
    if view["called_card"] == card:
        return "the called card must be played to the first trick"
    if is_trump and table.protected >> card_id & 1:
        return f"{card} may never be discarded under these rules"
    if is_trump:
        return "a trump may be discarded only when you hold nothing else"
    return "not legal now"


def _play_reason(rules: Rules, view: dict[str, Any], action: int) -> str:
    card_id = action - A.PLAY_BASE
    card = format_card(card_id)
    if card not in view["hand"]:
        return f"you do not hold {card}"
    trick, first_trick = view["trick"], not view["tricks"]
    if first_trick and view["called_card"] in view["hand"]:
        return f"you hold the called card {view['called_card']}: play it to the first trick"
    if not trick:
        if first_trick and rules.first_lead == "trump":
            return "the first lead must be a trump"
        if first_trick and rules.first_lead_no_joker and view["trump"] is None:
            return "a joker may not be led to set trump"
        return "not legal now"
    table = trump_table(rules, SUITS.index(view["trump"]) if view["trump"] else -1)
    led = SUITS[table.effective_suit[parse_card(trick[0][1])]]
    if led == view["trump"]:
        return "you must follow trumps or play a joker" if rules.joker_follows_trump else "you must follow trumps"
    if rules.follow == "strict":
        return f"you must follow {SUIT_NAMES[led]}"
    return f"you must follow {SUIT_NAMES[led]} or play a trump"
