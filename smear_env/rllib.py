"""Smear for Ray RLlib: its ``PettingZooEnv`` and action-masking module with no glue.

RLlib's action-masking RL module (``ActionMaskingTorchRLModule`` in
``ray.rllib.examples.rl_modules.classes.action_masking_rlm``) reads observations as
``{"observations": ..., "action_mask": ...}`` and takes the log of the mask, so the
mask must be floats; RLlib's env checker steps sampled actions, which are mostly
illegal. :class:`RLlibObservations` makes the AEC env speak that dialect, and
:func:`rllib_env` builds the whole thing from an env config::

    from ray.tune.registry import register_env
    from smear_env.rllib import rllib_env, shared_policy_config

    register_env("smear", rllib_env)
    config = shared_policy_config(PPOConfig().environment("smear", env_config={"preset": "minnesota"}))

``env_config`` takes the options of :func:`smear_env.env` (``preset``, ``reward``,
``max_hands``, rule options); ``illegal_action`` defaults to ``"penalize"`` here, so
an illegal action ends the episode with ``illegal_penalty`` for the offender instead
of raising inside an env runner. Nothing here imports Ray until :func:`rllib_env` or
:func:`shared_policy_config` is called.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo.utils import BaseWrapper


class RLlibObservations(BaseWrapper):
    """An AEC env whose observations are ``{"observations": float32[...], "action_mask": float32[A]}``."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self._spaces: dict[str, spaces.Dict] = {}

    def observation_space(self, agent: str) -> spaces.Space:
        if agent not in self._spaces:
            inner = self.env.observation_space(agent)
            mask = inner["action_mask"]
            self._spaces[agent] = spaces.Dict(
                {
                    "observations": inner["observation"],
                    "action_mask": spaces.Box(0.0, 1.0, mask.shape, np.float32),
                }
            )
        return self._spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        data = self.env.observe(agent)
        return {"observations": data["observation"], "action_mask": data["action_mask"].astype(np.float32)}

    def view(self, agent: str) -> dict[str, Any]:
        """The player's structured view (see :meth:`smear_env.card_env.CardGameEnv.view`)."""
        return self.env.unwrapped.view(agent)


def rllib_env(config: dict[str, Any] | None = None) -> Any:
    """RLlib's ``PettingZooEnv`` over the Smear env that ``config`` describes (an env creator for ``register_env``)."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    import smear_env

    options = {"illegal_action": "penalize", **dict(config or {})}
    return PettingZooEnv(RLlibObservations(smear_env.raw_env(**options)))


def shared_policy_config(config: Any, policy: str = "shared", model_config: dict[str, Any] | None = None) -> Any:
    """``config`` (an ``AlgorithmConfig``, PPO) with every seat playing one masked policy: self-play.

    Sets the multi-agent mapping (every agent id to ``policy``) and the RL module
    (RLlib's action-masking PPO module, an MLP of ``model_config``, default 256-256).
    """
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    module = RLModuleSpec(
        module_class=ActionMaskingTorchRLModule,
        model_config=model_config or {"head_fcnet_hiddens": [256, 256], "head_fcnet_activation": "relu"},
    )
    return config.multi_agent(
        policies={policy}, policy_mapping_fn=lambda agent_id, episode, **kwargs: policy
    ).rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={policy: module}))
