"""``joker_follows_trump``: with jokers that are not trumps, a trump lead is answered with a trump or a joker.

A public Smear site plays ``joker_rank = "not_trump"`` with one more duty: when trump is led, a player holding
a trump or a joker must play one of them. Everything else about its jokers stays: a joker beats every plain card
and loses to every trump, it may be played to any trick, and a joker lead obliges nobody.

What the others learn follows the rule: a player who answers a trump lead with a plain card holds neither a trump
nor a joker, so no deal search samples afterwards gives it one (``smear_env.observation.shown_lacks``).

``ten_point_midwest`` with six cards dealt (no discards), any first lead, hearts trump; seats 0.. clockwise,
dealer 0, so seat 1 bids first and, as bidder, leads the first trick.
"""

from __future__ import annotations

import random

import pytest

from agents.knowledge import knowledge_from_game, knowledge_from_view
from agents.search_bot import sample_hands
from smear_env.cards import JOKER2, cards_of, format_cards, mask_of, parse_cards
from smear_env.game import PLAY, Game
from smear_env.observation import Observer, layout, player_view, shown_lacks, shown_voids
from smear_env.rules import get_rules
from tests.fuzz_rules import random_rules
from tests.scripted import hand_of, legal_moves, new_game, play, play_tricks, trick_winners

HOUSE = {"joker_rank": "not_trump", "joker_follows_trump": True, "hand_size": 6, "first_lead": "any"}
HANDS = [
    "TC 9C 8C 7C 2S 3S",  # seat 0: neither a trump nor a joker
    "AC AH KH 6C 7D 8D",  # seat 1: the bidder, leads
    "JK 2H 2C 3C 9S TS",  # seat 2: a joker and a trump
    "JK2 KC QC JC 2D 3D",  # seat 3: a joker and no trump
]


def house_game(hands: list[str] = HANDS, **options: object) -> Game:
    game = new_game("ten_point_midwest", hands=hands, single_hand=True, **{**HOUSE, **options})
    play(game, "bid 2, pass, pass, pass, trump H")
    return game


def plays_of(game: Game, seat: int) -> set[str]:
    return {f"play {card}" for card in hand_of(game, seat)}


def test_on_a_trump_lead_a_joker_with_no_trump_is_the_only_legal_card() -> None:
    game = house_game()
    play_tricks(game, ["AC 3C KC 7C"])  # seat 1 takes the clubs and leads trump
    play(game, "play AH, play 2H")
    assert legal_moves(game) == {"play JK2"}  # seat 3: no trump, so its joker
    play(game, "play JK2")
    assert legal_moves(game) == plays_of(game, 0)  # seat 0 holds neither: anything
    play(game, "play 2S")
    assert trick_winners(game) == [1, 1]  # the trump beats the joker that answered it


def test_the_same_hand_without_the_house_rule_may_play_anything_to_a_trump_lead() -> None:
    game = house_game(joker_follows_trump=False)
    play_tricks(game, ["AC 3C KC 7C"])
    play(game, "play AH, play 2H")
    assert legal_moves(game) == plays_of(game, 3)


def test_on_a_trump_lead_a_joker_and_trumps_are_all_legal_and_nothing_else() -> None:
    game = house_game()
    play_tricks(game, ["AC 3C KC 7C"])
    play(game, "play AH")
    assert legal_moves(game) == {"play JK", "play 2H"}  # seat 2: its trump or its joker, either
    play(game, "play JK, play JK2, play 2S")  # seat 3 still answers with its joker
    play(game, "play KH")
    assert legal_moves(game) == {"play 2H"}  # the joker is gone: the trump
    play(game, "play 2H")
    assert legal_moves(game) == plays_of(game, 3)  # seat 3 holds neither now
    assert trick_winners(game) == [1, 1]


@pytest.mark.parametrize("house_rule", [True, False])
def test_a_plain_lead_is_followed_as_without_the_house_rule(house_rule: bool) -> None:
    game = house_game(joker_follows_trump=house_rule)
    play(game, "play AC")
    assert legal_moves(game) == {"play 2C", "play 3C", "play JK", "play 2H"}  # clubs, or trump in, or the joker
    play(game, "play JK")
    assert legal_moves(game) == {"play KC", "play QC", "play JC", "play JK2"}  # clubs or the joker: no trump held
    play(game, "play KC")
    assert legal_moves(game) == {"play TC", "play 9C", "play 8C", "play 7C"}
    play(game, "play 7C")
    assert trick_winners(game) == [2]  # the joker beats every plain card


def test_a_joker_lead_obliges_nobody_even_once_a_trump_is_played_to_it() -> None:
    hands = ["TC 9C 8C 7C 2S 3S", "JK AC 5C 6C 7D 8D", "2H 2C 3C 9S TS JS", "JK2 KC QC JC 2D 3D"]
    game = house_game(hands)
    play(game, "play JK")
    assert legal_moves(game) == plays_of(game, 2)
    play(game, "play 2H")  # a trump to a joker lead sets no suit to follow
    assert legal_moves(game) == plays_of(game, 3)  # seat 3's joker is not called for
    play(game, "play 2D")
    assert legal_moves(game) == plays_of(game, 0)
    play(game, "play 2S")
    assert trick_winners(game) == [2]  # the trump takes the joker


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({}, r"joker_follows_trump is impossible: needs joker_rank='not_trump'"),
        ({"joker_rank": "lowest"}, r"joker_follows_trump is impossible: needs joker_rank='not_trump'"),
        ({"joker_rank": "not_trump", "jokers": 0}, r"joker_follows_trump is impossible: needs jokers in the deck"),
        ({"joker_rank": "not_trump", "joker_follows_trump": 1}, r"joker_follows_trump=1 is invalid: expected true"),
    ],
)
def test_the_house_rule_is_refused_where_jokers_are_trumps_or_absent(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        get_rules("ten_point", **{"joker_follows_trump": True, **options})


# ------------------------------------------------------------------ what the others learn

# JK2 is never dealt (24 of 54 cards are): at trick 2 it is unseen by everyone.
LEARNING_HANDS = [
    "TC 9C 8C 7D 2S 3S",  # seat 0: answers the trump lead with a spade
    "AH KH QH 5C 6C 7C",  # seat 1: the bidder, leads trump
    "2C 3C 4C 9S TS JS",  # seat 2: answers the trump lead with a spade
    "JK KC QC JC 2D 3D",  # seat 3: must answer with its joker
]


def after_a_trump_trick(house_rule: bool) -> Game:
    game = house_game(LEARNING_HANDS, joker_follows_trump=house_rule)
    play_tricks(game, ["AH 9S JK 2S"])
    return game


def test_a_plain_card_on_a_trump_lead_shows_no_trump_and_no_joker() -> None:
    game = after_a_trump_trick(house_rule=True)
    lacks = shown_lacks(game.tricks, game.trick, game.table, game.rules, game.called_card)
    hearts = game.table.trump_mask
    for seat in (0, 2):
        assert lacks[seat] == hearts | mask_of(parse_cards("JK JK2")), format_cards(cards_of(lacks[seat]))
    assert lacks[3] == 0  # answered with its joker: it may hold the other one, or trumps
    assert lacks[1] == 0  # the leader shows nothing


def test_the_observation_marks_those_seats_void_in_trumps() -> None:
    """Layout 2 has a void slot per suit and none for jokers: the trump slot says "no trump" as before."""
    game = after_a_trump_trick(house_rule=True)
    vector, starts = Observer(4).vector(game, 1), {name: start for name, start, _ in layout(4)}  # seat 1 looks

    def voids_of(seat: int) -> list[float]:
        start = starts[f"voids[{(seat - 1) % 4}]"]  # the block of its seat relative to seat 1
        return vector[start : start + 4].tolist()

    assert voids_of(0) == voids_of(2) == [0, 0, 1, 0]  # C D H S: hearts are trump
    assert voids_of(3) == [0, 0, 0, 0]


def test_without_the_house_rule_a_plain_card_on_a_trump_lead_shows_no_trump_only() -> None:
    game = after_a_trump_trick(house_rule=False)
    lacks = shown_lacks(game.tricks, game.trick, game.table, game.rules, game.called_card)
    assert lacks[0] == lacks[2] == game.table.trump_mask


def test_search_never_deals_the_unseen_joker_to_a_seat_that_showed_it_has_none() -> None:
    counts = {}
    for house_rule in (True, False):
        game = after_a_trump_trick(house_rule)
        seat = game.current_player  # seat 1 leads again
        k = knowledge_from_view(player_view(game, seat), game.rules)
        assert k.lacks == knowledge_from_game(game, seat, game.rules).lacks
        holders = [next((s for s, hand in enumerate(sample_hands(k, random.Random(i))) if hand >> JOKER2 & 1), -1)
                   for i in range(300)]  # fmt: skip
        counts[house_rule] = {s: holders.count(s) for s in (-1, 0, 2, 3)}
    assert counts[True][0] == counts[True][2] == 0  # never to the seats that answered trump with a spade
    assert counts[True][3] > 0 and counts[True][-1] > 0  # but to the joker's player, or out of play
    assert counts[False][0] > 0 and counts[False][2] > 0  # without the house rule they may hold it


def test_shown_lacks_are_the_suit_voids_and_jokers_only_under_the_house_rule() -> None:
    """Over random rule sets (the fuzz test's), half with the house rule forced on: each seat's lacks are the
    cards of the suits ``shown_voids`` marks (trump jokers with the trumps), plus the jokers that are not trumps
    only where the house rule is on."""
    rng, joker_lacks = random.Random(63), {True: 0, False: 0}
    for match in range(40):
        rules, _ = random_rules(rng)
        if match % 2:
            try:
                rules = rules.replace(joker_rank="not_trump", joker_follows_trump=True, protected_discards=())
            except ValueError:
                continue
        game = Game(rules, seed=match, single_hand=True)
        while not game.is_over:
            if game.phase == PLAY:
                voids = shown_voids(game.tricks, game.trick, game.table, rules, game.called_card)
                lacks = shown_lacks(game.tricks, game.trick, game.table, rules, game.called_card)
                free_jokers = game.table.free
                for seat, lacked in enumerate(lacks):
                    suits = [s for s in range(4) if voids >> (4 * seat + s) & 1]
                    assert lacked & ~free_jokers == mask_of(
                        c for s in suits for c in cards_of(game.table.suit_masks[s])
                    )
                    joker_lacks[rules.joker_follows_trump] += bool(lacked & free_jokers)
            game.apply(rng.choice(game.legal_actions()))
    assert joker_lacks[False] == 0 and joker_lacks[True] > 0
