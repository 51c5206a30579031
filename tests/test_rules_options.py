"""Rule options, presets as data, house rules and their validation."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from smear_env.options_doc import BEGIN, END, main, options_table, page_table, rewrite
from smear_env.rules import (
    OPTION_NAMES,
    Range,
    Rules,
    get_rules,
    list_presets,
    load_rules,
    option_specs,
    presets_dir,
    rules_from_dict,
)

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


@pytest.mark.parametrize(
    ("preset", "overrides", "message"),
    [
        # schmier redraws: a bidder with a kitty would play with more cards than the others
        ("schmier", {"kitty_size": 4, "redraw_limit": 2}, "kitty_size is impossible: a kitty needs stock_use other"),
        # pitch_smudge sets trump by the first lead: there is no naming of trump for the stock to follow
        ("pitch_smudge", {"stock_use": "to_bidder"}, "to_bidder gives the bidder the stock once it names trump"),
    ],
)
def test_a_stock_or_kitty_the_deal_would_never_hand_over_is_refused(preset: str, overrides: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        get_rules(preset, **overrides)


def test_rules_are_immutable_and_replace_validates() -> None:
    r = get_rules("smear")
    with pytest.raises(AttributeError):
        r.num_players = 6  # type: ignore[misc]
    with pytest.raises(ValueError, match="unknown rule option"):
        r.replace(players=6)
    assert r.replace(num_hands=5).num_hands == 5
    assert isinstance(Rules(), Rules)


# ------------------------------------------------------------------ every numeric option's range

INT_SPECS = [spec for spec in option_specs() if spec.kind == "int"]
OUT_OF_RANGE = [
    (spec.name, value, str(spec.range))
    for spec in INT_SPECS
    for value in ([spec.range.low - 1] if spec.range.low is not None else [])
    + ([spec.range.high + 1] if spec.range.high is not None else [])
]


def test_every_integer_option_declares_a_range_bounded_on_both_sides() -> None:
    """Rules come from strangers (the service): no option may be as large as a request can write."""
    assert {spec.name for spec in INT_SPECS} >= {"kitty_size", "hand_size", "num_players", "blinds", "jokers"}
    assert all(spec.range is not None and None not in (spec.range.low, spec.range.high) for spec in INT_SPECS)


@pytest.mark.parametrize("value", [10**7, 10**400])
def test_a_huge_number_of_players_is_refused_before_any_seat_is_counted(value: int) -> None:
    """The range is checked before the seats are counted (ten million took seconds and a gigabyte to seat)."""
    with pytest.raises(ValueError, match=r"rule option num_players=\d+ is out of range: expected an integer 2\.\.54"):
        get_rules("ten_point_5p", num_players=value)


@pytest.mark.parametrize(("name", "value", "accepted"), OUT_OF_RANGE)
def test_a_value_outside_the_range_is_refused_naming_option_value_and_range(name: str, value: int, accepted: str):
    message = f"rule option {name}={value} is out of range: expected an integer {accepted}"
    with pytest.raises(ValueError, match=re.escape(message)):
        get_rules("ten_point", **{name: value})


def test_a_negative_kitty_no_longer_deals_a_card_twice() -> None:
    message = "rule option kitty_size=-1 is out of range: expected an integer 0..54"
    with pytest.raises(ValueError, match=re.escape(message)):
        get_rules("minnesota", kitty_size=-1)


@pytest.mark.parametrize("value", [True, 2.0, "3", None])
def test_an_integer_option_takes_integers_only(value: object) -> None:
    with pytest.raises(ValueError, match=r"rule option hand_size=.* is (invalid|out of range): expected an integer"):
        get_rules("ten_point", hand_size=value)


def test_option_specs_read_each_declaration() -> None:
    specs = {spec.name: spec for spec in option_specs()}
    assert tuple(specs) == OPTION_NAMES
    assert specs["kitty_size"].range == Range(0, 54) and specs["kitty_size"].default == 0
    assert specs["bust_out"].optional and specs["bust_out"].accepted == "an integer -1000..-1 or none"
    assert specs["follow"].choices == ("strict", "follow_or_trump")
    assert all(spec.doc for spec in specs.values()), "every option has its one-line comment"


# ------------------------------------------------------------------ preset names and files


@pytest.mark.parametrize("name", ["/abs/x", "../x", "configs/rules/minnesota", "minnesota.toml", "Minnesota", "", 3])
def test_a_preset_name_that_is_not_a_plain_name_is_refused(name: object) -> None:
    with pytest.raises(ValueError, match=r"is not a preset name: expected one of .*load_rules\(path\)"):
        get_rules(name)  # type: ignore[arg-type]


@pytest.mark.parametrize("preset", VARIANTS_PRESETS)
def test_loading_a_preset_file_by_its_path_gives_the_preset(preset: str) -> None:
    assert load_rules(presets_dir() / f"{preset}.toml") == get_rules(preset)
    assert load_rules(presets_dir() / f"{preset}.toml").name == preset


def test_a_copied_preset_file_with_a_change_is_that_preset_with_the_change(tmp_path: Path) -> None:
    text = (presets_dir() / "minnesota.toml").read_text().replace("target_score = 21", "target_score = 11")
    (tmp_path / "short.toml").write_text(text)
    assert load_rules(tmp_path / "short.toml") == get_rules("minnesota", target_score=11)


def test_a_rules_file_may_set_options_by_number_of_players(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('preset = "ten_point_midwest"\nnum_players = 6\n[by_players.6]\nteams = [[0, 3], [1, 4], [2, 5]]\n')
    rules = load_rules(path)
    assert rules.num_teams == 3 and rules.hand_size == 8  # the preset's own table for six still applies
    path.write_text('preset = "ten_point"\n[by_players.4]\ntargt_score = 21\n')
    with pytest.raises(ValueError, match="unknown rule option 'targt_score'"):
        load_rules(path)
    path.write_text('preset = "ten_point"\nby_players = 3\n')
    with pytest.raises(ValueError, match="by_players must hold tables named by a number of players"):
        load_rules(path)


def test_a_rules_file_that_cannot_be_read_is_refused_naming_it(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"rules file '.*missing.toml' cannot be read as TOML"):
        load_rules(tmp_path / "missing.toml")
    (tmp_path / "bad.toml").write_text("preset = \n")
    with pytest.raises(ValueError, match=r"rules file '.*bad.toml' cannot be read as TOML"):
        load_rules(tmp_path / "bad.toml")
    with pytest.raises(ValueError, match="cannot be read as TOML"):
        load_rules(tmp_path)  # a folder


def test_a_preset_file_naming_another_preset_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "presets"
    folder.mkdir()
    (folder / "odd.toml").write_text('preset = "ten_point"\n')
    monkeypatch.setattr("smear_env.rules.presets_dir", lambda: folder)
    with pytest.raises(ValueError, match="names another preset"):
        get_rules("odd")


# ------------------------------------------------------------------ the options page


def test_the_options_page_lists_every_option_and_its_table_is_current() -> None:
    page = (Path(__file__).parent.parent / "docs" / "options.md").read_text()
    missing = [name for name in OPTION_NAMES if name != "name" and f"`{name}`" not in page]
    assert not missing, f"docs/options.md does not mention {missing}"
    assert page_table(page) == options_table(), "run: python -m smear_env.options_doc docs/options.md"


def test_the_options_table_is_rewritten_in_place(tmp_path: Path) -> None:
    path = tmp_path / "page.md"
    path.write_text(f"# Options\n\n{BEGIN}\nold\n{END}\n\nmore text\n")
    assert main([str(path)]) == 0
    text = path.read_text()
    assert page_table(text) == options_table() and text.endswith(f"{END}\n\nmore text\n")
    assert not rewrite(path)
    assert main([]) == 2
