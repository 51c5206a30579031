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
import functools
import inspect
import re
import tomllib
import typing
from dataclasses import dataclass
from functools import cached_property
from os import PathLike
from pathlib import Path
from typing import Annotated, Any, Literal

from smear_env.cards import NUM_CARDS, RANKS, make_deck
from smear_env.checks import options_by_name

PROTECTABLE = ("ace", "two", "three", "jack", "jick", "jokers", "scoring")

#: every category a hand can award points in, in the order a breakdown lists them
CATEGORIES = ("high", "low", "jack", "jick", "joker", "joker2", "trey", "deuce", "game")


Rank = Literal["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]
JokerRank = Literal["below_jacks", "lowest", "not_trump"]
DiscardTrump = Literal["free", "when_forced", "excess_trumps"]


# Upper bounds of the integer options (with NUM_CARDS, the largest deck, for seats and cards): far past any table's,
# and small enough that nothing sized or scored by an option costs more than a game does (rules come from strangers).
MAX_POINT_VALUE = 100  # what one point category, or a joker's card value, may be worth
MAX_MATCH_SCORE = 1000  # a target score, a cap on the sides that did not bid, a bust-out score (negated)
MAX_MATCH_HANDS = 1000  # hands in a fixed-length match


@dataclass(frozen=True)
class Range:
    """Accepted values of an integer option: ``low..high`` inclusive (None: no bound on that side)."""

    low: int | None = None
    high: int | None = None

    def __contains__(self, value: int) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)

    def __str__(self) -> str:
        if self.high is None:
            return f">= {self.low}"
        if self.low is None:
            return f"<= {self.high}"
        return f"{self.low}..{self.high}"


@options_by_name("Rules(num_players=6), or get_rules('ten_point') for a preset", lambda options: _check_names(options))
@dataclass(frozen=True)
class Rules:
    """The options of one Smear variant. Field comments say what each one means."""

    name: str = "custom"  # preset these rules came from (informational)
    # -- deck and trump order
    lowest_rank: Rank = "2"  # lowest rank of each suit: 2 (52 cards), 7 (32 cards), 9 (24 cards)...
    jokers: Annotated[int, Range(0, 2)] = 2  # jokers added to the deck: 0, 1 or 2
    jick: bool = True  # the other Jack of trump's colour is a trump, just below the Jack
    # not_trump (the reading chosen where the house rule is silent): a joker belongs to no suit; it beats every
    # plain card and loses to every trump, and of two the first played wins (the big one with distinct_jokers).
    # It may be played at any time, never breaking a duty to follow. A joker lead obliges nobody for the whole
    # trick (the next card does not set a suit to follow), so it wins unless trumped. Never High or Low.
    joker_rank: JokerRank = "below_jacks"  # not_trump: no suit, beats plain cards, any time, its lead obliges nobody
    # joker_follows_trump (a public site's house rule): with jokers that are not trumps, a trump lead must be answered
    # with a trump or a joker while the hand holds either; a joker then meets the duty to follow trumps, nothing more.
    joker_follows_trump: bool = False  # not_trump: on a trump lead a joker counts as a trump for the duty to follow
    distinct_jokers: bool = False  # JK always beats JK2; else the first joker played to a trick wins
    big_joker_above_jick: bool = False  # distinct_jokers: JK ranks just above the Jick (002), JK2 just below it
    # -- players
    num_players: Annotated[int, Range(2, NUM_CARDS)] = 4  # players at the table
    partnerships: bool = True  # with teams empty: seats alternate between two teams; False: everyone scores alone
    teams: tuple[tuple[int, ...], ...] = ()  # seats of each team, e.g. [[0, 3], [1, 4], [2, 5]]; []: by partnerships
    called_partner: bool = False  # the bidder calls a trump card and its holder is partner for the hand
    # -- deal, kitty and stock
    hand_size: Annotated[int, Range(1, NUM_CARDS)] = 10  # cards dealt to each player
    kitty_size: Annotated[int, Range(0, NUM_CARDS)] = 0  # cards dealt to a kitty the bidder takes before naming trump
    stock_use: Literal["none", "to_bidder", "blinds", "redraw"] = "none"  # what the undealt stock is for
    blinds: Annotated[int, Range(0, NUM_CARDS)] = 0  # stock_use=blinds: stock cards the bidder takes and discards
    redraw_limit: Annotated[int, Range(0, NUM_CARDS)] = 3  # stock_use=redraw: most non-trumps a non-dealer swaps
    play_hand_size: Annotated[int, Range(1, NUM_CARDS)] = 6  # cards held when play starts (also the number of tricks)
    # -- bidding
    min_bid: Annotated[int, Range(1, 11)] = 4  # lowest bid
    max_bid: Annotated[int, Range(1, 11)] = 10  # highest numeric bid
    moon_bid: bool = False  # "shoot the moon": outbids every number, must take every point awarded
    smudge_bid: bool = False  # a bid of max_bid+1 that needs every trick and every point
    dealer_steals: bool = False  # the dealer, bidding last, may equal the highest bid to take it
    forced_dealer_bid: bool = False  # when all others pass the dealer must bid (no all-pass)
    all_pass: Literal["redeal_same_dealer", "redeal_next_dealer"] = "redeal_same_dealer"  # when nobody bids
    misdeal_call: bool = False  # a player holding only 3s..9s may call a misdeal at their bidding turn
    # -- trump
    trump_by: Literal["bidder_names", "first_lead"] = "bidder_names"  # how trump is set
    # -- discards
    discard_trump: DiscardTrump = "when_forced"  # a trump: any time; once all else is gone; while > play_hand_size held
    protected_discards: tuple[str, ...] = ()  # trumps never discarded: ace, two, three, jack, jick, jokers, scoring
    # -- play
    first_lead: Literal["any", "trump"] = "any"  # trump: the bidder must lead a trump to trick 1 if able
    first_lead_no_joker: bool = False  # trump_by=first_lead: a joker may not be the trump-setting lead
    follow: Literal["strict", "follow_or_trump"] = "follow_or_trump"  # strict: follow suit if able
    # -- hand scoring
    high: Literal["off", "ace_played", "highest_played", "ace_captured"] = "highest_played"  # High point
    low: Literal["off", "two_played", "lowest_played", "lowest_captured"] = "lowest_played"  # Low point
    low_ignores_jokers: bool = False  # a joker never counts as the lowest trump for Low
    jack_points: Annotated[int, Range(0, MAX_POINT_VALUE)] = 1  # for capturing the Jack of trump
    jick_points: Annotated[int, Range(0, MAX_POINT_VALUE)] = 1  # for capturing the Jick
    joker_points: Annotated[int, Range(0, MAX_POINT_VALUE)] = 1  # for each joker captured
    trey_points: Annotated[int, Range(0, MAX_POINT_VALUE)] = 3  # for capturing the 3 of trump
    deuce_points: Annotated[int, Range(0, MAX_POINT_VALUE)] = 0  # for capturing the 2 of trump
    game_points: Annotated[int, Range(0, MAX_POINT_VALUE)] = 1  # for strictly most card points captured
    joker_card_value: Annotated[int, Range(0, MAX_POINT_VALUE)] = 0  # card points of a joker toward Game
    game_tie: Literal["nobody", "low_side"] = "nobody"  # Game on equal card points: nobody, or the side awarded Low
    blind_discards_count: bool = False  # the bidder's blind discards count for the bidder's side in Game
    # -- match
    match_end: Literal["target", "hands"] = "target"  # play to a target score or a fixed number of hands
    target_score: Annotated[int, Range(1, MAX_MATCH_SCORE)] = 52  # match_end=target: score that wins
    num_hands: Annotated[int, Range(1, MAX_MATCH_HANDS)] = 10  # match_end=hands: hands in a match (a tie on top draws)
    target_tiebreak: Literal["higher_then_bidder", "bidder_if_made"] = "higher_then_bidder"  # both reach target
    win_requires_made_bid: bool = False  # a side can win only at the end of a hand it bid and made
    bust_out: Annotated[int | None, Range(-MAX_MATCH_SCORE, -1)] = None  # a side at or below this score loses
    non_bidder_cap: Annotated[int | None, Range(0, MAX_MATCH_SCORE)] = None  # sides that did not bid score up to this

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

    @cached_property
    def derived(self) -> dict[str, Any]:
        """Values other modules compute from these options and keep here, e.g. the observation's rules block."""
        return {}

    def __copy__(self) -> Rules:
        return self  # immutable: copies of a game share its rules and the tables kept on them

    def __deepcopy__(self, memo: dict[int, Any]) -> Rules:
        return self

    def __getstate__(self) -> dict[str, Any]:
        """The options only: the derived caches (deck, trump tables, seating) are rebuilt on use."""
        return {k: v for k, v in self.__dict__.items() if k not in _CACHES}

    @cached_property
    def team_seats(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each team, team by team: ``teams`` if given, else derived from ``partnerships``."""
        if self.teams:
            return self.teams
        n = self.num_players
        if self.partnerships:
            return (tuple(range(0, n, 2)), tuple(range(1, n, 2)))
        return tuple((seat,) for seat in range(n))

    @cached_property
    def _team_by_seat(self) -> tuple[int, ...]:
        team_by_seat = [0] * self.num_players
        for team, seats in enumerate(self.team_seats):
            for seat in seats:
                team_by_seat[seat] = team
        return tuple(team_by_seat)

    @property
    def num_teams(self) -> int:
        """Match scoring units: the teams of ``team_seats`` (one per player when everyone plays alone)."""
        return len(self.team_seats)

    def team_of(self, seat: int) -> int:
        """Match scoring unit of a seat (its index in ``team_seats``)."""
        return self._team_by_seat[seat]

    @property
    def has_teammates(self) -> bool:
        """Whether some team has more than one player (a partner's hand can help)."""
        return any(len(seats) > 1 for seats in self.team_seats)

    @property
    def stock_size(self) -> int:
        """Cards left after dealing hands and kitty."""
        return len(self.deck) - self.num_players * self.hand_size - self.kitty_size

    @cached_property
    def point_values(self) -> dict[str, int]:
        """Points of each hand-scoring category these rules award, in :data:`CATEGORIES` order (none worth 0)."""
        values = {"high": int(self.high != "off"), "low": int(self.low != "off"), "jack": self.jack_points}
        values |= {"jick": self.jick_points if self.jick else 0, "joker": self.joker_points * (self.jokers >= 1)}
        values |= {"joker2": self.joker_points * (self.jokers >= 2), "trey": self.trey_points}
        values |= {"deuce": self.deuce_points, "game": self.game_points}
        return {name: values[name] for name in CATEGORIES if values[name]}

    @property
    def max_hand_points(self) -> int:
        """Most points one hand can award."""
        return sum(self.point_values.values())

    @property
    def top_bid(self) -> int:
        """Highest numeric bid, counting a smudge."""
        return self.max_bid + 1 if self.smudge_bid else self.max_bid

    def replace(self, **overrides: Any) -> Rules:
        """A copy with some options changed (validated like any rule set)."""
        return dataclasses.replace(self, **overrides)

    def to_dict(self) -> dict[str, Any]:
        """Every option by name, as plain data (for records, configs and checkpoints)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}


OPTION_NAMES = tuple(f.name for f in dataclasses.fields(Rules))
_CACHES = ("deck", "trump_tables", "derived", "team_seats", "_team_by_seat", "point_values")  # cached_property values


def _check_names(options: dict[str, Any]) -> None:
    for key in options:
        if key not in OPTION_NAMES:
            close = difflib.get_close_matches(key, OPTION_NAMES, n=1) if isinstance(key, str) else []
            hint = f"; did you mean {close[0]!r}?" if close else "."
            raise ValueError(f"unknown rule option {key!r}{hint} Known options: {', '.join(OPTION_NAMES)}")


@dataclass(frozen=True)
class OptionSpec:
    """What one option accepts, read from its declaration (for validation, documentation and front ends)."""

    name: str
    kind: Literal["choice", "bool", "int", "str", "names", "teams"]
    default: Any
    doc: str  # the one-line comment of its declaration
    choices: tuple[Any, ...] = ()  # choice: the accepted values; names: the names a list draws from
    range: Range | None = None  # int: the accepted values
    optional: bool = False  # int: none (TOML: leave the option out) is accepted too

    @property
    def accepted(self) -> str:
        """The accepted values in words, as error messages and the options page state them."""
        if self.kind == "choice":
            return "one of " + ", ".join(repr(c) for c in self.choices)
        if self.kind == "bool":
            return "true or false"
        if self.kind == "int":
            text = "an integer" if self.range is None or self.range == Range() else f"an integer {self.range}"
            return text + " or none" if self.optional else text
        if self.kind == "names":
            return "a list drawn from " + ", ".join(self.choices)
        if self.kind == "teams":
            return "a list of teams, each a list of seats"
        return "a string"


@functools.cache
def option_specs() -> tuple[OptionSpec, ...]:
    """Every option of :class:`Rules`, in declaration order, with what it accepts and its comment."""
    hints = typing.get_type_hints(Rules, include_extras=True)
    docs = _declaration_comments()
    specs = []
    for f in dataclasses.fields(Rules):
        hint, bounds = hints[f.name], None
        if typing.get_origin(hint) is typing.Annotated:
            hint, bounds = typing.get_args(hint)
        optional = type(None) in typing.get_args(hint)
        if optional:
            hint = next(a for a in typing.get_args(hint) if a is not type(None))
        common = {"name": f.name, "default": f.default, "doc": docs.get(f.name, ""), "optional": optional}
        if typing.get_origin(hint) is Literal:
            specs.append(OptionSpec(kind="choice", choices=typing.get_args(hint), **common))
        elif hint is bool:
            specs.append(OptionSpec(kind="bool", **common))
        elif hint is int:
            specs.append(OptionSpec(kind="int", range=bounds or Range(), **common))
        elif hint is str:
            specs.append(OptionSpec(kind="str", **common))
        elif typing.get_args(hint)[0] is str:
            specs.append(OptionSpec(kind="names", choices=PROTECTABLE, **common))
        else:
            specs.append(OptionSpec(kind="teams", **common))
    return tuple(specs)


def _declaration_comments() -> dict[str, str]:
    """The one-line comment after each option's declaration in this file's source."""
    try:
        source = inspect.getsource(Rules)
    except (OSError, TypeError):  # no source (a frozen build): the options work, their comments are unknown
        return {}
    found = (re.match(r"    (\w+): .*?  # (.*)$", line) for line in source.splitlines())
    return {m.group(1): m.group(2) for m in found if m}


def _check_types(rules: Rules) -> None:
    for spec in option_specs():
        value = getattr(rules, spec.name)
        if not _accepts(spec, value):
            problem = "out of range" if spec.kind == "int" and isinstance(value, int) else "invalid"
            raise ValueError(f"rule option {spec.name}={value!r} is {problem}: expected {spec.accepted}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _accepts(spec: OptionSpec, value: Any) -> bool:
    kind = spec.kind
    if kind == "choice":
        return any(value == c and type(value) is type(c) for c in spec.choices)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":
        if value is None:
            return spec.optional
        return _is_int(value) and (spec.range is None or value in spec.range)
    if kind == "str":
        return isinstance(value, str)
    if kind == "names":
        return isinstance(value, tuple) and all(isinstance(v, str) and v in spec.choices for v in value)
    return isinstance(value, tuple) and all(isinstance(t, tuple) and all(_is_int(s) for s in t) for t in value)


def _require(condition: bool, option: str, problem: str) -> None:
    if not condition:
        raise ValueError(f"rule option {option} is impossible: {problem}")


def _check_combination(r: Rules) -> None:
    _check_seating(r)
    _check_deal(r)
    _check_deck_points(r)
    _check_jokers(r)
    _check_bids_and_match(r)


def _check_seating(r: Rules) -> None:
    n = r.num_players
    if r.teams:
        seats = sorted(s for team in r.teams for s in team)
        _require(
            seats == list(range(n)),
            "teams",
            f"{[list(t) for t in r.teams]} must list every seat 0..{n - 1} exactly once",
        )
        _require(all(r.teams), "teams", "a team needs at least one seat")
        _require(len(r.teams) >= 2, "teams", "at least two teams must play against each other")
    else:
        _require(
            not r.partnerships or n % 2 == 0,
            "partnerships",
            f"two alternating teams need an even number of players, not {n}",
        )
    _require(
        not r.called_partner or not r.has_teammates,
        "called_partner",
        "a called partner needs everyone playing alone (partnerships=false, or teams of one seat each)",
    )
    _require(
        not r.called_partner or n >= 3,
        "called_partner",
        f"with {n} players the called partner would leave nobody to play against: at least 3 are needed",
    )


def _check_deal(r: Rules) -> None:
    deck_size = len(r.deck)
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
    _require(r.stock_use != "blinds" or r.blinds <= stock, "blinds", f"{r.blinds} blinds but the stock holds {stock}")
    if r.stock_use == "redraw":
        _require(r.hand_size == r.play_hand_size, "stock_use", "redraw needs hand_size equal to play_hand_size")
        _require(
            r.kitty_size == 0,
            "kitty_size",
            "a kitty needs stock_use other than 'redraw' (a redraw never brings the bidder back to its hand size)",
        )
        _require(
            (r.num_players - 1) * r.redraw_limit <= stock,
            "redraw_limit",
            f"{r.num_players - 1} players x {r.redraw_limit} exchanges exceed the {stock}-card stock",
        )
    _require(r.stock_use != "to_bidder" or stock > 0, "stock_use", "to_bidder needs undealt cards")
    _require(
        r.stock_use != "to_bidder" or r.trump_by == "bidder_names",
        "stock_use",
        "to_bidder gives the bidder the stock once it names trump: it needs trump_by='bidder_names'",
    )
    _require(r.trump_by != "first_lead" or r.kitty_size == 0, "kitty_size", "a kitty needs trump named by the bidder")
    _require(r.trump_by != "first_lead" or not r.called_partner, "called_partner", "calling a trump needs trump named")


def _check_deck_points(r: Rules) -> None:
    """A point (or a Jick) whose card this deck never holds is refused rather than silently never scored."""
    low = RANKS.index(r.lowest_rank)
    missing = f"the deck has no {{}} (lowest_rank={r.lowest_rank!r})"
    _require(r.low != "two_played" or low == 0, "low", missing.format("2") + ": use lowest_played or off")
    _require(not r.deuce_points or low == 0, "deuce_points", missing.format("2") + ": set it to 0")
    _require(not r.trey_points or low <= 1, "trey_points", missing.format("3") + ": set it to 0")
    has_jacks = low <= RANKS.index("J")
    _require(not r.jack_points or has_jacks, "jack_points", missing.format("Jacks") + ": set it to 0")
    _require(not r.jick or has_jacks, "jick", missing.format("Jacks") + ": set it to false")
    _require(not (r.jick_points and not r.jick), "jick_points", "the Jick scores only when jick=true")


def _check_jokers(r: Rules) -> None:
    _require(not r.distinct_jokers or r.jokers == 2, "distinct_jokers", f"ranks two jokers; the deck has {r.jokers}")
    if r.big_joker_above_jick:
        _require(r.distinct_jokers, "big_joker_above_jick", "needs distinct_jokers=true (a big and a little joker)")
        _require(r.jick, "big_joker_above_jick", "needs jick=true")
        _require(r.joker_rank == "below_jacks", "big_joker_above_jick", "needs joker_rank='below_jacks'")
    if r.joker_follows_trump:
        _require(
            r.joker_rank == "not_trump",
            "joker_follows_trump",
            "needs joker_rank='not_trump' (a trump joker already follows trumps)",
        )
        _require(r.jokers > 0, "joker_follows_trump", "needs jokers in the deck (jokers=0)")
    _require(
        r.joker_rank != "not_trump" or "jokers" not in r.protected_discards,
        "protected_discards",
        "protects trumps only, and with joker_rank='not_trump' the jokers are not trumps",
    )
    if r.trump_by == "first_lead" and r.jokers:
        no_suit = "a joker has no suit, so it cannot be the lead that sets trump"
        _require(r.first_lead_no_joker, "first_lead_no_joker", no_suit)
        _require(
            r.play_hand_size > r.jokers,
            "play_hand_size",
            f"with {r.jokers} jokers and trump set by the first lead, a bidder holding {r.play_hand_size} cards "
            "could hold only jokers, none of which can set trump: hold more cards than there are jokers",
        )


def _check_bids_and_match(r: Rules) -> None:
    _require(r.min_bid <= r.max_bid, "min_bid", f"needs min_bid <= max_bid, got {r.min_bid}..{r.max_bid}")
    _require(r.top_bid <= 11, "max_bid", f"bids above 11 are not supported (got {r.top_bid})")
    _require(
        r.max_bid <= r.max_hand_points,
        "max_bid",
        f"{r.max_bid} exceeds the {r.max_hand_points} points a hand can award",
    )
    _require(not (r.moon_bid and r.smudge_bid), "moon_bid", "moon and smudge bids cannot both be on")
    if r.non_bidder_cap is not None and r.match_end == "target":
        _require(
            r.non_bidder_cap < r.target_score,
            "non_bidder_cap",
            f"a cap of {r.non_bidder_cap} does not keep sides that did not bid below the target {r.target_score}",
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


#: what a preset name looks like: a plain name, never a path (files go through :func:`load_rules`)
_PRESET_NAME = re.compile(r"[a-z0-9_]+")


def _preset_data(name: str) -> dict[str, Any]:
    """The options a preset file sets (its ``preset`` line checked and dropped; ``by_players`` kept)."""
    known = list_presets()
    if not isinstance(name, str) or not _PRESET_NAME.fullmatch(name):
        raise ValueError(
            f"preset {name!r} is not a preset name: expected one of {', '.join(known)} "
            "(a rules file is read with load_rules(path))"
        )
    path = presets_dir() / f"{name}.toml"
    if not path.is_file():
        close = difflib.get_close_matches(name, known, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ValueError(f"unknown preset {name!r}{hint}: expected one of {', '.join(known)}")
    with path.open("rb") as f:
        data = tomllib.load(f)
    if data.pop("preset", name) != name:
        raise ValueError(f"preset file {str(path)!r} names another preset in its 'preset' line")
    return data


def _from_plain(options: dict[str, Any]) -> dict[str, Any]:
    """TOML/JSON values to option values (lists, nested ones too, become tuples)."""
    return {k: _as_tuples(v) for k, v in options.items()}


def _as_tuples(value: Any) -> Any:
    return tuple(_as_tuples(v) for v in value) if isinstance(value, list | tuple) else value


def _by_players(data: dict[str, Any], where: str) -> dict[str, dict[str, Any]]:
    """The ``[by_players.N]`` tables of a rules file, checked: N a number of players, known options."""
    tables = data.pop("by_players", {})
    if not isinstance(tables, dict) or not all(k.isdigit() and isinstance(t, dict) for k, t in tables.items()):
        raise ValueError(f"{where}: by_players must hold tables named by a number of players, e.g. [by_players.6]")
    for table in tables.values():
        _check_names(table)
    return tables


def _build(preset: str, overrides: dict[str, Any], own_tables: dict[str, dict[str, Any]]) -> Rules:
    """A preset's options, its table for the number of players, the overrides, then ``own_tables``'."""
    data = _preset_data(preset)
    preset_tables = _by_players(data, f"preset {preset!r}")
    _check_names(data)
    _check_names(overrides)
    options = _from_plain(data)
    players = str(overrides.get("num_players", options.get("num_players")))
    options.update(_from_plain(preset_tables.get(players, {})))
    options.update(_from_plain(overrides))
    options.update(_from_plain(own_tables.get(players, {})))
    options["name"] = preset
    return Rules(**options)


def get_rules(preset: str = "ten_point", **overrides: Any) -> Rules:
    """The rules of a preset with some options overridden.

    A preset file may hold ``[by_players.N]`` tables of options that change with the
    number of players (``ten_point_midwest`` deals 8 cards to 6 players); they apply
    when ``num_players`` is overridden to ``N``, before the other overrides.
    ``preset`` is a name from :func:`list_presets`, never a path: files go through
    :func:`load_rules`.
    """
    return _build(preset, overrides, {})


def load_rules(path: str | Path) -> Rules:
    """Rules from a TOML file: ``preset = "name"`` (default ten_point) plus options to override.

    Every preset file starts with its own ``preset`` line, so loading one by its path gives
    exactly ``get_rules(name)``. The file's own ``[by_players.N]`` tables apply after its
    options when the number of players is ``N``.
    """
    if not isinstance(path, str | PathLike):
        raise ValueError(f"rules file {path!r} is not a path: expected a str or a pathlib.Path of a TOML file")
    try:
        with Path(path).open("rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise ValueError(f"rules file {str(path)!r} cannot be read as TOML: {err}") from err
    preset = data.pop("preset", "ten_point")
    own_tables = _by_players(data, f"rules file {str(path)!r}")
    return _build(preset, data, own_tables)


def rules_from_dict(options: dict[str, Any]) -> Rules:
    """Rules from :meth:`Rules.to_dict` output (e.g. a saved record)."""
    if not isinstance(options, dict):
        raise ValueError(f"rules {options!r} are not an options dict: expected Rules.to_dict() output")
    _check_names(options)
    return Rules(**_from_plain(options))
