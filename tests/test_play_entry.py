"""What a person types at the table: every accepted form of a move, commands, and the reason for a refusal.

Scripted deals from the rules tests (card strings) are played on the engine to the
moment of interest; then the person takes a seat and types. A refused entry gets a
one-line reason and leaves the game exactly as it was.
"""

from __future__ import annotations

from typing import Any

import pytest

from agents.base import Agent
from smear_env import actions as A
from smear_env.cards import parse_card
from smear_env.game import Game
from smear_env.schneider import Deal as SchneiderDeal
from smear_env.schneider import Game as SchneiderGame
from smear_rl.play.entry import Entry, ordered_moves, read_entry
from smear_rl.play.events import PartnerCalled, PickedUp
from smear_rl.play.games import load_kind
from smear_rl.play.session import Session
from tests.rules import test_joker_follows_trump, test_schmier, test_ten_point, test_ten_point_5p
from tests.scripted import discard_down, play, play_tricks


class FirstLegal(Agent):
    """Plays the first legal move (in the bidding: pass)."""

    def act(self, view: dict[str, Any], observation: Any = None) -> int:
        return self.legal_actions(view)[0]


def seated(game: Game | SchneiderGame, seat: int, **overrides: object) -> Session:
    """The person at ``seat`` of ``game`` as it stands; first-legal bots elsewhere."""
    kind = load_kind(game.rules.name, overrides=dict(overrides))
    bots = [None if s == seat else FirstLegal() for s in range(kind.num_players)]
    return Session(kind, seat, bots, seed=0, game=game)


def read(session: Session, text: str) -> Entry:
    return read_entry(text, session.view, session.kind)


def refused(session: Session, text: str) -> str:
    """Why ``text`` is refused (read, then checked move by move); the game must not have changed."""
    before = session.game.record()
    with pytest.raises(ValueError) as err:
        session.check(read(session, text).actions)
    assert session.game.record() == before
    message = str(err.value)
    assert "\n" not in message
    return message


def labels(session: Session, actions: tuple[int, ...] | list[int]) -> list[str]:
    return [session.kind.format_action(a) for a in actions]


def ten_point(**overrides: object) -> Game:
    """ten_point's main scripted deal: seat 1 bids first (seat 0 deals)."""
    return test_ten_point.deal(test_ten_point.KEEPS, **overrides)


def ten_point_discarding() -> Session:
    """Seat 1 has bid 4, named hearts and taken the 14-card stock: 24 cards, 18 to discard."""
    game = ten_point()
    play(game, "bid 4, pass, pass, pass, trump H")
    return seated(game, 1)


def ten_point_trick(number: int, cards: str, seat: int, **overrides: object) -> Session:
    """ten_point's main hand played to trick ``number`` with ``cards`` already on the table; ``seat`` to play."""
    game = ten_point(**overrides)
    play(game, "bid 4, pass, pass, pass, trump H")
    discard_down(game, test_ten_point.KEEPS)
    play_tricks(game, test_ten_point.TRICKS[: number - 1])
    play(game, ", ".join(f"play {c}" for c in cards.split()))
    session = seated(game, seat, **overrides)
    assert session.my_turn
    return session


# ---------------------------------------------------------------------- commands


def test_commands_and_their_arguments() -> None:
    session = seated(ten_point(), 1)
    assert read(session, "hint") == Entry(command="hint")
    assert read(session, " HELP ") == Entry(command="help")
    assert read(session, "?") == Entry(command="help")
    assert read(session, "q") == Entry(command="quit")
    assert read(session, "save my game.json") == Entry(command="save", argument="my game.json")
    with pytest.raises(ValueError, match="save needs a file name"):
        read(session, "save")
    with pytest.raises(ValueError, match="help takes nothing after it"):
        read(session, "help me")
    with pytest.raises(ValueError, match="type a move"):
        read(session, "   ")


# ---------------------------------------------------------------------- bidding and trump


def test_bids_by_notation_by_number_and_in_list_order() -> None:
    session = seated(ten_point(), 1)
    assert labels(session, ordered_moves(session.view, session.kind)) == ["pass"] + [f"bid {n}" for n in range(4, 11)]
    assert read(session, "bid 4").actions == (A.BID_BASE + 4,)
    assert read(session, "PASS").actions == (A.PASS,)
    assert read(session, "1").actions == (A.PASS,)
    assert read(session, "8").actions == (A.BID_BASE + 10,)


@pytest.mark.parametrize(
    "text,reason",
    [
        ("bid 3", "bid 3: the lowest bid is 4"),
        ("bid 11", "bid 11: the highest bid is 10"),
        ("bid moon", "bid moon: these rules have no moon bid"),
        ("misdeal", "misdeal: these rules have no misdeal"),
        ("play AS", "play AS: it is the bidding now"),
        ("AS", "AS: it is the bidding now, not a card"),
        ("0", "there is no move 0: choose a number from 1 to 8"),
        ("9", "there is no move 9: choose a number from 1 to 8"),
        ("xyzzy", "'xyzzy' is not a move: type a move like 'pass'"),
        ("trump H", "trump H: it is the bidding now"),
    ],
)
def test_refused_bids_say_why(text: str, reason: str) -> None:
    with pytest.raises(ValueError) as err:
        read(seated(ten_point(), 1), text)
    assert str(err.value).startswith(reason)


def test_a_bid_must_beat_the_high_bid() -> None:
    game = ten_point()
    play(game, "bid 6")
    session = seated(game, 2)
    with pytest.raises(ValueError, match="bid 5: a bid must beat the high bid of 6"):
        read(session, "bid 5")
    with pytest.raises(ValueError, match="bid 6: a bid must beat the high bid of 6"):
        read(session, "bid 6")


def test_the_dealer_may_take_the_bid_and_smudge_is_a_bid() -> None:
    game = Game("pitch_smudge", seed=3)
    play(game, "bid 3, pass, pass")  # seats 1, 2, 3; seat 0 deals and bids last
    session = seated(game, 0)
    assert read(session, "bid 3").actions == (A.BID_BASE + 3,)
    assert read(session, "smudge").actions == (A.BID_BASE + 5,)
    with pytest.raises(ValueError, match="bid 2: the dealer may take the bid at 3 or bid more, not less"):
        read(session, "bid 2")
    with pytest.raises(ValueError, match=r"bid 6: the highest bid is 5 \(smudge\)"):
        read(session, "bid 6")


def test_the_dealer_must_bid_when_all_others_pass() -> None:
    game = Game("pitch_smudge", seed=3)
    play(game, "pass, pass, pass")
    with pytest.raises(ValueError, match="pass: the dealer must bid when everyone else has passed"):
        read(seated(game, 0), "pass")


def test_trump_by_letter_symbol_word_or_notation() -> None:
    game = ten_point()
    play(game, "bid 4, pass, pass, pass")
    session = seated(game, 1)
    for text in ("H", "h", "♥", "hearts", "Hearts", "trump H", "trump ♥", "3"):
        assert read(session, text).actions == (A.TRUMP_BASE + 2,), text


# ---------------------------------------------------------------------- discards


def test_discards_one_at_a_time_several_at_once_or_by_keeping() -> None:
    session = ten_point_discarding()
    hand = session.view["hand"]
    assert len(hand) == 24
    keep = test_ten_point.KEEPS[1].split()
    by_keeping = read(session, "keep " + " ".join(keep)).actions
    assert sorted(by_keeping) == sorted(A.DISCARD_BASE + parse_card(c) for c in hand if c not in keep)
    filler = [c for c in hand if c not in keep]
    assert (
        read(session, f"discard {filler[0]} {filler[1]}").actions == read(session, f"{filler[1]} {filler[0]}").actions
    )
    assert read(session, filler[0].lower()).actions == (A.DISCARD_BASE + parse_card(filler[0]),)
    session.play(by_keeping)
    assert sorted(session.view["hand"]) == sorted(keep)
    assert not session.my_turn


def test_discards_that_are_refused_say_why() -> None:
    session = ten_point_discarding()
    filler = [c for c in session.view["hand"] if c not in test_ten_point.KEEPS[1].split()]
    with pytest.raises(ValueError, match="keep: name the 6 cards you play with, not 2"):
        read(session, "keep JD 5H")
    with pytest.raises(ValueError, match="discard: you do not hold QH"):
        read(session, f"discard QH {filler[0]}")
    with pytest.raises(ValueError, match="discard: 'ZZ' is not a card"):
        read(session, f"discard {filler[0]} ZZ")
    with pytest.raises(ValueError, match="discard: a card is named twice"):
        read(session, f"discard {filler[0]} {filler[0]}")
    assert refused(session, f"discard 5H {filler[0]}") == (
        "discard 5H: a trump may be discarded only when you hold nothing else"
    )
    keep_no_trumps = " ".join(filler[:4] + ["TS", "2C"])  # so trumps must go while non-trumps stay
    assert "a trump may be discarded only when you hold nothing else" in refused(session, f"keep {keep_no_trumps}")


@pytest.mark.parametrize(
    ("text", "meant"), [("discrad {card}", "discard {card}"), ("dicsard {card}", "discard {card}"), ("kep", "keep"),
                        ("hnit", "hint"), ("scroe", "score")],
)  # fmt: skip
def test_a_misspelt_word_is_answered_with_the_closest_move_or_command(text: str, meant: str) -> None:
    session = ten_point_discarding()
    card = [c for c in session.view["hand"] if c not in test_ten_point.KEEPS[1].split()][0]
    with pytest.raises(ValueError, match=f"is not a move \\(did you mean '{meant.format(card=card)}'\\?\\)"):
        read(session, text.format(card=card))
    with pytest.raises(ValueError, match="'xyzzy 7C' is not a move: type a move like"):
        read(session, "xyzzy 7C")  # nothing close: no guess


def test_discards_past_the_turn_are_refused_whole() -> None:
    game = ten_point()
    play(game, "bid 4, pass, pass, pass, trump H")
    discard_down(game, [None, test_ten_point.KEEPS[1], None, None])
    session = seated(game, 2)  # 10 cards: 4 to discard
    filler = [c for c in session.view["hand"] if c not in test_ten_point.KEEPS[2].split()]
    assert refused(session, "discard " + " ".join(filler + ["TC"])) == "your turn ends after 4 of those 5 moves"


def test_redraw_exchanges_only_non_trumps_then_done() -> None:
    game = test_schmier.deal(test_schmier.HANDS)
    play(game, "bid 3, pass, pass, pass, pass, pass, trump H")
    session = seated(game, 1)  # holds AH 3H JS TC 3D 5H
    assert refused(session, "AH") == "discard AH: only cards that are not trumps may be exchanged"
    with pytest.raises(ValueError, match="keep: in the redraw, name the cards to exchange"):
        read(session, "keep AH 3H JS TC 3D 5H")
    events = session.play(read(session, "JS TC").actions)
    assert [(e.count, sorted(e.cards)) for e in events] == [(2, ["JS", "TC"])]
    events = session.play(read(session, "done").actions)
    mine = [e for e in events if isinstance(e, PickedUp) and e.seat == 1]
    assert [(e.source, e.count, len(e.cards)) for e in mine] == [("stock", 2, 2)]
    assert set(mine[0].cards) <= set(session.view["hand"])


# ---------------------------------------------------------------------- calling and playing


def test_calling_a_partner_card() -> None:
    game = test_ten_point_5p.deal(test_ten_point_5p.KEEPS)
    play(game, f"bid 4, {test_ten_point_5p.PASSES}, trump H")
    session = seated(game, 1)  # holds JD 6H 8H ...
    assert read(session, "KH").actions == (A.CALL_BASE + parse_card("KH"),)
    assert refused(session, "call 6H") == "call 6H: you hold 6H: call a trump you do not hold"
    assert refused(session, "call 3H") == "call 3H: the 3 of trump may not be called"
    assert refused(session, "call 9C").startswith("call 9C: call a trump card")
    events = session.play(read(session, "KH").actions)
    assert events == [PartnerCalled(1, "KH", 3)]


def test_cards_by_name_symbol_and_ten() -> None:
    session = ten_point_trick(1, "", 1)  # seat 1 leads the first trick and must lead a trump
    for text in ("JD", "jd", "J♦", "play JD", "play j♦"):
        assert read(session, text).actions == (A.PLAY_BASE + parse_card("JD"),), text
    assert refused(session, "TS") == "play TS: the first lead must be a trump"
    assert refused(session, "10S") == "play TS: the first lead must be a trump"
    with pytest.raises(ValueError, match="one card at a time: it is time to play a card"):
        read(session, "JD 5H")
    with pytest.raises(ValueError, match="play AS: you do not hold AS"):
        read(session, "A♠")


def test_a_card_that_does_not_follow_gets_the_rule() -> None:
    session = ten_point_trick(5, "AS TS", 2)  # seat 2 holds 2S TC: spades led
    assert refused(session, "TC") == "play TC: you must follow spades or play a trump"
    strict = ten_point_trick(5, "AS TS", 2, follow="strict")
    assert refused(strict, "TC") == "play TC: you must follow spades"


def test_a_trump_lead_must_be_followed_with_trump() -> None:
    session = ten_point_trick(1, "JD", 2)  # seat 2 holds 3H 6H 8H 9H 2S TC
    assert refused(session, "2S") == "play 2S: you must follow trumps"


def test_a_trump_lead_is_answered_with_a_trump_or_a_joker_under_joker_follows_trump() -> None:
    game = test_joker_follows_trump.house_game()
    play_tricks(game, ["AC 3C KC 7C"])
    play(game, "play AH, play 2H")
    session = seated(game, 3, **test_joker_follows_trump.HOUSE)  # holds JK2 and no trump
    assert refused(session, "QC") == "play QC: you must follow trumps or play a joker"


def test_the_called_card_goes_to_the_first_trick() -> None:
    game = test_ten_point_5p.deal(test_ten_point_5p.KEEPS)
    play(game, f"bid 4, {test_ten_point_5p.PASSES}, trump H, call KH")
    discard_down(game, test_ten_point_5p.KEEPS)
    play(game, "play JD, play 3H")
    session = seated(game, 3)  # the partner holds the KH
    assert refused(session, "JK") == "play JK: you hold the called card KH: play it to the first trick"


def test_schneider_cards() -> None:
    deal = SchneiderDeal.parse(
        ["7S 8S 9S TS JS QS", "7H 8H 9H TH JH QH"],
        "KS AS KH AH 7C 8C 9C TC JC QC KC AC 7D 8D 9D TD JD QD KD AD",
    )
    session = seated(SchneiderGame(deals=[deal]), 1)  # the non-dealer leads
    for text in ("8H", "play 8h", "8♥", "5"):
        assert read(session, text).actions == (parse_card("8H"),), text
    assert labels(session, ordered_moves(session.view, session.kind))[0] == "play QH"
    with pytest.raises(ValueError, match="play 8S: you do not hold 8S"):
        read(session, "8S")
