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

from agents.card_features import CARD_FEATURE_SETS, CARD_FEATURES, card_features
from smear_env.actions import PLAY_BASE
from smear_env.cards import NUM_CARDS
from smear_env.rules import Rules

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


#: the card head's sizes: features it reads per card (one of CARD_FEATURE_SETS), hidden width of its shared
#: card encoder, and of the code it shares with the trunk
CARD_HEAD = {"features": CARD_FEATURES, "width": 64, "size": 32}


def card_head_sizes(head: object) -> dict[str, int]:
    """A checkpoint's ``card_head`` entry, checked: this version's sizes, with any feature set it can read."""
    if (
        not isinstance(head, dict)
        or head.get("features") not in CARD_FEATURE_SETS
        or {**head, "features": CARD_FEATURES} != CARD_HEAD
    ):
        wanted = {**CARD_HEAD, "features": " or ".join(map(str, CARD_FEATURE_SETS))}
        raise ValueError(f"checkpoint card head {head!r} is not this version's {wanted}")
    return dict(head)


class CardHeadNet(PolicyValueNet):
    """The MLP plus a card head: each card's play logit gains ``g(trunk) . phi(its features)``, one
    function for all 54 cards (``agents.card_features`` says why).

    It reads the observation with each card's features appended (:func:`card_head_input`), computed
    once per vector rather than inside every forward pass. The head starts at zero, so a card-head
    network made from a plain one (:meth:`from_plain`) plays exactly as it did.
    """

    def __init__(
        self, obs_size: int, num_actions: int, hidden: list[int], seed: int = 0, features: int = CARD_FEATURES
    ) -> None:
        super().__init__(obs_size, num_actions, hidden, seed)
        width, size = CARD_HEAD["width"], CARD_HEAD["size"]
        self.features = features  # how many of agents.card_features' features per card it reads
        gen = torch.Generator().manual_seed(seed + 1)
        self.card_phi = nn.Sequential(nn.Linear(features, width), nn.ReLU(), nn.Linear(width, size))
        self.card_g = nn.Linear(self.policy.in_features, size)
        self.card_bias = nn.Linear(size, 1)
        for layer in (self.card_phi[0], self.card_phi[2]):
            nn.init.orthogonal_(layer.weight, gain=2**0.5, generator=gen)
            nn.init.zeros_(layer.bias)
        for layer in (self.card_g, self.card_bias):
            nn.init.zeros_(layer.weight)
            nn.init.zeros_(layer.bias)

    @classmethod
    def from_plain(cls, net: PolicyValueNet, seed: int = 0, features: int = CARD_FEATURES) -> CardHeadNet:
        """``net`` with a card head that adds nothing yet (the same logits and values)."""
        out = cls(net.obs_size, net.num_actions, net.hidden, seed, features)
        out.load_state_dict(net.state_dict(), strict=False)
        return out

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x, cards = obs[:, : self.obs_size], obs[:, self.obs_size :].reshape(len(obs), NUM_CARDS, self.features)
        h = self.trunk(x)
        codes = self.card_phi(cards)  # [B, 54, size]
        card_term = (codes * self.card_g(h)[:, None, :]).sum(-1) + self.card_bias(codes).squeeze(-1)
        logits = self.policy(h)
        logits = torch.cat([logits[:, :PLAY_BASE], logits[:, PLAY_BASE:] + card_term], dim=1)
        return logits.masked_fill(mask == 0, ILLEGAL_LOGIT), self.value(h).squeeze(-1)

    @property
    def sizes(self) -> dict[str, int]:
        """Its ``card_head`` entry in a checkpoint."""
        return {**CARD_HEAD, "features": self.features}


def make_network(
    obs_size: int, num_actions: int, hidden: list[int], seed: int = 0, card_features: int = 0
) -> PolicyValueNet:
    """The plain MLP, or (``card_features`` one of CARD_FEATURE_SETS) the MLP with a card head reading that many."""
    if card_features:
        return CardHeadNet(obs_size, num_actions, hidden, seed, card_features)
    return PolicyValueNet(obs_size, num_actions, hidden, seed)


def network_input(net: PolicyValueNet, obs: np.ndarray, rules: Rules) -> np.ndarray:
    """What ``net`` reads for observation vectors ``[B, obs]``: them, and each card's features for a card head."""
    return card_head_input(obs, rules, net.features) if isinstance(net, CardHeadNet) else obs


def card_head_input(obs: np.ndarray, rules: Rules, features: int = CARD_FEATURES) -> np.ndarray:
    """Observation vectors ``[B, obs]`` with each card's first ``features`` features appended: what a
    :class:`CardHeadNet` reads."""
    return np.concatenate([obs, card_features(obs, rules, features).reshape(len(obs), -1)], axis=1)


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
