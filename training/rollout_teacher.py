"""A teacher for card play that values each card by playing the hand out with the student's own network.

Why: search's values (deals solved open, every seat seeing every hand) were the
wrong target for the ``schmier`` network: a fit to them lowered its regret by
search's values on its own positions against the rule bot (0.33 to 0.19 points a
decision), cut its win rate against that bot from 0.74 to 0.50 of 200 games, and
did not help it against search (docs/results.md). A rollout teacher asks instead:
in deals consistent with what this seat has seen (search's sampler), what does
the hand give my side if I play this card and every seat then plays on as the
network would (each seeing only its own observation)? Its greedy choice is one
step of policy improvement against the network's own play, opponents included:
what it teaches is a best response to the network. On ``schmier`` a fit to it
beat the network it came from by 0.56 points a hand, lost 0.37 a hand against
the rule bot and gained nothing against search; a second round gained nothing
more. With a network fitted to search's values in the other sides' seats
(``opponents=FILE``) the same: +0.57 a hand against that network, nothing
against search. The teacher stays as a tool (``--teacher
rollout:samples=N[,opponents=FILE]``): what it improves against is whatever
plays the other seats in its play-outs.

The cost is a clone of the game and a played-out hand per legal card and sample:
about 40 ms a label on ``schmier`` with 8 samples in self-play labelling (60
matches, 5 k labels, in 3.2 to 3.7 minutes of one core).
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from agents.knowledge import Knowledge
from agents.neural_agent import Policy
from agents.search_bot import sample_hands
from smear_env import actions as A
from smear_env.game import PLAY, Game
from smear_env.observation import Observer, action_mask

ROLLOUT = "rollout"  # the teacher spec's name: "rollout", "rollout:samples=8" or "rollout:opponents=x.npz"


@dataclass(frozen=True)
class RolloutSpec:
    """What a ``rollout[:samples=N][,opponents=FILE]`` teacher spec asks for."""

    samples: int = 8  # sampled deals per card
    opponents: str = ""  # network file the other sides play in the play-outs; "" = the student's own


def parse_rollout_spec(spec: str) -> RolloutSpec | None:
    """The rollout teacher ``spec`` asks for; None when it names another teacher."""
    name, _, options = spec.partition(":")
    if name != ROLLOUT:
        return None
    samples, opponents = RolloutSpec.samples, RolloutSpec.opponents
    for option in filter(None, options.split(",")):
        key, _, value = option.partition("=")
        if key == "samples" and value.isdigit() and int(value) >= 1:
            samples = int(value)
        elif key == "opponents" and value:
            opponents = value
        else:
            raise ValueError(f"teacher {spec!r}: option {option!r} is not samples=N (N at least 1) or opponents=FILE")
    return RolloutSpec(samples, opponents)


class RolloutTeacher:
    """Each legal card's mean hand value over sampled deals, the rest of the hand played by ``policy`` on the
    player's side and by ``opponents`` (default: ``policy``) on the others."""

    def __init__(
        self, policy: Policy, num_players: int, samples: int, seed: int = 0, opponents: Policy | None = None
    ) -> None:
        self.policy = policy
        self.opponents = opponents or policy
        self.observer = Observer(num_players)
        self.samples = samples
        self.rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def play_values(self, game: Game, k: Knowledge) -> dict[int, float] | None:
        """The value of each card ``k``'s seat may play now: its side's score change for the hand minus
        the best other side's (search's measure), averaged over the sampled deals (None: no deal fits)."""
        moves = [a - A.PLAY_BASE for a in k.legal]
        totals = dict.fromkeys(moves, 0.0)
        done = 0
        for _ in range(self.samples):
            hands = sample_hands(k, self.rng)
            if hands is None:
                break
            world = sampled_world(game, hands)
            for move in moves:
                totals[move] += self._play_out(world, k.seat, move)
            done += 1
        return {m: total / done for m, total in totals.items()} if done else None

    def _play_out(self, world: Game, seat: int, card: int) -> float:
        game = _light_clone(world)
        hands_before = len(game.hand_results)
        mine = game.sides[seat]
        game.apply(A.PLAY_BASE + card)
        while len(game.hand_results) == hands_before:
            legal = game.legal_mask()
            if legal & (legal - 1) == 0:
                game.apply(legal.bit_length() - 1)
                continue
            player = game.current_player
            mask = action_mask(legal)
            policy = self.policy if game.sides[player] == mine else self.opponents
            logits = policy.logits(self.observer.vector(game, player), mask, rules=game.rules)
            game.apply(int(np.argmax(logits)))
        return game.hand_results[hands_before].hand_reward(seat)


def sampled_world(game: Game, hands: list[int]) -> Game:
    """A copy of ``game`` with ``hands`` (card masks, one per seat) in place of the real ones.

    Under a called partner whose card is not yet played the partner is whoever
    holds that card in these hands (or nobody), as the engine seats it at the
    call: the real one is hidden from the seat the deals were sampled for.
    """
    world = _light_clone(game)
    world.hands = list(hands)
    world._legal = -1  # the cached legal mask was of the real hands
    card = world.called_card
    if card >= 0 and not any(played >> card & 1 for played in world.played):
        holders = [s for s in range(world.num_players) if world.hands[s] >> card & 1]
        world.partner = holders[0] if holders else -1
        world.sides = list(world.teams)
        if world.partner >= 0:
            world.sides[world.partner] = world.sides[world.bidder]
    return world


def _light_clone(game: Game) -> Game:
    """A copy to play on: the match's records (history, deals, results) are copied shallowly and the
    rules and trump table shared, which the hand being played out never changes in place."""
    assert game.phase == PLAY, "rollouts start in card play"
    memo: dict[int, Any] = {id(game.rules): game.rules, id(game.table): game.table}
    for name in ("history", "deals", "hand_results", "_deal_queue"):
        records = getattr(game, name)
        memo[id(records)] = list(records)
    return copy.deepcopy(game, memo)
