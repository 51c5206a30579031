"""One seat learns, the others are bots: a Gymnasium env for single-agent RL libraries.

``smear_env.single_agent_env("minnesota", seat=0, opponents="rule", reward="hand")``
wraps the AEC env of any preset (Bohemian Schneider too) as a ``gymnasium.Env``: every
``step`` plays the learner's move, then the opponents' moves until the learner is on
turn again or the episode ends. It is what Stable-Baselines3 and sb3-contrib's
``MaskablePPO`` expect:

* observation: the learner's observation vector (``Box``, float32; the layout of the
  AEC env's ``"observation"``); action: ``Discrete`` over the game's action ids;
* :meth:`SingleAgentEnv.action_masks` gives the legal actions (bool), and ``info["action_mask"]``
  the same as int8, for libraries that read masks from the info dict;
* rewards are the AEC env's (``"hand"``: one hand per episode, my side's score change minus
  the best other side's; ``"match"``: +1 / -1 / 0 at the end of a match), so an
  episode's return is exactly the learner's reward in the AEC env.

Opponents are bots by registry name (``"rule"``, ``"search:samples=12"``, a checkpoint
path: see :func:`agents.registry.make_agent`), one per seat, or a list with one entry per
other seat in seat order (names or :class:`agents.base.Agent` objects). They are imported
only when the env is built, so :mod:`smear_env` itself stays free of the bots.

Illegal actions
---------------
With ``illegal_action="penalize"`` (the default) an illegal action ends the episode
(``terminated=True``) with reward ``illegal_penalty`` and ``info["illegal_move"] = True``,
the state otherwise untouched. The default penalty is the worst reward an episode can
give (-1 for a match; for a hand, losing the highest bid while the others take every
point), so an illegal move never pays better than playing on. This is what lets
Gymnasium's ``check_env`` (which steps random actions) and unmasked algorithms run; with
``illegal_action="raise"`` a ``ValueError`` names the move and the legal ones instead.

Seeding
-------
``reset(seed=s)`` makes the episode reproducible: the deals, the opponents' seeds and
the first dealer (drawn for every episode, so a one-hand learner does not always sit
in the same place relative to the deal; ``reset(options={"dealer": k})`` fixes it) all
come from the env's own ``np_random``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from smear_env.checks import as_choice, as_int, as_real, integer_or_none

SEED_BOUND = 2**62  # seeds handed to the AEC env and the opponents are drawn below this


class SingleAgentEnv(gym.Env):
    """A Gymnasium env in which ``seat`` learns and bots play every other seat; see the module docstring."""

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(
        self,
        preset: str | None = None,
        seat: int = 0,
        opponents: str | Any | Sequence[str | Any] = "rule",
        reward: str = "hand",
        illegal_action: str = "penalize",
        illegal_penalty: float | None = None,
        max_hands: int | None = None,
        render_mode: str | None = None,
        **env_options: Any,
    ) -> None:
        import smear_env

        illegal_action = as_choice(illegal_action, "illegal_action", ("penalize", "raise"))
        illegal_penalty = None if illegal_penalty is None else as_real(illegal_penalty, "illegal_penalty")
        self.aec = smear_env.raw_env(
            preset=preset, reward=reward, max_hands=max_hands, render_mode=render_mode, **env_options
        )
        players = self.aec.possible_agents
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(players):
            rules_name = getattr(self.aec.rules, "name", preset)
            raise ValueError(f"seat {seat!r} is not a seat of {rules_name}: expected 0..{len(players) - 1}")
        self.seat = seat
        self.agent = players[seat]
        self.illegal_action = illegal_action
        self.illegal_penalty = _worst_reward(self.aec) if illegal_penalty is None else illegal_penalty
        self.render_mode = render_mode
        self.opponents = _build_opponents(opponents, self.aec, seat)
        self.observation_space = self.aec.observation_space(self.agent)["observation"]
        self.action_space = self.aec.action_space(self.agent)
        self._mask = np.zeros(self.action_space.n, dtype=np.int8)
        self._over = True  # until reset() starts an episode; again once step() ends it

    # ------------------------------------------------------------------ Gymnasium API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new episode. A seed that is not an integer >= 0 (gymnasium's seeding would raise its own ``error.Error``),
        or options the env refuses, raise ``ValueError`` and leave everything as it was, this env's RNG included."""
        if seed is not None:
            seed = as_int(seed, "seed", 0)
        if options is not None and not isinstance(options, dict):
            raise ValueError(
                f"reset options {options!r} are not a dict: expected keys among deal, deals, dealer, scores"
            )
        rng, state = self.np_random, self.np_random.bit_generator.state
        try:
            super().reset(seed=seed)
            options = dict(options or {})
            options.setdefault("dealer", int(self.np_random.integers(len(self.aec.possible_agents))))
            self.aec.reset(seed=int(self.np_random.integers(SEED_BOUND)), options=options)  # checks the options
        except ValueError:
            self.np_random, rng.bit_generator.state = rng, state
            raise
        for bot in self.opponents.values():
            bot.reset(int(self.np_random.integers(SEED_BOUND)))
        _, over = self._play_opponents()
        if over:  # every game here gives each seat a move before it can end; kept as a guard
            raise RuntimeError(f"the episode ended before {self.agent} had a move")
        self._over = False
        return self._observe()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The learner's move, then the bots' up to its next turn. A move that is not legal, or no action id at all
        (a bool, a float, text: never rounded to one), ends the episode with the penalty, or raises ``ValueError``
        naming it under ``illegal_action="raise"``."""
        if self._over:  # stepping on would step the finished inner env, which removes its agents without a word
            raise ValueError(f"the episode is over (or never began): call reset() before step() (got {action!r})")
        number = integer_or_none(action)
        if number is None or not (0 <= number < len(self._mask) and self._mask[number]):
            if self.illegal_action == "raise":
                self.aec.step(action)  # raises ValueError naming the move and the legal ones
            obs, info = self._observe()
            self._over = True
            return obs, self.illegal_penalty, True, False, {**info, "illegal_move": True}
        self.aec.step(number)
        reward = self.aec.rewards[self.agent]
        more, over = self._play_opponents()
        obs, info = self._observe()
        truncated = bool(self.aec.truncations[self.agent])
        terminated = over and not truncated
        self._over = over
        return obs, float(reward + more), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner now (bool), as sb3-contrib's ``MaskablePPO`` asks for them."""
        return self._mask.astype(bool)

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    # ------------------------------------------------------------------ helpers
    def _play_opponents(self) -> tuple[float, bool]:
        """Let the bots move until the learner is on turn; its reward meanwhile, and whether the episode ended."""
        aec, reward = self.aec, 0.0
        while True:
            if aec.terminations[self.agent] or aec.truncations[self.agent]:
                return reward, True
            current = aec.agent_selection
            if current == self.agent:
                return reward, False
            bot = self.opponents[current]
            aec.step(bot.act(aec.view(current), aec.observe(current)))
            reward += aec.rewards[self.agent]

    def _observe(self) -> tuple[np.ndarray, dict[str, Any]]:
        """The learner's observation and info; the mask is kept for :meth:`action_masks` (all zero once over:
        the AEC env gives an agent that is done no legal move)."""
        data = self.aec.observe(self.agent)
        self._mask = data["action_mask"]
        return data["observation"], {"action_mask": self._mask.copy()}


def single_agent_env(
    preset: str | None = None, seat: int = 0, opponents: str | Any | Sequence[str | Any] = "rule", reward: str = "hand",
    **options: Any,
) -> SingleAgentEnv:  # fmt: skip
    """A :class:`SingleAgentEnv`: ``seat`` learns against ``opponents`` on ``preset`` (default ``ten_point``) or on
    ``rules=`` (options as the class)."""
    return SingleAgentEnv(preset, seat, opponents, reward, **options)


def _build_opponents(spec: Any, aec: Any, seat: int) -> dict[str, Any]:
    """One bot per other seat, by agent name: names are built per seat, objects used as given."""
    others = [a for i, a in enumerate(aec.possible_agents) if i != seat]
    if isinstance(spec, str) or not isinstance(spec, Sequence):
        if not isinstance(spec, str) and len(others) > 1:
            raise ValueError(
                "opponents: one bot object cannot play several seats (bots keep per-seat state); "
                f"give a name, or a list of {len(others)} bots, one per other seat"
            )
        spec = [spec] * len(others)
    if len(spec) != len(others):
        raise ValueError(f"opponents: {len(spec)} given for {len(others)} other seats ({', '.join(others)})")
    from agents.registry import make_agent  # the bots sit above smear_env: imported only here

    bots = {}
    for name, entry in zip(others, spec):
        bot = make_agent(entry, aec.rules) if isinstance(entry, str) else entry  # house rules reach the bots too
        if not (callable(getattr(bot, "act", None)) and callable(getattr(bot, "reset", None))):
            raise ValueError(f"opponents: {entry!r} is neither an agent name nor an agent (act and reset methods)")
        bots[name] = bot
    return bots


def _worst_reward(aec: Any) -> float:
    """The lowest reward one episode can give the learner in this env's reward mode."""
    if aec.reward_mode == "match":
        return -1.0
    rules = aec.rules
    if hasattr(rules, "max_hand_points"):  # Smear: set on the highest bid (a moon: every point) while others take all
        return -float(max(rules.top_bid, rules.max_hand_points) + rules.max_hand_points)
    from smear_env.schneider.game import MAX_ROUND_SCORE

    return -float(MAX_ROUND_SCORE)
