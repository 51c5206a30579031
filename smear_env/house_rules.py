"""House-rule sets as real tables play them, drawn by a seeded generator: a preset plus two to four changes.

Why a generator: an agent meant for "whatever rules a table plays" must be trained on
many rule sets and measured on others it never saw. A house-rule set here is one of
the Smear presets with two to four of the changes in :data:`HOUSE_CHANGES` (the
options tables change most: the deck, the jokers, the teams, the target, point values,
how strictly suit is followed, the bidding), each to a value tables play. A draw the
validator refuses (a 9-low deck cannot deal ten cards to four players) is drawn again,
so every set is one the engine accepts.

Held out: every rule set falls on one side of a fixed split by a digest of its options
(:func:`is_held_out`, about one set in five). Training draws (:func:`training_rule_sets`)
never return a held-out set, and evaluation draws (:func:`evaluation_rule_sets`) return
only held-out ones, so a set an agent is measured on is never one it trained on, whatever
the seeds. Draws are reproducible: the same seed gives the same sets on every machine.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

from smear_env.rules import Rules, get_rules, list_presets

#: Bohemian Schneider is another game, not a Smear preset with house rules
BASE_PRESETS = tuple(p for p in list_presets() if p != "bohemian_schneider")

Change = Callable[[Rules, random.Random], dict[str, Any]]


def _pick(rng: random.Random, current: Any, values: tuple[Any, ...]) -> Any:
    """A value among ``values`` other than the current one (the current one when it is the only value)."""
    others = [v for v in values if v != current]
    return rng.choice(others) if others else current


def _deck(r: Rules, rng: random.Random) -> dict[str, Any]:
    return {"lowest_rank": _pick(rng, r.lowest_rank, ("2", "7", "9"))}


def _jokers(r: Rules, rng: random.Random) -> dict[str, Any]:
    count = _pick(rng, r.jokers, (0, 1, 2))
    none = {"joker_follows_trump": False} if count == 0 else {}
    return {"jokers": count, "distinct_jokers": False, "big_joker_above_jick": False, **none}


def _joker_rank(r: Rules, rng: random.Random) -> dict[str, Any]:
    """Where the jokers rank; jokers that are not trumps answer a trump lead at half the tables that play them."""
    if not r.jokers:
        return {}  # no joker in the deck: where it would rank changes nothing
    rank = _pick(rng, r.joker_rank, ("below_jacks", "lowest", "not_trump"))
    protected = tuple(name for name in r.protected_discards if name != "jokers" or rank != "not_trump")
    follows = rank == "not_trump" and rng.random() < 0.5
    return {"joker_rank": rank, "big_joker_above_jick": False, "protected_discards": protected,
            "joker_follows_trump": follows}  # fmt: skip


def _teams(r: Rules, rng: random.Random) -> dict[str, Any]:
    """Three teams of two at six seats; everyone alone ("cutthroat") at three to five; two teams of two otherwise."""
    n = r.num_players
    if n == 6:
        options = ([[0, 3], [1, 4], [2, 5]], [[0, 2, 4], [1, 3, 5]])
    elif n == 4:
        options = ([[0], [1], [2], [3]], [[0, 2], [1, 3]])
    else:
        options = ([[s] for s in range(n)],)
    current = [list(t) for t in r.team_seats]
    teams = _pick(rng, current, options)
    return {"teams": teams, "called_partner": False} if len(teams) < n else {"teams": teams}


def _players(r: Rules, rng: random.Random) -> dict[str, Any]:
    """Another number of players where the preset is played by any number (``ten_point_midwest``: 3 to 6)."""
    return {"num_players": _pick(rng, r.num_players, (3, 4, 5, 6))} if r.name == "ten_point_midwest" else {}


def _target(r: Rules, rng: random.Random) -> dict[str, Any]:
    if r.match_end == "hands":
        return {"num_hands": _pick(rng, r.num_hands, (5, 8, 10, 12))}
    target = _pick(rng, r.target_score, (11, 15, 21, 25, 31, 52))
    cap = r.non_bidder_cap
    return {"target_score": target, "non_bidder_cap": cap if cap is None or cap < target else None}


def _points(r: Rules, rng: random.Random) -> dict[str, Any]:
    name, values = rng.choice(
        (("trey_points", (0, 3)), ("jick_points", (0, 1)), ("joker_points", (0, 1)), ("game_points", (1, 2)),
         ("jack_points", (1, 2)), ("deuce_points", (0, 1)))
    )  # fmt: skip
    return {name: _pick(rng, getattr(r, name), values)}


def _low(r: Rules, rng: random.Random) -> dict[str, Any]:
    return {"low": _pick(rng, r.low, ("lowest_played", "lowest_captured", "two_played"))}


def _follow(r: Rules, rng: random.Random) -> dict[str, Any]:
    return {"follow": _pick(rng, r.follow, ("strict", "follow_or_trump"))}


def _cap(r: Rules, rng: random.Random) -> dict[str, Any]:
    if r.match_end != "target" or r.target_score < 11:
        return {}
    below = (r.target_score - 1, r.target_score - 2, r.target_score // 2)
    return {"non_bidder_cap": _pick(rng, r.non_bidder_cap, (None, *below))}


def _dealer(r: Rules, rng: random.Random) -> dict[str, Any]:
    name = rng.choice(("dealer_steals", "forced_dealer_bid"))
    return {name: not getattr(r, name)}


def _discards(r: Rules, rng: random.Random) -> dict[str, Any]:
    return {"discard_trump": _pick(rng, r.discard_trump, ("free", "when_forced", "excess_trumps"))}


#: the changes real tables make to a preset, each a function of the rules that returns the options it sets
HOUSE_CHANGES: dict[str, Change] = {
    "deck": _deck,  # a 7-low or 9-low deck instead of the full one (or back)
    "jokers": _jokers,  # no joker, one or two
    "joker_rank": _joker_rank,  # jokers below the Jacks, lowest trumps, or not trumps (answering a trump lead or not)
    "teams": _teams,  # three teams of two, two of three, or everyone alone
    "players": _players,  # another number of players, where the preset allows it
    "target": _target,  # another target score (or number of hands)
    "points": _points,  # what one point category is worth
    "low": _low,  # who scores Low
    "follow": _follow,  # strict suit-following or trumping in at will
    "cap": _cap,  # a cap on what a side that did not bid may score
    "dealer": _dealer,  # the dealer may steal the bid, or must bid when all pass
    "discards": _discards,  # when trumps may be discarded
}


def fingerprint(rules: Rules) -> str:
    """A digest of the options (not the name): one rule set, however it was reached."""
    options = {k: v for k, v in rules.to_dict().items() if k != "name"}
    return hashlib.sha256(json.dumps(options, sort_keys=True, default=list).encode()).hexdigest()


def is_held_out(rules: Rules) -> bool:
    """Whether ``rules`` are kept for evaluation: about one rule set in five, by a fixed split of their digest."""
    return int(fingerprint(rules)[:8], 16) % 5 == 0


def draw_house_rules(rng: random.Random, presets: tuple[str, ...] = BASE_PRESETS, attempts: int = 200) -> Rules:
    """One house-rule set: a preset of ``presets`` with two to four :data:`HOUSE_CHANGES`, accepted by the engine.

    The rules keep the preset's ``name``, so what a rule set started from stays visible.
    A set that differs from its preset in fewer than two options is drawn again.
    """
    for _ in range(attempts):
        preset = rng.choice(presets)
        options: dict[str, Any] = {}
        try:
            for name in rng.sample(sorted(HOUSE_CHANGES), rng.randint(2, 4)):
                options |= HOUSE_CHANGES[name](get_rules(preset, **options), rng)
            drawn = get_rules(preset, **options)
        except ValueError:
            continue  # a combination the engine refuses: draw another
        if len(changes_from(drawn)) >= 2:  # a change may leave an option as it was: two must differ
            return drawn
    raise ValueError(f"no house-rule set the engine accepts was drawn in {attempts} attempts from {presets}")


def _sets(seed: int, held_out: bool, presets: tuple[str, ...]) -> Iterator[Rules]:
    rng = random.Random(seed)
    while True:
        rules = draw_house_rules(rng, presets)
        if is_held_out(rules) == held_out:
            yield rules


def training_rule_sets(seed: int, presets: tuple[str, ...] = BASE_PRESETS) -> Iterator[Rules]:
    """An endless stream of house-rule sets to train on (never a held-out one), reproducible from ``seed``."""
    return _sets(seed, False, presets)


def evaluation_rule_sets(count: int, seed: int = 0, presets: tuple[str, ...] = BASE_PRESETS) -> list[Rules]:
    """``count`` distinct held-out house-rule sets (never trained on), the same for the same seed everywhere."""
    return first_distinct(_sets(seed, True, presets), count)


def first_distinct(stream: Iterator[Rules], count: int) -> list[Rules]:
    """The first ``count`` rule sets of an endless ``stream`` that differ in their options."""
    out: list[Rules] = []
    seen: set[str] = set()
    for rules in stream:
        if fingerprint(rules) not in seen:
            seen.add(fingerprint(rules))
            out.append(rules)
        if len(out) == count:
            return out
    raise AssertionError("unreachable: the stream is endless")


def changes_from(rules: Rules) -> dict[str, Any]:
    """The options ``rules`` set otherwise than their preset (how a house-rule set reads in a table of results)."""
    base = get_rules(rules.name).to_dict()
    return {k: v for k, v in rules.to_dict().items() if k != "name" and base.get(k) != v}


def describe_changes(rules: Rules) -> str:
    """The changes of a house-rule set in words a table of results can show (``target_score=21, follow=strict``)."""
    changes = changes_from(rules)
    return ", ".join(f"{k}={json.dumps(v)}" for k, v in changes.items()) or "no changes"
