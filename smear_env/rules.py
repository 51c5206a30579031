"""Every rule option of the Smear family, declared once, and the presets built from them.

A :class:`Rules` is an immutable set of options. Presets are data files
(``configs/rules/<name>.toml``) that set every option, so a preset file reads as
the full statement of its variant. House rules are a preset plus overrides,
given in Python (``get_rules("ten_point", target_score=21)``) or in a TOML file
with ``preset = "ten_point"`` and the options to change. Unknown options,
values of the wrong type or outside their choices, and impossible
combinations fail with a ``ValueError`` naming the option and the problem.
"""

from __future__ import annotations

import dataclasses
import difflib
import tomllib
import typing
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from smear_env.cards import RANKS, make_deck

PROTECTABLE = ("ace", "two", "three", "jack", "jick", "jokers", "scoring")


@dataclass(frozen=True)
class Rules:
    """The options of one Smear variant. Field comments say what each one means."""

    name: str = "custom"  # preset these rules came from (informational)
    # -- deck and trump order
    lowest_rank: Literal["2", "7"] = "2"  # lowest rank of each suit: 2 (52 cards) or 7 (32 cards)
    jokers: int = 2  # jokers added to the deck: 0, 1 or 2
    jick: bool = True  # the other Jack of trump's colour is a trump, just below the Jack
    joker_rank: Literal["below_jacks", "lowest"] = "below_jacks"  # jokers rank just below the Jack(s) or lowest trump
    distinct_jokers: bool = False  # JK always beats JK2; else the first joker played to a trick wins
    # -- players
    num_players: int = 4  # players at the table
    partnerships: bool = True  # seats alternate between two fixed teams; False: everyone scores alone
    called_partner: bool = False  # the bidder calls a trump card and its holder is partner for the hand
    # -- deal, kitty and stock
    hand_size: int = 10  # cards dealt to each player
    kitty_size: int = 0  # cards dealt to a kitty that the bidder takes before naming trump
    stock_use: Literal["none", "to_bidder", "blinds", "redraw"] = "none"  # what the undealt stock is for
    blinds: int = 0  # stock_use=blinds: cards the bidder takes from the stock and discards again
    redraw_limit: int = 3  # stock_use=redraw: most non-trumps a non-dealer may exchange; dealer takes the rest
    play_hand_size: int = 6  # cards each player holds when trick play starts (also the number of tricks)
    # -- bidding
    min_bid: int = 4  # lowest bid
    max_bid: int = 10  # highest numeric bid
    moon_bid: bool = False  # "shoot the moon": outbids every number, must take every point awarded
    smudge_bid: bool = False  # a bid of max_bid+1 that needs every trick and every point
    dealer_steals: bool = False  # the dealer, bidding last, may equal the highest bid to take it
    forced_dealer_bid: bool = False  # when all others pass the dealer must bid (no all-pass)
    all_pass: Literal["redeal_same_dealer", "redeal_next_dealer"] = "redeal_same_dealer"  # when nobody bids
    misdeal_call: bool = False  # a player holding only 3s..9s may call a misdeal at their bidding turn
    # -- trump
    trump_by: Literal["bidder_names", "first_lead"] = "bidder_names"  # how trump is set
    # -- discards
    discard_trump: Literal["free", "when_forced"] = "when_forced"  # when_forced: a trump only once all else is gone
    protected_discards: tuple[str, ...] = ()  # trumps never discarded: ace, two, three, jack, jick, jokers, scoring
    # -- play
    first_lead: Literal["any", "trump"] = "any"  # trump: the bidder must lead a trump to trick 1 if able
    first_lead_no_joker: bool = False  # trump_by=first_lead: a joker may not be the trump-setting lead
    follow: Literal["strict", "follow_or_trump"] = "follow_or_trump"  # strict: follow suit if able
    # -- hand scoring
    high: Literal["off", "ace_played", "highest_played", "ace_captured"] = "highest_played"  # High point
    low: Literal["off", "two_played", "lowest_played", "lowest_captured"] = "lowest_played"  # Low point
    low_ignores_jokers: bool = False  # a joker never counts as the lowest trump for Low
    jack_points: int = 1  # for capturing the Jack of trump
    jick_points: int = 1  # for capturing the Jick
    joker_points: int = 1  # for each joker captured
    trey_points: int = 3  # for capturing the 3 of trump
    deuce_points: int = 0  # for capturing the 2 of trump
    game_points: int = 1  # for strictly most card points captured
    joker_card_value: int = 0  # card points of a joker toward Game
    game_tie: Literal["nobody", "low_side"] = "nobody"  # Game on equal card points: nobody, or the side awarded Low
    blind_discards_count: bool = False  # the bidder's blind discards count for the bidder's side in Game
    # -- match
    match_end: Literal["target", "hands"] = "target"  # play to a target score or a fixed number of hands
    target_score: int = 52  # match_end=target: score that wins
    num_hands: int = 10  # match_end=hands: hands in a match (equal top totals are a draw)
    target_tiebreak: Literal["higher_then_bidder", "bidder_if_made"] = "higher_then_bidder"  # both reach target
    win_requires_made_bid: bool = False  # a side can win only at the end of a hand it bid and made
    bust_out: int | None = None  # a side at or below this score loses the match

    def __post_init__(self) -> None:
        _check_types(self)
        _check_combination(self)

    # -- derived facts, computed once per rule set
    @cached_property
    def deck(self) -> tuple[int, ...]:
        """Card ids in this deck."""
        return tuple(make_deck(self.lowest_rank, self.jokers))

    @cached_property
    def trump_tables(self) -> dict[int, Any]:
        """Trump tables built so far, by trump suit (-1: none yet); filled by ``smear_env.trump.trump_table``."""
        return {}

    def __copy__(self) -> Rules:
        return self  # immutable: copies of a game share its rules and the tables kept on them

    def __deepcopy__(self, memo: dict[int, Any]) -> Rules:
        return self

    def __getstate__(self) -> dict[str, Any]:
        """The options only: the derived caches (deck, trump tables) are rebuilt on use."""
        return {k: v for k, v in self.__dict__.items() if k not in ("deck", "trump_tables")}

    @property
    def num_teams(self) -> int:
        """Match scoring units: 2 teams with partnerships, else one per player."""
        return 2 if self.partnerships else self.num_players

    def team_of(self, seat: int) -> int:
        """Match scoring unit of a seat."""
        return seat % 2 if self.partnerships else seat

    @property
    def stock_size(self) -> int:
        """Cards left after dealing hands and kitty."""
        return len(self.deck) - self.num_players * self.hand_size - self.kitty_size

    @property
    def max_hand_points(self) -> int:
        """Most points one hand can award."""
        return (
            (self.high != "off")
            + (self.low != "off")
            + self.jack_points
            + (self.jick_points if self.jick else 0)
            + self.joker_points * self.jokers
            + self.trey_points
            + self.deuce_points
            + self.game_points
        )

    @property
    def top_bid(self) -> int:
        """Highest numeric bid, counting a smudge."""
        return self.max_bid + 1 if self.smudge_bid else self.max_bid

    def replace(self, **overrides: Any) -> Rules:
        """A copy with some options changed (validated like any rule set)."""
        _check_names(overrides)
        return dataclasses.replace(self, **overrides)

    def to_dict(self) -> dict[str, Any]:
        """Every option by name, as plain data (for records, configs and checkpoints)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}


OPTION_NAMES = tuple(f.name for f in dataclasses.fields(Rules))


def _check_names(options: dict[str, Any]) -> None:
    for key in options:
        if key not in OPTION_NAMES:
            close = difflib.get_close_matches(key, OPTION_NAMES, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise ValueError(f"unknown rule option {key!r}{hint} Known options: {', '.join(OPTION_NAMES)}")


def _check_types(rules: Rules) -> None:
    hints = typing.get_type_hints(Rules)
    for name in OPTION_NAMES:
        value = getattr(rules, name)
        hint = hints[name]
        origin = typing.get_origin(hint)
        if origin is Literal:
            if value not in typing.get_args(hint):
                raise ValueError(f"rule option {name}={value!r} is invalid: expected one of {typing.get_args(hint)}")
        elif hint is bool:
            if not isinstance(value, bool):
                raise ValueError(f"rule option {name}={value!r} is invalid: expected true or false")
        elif hint is int:
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"rule option {name}={value!r} is invalid: expected an integer")
        elif hint is str:
            if not isinstance(value, str):
                raise ValueError(f"rule option {name}={value!r} is invalid: expected a string")
        elif origin is tuple:
            if not isinstance(value, tuple) or any(v not in PROTECTABLE for v in value):
                raise ValueError(f"rule option {name}={value!r} is invalid: expected a list drawn from {PROTECTABLE}")
        elif value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise ValueError(f"rule option {name}={value!r} is invalid: expected an integer or none")


def _require(condition: bool, option: str, problem: str) -> None:
    if not condition:
        raise ValueError(f"rule option {option} is impossible: {problem}")


def _check_combination(r: Rules) -> None:
    deck_size = len(make_deck(r.lowest_rank, min(max(r.jokers, 0), 2)))
    _require(0 <= r.jokers <= 2, "jokers", f"{r.jokers} jokers; a deck holds 0, 1 or 2")
    _require(r.num_players >= 2, "num_players", f"{r.num_players} players; at least 2 are needed")
    _require(
        not r.partnerships or r.num_players % 2 == 0,
        "partnerships",
        f"two alternating teams need an even number of players, not {r.num_players}",
    )
    _require(not (r.called_partner and r.partnerships), "called_partner", "a called partner needs partnerships=false")
    _require(r.play_hand_size >= 1, "play_hand_size", "at least one card must be played")
    _require(
        r.hand_size >= r.play_hand_size,
        "hand_size",
        f"{r.hand_size} cards dealt is fewer than the {r.play_hand_size} held for play",
    )
    dealt = r.num_players * r.hand_size + r.kitty_size
    _require(
        dealt <= deck_size,
        "hand_size",
        f"{r.num_players} players x {r.hand_size} cards + kitty {r.kitty_size} = {dealt} "
        f"exceeds the {deck_size}-card deck",
    )
    stock = deck_size - dealt
    _require(r.blinds >= 0, "blinds", "cannot be negative")
    _require(r.stock_use != "blinds" or r.blinds <= stock, "blinds", f"{r.blinds} blinds but the stock holds {stock}")
    if r.stock_use == "redraw":
        _require(r.hand_size == r.play_hand_size, "stock_use", "redraw needs hand_size equal to play_hand_size")
        _require(
            (r.num_players - 1) * r.redraw_limit <= stock,
            "redraw_limit",
            f"{r.num_players - 1} players x {r.redraw_limit} exchanges exceed the {stock}-card stock",
        )
    _require(not (r.jick_points and not r.jick), "jick_points", "the Jick scores only when jick=true")
    _require(1 <= r.min_bid <= r.max_bid, "min_bid", f"needs 1 <= min_bid <= max_bid, got {r.min_bid}..{r.max_bid}")
    _require(r.top_bid <= 11, "max_bid", f"bids above 11 are not supported (got {r.top_bid})")
    _require(
        r.max_bid <= r.max_hand_points,
        "max_bid",
        f"{r.max_bid} exceeds the {r.max_hand_points} points a hand can award",
    )
    _require(not (r.moon_bid and r.smudge_bid), "moon_bid", "moon and smudge bids cannot both be on")
    _require(r.stock_use != "to_bidder" or stock > 0, "stock_use", "to_bidder needs undealt cards")
    _require(
        not (r.dealer_steals and r.forced_dealer_bid and r.num_players < 2), "dealer_steals", "needs two players"
    )
    _require(r.match_end != "hands" or r.num_hands >= 1, "num_hands", "a match needs at least one hand")
    _require(r.match_end != "target" or r.target_score >= 1, "target_score", "must be positive")
    _require(r.trump_by != "first_lead" or r.kitty_size == 0, "kitty_size", "a kitty needs trump named by the bidder")
    _require(r.lowest_rank in RANKS, "lowest_rank", "unknown rank")
    _require(r.trump_by != "first_lead" or not r.called_partner, "called_partner", "calling a trump needs trump named")
    _require(
        r.trump_by != "first_lead" or r.jokers == 0 or r.first_lead_no_joker,
        "first_lead_no_joker",
        "a joker has no suit, so it cannot be the lead that sets trump",
    )


# -- presets ---------------------------------------------------------------------------

_PACKAGED_PRESETS = Path(__file__).parent / "_presets"
_REPO_PRESETS = Path(__file__).resolve().parent.parent / "configs" / "rules"


def presets_dir() -> Path:
    """Folder holding the preset files (packaged copy, else the repository's configs/rules)."""
    return _PACKAGED_PRESETS if _PACKAGED_PRESETS.is_dir() else _REPO_PRESETS


def list_presets() -> list[str]:
    """Names of the Smear presets, as in VARIANTS.md."""
    return sorted(p.stem for p in presets_dir().glob("*.toml"))


def _preset_data(name: str) -> dict[str, Any]:
    path = presets_dir() / f"{name}.toml"
    if not path.is_file():
        known = list_presets()
        close = difflib.get_close_matches(name, known, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ValueError(f"unknown preset {name!r}{hint}: expected one of {', '.join(known)}")
    with path.open("rb") as f:
        return tomllib.load(f)


def _from_plain(options: dict[str, Any]) -> dict[str, Any]:
    """TOML/JSON values to option values (lists become tuples)."""
    return {k: tuple(v) if isinstance(v, list) else v for k, v in options.items()}


def get_rules(preset: str = "ten_point", **overrides: Any) -> Rules:
    """The rules of a preset with some options overridden.

    A preset file may hold ``[by_players.N]`` tables of options that change with the
    number of players (``ten_point_midwest`` deals 8 cards to 6 players); they apply
    when ``num_players`` is overridden to ``N``, before the other overrides.
    """
    data = _preset_data(preset)
    by_players = data.pop("by_players", {})
    _check_names(data)
    _check_names(overrides)
    options = _from_plain(data)
    players = overrides.get("num_players", options.get("num_players"))
    options.update(_from_plain(by_players.get(str(players), {})))
    options.update(_from_plain(overrides))
    options["name"] = preset
    return Rules(**options)


def load_rules(path: str | Path) -> Rules:
    """Rules from a TOML file: ``preset = "name"`` (default ten_point) plus options to override."""
    with Path(path).open("rb") as f:
        data = tomllib.load(f)
    preset = data.pop("preset", "ten_point")
    return get_rules(preset, **data)


def rules_from_dict(options: dict[str, Any]) -> Rules:
    """Rules from :meth:`Rules.to_dict` output (e.g. a saved record)."""
    _check_names(options)
    return Rules(**_from_plain(options))
