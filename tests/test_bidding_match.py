"""Bidding by the match score: a bid that wins the match when made, and blocking a side that can go out
only by bidding (agents.match_odds, the rule and search bots' go_out and block options)."""

from __future__ import annotations

import pytest

from agents.knowledge import knowledge_from_game
from agents.match_odds import bidding_threat, made_bid_wins, wins_by_defending
from agents.rule_bot import RuleAgent
from agents.search_bot import SearchAgent
from smear_env import actions as A
from smear_env.game import Deal, Game
from smear_env.observation import player_view
from smear_env.rules import Rules, get_rules
from tests.scripted import play

PITCH = get_rules("pitch_smudge")
ONLY_BIDDERS_GO_OUT = get_rules("six_point", win_requires_made_bid=True)  # house rule: a side wins only by bidding


def table(rules: Rules, my_hand: str, scores: list[int], moves: str, dealer: int = 3) -> Game:
    """A match at ``scores`` (teams 0, 1) after the bids ``moves``, in which seat 0 (team 0) holds ``my_hand``.

    The other hands, the kitty and the stock are the rest of the deck in order.
    """
    from smear_env.cards import parse_cards

    mine = parse_cards(my_hand)
    rest = [c for c in rules.deck if c not in mine]
    size = rules.hand_size
    hands = [mine] + [rest[i * size : (i + 1) * size] for i in range(rules.num_players - 1)]
    left = rest[(rules.num_players - 1) * size :]
    kitty, stock = left[: rules.kitty_size], left[rules.kitty_size :]
    game = Game(rules, seed=0, dealer=dealer, deals=[Deal(hands, kitty, stock)])
    game.scores = list(scores)  # a match in progress (a test's shortcut: the engine starts at zero)
    play(game, moves)
    return game


def bid_of(bot: RuleAgent, game: Game) -> str:
    return A.format_action(bot.act(player_view(game, game.current_player)))


# ---------------------------------------------------------------------- what a made bid does to the match
def test_a_made_bid_wins_when_the_bid_reaches_the_target_and_no_other_side_can_pass_it() -> None:
    ten = get_rules("ten_point")  # both sides reaching 52: the higher wins, a tie the bidder
    assert made_bid_wins(ten, [48, 40], 0, 4)  # at least 52; they reach 46 at most
    assert not made_bid_wins(ten, [48, 50], 0, 4)  # they could take 6 points and end at 56
    assert made_bid_wins(ten, [48, 50], 0, 8)  # 56 at least; the 2 points left give them 52
    assert not made_bid_wins(ten, [40, 0], 0, 10)
    assert made_bid_wins(get_rules("ten_point_midwest"), [18, 20], 0, 3)  # both reaching 21: the made bidder
    assert made_bid_wins(PITCH, [25, 20], 0, 2) and not made_bid_wins(PITCH, [18, 20], 0, 2)
    assert not made_bid_wins(get_rules("smear"), [30, 0], 0, 4)  # ten hands, no target


def test_only_where_a_side_can_win_by_defending_does_defence_count() -> None:
    assert not wins_by_defending(PITCH, [25, 25], 1)  # past the target, yet it must make a bid
    assert wins_by_defending(get_rules("minnesota"), [0, 18], 1) and not wins_by_defending(
        get_rules("minnesota"), [0, 16], 1
    )


@pytest.mark.parametrize(
    ("theirs", "moves", "threat"),
    [
        (22, "bid 2", True),  # past the target, they hold the bid: a made 2 wins them the match
        (22, "pass", True),  # seat 1 (theirs) still bids after me
        (15, "bid 2", False),  # six short: no bid of 2 to 4 takes them there
        (19, "bid 2", True),  # a made 2 is 21, and only bidders go out
    ],
)
def test_a_side_that_goes_out_only_by_a_made_bid_is_a_threat(theirs: int, moves: str, threat: bool) -> None:
    game = table(PITCH, "4C 5D 6H 7S 8C 9D", [10, theirs], moves, dealer=2)  # seat 3 (theirs) bid; seat 0 is on turn
    assert game.current_player == 0
    assert bidding_threat(knowledge_from_game(game, 0, PITCH)) is threat


def test_no_threat_where_the_other_side_could_also_go_out_defending() -> None:
    minnesota = get_rules("minnesota")  # defenders score what they take: blocking the bid does not stop them
    game = table(minnesota, "4C 5D 6H 7S 8C 9D 3C 4D 5H", [10, 19], "bid 2", dealer=2)
    assert not bidding_threat(knowledge_from_game(game, 0, minnesota))


# ---------------------------------------------------------------------- the bots
#: the issue's position: only bidders go out, my side at 25 (past the target of 21), theirs at -30, the high bid
#: 4 so that 5 and 6 are the bids left; this hand's estimate (4.8 points) and search's rollouts (5 made in half the
#: samples, short of the three in four it bids on) make the plain bots pass
ISSUE_HAND = "AH KH JH TH 9H 8H"


def issue_position() -> Game:
    game = table(ONLY_BIDDERS_GO_OUT, ISSUE_HAND, [25, -30], "bid 4", dealer=2)  # seat 3 bid 4; seat 0 to bid
    assert game.current_player == 0 and game.legal_actions() == [A.PASS, A.BID_BASE + 5, A.BID_BASE + 6]
    return game


def test_at_25_to_minus_30_the_plain_bots_pass_where_a_made_bid_wins_the_match() -> None:
    game = issue_position()
    assert bid_of(RuleAgent(ONLY_BIDDERS_GO_OUT, go_out=False), game) == "pass"
    assert bid_of(RuleAgent(ONLY_BIDDERS_GO_OUT), game) == "bid 5"  # the default where only bidders go out


def test_search_bids_to_win_the_match_there_too() -> None:
    game = issue_position()
    assert bid_of(SearchAgent(ONLY_BIDDERS_GO_OUT, seed=1, bid_samples=8, go_out=False), game) == "pass"
    assert bid_of(SearchAgent(ONLY_BIDDERS_GO_OUT, seed=1, bid_samples=8), game) == "bid 5"


@pytest.mark.parametrize(
    ("preset", "overrides", "on"),
    [
        ("pitch_smudge", {}, True),  # only bidders go out: where go_out and block won (docs/bidding.md)
        ("ten_point", {}, False),  # go_out tied there, lost on minnesota and ten_point_midwest
        ("minnesota", {}, False),
        ("ten_point_midwest", {}, False),
        ("six_point", {"win_requires_made_bid": True}, True),  # house rules where only bidders go out
        ("minnesota", {"non_bidder_cap": 15}, True),  # defenders capped below the target: the same
    ],
)
def test_bidding_by_the_match_is_on_by_default_only_where_only_bidders_go_out(
    preset: str, overrides: dict, on: bool
) -> None:
    rules = get_rules(preset, **overrides)
    rule, search = RuleAgent(rules), SearchAgent(rules)
    assert (rule.go_out, rule.block, search.go_out, search.block) == (on, on, on, on)
    forced = RuleAgent(rules, go_out=not on, block=not on)
    assert (forced.go_out, forced.block) == (not on, not on)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"go_out": "yes"}, "go_out 'yes' is not true, false or None"),
        ({"block": 1}, "block 1 is not true, false or None"),
        ({"go_out_margin": float("nan")}, "go_out_margin"),
        ({"block_margin": "1"}, "block_margin"),
    ],
)
def test_bad_bidding_options_fail_clearly(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        RuleAgent("pitch_smudge", **options)


def test_going_out_stays_within_the_estimate() -> None:
    game = table(ONLY_BIDDERS_GO_OUT, "8C 9D TS 7H 8S 9C", [25, -30], "bid 4", dealer=2)  # nothing to make 5 with
    assert bid_of(RuleAgent(ONLY_BIDDERS_GO_OUT, go_out=True), game) == "pass"


def test_the_rule_bot_outbids_a_side_that_goes_out_only_by_bidding() -> None:
    hand = "AH 9H 4C 8D 9S TC"  # an ace and a nine of trump: plain, it would not bid 3
    game = table(PITCH, hand, [10, 22], "bid 2", dealer=2)
    assert bid_of(RuleAgent(PITCH, block=False), game) == "pass"
    assert bid_of(RuleAgent(PITCH, block=True), game) == "bid 3"
    level = table(PITCH, hand, [10, 12], "bid 2", dealer=2)  # nobody is near the target: bid as usual
    assert bid_of(RuleAgent(PITCH, block=True), level) == "pass"


def test_no_bolder_bid_to_go_out_where_a_set_could_lose_the_match() -> None:
    minnesota = get_rules("minnesota")  # defenders score what they take: at 18 they can go out on my failed bid
    hand = "AH KH 7H 4H 9C TS 5D 6D 8S"  # estimate 2.7: bids 2 as usual; a made 3 takes my side from 18 to 21
    assert bid_of(RuleAgent(minnesota, go_out=True), table(minnesota, hand, [18, 5], "pass", dealer=2)) == "bid 3"
    assert bid_of(RuleAgent(minnesota, go_out=True), table(minnesota, hand, [18, 18], "pass", dealer=2)) == "bid 2"
    assert bid_of(RuleAgent(minnesota, go_out=False), table(minnesota, hand, [18, 5], "pass", dealer=2)) == "bid 2"
