"""A trained network that bids and search that plays the cards: the two strengths of our bots in one seat.

On ``ten_point`` (2026-11-23, paired single hands) a seat that bid and discarded as the PPO agent
and played its cards by search took 2.0 points a hand more than the PPO agent and 2.5 more than
search itself: the network's bidding is good and search's card play is better than the network's.
This agent is that seat for any preset with a trained agent. It is as slow as search wherever it
plays a card with a choice (``time_budget`` a decision) and as fast as the network elsewhere.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from agents.base import Agent, Decision
from agents.knowledge import knowledge_from_view
from agents.neural_agent import NeuralAgent
from agents.search_bot import SearchAgent
from smear_env.rules import Rules


class NeuralSearchAgent(Agent):
    """Bids, names trump, calls, discards and leads the trump-naming card by ``network``; plays by search.

    ``network``: a :class:`NeuralAgent` (or an exported ``.npz`` path); ``samples`` and ``time_budget`` are
    search's (:class:`agents.search_bot.SearchAgent`). Search takes every card play where trump is known and
    there is a choice; everything else, the first lead that names trump included, is the network's.
    """

    name = "neural_search"

    def __init__(
        self,
        network: NeuralAgent | str | Path,
        rules: Rules,
        seed: int | None = None,
        samples: int = 24,
        time_budget: float = 0.2,
    ) -> None:
        super().__init__(seed)
        self.rules = rules
        self.network = network if isinstance(network, NeuralAgent) else NeuralAgent(network, rules, seed)
        self.search = SearchAgent(rules, seed, samples=samples, time_budget=time_budget)

    @property
    def policy(self) -> Any:
        """The network's weights (what an evaluation records as the agent's ``weights``)."""
        return self.network.policy

    @property
    def greedy(self) -> bool:
        return self.network.greedy

    @property
    def match_moon(self) -> bool:
        return self.network.match_moon

    @property
    def pass_bias(self) -> float:
        return self.network.pass_bias

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.network.reset(seed)
        self.search.reset(seed)

    def act(self, view: dict[str, Any], observation: dict[str, np.ndarray] | None = None) -> int:
        return self.decide(view, observation).action

    def decide(self, view: dict[str, Any], observation: dict[str, np.ndarray] | None = None) -> Decision:
        """Search's card and its values where search plays; the network's move and probabilities elsewhere."""
        self.legal_actions(view)
        if SearchAgent._searches_play(knowledge_from_view(view, self.rules)):
            return self.search.decide(view, observation)
        return self.network.decide(view, observation)
