"""The games a person can sit down to, behind one small interface.

Smear (every preset and house rule) and Bohemian Schneider have different
engines, views, results and notation. A :class:`GameKind` holds one game's rules
and answers the few questions a table asks of them (a new match, a player's
view, the move notation, how a trick is won, what a finished hand scored), so
the session, the terminal and a future web table never branch on the game.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Protocol

import smear_env.schneider as schneider
from agents.registry import SCHNEIDER, agent_names
from smear_env import actions as smear_actions
from smear_env import check_preset
from smear_env.cards import SUITS, parse_card
from smear_env.game import Game as SmearGame
from smear_env.game import replay as smear_replay
from smear_env.observation import player_view as smear_view
from smear_env.rules import Rules, get_rules, load_rules
from smear_env.schneider.game import follower_wins
from smear_env.schneider.observation import player_view as schneider_view
from smear_env.trump import trick_winner, trump_table
from smear_rl.play.breakdown import HandBreakdown, RoundBreakdown, hand_breakdown, round_breakdown


class GameKind(Protocol):
    """One game's rules and the questions a table asks of them."""

    name: str  # preset name, e.g. "minnesota" or "bohemian_schneider"
    rules: Any  # smear_env.rules.Rules or smear_env.schneider.SchneiderRules
    num_players: int
    num_teams: int
    hand_word: str  # what one deal is called: "hand" (Smear) or "round" (Schneider)

    def team_of(self, seat: int) -> int: ...
    def new_game(self, seed: int) -> Any: ...
    def view(self, game: Any, seat: int) -> dict[str, Any]: ...
    def format_action(self, action: int) -> str: ...
    def parse_action(self, text: str) -> int: ...
    def results(self, game: Any) -> list[Any]: ...
    def trick_winner(self, plays: list[tuple[int, str]], trump: str | None) -> int: ...
    def last_breakdown(self, game: Any) -> Any: ...
    def agent_rules(self) -> Any: ...
    def target_text(self) -> str: ...
    def hands_in_match(self) -> int | None: ...


class SmearKind:
    """Smear under one set of :class:`Rules` (a preset, a house-rule file, overrides)."""

    hand_word = "hand"

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.name = rules.name
        self.num_players = rules.num_players
        self.num_teams = rules.num_teams

    def team_of(self, seat: int) -> int:
        return self.rules.team_of(seat)

    def new_game(self, seed: int) -> SmearGame:
        return SmearGame(self.rules, seed=seed)

    def view(self, game: SmearGame, seat: int) -> dict[str, Any]:
        return smear_view(game, seat)

    def format_action(self, action: int) -> str:
        return smear_actions.format_action(action)

    def parse_action(self, text: str) -> int:
        return smear_actions.parse_action(text, self.rules)

    def results(self, game: SmearGame) -> list[Any]:
        return game.hand_results

    def trick_winner(self, plays: list[tuple[int, str]], trump: str | None) -> int:
        """The seat that wins a full trick once trump is known (the engine's own rule)."""
        table = trump_table(self.rules, SUITS.index(trump) if trump else -1)
        return trick_winner([(seat, parse_card(card)) for seat, card in plays], table)[0]

    def last_breakdown(self, game: SmearGame) -> HandBreakdown:
        """What the hand just scored, with the match scores right after it."""
        return hand_breakdown(game.hand_results[-1], self.rules, len(game.hand_results), game.scores)

    def agent_rules(self) -> Rules:
        return self.rules

    def target_text(self) -> str:
        r = self.rules
        return f"first to {r.target_score}" if r.match_end == "target" else f"{r.num_hands} hands"

    def hands_in_match(self) -> int | None:
        """The number of hands when the match has a fixed length, else None (it plays to a target)."""
        return self.rules.num_hands if self.rules.match_end == "hands" else None


class SchneiderKind:
    """Bohemian Schneider: two players, no trumps, rounds instead of bid hands."""

    hand_word = "round"
    name = SCHNEIDER
    num_players = schneider.game.NUM_PLAYERS
    num_teams = schneider.game.NUM_PLAYERS

    def __init__(self, rules: schneider.SchneiderRules) -> None:
        self.rules = rules

    def team_of(self, seat: int) -> int:
        return seat

    def new_game(self, seed: int) -> schneider.Game:
        return schneider.Game(self.rules, seed=seed)

    def view(self, game: schneider.Game, seat: int) -> dict[str, Any]:
        return schneider_view(game, seat)

    def format_action(self, action: int) -> str:
        return schneider.format_action(action)

    def parse_action(self, text: str) -> int:
        return schneider.parse_action(text)

    def results(self, game: schneider.Game) -> list[Any]:
        return game.round_results

    def trick_winner(self, plays: list[tuple[int, str]], trump: str | None) -> int:
        (leader, led), (follower, followed) = plays
        return follower if follower_wins(parse_card(led), parse_card(followed)) else leader

    def last_breakdown(self, game: schneider.Game) -> RoundBreakdown:
        """What the round just scored, with the match totals right after it."""
        return round_breakdown(game.round_results[-1], len(game.round_results), game.scores)

    def agent_rules(self) -> str:
        return SCHNEIDER

    def target_text(self) -> str:
        return f"{self.rules.num_rounds} rounds"

    def hands_in_match(self) -> int:
        return self.rules.num_rounds


def parse_override(text: str) -> tuple[str, Any]:
    """``option=value`` from the command line, the value read as TOML (``21``, ``true``, ``"strict"``).

    A bare word that is not TOML (``follow=strict``) is taken as a string, as a person would mean it.
    """
    key, equals, value = (part.strip() for part in text.partition("="))
    if not equals or not key or not value:
        raise ValueError(f"--set {text!r} is not option=value: expected e.g. --set target_score=21")
    try:
        return key, tomllib.loads(f"v = {value}")["v"]
    except tomllib.TOMLDecodeError:
        return key, value


def load_kind(
    preset: str | None = None, rules_file: str | Path | None = None, overrides: dict[str, Any] | None = None
) -> GameKind:
    """The game to play: a preset or a house-rule TOML file (``preset = "..."`` plus options), then overrides.

    Raises ``ValueError`` naming the bad preset, file or option.
    """
    overrides = {k: tuple(v) if isinstance(v, list) else v for k, v in (overrides or {}).items()}
    if rules_file is not None:
        path = Path(rules_file)
        if not path.is_file():
            raise ValueError(f"rules file {str(path)!r} does not exist")
        try:
            with path.open("rb") as f:
                data = tomllib.load(f)
        except tomllib.TOMLDecodeError as err:
            raise ValueError(f"rules file {str(path)!r} is not valid TOML: {err}") from None
        if data.get("preset") == SCHNEIDER:
            data.pop("preset")
            return SchneiderKind(schneider.SchneiderRules().replace(**data, **overrides))
        return SmearKind(load_rules(path).replace(**overrides) if overrides else load_rules(path))
    preset = preset or "ten_point"
    check_preset(preset)
    if preset == SCHNEIDER:
        return SchneiderKind(schneider.SchneiderRules().replace(**overrides))
    return SmearKind(get_rules(preset, **overrides))


def default_bot(kind: GameKind) -> str:
    """The strongest bot by name for this game: search where it exists, else the rule bot."""
    return "search" if "search" in agent_names(kind.agent_rules()) else "rule"


def replay_record(record: dict[str, Any]) -> Any:
    """The engine game a saved record rebuilds, whichever game it is (Smear or Bohemian Schneider)."""
    if record.get("game") == SCHNEIDER:
        return schneider.replay(record)
    return smear_replay(record)
