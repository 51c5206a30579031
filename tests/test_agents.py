"""Bots: legal play through whole matches of every preset, reproducibility, clear errors."""

from __future__ import annotations

import inspect
import re

import pytest

import smear_env
from agents.registry import agent_names, agent_options, make_agent
from agents.rule_bot import estimate_points
from agents.search_bot import SearchAgent, SearchBidAgent
from smear_env import actions as A
from smear_env.cards import mask_of, parse_cards
from smear_env.game import BID, PLAY, TRUMP, Game
from smear_env.observation import player_view
from smear_env.rules import get_rules

PRESETS = smear_env.list_smear_presets()


def play_match(preset: str, names: list[str], seed: int, max_hands: int = 60, make=make_agent) -> Game:
    """A match (capped at ``max_hands``) with agent names per seat (cycled), straight on the engine."""
    rules = get_rules(preset)
    game = Game(rules, seed=seed)
    bots = [make(names[s % len(names)], rules, seed * 100 + s) for s in range(rules.num_players)]
    while not game.is_over and game.hands_played < max_hands:
        seat = game.current_player
        action = bots[seat].act(player_view(game, seat))
        assert action in game.legal_actions()
        game.apply(action)
    return game


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("lineup", [["rule"], ["rule", "random"]])
def test_bots_play_only_legal_moves(preset: str, lineup: list[str]) -> None:
    game = play_match(preset, lineup, seed=7, max_hands=15)
    assert game.hands_played >= 1


def quick_search(name: str, rules, seed: int):
    """Agents by name, with a small search so the suite stays fast."""
    if name == "search":
        return SearchAgent(rules, seed, samples=3, time_budget=0.05, bid_samples=1)
    if name == "searchbid":
        return SearchBidAgent(rules, seed, bid_samples=2)
    return make_agent(name, rules, seed)


@pytest.mark.parametrize("preset", PRESETS)
def test_search_bot_plays_only_legal_moves(preset: str) -> None:
    game = play_match(preset, ["search", "rule"], seed=5, max_hands=2, make=quick_search)
    assert game.hands_played >= 1


@pytest.mark.parametrize("preset", PRESETS)
def test_sparring_bidders_play_only_legal_moves(preset: str) -> None:
    game = play_match(preset, ["bold", "searchbid"], seed=6, max_hands=3, make=quick_search)
    assert game.hands_played >= 1


def test_bold_bids_at_least_what_the_rule_bot_bids_on_every_hand() -> None:
    rules = get_rules("ten_point")
    bold, rule = make_agent("bold", rules, 0), make_agent("rule", rules, 0)
    higher = 0
    for seed in range(200):
        game = Game(rules, seed=seed)
        view = player_view(game, game.current_player)
        bold_bid, rule_bid = bold.act(view), rule.act(view)
        assert bold_bid >= rule_bid  # bid actions are ordered: pass, then the bids, then a moon
        higher += bold_bid != rule_bid
    assert higher > 20  # it really is bolder


@pytest.mark.parametrize("preset", ["ten_point", "minnesota", "ten_point_5p"])
def test_same_seed_same_game(preset: str) -> None:
    a = play_match(preset, ["rule", "random"], seed=3, max_hands=5)
    b = play_match(preset, ["rule", "random"], seed=3, max_hands=5)
    assert a.history == b.history


def test_search_is_reproducible_with_a_sample_budget() -> None:
    rules = get_rules("minnesota")
    runs = []
    for _ in range(2):
        game = Game(rules, seed=2, single_hand=True)
        bots = [SearchAgent(rules, seed=s, samples=4, time_budget=10.0, bid_samples=2) for s in range(4)]
        while not game.is_over:
            game.apply(bots[game.current_player].act(player_view(game, game.current_player)))
        runs.append(game.history)
    assert runs[0] == runs[1]


def test_sampled_hands_respect_what_was_seen() -> None:
    import random as stdlib_random

    from agents.knowledge import knowledge_from_view
    from agents.search_bot import sample_hands

    rules = get_rules("minnesota")
    game = Game(rules, seed=4, single_hand=True)
    bots = [make_agent("rule", rules, s) for s in range(4)]
    while game.phase != 4 or len(game.tricks) < 3:  # into the fourth trick
        game.apply(bots[game.current_player].act(player_view(game, game.current_player)))
    seat = game.current_player
    k = knowledge_from_view(player_view(game, seat), rules)
    for i in range(20):
        hands = sample_hands(k, stdlib_random.Random(i))
        assert hands is not None and hands[seat] == game.hands[seat]
        for s in range(4):
            assert hands[s].bit_count() == game.hands[s].bit_count()
            assert not hands[s] & k.seen & ~k.hand
            assert not hands[s] & k.lacks[s]


def _first_lead_knowledge(preset: str, seed: int):
    """A rule-bot hand of ``preset`` played up to its first card, with the engine and the leader's knowledge."""
    from agents.knowledge import knowledge_from_view

    rules = get_rules(preset)
    game = Game(rules, seed=seed, single_hand=True)
    bots = [make_agent("rule", rules, s) for s in range(rules.num_players)]
    while game.phase != PLAY:
        game.apply(bots[game.current_player].act(player_view(game, game.current_player)))
    return game, knowledge_from_view(player_view(game, game.current_player), rules)


@pytest.mark.parametrize("preset", PRESETS)
def test_cards_nobody_was_dealt_are_counted_from_the_deal_and_draws(preset: str) -> None:
    from agents.search_bot import undealt_count

    for seed in range(3):
        game, k = _first_lead_knowledge(preset, seed)
        held = 0
        for seat in range(game.num_players):
            held |= game.hands[seat] | game.discarded[seat] | game.played[seat]
        never_held = (mask_of(game.rules.deck) & ~held).bit_count()
        called_out = k.called_card >= 0 and k.partner < 0  # seen: the leader knows it is out
        assert undealt_count(k) == never_held - called_out


def test_sampled_hands_leave_trumps_undealt_where_cards_stay_out_but_not_where_all_are_dealt() -> None:
    """Trumps are discarded only when forced, so a trump in play sits in a hand; but on minnesota 14 cards
    are never dealt, and a trump may be among them. On ten_point every card is dealt (the stock goes to the
    bidder), so every unseen trump is in a hand."""
    import random as stdlib_random

    from agents.search_bot import sample_hands

    for preset, some_out in (("minnesota", True), ("ten_point", False)):
        _, k = _first_lead_knowledge(preset, 7)
        unseen_trumps = k.unseen & k.table.trump_mask
        out = []
        for i in range(200):
            hands = sample_hands(k, stdlib_random.Random(i))
            in_hands = 0
            for hand in hands:
                in_hands |= hand
            out.append((unseen_trumps & ~in_hands).bit_count())
        room = sum(k.rules.play_hand_size for s in range(k.n) if s != k.seat)
        if some_out:
            assert 0 < sum(out) / len(out) < unseen_trumps.bit_count(), preset
        elif unseen_trumps.bit_count() <= room:
            assert sum(out) == 0, preset


def test_search_plays_the_card_of_highest_mean_value() -> None:
    from agents.knowledge import knowledge_from_view

    rules = get_rules("ten_point")
    game = Game(rules, seed=3, single_hand=True)
    bots = [make_agent("rule", rules, s) for s in range(4)]
    while game.phase != PLAY or len(game.legal_actions()) < 2:
        game.apply(bots[game.current_player].act(player_view(game, game.current_player)))
    view = player_view(game, game.current_player)
    values = SearchAgent(rules, seed=1, samples=6, time_budget=10).play_values(knowledge_from_view(view, rules))
    assert sorted(A.PLAY_BASE + c for c in values) == sorted(game.legal_actions())
    chosen = SearchAgent(rules, seed=1, samples=6, time_budget=10).act(view) - A.PLAY_BASE
    assert values[chosen] == max(values.values())


def test_agent_asked_out_of_turn_fails_clearly() -> None:
    game = Game("ten_point", seed=1)
    not_on_turn = (game.current_player + 1) % 4
    for name in agent_names("ten_point"):
        with pytest.raises(ValueError, match=f"seat {not_on_turn} was asked to act but has no legal move"):
            make_agent(name, "ten_point", 0).act(player_view(game, not_on_turn))


def test_agent_for_other_rules_fails_clearly() -> None:
    game = Game("minnesota", seed=1)
    bot = make_agent("rule", "ten_point", 0)
    with pytest.raises(ValueError, match="plays 'ten_point' .* asked to act in 'minnesota'"):
        bot.act(player_view(game, game.current_player))


def test_unknown_agent_name_lists_the_choices() -> None:
    expected = (
        "unknown agent 'alphago' for ten_point: expected one of bold, neural, neural_search, random, rule, search, "
        "searchbid"
    )
    with pytest.raises(ValueError, match=expected):
        make_agent("alphago", "ten_point")


@pytest.mark.parametrize(("spec", "meant"), [("serch", "search"), ("rulle:bid_margin=1", "rule"), ("nueral", "neural")])
def test_a_misspelt_agent_name_is_answered_with_the_closest_name(spec: str, meant: str) -> None:
    with pytest.raises(ValueError, match=f"unknown agent '{spec}' for ten_point \\(did you mean '{meant}'\\?\\)"):
        make_agent(spec, "ten_point")


def test_agent_options_after_the_name_reach_the_bot() -> None:
    bot = make_agent("search:samples=48, time_budget=0.5,bid_by=rule", "minnesota", 0)
    assert (bot.samples, bot.time_budget, bot.bid_by) == (48, 0.5, "rule")
    assert isinstance(bot.samples, int) and isinstance(bot.time_budget, float)
    assert make_agent("rule:bid_margin=1", "ten_point", 0).bid_margin == 1
    assert list(agent_options("search"))[:2] == ["samples", "time_budget"]


def test_a_trained_agent_takes_the_options_of_neural_agent_by_name_or_by_path() -> None:
    from agents.neural_agent import NeuralAgent
    from agents.registry import PATH_OPTIONS
    from agents.shipped import shipped_policy_path

    declared = list(inspect.signature(NeuralAgent).parameters)[3:]  # after policy, rules, seed
    assert list(agent_options("neural", "minnesota")) == declared
    assert ["greedy", *PATH_OPTIONS] == declared  # a path's greedy is its sample: prefix
    by_name = make_agent("neural:moon_danger=0.25,pass_bias=1.5", "minnesota", 0)
    by_path = make_agent(f"{shipped_policy_path('minnesota')}:moon_danger=0.25,pass_bias=1.5", "minnesota", 0)
    for agent in (by_name, by_path):
        assert (agent.moon_thresholds[2], agent.pass_bias) == (0.25, 1.5)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("search:depth=3", "unknown option 'depth': expected one of samples, time_budget,"),
        ("search:samples=many", "option samples='many' is not an integer like its default 24"),
        ("search:time_budget=", "option 'time_budget=' is not key=value"),
        ("search:samples=8,samples=9", "option 'samples' is given twice"),
        ("random:samples=8", "'random' takes no options"),
        ("search:bid_by=guess", "bid_by 'guess' is not a bidding method"),
    ],
)
def test_bad_agent_options_fail_clearly(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        make_agent(spec, "ten_point", 0)


def test_rule_bot_beats_random_on_ten_point_and_minnesota() -> None:
    for preset in ("ten_point", "minnesota"):
        wins = 0
        for seed in range(6):
            rule_team = seed % 2
            lineup = ["rule", "random"] if rule_team == 0 else ["random", "rule"]
            game = play_match(preset, lineup, seed, max_hands=200)
            wins += game.winners == frozenset({rule_team})
        assert wins >= 5, f"rule-based won only {wins}/6 matches against random on {preset}"


def test_strong_trump_hand_estimates_above_weak() -> None:
    rules = get_rules("minnesota")
    strong = mask_of(parse_cards("AH KH JH 2H TH 9H 3C 4C 5C"))
    weak = mask_of(parse_cards("3H 4C 5C 6D 7D 8S 9S 4S 5S"))
    assert estimate_points(strong, rules, suit=2) > estimate_points(weak, rules, suit=2) + 1.5


def test_search_bidding_last_bids_only_what_wins() -> None:
    """A made bid scores the points taken, not the bid: with nobody left to outbid, bid the least."""
    rules = get_rules("ten_point")
    seen_bids = 0
    for seed in range(40):
        game = Game(rules, seed=seed, single_hand=True)
        while game.current_player != game.dealer:
            game.apply(A.PASS if A.PASS in game.legal_actions() else game.legal_actions()[0])
        bot = SearchAgent(rules, seed=seed, bid_samples=4)
        action = bot.act(player_view(game, game.dealer))
        numeric = [a for a in game.legal_actions() if A.BID_BASE < a <= A.MAX_BID_ACTION]
        if action != A.PASS:
            seen_bids += 1
            assert action == min(numeric)
    assert seen_bids >= 5


@pytest.mark.parametrize("preset", ["ten_point", "minnesota", "pitch_smudge", "schmier"])
def test_later_bidders_are_modelled_as_the_rule_bot_bids(preset: str) -> None:
    """An opponent still to bid outbids the first bid X exactly when search's model says it will."""
    from agents.knowledge import knowledge_from_view
    from agents.search_bot import _later_threat

    rules = get_rules(preset)
    outbids = holds = 0
    for seed in range(12):
        opening = Game(rules, seed=seed, single_hand=True)
        first = opening.current_player
        k = knowledge_from_view(player_view(opening, first), rules)
        threat = _later_threat(k, opening.deals[-1])
        for action in [a for a in opening.legal_actions() if A.BID_BASE < a <= A.MAX_BID_ACTION]:
            game = Game(rules, seed=seed, single_hand=True)
            game.apply(action)
            outbid = False
            while game.phase == BID:  # opponents bid as the rule bot, partners pass
                seat = game.current_player
                if k.is_friend(seat):
                    game.apply(A.PASS)
                    continue
                reply = make_agent("rule", rules, seed).act(player_view(game, seat))
                outbid |= reply != A.PASS
                game.apply(reply)
            assert outbid == (threat > action - A.BID_BASE), (seed, action)
            outbids += outbid
            holds += not outbid
    assert outbids and holds  # both cases occur


@pytest.mark.parametrize("option", ["bid_risk", "outbid_risk"])
def test_search_risk_options_outside_zero_to_one_fail_clearly(option: str) -> None:
    with pytest.raises(ValueError, match=rf"{option} 1.0 is out of range: expected a finite number in \[0.0, 1.0\)"):
        SearchAgent("ten_point", seed=0, **{option: 1.0})


def test_search_bids_as_the_rule_bot_where_rollout_bidding_lost() -> None:
    """On minnesota search bids and names trump as the rule bot (its rollouts bid worse there), a little bolder."""
    from agents.rule_bot import RuleAgent
    from agents.search_bot import RULE_BID_MARGINS

    rules = get_rules("minnesota")
    assert SearchAgent(rules, seed=0).bid_margin == RULE_BID_MARGINS["minnesota"] < RuleAgent(rules).bid_margin
    assert SearchAgent(rules, seed=0, bid_margin=0.5).bid_margin == 0.5
    decisions = 0
    for seed in range(15):
        game = Game(rules, seed=seed, single_hand=True)
        search = SearchAgent(rules, seed=seed, bid_samples=2)
        rule = RuleAgent(rules, seed, bid_margin=RULE_BID_MARGINS["minnesota"], match_moon=True)
        while game.phase in (BID, TRUMP):
            view = player_view(game, game.current_player)
            action = rule.act(view)
            assert search.act(view) == action
            game.apply(action)
            decisions += 1
    assert decisions >= 30
    assert SearchBidAgent(rules, seed=0).bid_by == "rollouts"  # the search bidder bids by rollouts everywhere
    assert SearchAgent("ten_point", seed=0).bid_by == "rollouts"


def test_search_bid_by_rollouts_overrides_the_preset_default() -> None:
    rules = get_rules("minnesota")
    differs = 0
    for seed in range(15):
        game = Game(rules, seed=seed, single_hand=True)
        view = player_view(game, game.current_player)
        rollouts = SearchAgent(rules, seed=seed, bid_samples=2, bid_by="rollouts")
        differs += rollouts.act(view) != make_agent("rule", rules, seed).act(view)
    assert differs >= 1


def test_search_unknown_bidding_method_fails_clearly() -> None:
    with pytest.raises(ValueError, match="bid_by 'guess' is not a bidding method: expected one of"):
        SearchAgent("ten_point", seed=0, bid_by="guess")


@pytest.mark.parametrize("name", ["random", "rule", "search:samples=8,time_budget=30"])
def test_decide_makes_the_move_act_makes_from_the_same_seed(name: str) -> None:
    """A front end may call decide() for a hint: same seed, same state, same move as act().

    Search runs with a time budget that never binds, so its sample count, not the clock, ends each decision.
    """
    env = smear_env.raw_env(preset="ten_point")
    env.reset(seed=5)
    by_act = make_agent(name, "ten_point", seed=3)
    by_decide = make_agent(name, "ten_point", seed=3)
    scored = 0
    for agent in env.agent_iter(max_iter=60):
        if env.terminations[agent]:
            break
        view = env.view(agent)
        decision = by_decide.decide(view)
        assert decision.action == by_act.act(view)
        if decision.scores is not None:
            scored += 1
            assert set(decision.scores) == set(view["legal_actions"])
            assert decision.kind in ("probability", "value")
        env.step(decision.action)
    assert name == "rule" or scored > 0
