"""smear-rl play through whole matches: a scripted person answers the prompt in every accepted form.

The person's answers come from a rule bot looking at the person's own view, typed
in turn as a number, in notation, as a bare card, after a hint, after a bad entry
(which must get its one-line reason) and after a command. The console's file
checks every write against the game: no card hidden in another seat's hand, among
its discards or in the undealt cards ever shows before it is played. The match
reaches its end, the final scores shown equal the engine's, and the saved record
replays to the same game.
"""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from agents.registry import make_agent
from smear_env import actions as A
from smear_env.cards import mask_of, parse_card
from smear_rl.play.cli import build_game, main
from smear_rl.play.entry import ordered_moves
from smear_rl.play.games import replay_record
from smear_rl.play.session import Session
from smear_rl.play.terminal import PROMPT, SAVE_PROMPT, TerminalGame

CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])(?:(10|[2-9TJQKA])([CDHS♣♦♥♠])|(JK2?))(?![A-Za-z0-9])")
SYMBOL_LETTERS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def cards_shown(text: str) -> set[int]:
    """Card ids named in rendered text (``A♠``, ``AS``, ``10H``, ``JK2``)."""
    cards = set()
    for rank, suit, joker in CARD_TOKEN.findall(text):
        name = joker or rank + SYMBOL_LETTERS.get(suit, suit)
        cards.add(parse_card(name))
    return cards


class WatchedOutput(io.StringIO):
    """A console file that checks each write: it may name no card the person's seat cannot know.

    Hidden now: other seats' hands and discards, the kitty, the stock or pile. Text
    written after the game has moved on to the next deal (the last trick, the
    breakdown) is about the finished deal: there only cards never played stay hidden.
    """

    def __init__(self) -> None:
        super().__init__()
        self.session: Session | None = None
        self.shown_deal = -1  # deals whose "Your cards:" banner has been written, minus one
        self.snapshot: tuple[int, int, int, int] | None = None  # deal, hidden, others' hands, hands scored
        self.leaks: list[str] = []

    def write(self, text: str) -> int:
        if self.session is not None and "Commands:" not in text:  # the help's notation examples are no leak
            self._check(text)
        return super().write(text)

    def _check(self, text: str) -> None:
        session = self.session
        assert session is not None
        game = session.game
        if "Your cards:" in text:
            self.shown_deal += 1
        current = len(game.deals) - 1
        if self.snapshot is None or self.shown_deal == current:
            hidden, others = self._hidden(session)
            self.snapshot = (current, hidden, others, session.hands_played)
        else:
            deal, hidden, others, scored = self.snapshot
            assert deal == self.shown_deal
            if session.hands_played > scored:
                hidden &= ~others  # every card still held when play ended was played in the last tricks
        if session.my_turn and session.view["phase"] == "call":
            hidden &= ~mask_of(a - A.CALL_BASE for a in session.view["legal_actions"])  # the cards one may call
        leaked = cards_shown(text) & {c for c in range(54) if hidden >> c & 1}
        if leaked:
            self.leaks.append(text)

    @staticmethod
    def _hidden(session: Session) -> tuple[int, int]:
        game, me = session.game, session.seat
        others = 0
        for seat in range(game.num_players):
            if seat != me:
                others |= game.hands[seat]
        undealt = mask_of(getattr(game, "pile", []) + getattr(game, "kitty", []) + getattr(game, "stock", []))
        discards = 0
        for seat, mask in enumerate(getattr(game, "discarded", [])):
            discards |= mask if seat != me else 0
        called = 1 << game.called_card if getattr(game, "called_card", -1) >= 0 else 0  # named aloud by the bidder
        return (others | undealt | discards) & ~called, others & ~called


class ScriptedPerson:
    """Answers the prompt from the person's view: a rule bot's move, typed in a different form each turn.

    After each move it checks that the game applied exactly the move it meant, so a
    number, a bare card or a run of discards is read as the person meant it.
    """

    FORMS = ("number", "notation", "card", "hint", "bad", "several", "command")

    def __init__(self, output: WatchedOutput) -> None:
        self.output = output
        self.session: Session | None = None
        self.bot: Any = None
        self.turn = 0
        self.queue: list[tuple[str, list[int]]] = []  # entries to type next, with the moves each means
        self.used: Counter[str] = Counter()
        self.meant: tuple[int, list[int]] | None = None  # (history length when typed, the moves meant)
        self.expected_reason: tuple[int, str] | None = None  # (output position, text the reason must hold)
        self.reasons: list[str] = []
        self.save_answer = ""

    def attach(self, game: TerminalGame) -> None:
        self.session = game.session
        self.output.session = game.session
        self.bot = make_agent("rule", game.session.kind.agent_rules(), seed=5)

    def __call__(self, prompt: str) -> str:
        if prompt == SAVE_PROMPT:
            return self.save_answer
        assert prompt == PROMPT
        session = self.session
        assert session is not None and session.my_turn
        self._check_reason()
        self.check_meant()
        if not self.queue:
            self.queue = self._entries(session.view)
        text, meant = self.queue.pop(0)
        if meant:
            self.meant = (len(session.game.history), meant)
        return text

    def _entries(self, view: dict[str, Any]) -> list[tuple[str, list[int]]]:
        """What to type for the rule bot's move, in this turn's form (with a command or bad entry before it)."""
        session = self.session
        assert session is not None
        action = self.bot.act(view)
        label = session.kind.format_action(action)
        verb, _, arg = label.partition(" ")
        form = self.FORMS[self.turn % len(self.FORMS)]
        self.turn += 1
        move = [(label, [action])]
        if form == "number":
            move = [(str(ordered_moves(view, session.kind).index(action) + 1), [action])]
        elif form == "card" and verb in ("play", "discard", "call"):
            move = [(arg, [action])]
        elif form == "hint":
            move = [("hint", []), *move]
        elif form == "bad":
            entry, reason = self._bad_entry(view)
            self.expected_reason = (len(self.output.getvalue()), reason)
            move = [(entry, []), *move]
        elif form == "several" and (several := self._several_discards(view)):
            move = [several]
        elif form == "command":
            commands = ["score", "show", "help"] + (["last"] if view["tricks"] else [])
            move = [(commands[self.turn % len(commands)], []), *move]
        else:
            form = "notation"
        self.used[form] += 1
        return move

    def _bad_entry(self, view: dict[str, Any]) -> tuple[str, str]:
        """A wrong entry and what its reason must say: a card that does not follow, a played card, nonsense."""
        legal = set(view["legal_moves"])
        if view["phase"] == "play":
            for card in view["hand"]:
                if f"play {card}" not in legal:
                    return f"play {card}", "must follow"
            played = [c for trick in view["tricks"] for _, c in trick["cards"]]
            if played:
                return played[0], f"you do not hold {played[0]}"
        if view["phase"] == "bid" and "bid 11" not in legal:
            return "bid 11", "bid"
        choices = [("xyzzy", "is not a move"), (str(len(legal) + 5), "there is no move")]
        return choices[self.turn % 2]

    def _several_discards(self, view: dict[str, Any]) -> tuple[str, list[int]] | None:
        """The discards the rule bot would make this turn, as one entry: ``keep ...``, ``discard A B`` or ``A B``."""
        session = self.session
        assert session is not None
        if view["phase"] != "discard":
            return None
        game, moves = session.game.clone(), []
        while game.current_player == session.seat and game.phase == session.game.phase:
            action = self.bot.act(session.kind.view(game, session.seat))
            if action == A.DONE:
                break
            moves.append(action)
            game.apply(action)
        if len(moves) < 2:
            return None
        cards = [session.kind.format_action(a).split()[1] for a in moves]
        if session.kind.rules.stock_use != "redraw" and self.turn % 2:
            return "keep " + " ".join(session.kind.view(game, session.seat)["hand"]), sorted(moves)
        return ("discard " if self.turn % 3 else "") + " ".join(cards), sorted(moves)

    def check_meant(self) -> None:
        """The moves typed last are the ones the game applied (in any order for a run of discards)."""
        if self.meant is None:
            return
        session = self.session
        assert session is not None
        start, meant = self.meant
        applied = session.game.history[start : start + len(meant)]
        assert sorted(applied) == sorted(meant), f"typed {meant}, the game applied {applied}"
        self.meant = None

    def _check_reason(self) -> None:
        if self.expected_reason is None:
            return
        start, reason = self.expected_reason
        written = self.output.getvalue()[start:]
        assert reason in written, f"no reason {reason!r} after a bad entry; got {written!r}"
        assert "Traceback" not in written
        self.reasons.append(reason)
        self.expected_reason = None


def play(argv: list[str], save_answer: str = "", ascii_cards: bool = True) -> tuple[TerminalGame, ScriptedPerson, str]:
    """Run ``smear-rl play argv`` with a scripted person; returns the game, the person and the output."""
    output = WatchedOutput()
    console = Console(file=output, width=120, color_system=None, force_terminal=False, highlight=False)
    person = ScriptedPerson(output)
    person.save_answer = save_answer
    flags = ["--delay", "0"] + (["--ascii"] if ascii_cards else [])
    game = build_game(argv + flags, console=console, read=person, sleep=lambda seconds: None)
    person.attach(game)
    game.run()
    person.check_meant()
    return game, person, output.getvalue()


def final_score_line(game: TerminalGame) -> str:
    """What the end of the match must show: every team by its seats, with the engine's score."""
    session = game.session
    kind = session.kind
    names = ["You" if s == session.seat else f"Seat {s}" for s in range(kind.num_players)]
    parts = []
    for team, score in enumerate(session.game.scores):
        seats = [names[s] for s in range(kind.num_players) if kind.team_of(s) == team]
        team_name = seats[0] if len(seats) == 1 else ", ".join(seats[:-1]) + " & " + seats[-1]
        parts.append(f"{team_name} {score}")
    return "Final score: " + "   ".join(parts)


MATCHES = [
    ("ten_point", ["--set", "target_score=11", "--bots", "rule", "--seed", "4"]),
    ("minnesota", ["--set", "target_score=6", "--bots", "rule,random,rule", "--seed", "2", "--seat", "2"]),
    ("pitch_smudge", ["--set", "target_score=6", "--bots", "rule", "--seed", "1", "--seat", "3"]),
    ("ten_point_5p", ["--set", "target_score=11", "--bots", "rule", "--seed", "3", "--seat", "1"]),
    ("schmier", ["--set", "target_score=7", "--bots", "rule", "--seed", "5"]),
    ("bohemian_schneider", ["--bots", "rule", "--seed", "6", "--seat", "1"]),
]


@pytest.mark.parametrize("preset,options", MATCHES, ids=[m[0] for m in MATCHES])
def test_a_whole_match_in_every_accepted_form(preset: str, options: list[str], tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    game, person, out = play(["--preset", preset, "--record", str(record), *options])
    session = game.session
    assert session.over, "the match did not reach its end"
    assert person.output.leaks == [], f"hidden cards shown: {person.output.leaks[:2]}"
    assert final_score_line(game) in out
    for form in ("number", "notation", "hint", "bad", "command"):
        assert person.used[form] > 0, f"the scripted person never answered with {form}"
    if preset != "bohemian_schneider":
        assert person.used["card"] > 0
    assert person.reasons, "no bad entry was answered with its reason"
    assert "Traceback" not in out
    assert "would" in out  # the hint
    replayed = replay_record(json.loads(record.read_text()))
    assert replayed.history == session.game.history
    assert replayed.scores == session.game.scores and replayed.is_over


def test_each_hand_breakdown_shows_the_engines_scores() -> None:
    game, _, out = play(["--preset", "ten_point", "--set", "target_score=11", "--bots", "rule", "--seed", "4"])
    results = game.session.game.hand_results
    scores = [0, 0]
    shown = re.findall(r"^Score: You & Seat 2 (-?\d+)\s+Seat 1 & Seat 3 (-?\d+)", out, flags=re.M)
    assert len(shown) == len(results)
    for result, (mine, theirs) in zip(results, shown):
        for team in range(2):
            scores[team] += result.deltas[team]
        assert (int(mine), int(theirs)) == tuple(scores)
    assert len(re.findall(r" (made it|was set)$", out, flags=re.M)) == len(results)


def test_several_discards_at_once_on_ten_point() -> None:
    _, person, out = play(["--preset", "ten_point", "--set", "target_score=11", "--bots", "rule", "--seed", "4"])
    assert person.used["several"] > 0
    assert re.search(r"^You discard( \S+){2,}$", out, flags=re.M), "a multi-card discard was not shown in one line"


def test_unicode_suits_and_the_same_leak_check() -> None:
    game, person, out = play(
        ["--preset", "minnesota", "--set", "target_score=6", "--bots", "rule", "--seed", "8"], ascii_cards=False
    )
    assert game.session.over
    assert person.output.leaks == []
    assert re.search(r"[2-9JQKA]|10[♣♦♥♠]", out) and "♥" in out


def test_max_hands_stops_and_offers_the_record(tmp_path: Path) -> None:
    path = tmp_path / "kept.json"
    game, _, out = play(
        ["--preset", "ten_point", "--bots", "rule", "--seed", "2", "--max-hands", "1"], save_answer=str(path)
    )
    assert game.session.hands_played == 1 and not game.session.over
    assert "Stopped after 1 hand (--max-hands)" in out
    assert "Hand 2" not in out  # the deal after the last hand played is not shown
    assert json.loads(path.read_text())["moves"] == json.loads(json.dumps(game.session.record()))["moves"]


def test_no_at_the_save_prompt_saves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    play(["--preset", "pitch_smudge", "--bots", "rule", "--seed", "2", "--max-hands", "1"], save_answer="no")
    assert list(tmp_path.iterdir()) == []


def test_bots_move_one_at_a_time_after_the_delay() -> None:
    output = WatchedOutput()
    console = Console(file=output, width=120, color_system=None, force_terminal=False)
    waits: list[tuple[float, int]] = []
    person = ScriptedPerson(output)
    argv = ["--preset", "pitch_smudge", "--bots", "rule", "--seed", "3", "--max-hands", "1", "--delay", "0.25"]
    game = build_game(argv, console=console, read=person, sleep=lambda s: waits.append((s, len(output.getvalue()))))
    person.attach(game)
    game.run()
    assert waits and all(seconds == 0.25 for seconds, _ in waits)
    positions = [at for _, at in waits]
    assert positions == sorted(set(positions)), "a bot moved without showing its move before the next wait"


def test_quit_and_end_of_input_leave_cleanly(tmp_path: Path) -> None:
    for answers in (["quit"], []):
        output = io.StringIO()
        console = Console(file=output, width=120, color_system=None)
        feed = iter(answers)

        def read(prompt: str, feed=feed) -> str:
            try:
                return next(feed)
            except StopIteration:
                raise EOFError from None

        path = tmp_path / f"left{len(answers)}.json"
        game = build_game(
            ["--preset", "ten_point", "--seed", "1", "--bots", "rule", "--delay", "0", "--record", str(path)],
            console=console,
            read=read,
        )
        game.run()
        assert "You left the game" in output.getvalue()
        assert replay_record(json.loads(path.read_text())).history == game.session.game.history


@pytest.mark.parametrize(
    "argv,message",
    [
        (["--preset", "ten_pont"], "unknown preset 'ten_pont'"),
        (["--seat", "4"], "seat 4 is not a seat of ten_point"),
        (["--bots", "rule,rule"], "2 bots named for 3 other seats"),
        (["--bots", "rulez"], "unknown agent 'rulez'"),
        (["--set", "target_scor=11"], "did you mean 'target_score'"),
        (["--set", "target_score"], "is not option=value"),
        (["--preset", "bohemian_schneider", "--set", "num_rounds=3"], "num_rounds=3 is not allowed"),
        (["--rules", "no/such/file.toml"], "does not exist"),
        (["--record", "no/such/folder/game.json"], "does not exist"),
        (["--max-hands", "0"], "expected at least 1"),
        (["--hint-bot", "search:samples=x"], "is not an integer"),
    ],
)
def test_bad_options_exit_2_with_the_reason(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv, read=lambda prompt: "quit")
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_house_rules_file_and_overrides(tmp_path: Path) -> None:
    rules = tmp_path / "house.toml"
    rules.write_text('preset = "minnesota"\ntarget_score = 5\njick_points = 1\n')
    game = build_game(["--rules", str(rules), "--set", "follow=strict", "--delay", "0"], read=lambda p: "quit")
    r = game.session.kind.rules
    assert (r.name, r.target_score, r.follow) == ("minnesota", 5, "strict")
    assert game.hint_name == "search" and game.session.specs == ["human", "search", "search", "search"]


def test_a_house_rule_file_for_bohemian_schneider(tmp_path: Path) -> None:
    rules = tmp_path / "schneider.toml"
    rules.write_text('preset = "bohemian_schneider"\nnum_rounds = 4\n')
    game = build_game(["--rules", str(rules), "--delay", "0"], read=lambda p: "quit")
    assert game.session.kind.rules.num_rounds == 4 and game.session.specs == ["human", "search"]
    assert game.hint_name == "search"
