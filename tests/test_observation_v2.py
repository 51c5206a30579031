"""Observation layout 2: what a play proves (voids), the blocks added to layout 1, views and knowledge.

Trick strings list a trick's cards in play order, its leader first (seat ``leader``, then clockwise).
"""

from __future__ import annotations

import numpy as np
import pytest

import smear_env
from agents.knowledge import knowledge_from_game, knowledge_from_view
from agents.registry import make_agent
from agents.rule_bot import RuleAgent
from smear_env.cards import SUITS, cards_of, format_card, mask_of, parse_cards
from smear_env.game import Deal, Game
from smear_env.observation import (
    SUIT_SLOTS,
    Observer,
    compact_layout,
    layout,
    note_voids,
    observation_size,
    player_view,
    shown_voids,
    vector_from_view,
)
from smear_env.rules import get_rules
from smear_env.trump import trump_table
from tests.scripted import deal_keeping, discard_down, play, play_tricks

PRESETS = smear_env.list_smear_presets()
LAYOUT_1 = ["hand", "my_discards", "played[k]", "trick", "won_mine", "won_others", "called_card", "phase", "trump",
            "dealer", "bidder", "partner", "leader", "bids[k]", "high_bid", "discard_counts", "drawn_counts",
            "tricks_done", "scores", "hands_progress"]  # fmt: skip


def voids_after(trick: str, preset: str = "ten_point", trump: str = "H", *, leader: int = 0, first_trick: bool = False,
                called: str = "", **overrides: object) -> dict[int, str]:  # fmt: skip
    """{seat: the suits it has shown void in} after one trick of ``preset`` (with overrides)."""
    rules = get_rules(preset, **overrides)
    cards = parse_cards(trick)
    plays = [((leader + i) % rules.num_players, card) for i, card in enumerate(cards)]
    called_card = parse_cards(called)[0] if called else -1
    voids = note_voids(0, plays, trump_table(rules, SUITS.index(trump)), rules, first_trick, called_card)
    shown = {seat: "".join(s for i, s in enumerate(SUITS) if voids >> (SUIT_SLOTS * seat + i) & 1)
             for seat in range(rules.num_players)}  # fmt: skip
    return {seat: suits for seat, suits in shown.items() if suits}


# ---------------------------------------------------------------------- what a play proves
def test_a_trump_on_a_side_lead_proves_nothing_under_follow_or_trump_but_a_void_under_strict() -> None:
    assert voids_after("AS 2H 3C KS") == {2: "S"}  # 2H trumps in (allowed holding spades); 3C cannot hold a spade
    assert voids_after("AS 2H 3C KS", follow="strict") == {1: "S", 2: "S"}


def test_a_third_suit_on_a_side_lead_proves_the_led_suit_void_and_nothing_about_trumps() -> None:
    # seat 1 may hold hearts (trumps): void in spades, every card was legal, so it proves no trump void
    assert voids_after("AS 3C 4S 5S") == {1: "S"}


def test_anything_but_a_trump_on_a_trump_lead_proves_no_trump() -> None:
    assert voids_after("AH 3C 2H KS") == {1: "H", 3: "H"}
    assert voids_after("AH 3C 2H KS", follow="strict") == {1: "H", 3: "H"}


def test_the_jick_and_jokers_follow_trump_not_their_printed_suit() -> None:
    assert voids_after("AH JD JK 4H") == {}  # all trumps: the Jick (JD) and the joker follow the trump lead
    assert voids_after("AD JD 3D 4D") == {}  # the JD is a trump on a diamond lead: trumping in proves nothing
    assert voids_after("AD JD 3D 4D", follow="strict") == {1: "D"}  # holding a diamond, it had to follow


def test_a_first_lead_off_trump_proves_the_bidder_holds_none_where_trump_must_be_led() -> None:
    assert voids_after("AS 4S 5S 6S", first_trick=True) == {0: "H"}  # ten_point: the bidder leads trump if able
    assert voids_after("AS 4S 5S 6S") == {}  # a later trick: any lead is free
    assert voids_after("AS 4S 5S 6S", "minnesota", first_trick=True) == {}  # any card may lead trick 1


def test_the_called_partners_forced_card_proves_nothing() -> None:
    trick = "AS KH 4S 5S 6S"  # seat 1 holds the called KH and must play it to the first trick
    assert voids_after(trick, "ten_point_5p", follow="strict", first_trick=True, called="KH") == {0: "H"}
    assert voids_after(trick, "ten_point_5p", follow="strict", first_trick=False, called="KH") == {1: "S"}


def test_plays_read_one_at_a_time_prove_what_the_whole_trick_proves() -> None:
    rules = get_rules("ten_point")
    table = trump_table(rules, SUITS.index("H"))
    plays = [(s, c) for s, c in enumerate(parse_cards("AS 4S 3C 2H"))]
    whole = note_voids(0, plays, table, rules, True, -1)
    voids = 0
    for end in range(1, 5):
        voids = note_voids(voids, plays[:end], table, rules, True, -1, start=end - 1)
    assert voids == whole and whole


def _random_hands(preset: str, seeds: range):
    """Every position of rule-bot and random hands of ``preset`` (the game at each decision)."""
    rules = get_rules(preset)
    for seed in seeds:
        game = Game(rules, seed=seed, single_hand=True)
        bots = [make_agent("rule" if seed % 2 else "random", rules, seed * 7 + s) for s in range(rules.num_players)]
        while not game.is_over:
            yield game
            game.apply(bots[game.current_player].act(player_view(game, game.current_player)))


@pytest.mark.parametrize("preset", PRESETS)
def test_a_shown_void_is_true_of_the_hand_until_the_end_of_it(preset: str) -> None:
    shown = 0
    for game in _random_hands(preset, range(12)):
        voids = shown_voids(game.tricks, game.trick, game.table, game.rules, game.called_card)
        for seat in range(game.num_players):
            for suit in range(4):
                if voids >> (SUIT_SLOTS * seat + suit) & 1:
                    shown += 1
                    assert not game.hands[seat] & game.table.suit_masks[suit], (seat, SUITS[suit])
    assert shown  # the hands did show voids


# ---------------------------------------------------------------------- the vector
def layout_1(n: int) -> list[str]:
    names = [[name.replace("[k]", f"[{k}]") for k in range(n)] if "[k]" in name else [name] for name in LAYOUT_1]
    return [name for group in names for name in group]


def test_layout_2_keeps_every_block_of_layout_1_in_place_and_appends_five() -> None:
    for n in (2, 3, 4, 5, 6):
        blocks = compact_layout(n)
        v1_end = observation_size(n, version=1)
        assert [name for name, start, _ in blocks if start < v1_end] == layout_1(n)
        tail = [name for name, start, _ in blocks if start >= v1_end]
        assert tail == ["out_of_play", *[f"voids[{k}]" for k in range(n)], "my_side", "need", "only_bids_win"]
        assert blocks[-1][1] + blocks[-1][2] == observation_size(n, version=2)
        assert next(start for name, start, _ in blocks if name == "out_of_play") == v1_end
    with pytest.raises(ValueError, match="observation layout version 4 is unknown"):
        observation_size(4, version=4)


#: blocks with one slot per seat: the first ``n`` of their ``MAX_SEATS`` slots are the table's
SEAT_BLOCKS = {"dealer", "bidder", "partner", "leader", "discard_counts", "drawn_counts", "scores", "my_side", "need"}


def block(vector: np.ndarray, n: int, name: str) -> list[float]:
    start, size = next((s, z) for b, s, z in layout(n) if b == name)
    return vector[start : start + (n if name in SEAT_BLOCKS else size)].tolist()


def cards_in(vector: np.ndarray, n: int, name: str) -> set[str]:
    return {format_card(c) for c, bit in enumerate(block(vector, n, name)) if bit}


def test_a_scripted_hand_shows_voids_out_of_play_cards_and_sides_seat_relative() -> None:
    keeps = ["AH KH 4C 5C 6C 7C", "QH 2S 3S 4S 5S 6S", "2H 8C 9C TC JC QC", "3H AS KS QS JS TS"]
    game = deal_keeping("ten_point_midwest", keeps, rest_as_stock=False)
    dealt = [set(names_of(game.hands[seat])) for seat in range(4)]
    play(game, "bid 5, pass, pass, pass, trump H")
    discard_down(game, keeps)  # everyone discards to six (free choice in this preset)
    play_tricks(game, ["QH 2H 3H AH", "4C 2S 8C AS"])  # seat 1 leads; then seats 1 and 3 show they hold no club
    observer = Observer(4)
    for seat in range(4):
        vector = observer.vector(game, seat)
        for k in range(4):
            suits = "".join(s for s, bit in zip(SUITS, block(vector, 4, f"voids[{k}]"), strict=True) if bit)
            assert suits == ("C" if (seat + k) % 4 in (1, 3) else ""), (seat, k)
        assert cards_in(vector, 4, "out_of_play") == dealt[seat] - set(keeps[seat].split())
        assert block(vector, 4, "my_side") == [1.0, 0.0, 1.0, 0.0]
        assert block(vector, 4, "need") == [1.0] * 4 and block(vector, 4, "only_bids_win") == [0.0]


def names_of(mask: int) -> list[str]:
    return [format_card(c) for c in cards_of(mask)]


def five_player_deal(undealt: str) -> Game:
    """ten_point_5p dealt in deck order, 10 cards a seat, leaving ``undealt`` out; dealer 0, so seat 1 bids first."""
    rules = get_rules("ten_point_5p")
    out = set(parse_cards(undealt))
    deck = [c for c in rules.deck if c not in out]
    return Game(rules, seed=0, dealer=0, deals=[Deal([deck[i * 10 : (i + 1) * 10] for i in range(5)], [], [])])


def test_the_called_partner_joins_my_side_and_a_called_card_nobody_holds_is_out_of_play() -> None:
    game = five_player_deal("9H 2C 3C 4C")  # seat 1 holds 2D..JD; seat 3 TH JH QH KH AH 2S..6S
    play(game, "bid 5, pass, pass, pass, pass, trump H, call KH")
    assert game.partner == 3
    for seat, mine in ((1, [1.0, 0.0, 1.0, 0.0, 0.0]), (3, [1.0, 0.0, 0.0, 1.0, 0.0]), (0, [1.0, 0, 0, 0, 0])):
        assert block(Observer(5).vector(game, seat), 5, "my_side") == mine, seat  # seat 1 is 3 to seat 3's left
    alone = five_player_deal("9H 2C 3C 4C")
    play(alone, "bid 5, pass, pass, pass, pass, trump H, call 9H")  # nobody was dealt the 9H: seat 1 plays alone
    for seat in range(5):
        vector = Observer(5).vector(alone, seat)
        assert cards_in(vector, 5, "out_of_play") == {"9H"}
        assert block(vector, 5, "my_side") == [1.0, 0.0, 0.0, 0.0, 0.0]


def test_need_counts_the_points_to_the_target_in_hands_and_only_bids_win_marks_pitch_smudge() -> None:
    game = Game(get_rules("pitch_smudge"), seed=1)
    game.scores = [19, 25]  # team 1 is past the target but can only win on a made bid
    need = block(Observer(4).vector(game, 1), 4, "need")  # seat 1 (team 1) first
    assert need == [0.0, 0.5, 0.0, 0.5]  # team 0 needs 2 of the 4 points a hand awards
    assert block(Observer(4).vector(game, 1), 4, "only_bids_win") == [1.0]
    smear = Game(get_rules("smear"), seed=1)  # ten hands: need is the gap to the leader
    smear.scores = [7, 4]
    assert block(Observer(4).vector(smear, 0), 4, "need") == [0.0, 0.75, 0.0, 0.75]
    assert block(Observer(4).vector(smear, 0), 4, "only_bids_win") == [0.0]
    capped = Game(get_rules("minnesota", non_bidder_cap=15), seed=1)  # defenders never reach the target of 21
    assert block(Observer(4).vector(capped, 0), 4, "only_bids_win") == [1.0]


@pytest.mark.parametrize("preset", PRESETS)
def test_vector_from_view_equals_the_observation_at_every_step(preset: str) -> None:
    rules = get_rules(preset)
    observer = Observer(rules.num_players)
    for game in _random_hands(preset, range(3)):
        for seat in range(rules.num_players):
            assert np.array_equal(observer.vector(game, seat), vector_from_view(player_view(game, seat), rules))


# ---------------------------------------------------------------------- the bots' fast path
@pytest.mark.parametrize("preset", PRESETS)
def test_knowledge_from_the_engine_equals_knowledge_from_the_view(preset: str) -> None:
    rules = get_rules(preset)
    for game in _random_hands(preset, range(4)):
        for seat in range(rules.num_players):
            assert knowledge_from_game(game, seat, rules) == knowledge_from_view(player_view(game, seat), rules)


SEARCH = "search:samples=3,time_budget=60,bid_samples=2"  # bounded by samples, not time: reproducible
BOTS_BY_PRESET = [(p, "rule") for p in ("ten_point", "minnesota", "ten_point_5p", "pitch_smudge", "schmier")]
BOTS_BY_PRESET += [(p, SEARCH) for p in ("ten_point", "minnesota", "pitch_smudge")]  # search is slow on the others
BOTS_BY_PRESET += [("minnesota", "rule:match_moon=true")]


@pytest.mark.parametrize(("preset", "spec"), BOTS_BY_PRESET)
def test_bots_move_the_same_from_the_engine_as_from_the_view(preset: str, spec: str) -> None:
    rules = get_rules(preset)
    hands = 1 if spec.startswith("search") else 6
    for seed in range(hands):
        game = Game(rules, seed=seed, single_hand=True)
        by_view = [make_agent(spec, rules, seed * 10 + s) for s in range(rules.num_players)]
        by_game = [make_agent(spec, rules, seed * 10 + s) for s in range(rules.num_players)]
        assert all(isinstance(bot, RuleAgent) for bot in by_game)
        while not game.is_over:
            seat = game.current_player
            action = by_view[seat].act(player_view(game, seat))
            assert by_game[seat].act_on(knowledge_from_game(game, seat, rules)) == action
            game.apply(action)


def test_acting_on_knowledge_out_of_turn_fails_clearly() -> None:
    rules = get_rules("ten_point")
    game = Game(rules, seed=0)
    idle = (game.current_player + 1) % 4
    with pytest.raises(ValueError, match=f"seat {idle} was asked to act but has no legal move"):
        RuleAgent(rules).act_on(knowledge_from_game(game, idle, rules))
    with pytest.raises(ValueError, match="plays 'ten_point'.*asked to act in 'minnesota'"):
        knowledge_from_game(Game(get_rules("minnesota"), seed=0), 0, rules)


def test_views_written_by_hand_still_parse() -> None:
    rules = get_rules("ten_point")
    game = Game(rules, seed=3)
    view = player_view(game, game.current_player)
    spelled = {**view, "hand": [name.replace("T", "10").lower() for name in view["hand"]]}
    assert knowledge_from_view(spelled, rules) == knowledge_from_view(view, rules)
    assert mask_of(parse_cards(view["hand"])) == knowledge_from_view(spelled, rules).hand
