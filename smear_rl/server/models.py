"""The service's request and answer bodies as pydantic models: checked input and the OpenAPI documentation.

Kept apart from the application so that worker processes validate suggest bodies
themselves (the server process only routes them) without importing FastAPI.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError

from smear_rl.server.errors import RequestError

Seed = Annotated[StrictInt, Field(ge=0, le=2**63 - 1)]
#: a bot's name and options ('search:samples=48,time_budget=0.5'): a few dozen characters, 200 at most
BotSpec = Annotated[str, Field(max_length=200)]
#: a card's name ('AS', '10H', 'JK2')
CardName = Annotated[str, Field(max_length=4)]
SeatNumber = Annotated[StrictInt, Field(ge=0, le=63)]
#: a match score a client states (a resumed table, a stateless hand): far past any match's, and small enough that a bot
#: reading it as a float cannot overflow
MatchScore = Annotated[StrictInt, Field(ge=-1_000_000, le=1_000_000)]
RulesSpec = Annotated[
    str | dict[str, Any],
    Field(
        description='a preset name, or {"preset": name, <option>: <value>, ...} with house rules '
        "(GET /v1/presets lists them)",
        examples=["minnesota", {"preset": "minnesota", "target_score": 11}],
    ),
]

EVENT_SCHEMA = {
    "type": "object",
    "description": "a move {seat, move} in notation ('bid 4', 'play TH'; another seat's discard: 'discard'), "
    "a call with the partner every seat learns {seat, move: 'call AH', partner}, or cards taken {seat, take}: "
    "your own as card names, another seat's as a count (optional)",
    "properties": {
        "seat": {"type": "integer"},
        "move": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
        "take": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "integer"}]},
        "partner": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
    },
    "required": ["seat"],
}


class SuggestBody(BaseModel):
    """What one seat knows, and which bot should move for it."""

    model_config = ConfigDict(extra="forbid")
    rules: RulesSpec
    bot: BotSpec = Field(
        description="a bot name with options after a colon: 'rule', 'search:samples=48', 'neural' "
        "(the shipped agent that plays these rules); GET /v1/bots lists them",
        examples=["rule"],
    )
    seat: SeatNumber = Field(description="the seat to move (0 = first seat, clockwise)")
    dealer: SeatNumber = Field(description="the dealer of this hand")
    hand: list[CardName] = Field(
        description="the cards dealt to the seat this hand, before any it took or gave up", max_length=64
    )
    events: list[dict[str, Any]] = Field(
        default_factory=list,
        description="every event of the hand so far, in order, as the seat saw them",
        json_schema_extra={"items": EVENT_SCHEMA},
    )
    scores: list[MatchScore] | None = Field(
        None, description="match scores before this hand, one per team (rules' teams); default all 0", max_length=64
    )
    hands_played: Annotated[StrictInt, Field(ge=0, le=100_000)] = Field(
        0, description="hands (rounds) scored so far in the match"
    )
    seed: Seed = Field(0, description="seeds the bot: an answer is a pure function of the request")
    include_view: StrictBool = Field(False, description="also return the rebuilt view of the seat")


class TableBody(BaseModel):
    """A new table: its rules, who sits where, a seed and the bots' pace."""

    model_config = ConfigDict(extra="forbid")
    rules: RulesSpec
    seats: list[BotSpec] = Field(
        description="one per seat: 'remote' (a player through the API) or a bot name",
        examples=[["remote", "rule", "remote", "search"]],
        max_length=16,
    )
    seed: Seed | None = Field(None, description="seeds the deal and the bots (random when left out, and reported)")
    bot_delay_ms: Annotated[StrictInt, Field(ge=0)] = Field(
        0, description="how long each bot waits before moving, so a page can show moves one at a time"
    )
    dealer: SeatNumber = Field(0, description="the dealer of the first hand")
    scores: list[MatchScore] | None = Field(
        None,
        description="to resume a match: the scores it stands at, one per team (the table state's teams); default all 0",
        max_length=64,
    )
    hands_played: Annotated[StrictInt, Field(ge=0, le=100_000)] = Field(
        0, description="to resume a match: the hands it has already scored (fixed-length matches count them)"
    )


class MoveBody(BaseModel):
    """A remote seat's move."""

    model_config = ConfigDict(extra="forbid")
    seat: SeatNumber
    move: Annotated[str, Field(max_length=64)] | StrictInt = Field(
        description="notation ('play AS', 'bid 4') or an action id", examples=["play AS"]
    )


class ErrorBody(BaseModel):
    """The one error shape."""

    error: dict[str, Any] = Field(
        examples=[{"code": "invalid_history", "message": "events[3]: ...", "field": "events[3]"}]
    )


class SuggestAnswer(BaseModel):
    """A bot's move for one seat (documentation of ``POST /v1/suggest``'s answer)."""

    seat: int
    bot: str
    seed: int
    move: str = Field(examples=["play AS"])
    action: int = Field(examples=[166])
    legal_moves: list[str]
    legal_actions: list[int]
    preference: dict[str, Any] | None = Field(
        description='null, or {"kind": "probability" | "value", "moves": [{"move", "action", "score"}]}'
    )
    ms: float = Field(description="milliseconds for the whole answer")
    bot_ms: float = Field(description="milliseconds the bot took")
    view: dict[str, Any] | None = Field(None, description="with include_view: the seat's view")


def field_of(loc: tuple[Any, ...]) -> str | None:
    """``("body", "events", 3, "dict[str,any]")`` -> ``events[3]``: the field and its indices, not union tags."""
    parts = [p for p in loc if p not in ("body", "query", "path")]
    if not parts:
        return None
    field = str(parts[0])
    for part in parts[1:]:
        if not isinstance(part, int):
            break
        field += f"[{part}]"
    return field


def refusal(errors: list[Any]) -> RequestError:
    """The first of pydantic's (or FastAPI's) validation errors, in the service's error shape."""
    first = errors[0] if errors else {}
    field = field_of(tuple(first.get("loc", ())))
    text = str(first.get("msg", "invalid request"))
    return RequestError(f"{field}: {text}" if field else text, field)


#: JSON elements a suggest body may hold for each event it may hold (a take of four cards is six), and beside them
ELEMENTS_PER_EVENT, ELEMENTS_BESIDE = 6, 512


def check_elements(raw: bytes, limit: int, field: str) -> None:
    """422 when a body holds more than ``limit`` elements, counted by the commas between them before any parsing:
    a near-limit body of tiny elements (65,000 empty events) takes tens of milliseconds to parse and validate,
    only to be refused; counting its commas takes a tenth of one."""
    commas = raw.count(b",")
    if commas >= limit:
        message = f"the body holds more elements ({commas} commas between them) than this server's limit of {limit}"
        raise RequestError(message, field, "too_many_events")


def suggest_body(raw: bytes, max_events: int) -> dict[str, Any]:
    """A suggest request from its JSON bytes, checked; :class:`RequestError` naming the first problem."""
    check_elements(raw, ELEMENTS_PER_EVENT * max_events + ELEMENTS_BESIDE, "events")
    try:
        return SuggestBody.model_validate_json(raw).model_dump()
    except ValidationError as err:
        raise refusal(err.errors()) from None
