"""How the terminal table looks: suits by symbol and colour (or letters), names and verbs, tables, hints."""

from __future__ import annotations

import io

import pytest
from rich.console import Console, RenderableType

from agents.base import Decision
from agents.registry import make_agent
from smear_env import actions as A
from smear_env.game import Game
from smear_env.scoring import HandResult
from smear_rl import cli
from smear_rl.play.breakdown import hand_breakdown
from smear_rl.play.events import Bid, Discarded, PickedUp, Played, TrickWon, TrumpNamed
from smear_rl.play.games import load_kind
from smear_rl.play.render import SUIT_STYLES, Glyphs, Presenter
from smear_rl.play.session import Session
from tests.rules import test_ten_point
from tests.scripted import play


def text_of(renderable: RenderableType, width: int = 100) -> str:
    out = io.StringIO()
    Console(file=out, width=width, color_system=None, force_terminal=False).print(renderable)
    return out.getvalue()


def presenter(preset: str = "ten_point", seat: int = 0, ascii_only: bool = False) -> Presenter:
    kind = load_kind(preset)
    specs = ["human" if s == seat else "rule" for s in range(kind.num_players)]
    return Presenter(kind, seat, specs, Glyphs(ascii=ascii_only))


def seated(game: Game, seat: int) -> Session:
    kind = load_kind(game.rules.name)
    bots = [None if s == seat else make_agent("random", kind.rules, s) for s in range(kind.num_players)]
    return Session(kind, seat, bots, 0, game=game)


def test_cards_show_their_suit_by_symbol_and_colour_or_by_letter() -> None:
    unicode, ascii_only = presenter(), presenter(ascii_only=True)
    assert [unicode.card(c).plain for c in ("AS", "TH", "2D", "QC", "JK2")] == ["A♠", "10♥", "2♦", "Q♣", "JK2"]
    assert [ascii_only.card(c).plain for c in ("AS", "TH", "JK")] == ["AS", "10H", "JK"]
    assert len({unicode.card(c).style for c in ("AS", "AH", "AD", "AC")}) == 4  # four colours
    assert unicode.card("KH").style == SUIT_STYLES["H"]


def test_names_take_the_verb_that_agrees() -> None:
    p = presenter(seat=2)
    assert text_of(p.event(Bid(2, "pass"))).strip() == "You pass"
    assert text_of(p.event(Bid(1, "pass"))).strip() == "Seat 1 passes"
    assert text_of(p.event(Bid(3, "moon"))).strip() == "Seat 3 bids the moon"
    assert text_of(p.event(TrumpNamed(0, "H", False))).strip() == "Seat 0 names ♥ hearts trump"
    assert text_of(p.event(TrumpNamed(2, "S", True))).strip() == "You lead first: ♠ spades are trump"
    assert text_of(p.event(Discarded(1, 18))).strip() == "Seat 1 discards 18 cards"
    assert text_of(p.event(Discarded(2, 2, ("7C", "TD")))).strip() == "You discard 7♣ 10♦"
    assert text_of(p.event(PickedUp(3, "kitty", 4))).strip() == "Seat 3 takes the kitty (4 cards)"
    assert text_of(p.event(PickedUp(2, "stock", 2, ("AH", "2C")))).strip() == "You take 2 cards from the stock: A♥ 2♣"
    assert text_of(p.event(Played(1, "AS", 3, True))).strip() == "Seat 1 leads A♠"
    trick = TrickWon(3, ((1, "AS"), (2, "KS"), (3, "2S"), (0, "3H")), 0)
    assert text_of(p.event(trick)).strip() == "→ Seat 0 wins trick 3 with 3♥"


def test_the_breakdown_marks_each_category_under_the_side_that_took_it() -> None:
    game = test_ten_point.main_hand(5)
    b = hand_breakdown(game.hand_results[-1], game.rules, 1, game.scores)
    text = text_of(presenter(seat=0).breakdown(b))
    assert text.splitlines()[0] == "Hand 1: Seat 1 bid 5, ♥ trump, and made it"
    header = next(line for line in text.splitlines() if "worth" in line)
    ours, theirs = header.index("You & Seat 2"), header.index("Seat 1 & Seat 3 (bid)")
    for line in text.splitlines():
        label = line.strip("│ ").split(" ")[0]
        if label in ("High", "Jick", "Trey"):
            assert line.index("✓") > theirs, line
        if label in ("Low", "Jack", "Game"):
            assert ours < line.index("✓") < theirs, line
    assert "score change" in text and "Score: You & Seat 2 5   Seat 1 & Seat 3 5" in text


def test_the_hint_shows_values_or_probabilities() -> None:
    p = presenter()
    values = Decision(A.PLAY_BASE + 51, {A.PLAY_BASE + 51: 1.5, A.PLAY_BASE + 0: -0.25}, "value")
    text = text_of(p.hint(values, "search"))
    assert "search would play A♠" in text and "+1.50 points  <-" in text and "-0.25 points" in text
    chances = Decision(A.PASS, {A.PASS: 0.75, A.BID_BASE + 4: 0.25}, "probability")
    text = text_of(p.hint(chances, "ten_point.pt"))
    assert "ten_point.pt would pass" in text and "75%" in text and "25%" in text
    assert text_of(p.hint(Decision(A.TRUMP_BASE + 1), "rule")).strip() == "rule would trump ♦"


def test_the_hint_numbers_each_move_as_the_list_of_moves_does() -> None:
    session = seated(test_ten_point.deal(test_ten_point.KEEPS), 1)  # seat 1 bids first: pass, bid 4 .. bid 10
    chances = Decision(A.BID_BASE + 5, {A.BID_BASE + 5: 0.75, A.PASS: 0.25}, "probability")
    lines = text_of(presenter(seat=1).hint(chances, "neural", session.view)).splitlines()
    assert lines[0].strip() == "neural would bid 5 (move 3)"
    assert lines[2].split()[:3] == ["3", "bid", "5"] and lines[3].split()[:2] == ["1", "pass"]


def test_the_table_shows_trump_marked_and_what_the_phase_asks() -> None:
    game = test_ten_point.deal(test_ten_point.KEEPS)
    play(game, "bid 4, pass, pass, pass, trump H")
    session = seated(game, 1)
    p = presenter(seat=1)
    text = text_of(p.status(session.view, [PickedUp(1, "stock", 14, tuple(["AS"] * 14))]), width=160)
    assert "trump ♥: J♦ JK2 7♥ 5♥" in text
    assert "bid 4 by You" in text and "you took (stock)" in text
    assert "Your turn to discard 18 more cards (you play with 6)" in text_of(p.prompt_line(session.view))


def test_help_lists_every_command_and_the_play_subcommand_is_listed(capsys: pytest.CaptureFixture[str]) -> None:
    game = test_ten_point.deal(test_ten_point.KEEPS)
    session = seated(game, 1)
    text = text_of(presenter(seat=1).help(session.view), width=140)
    for command in ("hint", "score", "last", "show", "save", "help", "quit"):
        assert f"  {command} " in text
    assert "(bid 10)" in text
    cli.main(["--help"])
    assert "  play " in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["play", "--help"])
    assert exit_info.value.code == 0 and "--hint-bot" in capsys.readouterr().out


def test_a_category_nobody_took_says_why() -> None:
    rules = load_kind("ten_point").rules
    result = HandResult(
        2, 6, 3, [0, 1, 0, 1], {"high": 0, "jack": 1}, {0: 1, 1: 1}, {0: 20, 1: 20}, False, {0: 1, 1: -6}
    )
    text = text_of(presenter(seat=0).breakdown(hand_breakdown(result, rules, 3, [1, -6])), width=120)
    assert "Hand 3: Seat 2 bid 6, ♠ trump, and was set" in text
    assert "Low (not in play)" in text and "Game (tied: nobody)" in text
    assert "-6" in text.split("score change")[1].splitlines()[0]
