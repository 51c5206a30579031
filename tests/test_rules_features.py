"""The observation's rules block (layout 3): every option encoded from its declaration, one vector size for every
table of two to six players, and networks of older layouts or older rules blocks read through moved weights."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import smear_env
from smear_env.game import Game
from smear_env.observation import (
    MAX_SEATS,
    OBSERVATION_VERSION,
    Observer,
    compact_layout,
    input_positions,
    layout,
    observation_size,
    older_positions,
)
from smear_env.rules import get_rules, list_presets, option_specs
from smear_env.rules_features import RULES_FEATURES, TEAM_SEATS, feature_names, rules_features

PRESETS = [p for p in list_presets() if p != "bohemian_schneider"]


def block(rules_vector: np.ndarray, prefix: str) -> dict[str, float]:
    return {name: float(v) for name, v in zip(feature_names(), rules_vector) if name.startswith(prefix)}


def test_every_option_but_the_name_has_features_named_after_it() -> None:
    names = feature_names()
    assert len(names) == RULES_FEATURES == len(set(names))
    for spec in option_specs():
        mine = [n for n in names if n.split("=")[0].split("/")[0].split(":")[0] == spec.name]
        if spec.name == "name":
            assert not mine  # informational: which preset the rules came from
        elif spec.kind == "teams":
            assert [n for n in names if n.startswith("same_team[")]
        else:
            assert mine, spec.name


@pytest.mark.parametrize("preset", PRESETS)
def test_the_vector_is_one_size_and_ends_with_the_rules_block_of_its_seat(preset: str) -> None:
    rules = get_rules(preset)
    game = Game(rules, seed=3)
    size = observation_size(rules.num_players)
    assert size == observation_size(2) == layout(rules.num_players)[-1][1] + RULES_FEATURES
    for seat in range(rules.num_players):
        vector = Observer(rules.num_players).vector(game, seat)
        assert vector.shape == (size,)
        assert np.array_equal(vector[-RULES_FEATURES:], rules_features(rules, seat))
        assert vector.min() >= -1 and vector.max() <= 1


def test_choices_are_one_hot_and_numbers_scaled() -> None:
    ten = rules_features(get_rules("ten_point"), 0)
    assert block(ten, "joker_rank=") == {"joker_rank=below_jacks": 1, "joker_rank=lowest": 0, "joker_rank=not_trump": 0}
    target = {"target_score/10": 1.0, "target_score:log": np.log(53) / np.log(101)}
    assert block(ten, "target_score") == pytest.approx(target)
    capped = rules_features(get_rules("minnesota", non_bidder_cap=15), 0)
    assert block(capped, "non_bidder_cap") == pytest.approx(
        {"non_bidder_cap/10": 1.0, "non_bidder_cap:log": np.log(16) / np.log(101), "non_bidder_cap:none": 0}
    )
    assert block(ten, "non_bidder_cap") == {"non_bidder_cap/10": 0, "non_bidder_cap:log": 0, "non_bidder_cap:none": 1}


def test_the_seating_is_encoded_from_each_seat() -> None:
    """Three teams of two at six seats: from any seat, the partner sits three places on, and nobody else."""
    rules = get_rules("ten_point_6p", teams=[[0, 3], [1, 4], [2, 5]])
    for seat in range(6):
        pairs = {name for name, v in block(rules_features(rules, seat), "same_team").items() if v}
        assert pairs == {"same_team[0,3]", "same_team[1,4]", "same_team[2,5]"}
    four = get_rules("ten_point")  # two teams of two: relative seats 0 and 2, 1 and 3; slots 4 and 5 are nobody
    pairs = {n for n, v in block(rules_features(four, 1), "same_team").items() if v}
    assert pairs == {"same_team[0,2]", "same_team[1,3]"}
    alone = get_rules("ten_point_5p")
    assert not any(block(rules_features(alone, 2), "same_team").values())
    assert TEAM_SEATS == MAX_SEATS


def test_a_house_rule_changes_the_block_and_nothing_else() -> None:
    plain, house = get_rules("ten_point"), get_rules("ten_point", target_score=21)
    game_a, game_b = Game(plain, seed=5), Game(house, seed=5)
    a, b = Observer(4).vector(game_a, 0), Observer(4).vector(game_b, 0)
    differ = np.flatnonzero(a != b)
    start = observation_size(4) - RULES_FEATURES
    assert differ.size and differ.min() >= start  # at 0 to 0 the scores and needs read alike: 0, a hand or more
    assert {feature_names()[i - start] for i in differ} == {"target_score:log"}  # 21 and 52 are both past 10


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_older_layouts_map_into_the_current_one_block_by_block(players: int) -> None:
    wide = {name: (start, size) for name, start, size in layout(players)}
    positions = older_positions(players, 2)
    assert len(set(positions.tolist())) == observation_size(players, 2)  # one place each
    for name, start, size in compact_layout(players):
        assert positions[start] == wide[name][0]  # each block at the start of its own block
        assert size <= wide[name][1]
    assert np.array_equal(older_positions(players, 1), positions[: observation_size(players, 1)])


def test_a_network_of_an_older_rules_block_reads_each_feature_at_its_name() -> None:
    names = feature_names()
    older = [n for n in names if not n.startswith("joker_follows_trump")]  # a block from before that option
    positions = input_positions(4, OBSERVATION_VERSION, older)
    assert positions is not None and len(positions) == observation_size(4) - (len(names) - len(older))
    start = observation_size(4) - RULES_FEATURES
    moved = positions[start:] - start
    assert [names[i] for i in moved] == older
    assert input_positions(4, OBSERVATION_VERSION, names) is None  # today's: nothing to move
    with pytest.raises(ValueError, match="'gone=1', which no rule option declares now"):
        input_positions(4, OBSERVATION_VERSION, [*older, "gone=1"])
    with pytest.raises(ValueError, match="observation layout version 9 is unknown"):
        input_positions(4, 9)


def test_the_pages_state_todays_sizes() -> None:
    root = Path(__file__).parent.parent
    page = (root / "docs" / "observation.md").read_text()
    assert f"float32[{observation_size(4)}]" in page and f"`81 S + 392 + {RULES_FEATURES}`" in page
    assert f"| `rules` | {RULES_FEATURES} |" in page and f"**{OBSERVATION_VERSION}**" in page
    for other in (root / "README.md", root / "docs" / "environment.md"):
        assert f"float32[{observation_size(4)}]" in other.read_text(), other


@pytest.mark.parametrize(
    ("preset", "changes"),
    [
        ("schmier", {"deuce_points": 60}),  # a hand may award 66 points: 3.3 times the block's unit of 20
        ("schmier", {"num_players": 2, "dealer_steals": True, "match_end": "hands"}),  # a dealer draws 40 cards
    ],
)
def test_every_input_stays_in_the_envs_box_under_the_largest_house_rules(preset: str, changes: dict) -> None:
    """Found by random rule sets through the env: these two left the box it declares ([-1, 1]), which libraries
    that check or scale by the bounds rely on. The counts and the points saturate at 1."""
    env = smear_env.raw_env(rules=get_rules(preset, **changes))
    env.reset(seed=2)
    rng, most_drawn = np.random.default_rng(2), 0
    for agent in env.agent_iter(max_iter=2000):
        obs, _, terminated, truncated, _ = env.last()
        most_drawn = max(most_drawn, *env.game.drawn_counts)
        assert env.observation_space(agent).contains(obs)
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.game.rules.max_hand_points > 20 or most_drawn > 24  # each case reaches what it is here for
