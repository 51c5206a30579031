"""Rule options, presets as data, house rules and their validation."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from smear_env.rules import OPTION_NAMES, Rules, get_rules, list_presets, load_rules, presets_dir, rules_from_dict

VARIANTS_PRESETS = [
    "schmier", "smear", "ten_point", "ten_point_5p", "ten_point_6p",
    "four_point", "six_point", "minnesota", "ten_point_midwest", "pitch_smudge",
]  # fmt: skip


def test_every_variants_preset_ships() -> None:
    assert sorted(list_presets()) == sorted(VARIANTS_PRESETS)


@pytest.mark.parametrize("preset", VARIANTS_PRESETS)
def test_preset_file_sets_every_option(preset: str) -> None:
    with (presets_dir() / f"{preset}.toml").open("rb") as f:
        data = tomllib.load(f)
    data.pop("by_players", None)
    assert data.pop("preset") == preset, f"{preset}.toml must begin with preset = {preset!r}"
    missing = set(OPTION_NAMES) - set(data) - {"name", "bust_out", "non_bidder_cap"}
    assert not missing, f"{preset} leaves {missing} to defaults"


@pytest.mark.parametrize(
    ("preset", "players", "hand", "deck", "max_points", "bids"),
    [
        ("schmier", 6, 6, 53, 6, (3, 6)),
        ("smear", 4, 9, 54, 4, (2, 4)),
        ("ten_point", 4, 10, 54, 10, (4, 10)),
        ("ten_point_5p", 5, 10, 54, 10, (4, 10)),
        ("ten_point_6p", 6, 8, 54, 10, (4, 10)),
        ("four_point", 4, 6, 32, 4, (2, 4)),
        ("six_point", 4, 6, 34, 6, (2, 6)),
        ("minnesota", 4, 9, 54, 4, (2, 4)),
        ("ten_point_midwest", 4, 10, 54, 10, (2, 10)),
        ("pitch_smudge", 4, 6, 52, 4, (2, 4)),
    ],
)
def test_preset_table_of_variants(preset, players, hand, deck, max_points, bids) -> None:
    r = get_rules(preset)
    assert (r.num_players, r.hand_size, len(r.deck), r.max_hand_points, (r.min_bid, r.max_bid)) == (
        players, hand, deck, max_points, bids
    )  # fmt: skip


def test_midwest_deals_eight_to_six_players() -> None:
    assert get_rules("ten_point_midwest", num_players=6).hand_size == 8
    r = get_rules("ten_point_midwest", num_players=5)
    assert not r.partnerships and r.num_teams == 5


def test_overrides_in_python_and_in_a_file(tmp_path: Path) -> None:
    assert get_rules("ten_point", target_score=21).target_score == 21
    path = tmp_path / "house.toml"
    path.write_text('preset = "minnesota"\njick_points = 1\njoker_points = 1\n')
    r = load_rules(path)
    assert r.name == "minnesota" and r.jick_points == 1 and r.max_hand_points == 7
    assert rules_from_dict(r.to_dict()) == r


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"targt_score": 21}, "unknown rule option 'targt_score'; did you mean 'target_score'"),
        ({"jokers": "two"}, r"rule option jokers='two' is invalid: expected an integer"),
        ({"follow": "loose"}, r"rule option follow='loose' is invalid: expected one of"),
        ({"jick": 1}, "rule option jick=1 is invalid: expected true or false"),
        ({"hand_size": 14}, r"4 players x 14 cards \+ kitty 0 = 56 exceeds the 54-card deck"),
        ({"num_players": 5}, "two alternating teams need an even number of players"),
        ({"min_bid": 5, "max_bid": 4}, "min_bid <= max_bid"),
        ({"max_bid": 11}, "exceeds the 10 points"),
        ({"jick": False}, "the Jick scores only when jick=true"),
        ({"protected_discards": ("queen",)}, "expected a list drawn from"),
    ],
)
def test_invalid_rules_name_the_option(overrides: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        get_rules("ten_point", **overrides)


def test_rules_are_immutable_and_replace_validates() -> None:
    r = get_rules("smear")
    with pytest.raises(AttributeError):
        r.num_players = 6  # type: ignore[misc]
    with pytest.raises(ValueError, match="unknown rule option"):
        r.replace(players=6)
    assert r.replace(num_hands=5).num_hands == 5
    assert isinstance(Rules(), Rules)
