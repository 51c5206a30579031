"""The policy-value network shared by every seat, and masked action sampling.

One MLP trunk feeds a policy head over the whole ``Discrete(181)`` action space
and a value head. Illegal actions get a logit of ``-1e9`` before any softmax,
so neither sampling nor the PPO loss ever puts mass on them. Weights are
initialised from an explicit ``torch.Generator``: no global random state.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

ILLEGAL_LOGIT = -1e9  # added in place of an illegal action's logit (finite, so no NaN in the loss)


class PolicyValueNet(nn.Module):
    """MLP trunk, policy logits over all actions, scalar value (the seat's expected hand reward)."""

    def __init__(self, obs_size: int, num_actions: int, hidden: list[int], seed: int = 0) -> None:
        super().__init__()
        self.obs_size, self.num_actions, self.hidden = obs_size, num_actions, list(hidden)
        layers: list[nn.Module] = []
        width = obs_size
        for h in hidden:
            layers += [nn.Linear(width, h), nn.ReLU()]
            width = h
        self.trunk = nn.Sequential(*layers)
        self.policy = nn.Linear(width, num_actions)
        self.value = nn.Linear(width, 1)
        self._init_weights(seed)

    def _init_weights(self, seed: int) -> None:
        """Orthogonal init (PPO practice): small policy head so the first policy is near uniform."""
        gen = torch.Generator().manual_seed(seed)
        gains = [(m, 2**0.5) for m in self.trunk if isinstance(m, nn.Linear)] + [(self.policy, 0.01), (self.value, 1.0)]
        for layer, gain in gains:
            nn.init.orthogonal_(layer.weight, gain=gain, generator=gen)
            nn.init.zeros_(layer.bias)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked logits ``[B, A]`` and values ``[B]``; ``mask`` is 1 for legal actions."""
        x = self.trunk(obs)
        logits = self.policy(x).masked_fill(mask == 0, ILLEGAL_LOGIT)
        return logits, self.value(x).squeeze(-1)


def sample_actions(logits: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One action per row drawn from softmax(logits) by the Gumbel-max trick (masked logits stay out)."""
    return np.argmax(logits + rng.gumbel(size=logits.shape), axis=1)


def log_softmax_np(logits: np.ndarray) -> np.ndarray:
    """Row-wise log-softmax in numpy (float64 for stable log-probabilities)."""
    z = logits.astype(np.float64)
    z -= z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


class NumpyPolicy:
    """The network's policy head evaluated in numpy: faster than torch for one observation at a time."""

    def __init__(self, net: PolicyValueNet) -> None:
        state = {k: v.detach().cpu().numpy().astype(np.float32) for k, v in net.state_dict().items()}
        linears = [i for i, m in enumerate(net.trunk) if isinstance(m, nn.Linear)]
        self.layers = [(state[f"trunk.{i}.weight"].T.copy(), state[f"trunk.{i}.bias"]) for i in linears]
        self.head = (state["policy.weight"].T.copy(), state["policy.bias"])

    def logits(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Masked logits for a batch ``[B, obs]`` (or one vector) of observations."""
        x = obs
        for w, b in self.layers:
            x = np.maximum(x @ w + b, 0.0)
        out = x @ self.head[0] + self.head[1]
        return np.where(mask != 0, out, np.float32(ILLEGAL_LOGIT))
