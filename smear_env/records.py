"""Game records, shared by the engines: checking a record's fields and replaying it move by move.

A record (``Game.record()`` of :mod:`smear_env.game` or :mod:`smear_env.schneider.game`)
is JSON-able data: the game's name, engine version, rules, first dealer, one-hand
flag, seed, every deal and every move. Replaying it rebuilds the same game, RNG
included. Records come from files and other programs, so everything in one is
checked: a record that is not a dict, lacks a field, holds a value of the wrong
type, is for another game or engine version, or whose moves are not legal in turn
raises ``ValueError`` saying which part is wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from smear_env.checks import as_int


def record_fields(
    record: Any, game: str, version: int, single_key: str, parse_deal: Callable[[Any], Any]
) -> dict[str, Any]:
    """The fields of a game record (``Game.record()`` of either engine), checked, with its deals parsed.

    ``single_key`` names the record's one-hand (one-round) flag and ``parse_deal``
    turns a deal's dict form into the engine's deal. Raises ``ValueError`` naming the
    first field that is missing, of the wrong type, or for another game or version;
    fields it does not know are ignored.
    """
    if not isinstance(record, Mapping):
        raise ValueError(f"record is a {type(record).__name__}, not a dict: expected what Game.record() returns")
    required = ("game", "engine_version", "rules", "first_dealer", single_key, "deals", "moves")
    if "game" in record and record["game"] != game:  # before the fields: another game's record has others
        raise ValueError(f"record is for game {record['game']!r}, not {game!r}")
    missing = [key for key in required if key not in record]
    if missing:
        raise ValueError(f"record has no {missing[0]!r}: expected the fields {', '.join(required)} (and seed)")
    if record["engine_version"] != version:
        raise ValueError(f"record is from engine version {record['engine_version']!r}, this is {version}")
    seed = record.get("seed")
    shapes = {
        "rules": (isinstance(record["rules"], Mapping), "a dict of rule options"),
        single_key: (isinstance(record[single_key], bool), "true or false"),
        "seed": (seed is None or (isinstance(seed, int) and not isinstance(seed, bool)), "an integer or null"),
        "deals": (isinstance(record["deals"], list | tuple), "a list of deals"),
        "moves": (
            isinstance(record["moves"], list | tuple) and all(isinstance(m, str) for m in record["moves"]),
            "a list of move labels",
        ),
    }
    for key, (ok, expected) in shapes.items():
        if not ok:
            raise ValueError(f"record {key} is {record.get(key)!r}: expected {expected}")
    fields = {key: record[key] for key in required} | {"seed": seed}
    fields["first_dealer"] = as_int(record["first_dealer"], "record first_dealer", 0)
    deals = []
    for index, deal in enumerate(record["deals"]):
        try:
            deals.append(parse_deal(deal))
        except ValueError as err:
            raise ValueError(f"record deal {index + 1} of {len(record['deals'])}: {err}") from None
    fields["deals"] = deals
    return fields


def replay_record(
    record: Any,
    game: str,
    version: int,
    single_key: str,
    parse_deal: Callable[[Any], Any],
    parse_rules: Callable[[Any], Any],
    new_game: Callable[[Any, int | None, int, bool, list[Any]], Any],
) -> Any:
    """The game of ``record`` (see :func:`record_fields`), built by ``new_game(rules, seed, dealer, single, deals)``.

    Each move is applied in turn; one that is not legal raises ``ValueError`` naming it.
    """
    fields = record_fields(record, game, version, single_key, parse_deal)
    try:
        rules = parse_rules(fields["rules"])
    except ValueError as err:
        raise ValueError(f"record rules: {err}") from None
    built = new_game(rules, fields["seed"], fields["first_dealer"], fields[single_key], fields["deals"])
    moves = fields["moves"]
    for number, move in enumerate(moves, 1):
        try:
            built.apply_move(move)
        except ValueError as err:
            raise ValueError(f"record move {number} of {len(moves)} ({move!r}): {err}") from None
    return built
