"""Rules and bots as the service names them: parsed once, checked, capped, and asked with the seat's memory.

* ``rules``: a preset name (``"minnesota"``, ``"bohemian_schneider"``) or
  ``{"preset": name, <option>: <value>, ...}`` with house rules.
* ``bot``: a name from :func:`agents.registry.agent_names` with options after a
  colon (``"search:samples=48"``), ``"neural"`` for the agent shipped for the
  preset (``"neural_search"``: its bids with search's card play), or the name of
  an exported agent the server was started with
  (``smear-rl serve --agent mine=runs/x.npz``). Paths are never taken from a
  request: a client cannot make the server read its files.

Seeding (the protocol's ``seed``): a request's bot is built fresh as
``make_agent(bot, rules, seed)``; a bot whose move depends on more than the view
(random, search, a sampling neural agent, Bohemian Schneider's rule bot) first makes
this seat's earlier decisions of the hand on their views, as that bot seeded at the
start of the hand would have. So an answer is a pure function of its request, and a
client that sends one seed per hand gets exactly the moves of an in-process bot
``reset(seed)`` at the start of each hand (search's plan from its bid carries to its
trump and first lead, as it does in process). Bots whose move is a function of the
view alone (rule, bold, greedy neural agents) skip that and are shared.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from agents.base import Agent, Decision
from agents.neural_agent import NeuralAgent, load_policy
from agents.registry import agent_names, agent_options, make_agent
from agents.search_bot import SearchAgent
from agents.shipped import shipped_policy_path
from smear_env import list_presets
from smear_env.rules import Rules, get_rules
from smear_env.schneider.game import GAME_NAME as SCHNEIDER
from smear_env.schneider.game import SchneiderRules
from smear_rl.server.errors import RequestError
from smear_rl.server.limits import Settings

#: bots whose move is a function of the view alone (no RNG, no memory between decisions)
PURE_BOTS = frozenset({"rule", "bold"})
#: bots that search (costly): they run in the search pool, capped by the settings
SEARCH_BOTS = frozenset({"search", "searchbid", "neural_search"})
NEURAL = "neural"
#: bots built on the preset's shipped network: offered only where it was trained for exactly these rules
SHIPPED_NETWORK_BOTS = (NEURAL, "neural_search")


def rules_key(spec: Any) -> str:
    """A canonical text of a rules spec (for caches and table records)."""
    return json.dumps(spec, sort_keys=True, separators=(",", ":"))


def parse_rules(spec: Any) -> Rules | SchneiderRules:
    """Rules from a request's ``rules`` field; 422 naming the problem and the presets."""
    if not isinstance(spec, str | dict):
        raise RequestError(f'rules {spec!r}: expected a preset name or {{"preset": name, ...options}}', "rules")
    try:
        return _parse_rules(rules_key(spec))
    except ValueError as err:
        raise RequestError(f"rules: {err}", "rules") from None


@functools.lru_cache(maxsize=256)
def _parse_rules(key: str) -> Rules | SchneiderRules:
    spec = json.loads(key)
    options = dict(spec) if isinstance(spec, dict) else {"preset": spec}
    preset = options.pop("preset", None)
    if not isinstance(preset, str):
        raise ValueError(f"expected a preset name in 'preset', one of {', '.join(list_presets())}")
    if preset == SCHNEIDER:
        return SchneiderRules().replace(**options)
    return get_rules(preset, **options)


def preset_of(rules: Rules | SchneiderRules) -> str:
    return rules.name


@dataclass(frozen=True)
class BotInfo:
    """What the service needs to know of a bot spec before running it."""

    spec: str
    name: str
    pure: bool  # the move is a function of the view alone: shared instance, no replay of earlier decisions
    search: bool  # runs in the search pool, capped


class Bots:
    """Makes the bots a request names, for given rules, within the service's limits."""

    def __init__(self, settings: Settings, exported: dict[str, str] | None = None) -> None:
        self.settings = settings
        self.exported = dict(exported or {})  # extra agent name -> exported .npz path
        self._shared: dict[tuple[str, Any], Agent] = {}
        self.memory = BotMemory()

    def names(self, rules: Rules | SchneiderRules) -> list[str]:
        """Every bot name usable on ``rules`` (neural and exported agents only where they fit exactly)."""
        names = [n for n in agent_names(preset_of(rules)) if n not in SHIPPED_NETWORK_BOTS]
        candidates = [*SHIPPED_NETWORK_BOTS, *sorted(self.exported)] if isinstance(rules, Rules) else []
        return names + [n for n in candidates if self._fits(n, rules)]

    def _fits(self, name: str, rules: Rules) -> bool:
        try:
            path = self.exported.get(name) or shipped_policy_path(rules.name)
            return not load_policy(path).differences(rules)
        except ValueError:
            return False

    @staticmethod
    def is_search(spec: Any) -> bool:
        """Whether a bot spec names a search bot (which runs in its own pool)."""
        return isinstance(spec, str) and spec.partition(":")[0] in SEARCH_BOTS

    def info(self, spec: Any, rules: Rules | SchneiderRules) -> BotInfo:
        """The bot a spec names; 422 (field ``bot``) naming the bots usable on these rules."""
        if not isinstance(spec, str) or not spec:
            raise RequestError(f"bot {spec!r}: expected a bot name such as 'rule' or 'search:samples=48'", "bot")
        name, _, options = spec.partition(":")
        if name not in agent_names(preset_of(rules)) and name not in self.exported:
            raise RequestError(f"bot {name!r} is not a bot here: expected one of {', '.join(self.names(rules))}", "bot")
        greedy = "greedy=false" not in options.replace(" ", "").lower()
        pure = name in PURE_BOTS or ((name == NEURAL or name in self.exported) and greedy)
        if isinstance(rules, SchneiderRules):
            pure = False  # its rule bot breaks ties with its RNG
        return BotInfo(spec, name, pure, name in SEARCH_BOTS)

    def make(self, info: BotInfo, rules: Rules | SchneiderRules, seed: int, shared: bool = True) -> Agent:
        """A bot ready to ask: one shared instance when pure (and ``shared``), else fresh with ``seed``; search
        capped by the settings."""
        if info.pure and shared:
            key = (info.spec, rules)  # rules are immutable and hashable: house variants get their own bot
            agent = self._shared.get(key)
            if agent is None:
                agent = self._shared[key] = self._build(info, rules, seed)
            return agent
        return self._build(info, rules, seed)

    def _build(self, info: BotInfo, rules: Rules | SchneiderRules, seed: int) -> Agent:
        try:
            if info.name in self.exported:
                greedy = info.pure or "greedy=false" not in info.spec.replace(" ", "").lower()
                agent: Agent = NeuralAgent(self.exported[info.name], rules, seed, greedy)  # type: ignore[arg-type]
            else:
                agent = make_agent(info.spec, rules if isinstance(rules, Rules) else SCHNEIDER, seed)
        except ValueError as err:
            raise RequestError(f"bot {info.spec!r}: {err}", "bot") from None
        search = agent if isinstance(agent, SearchAgent) else getattr(agent, "search", None)  # neural_search's
        if isinstance(search, SearchAgent):
            s = self.settings
            search.time_budget = min(search.time_budget, s.search_time_cap)
            search.samples = min(search.samples, s.max_search_samples)
            search.bid_samples = min(search.bid_samples, s.max_bid_samples)
        return agent

    def describe(self, rules: Rules | SchneiderRules) -> list[dict[str, Any]]:
        """Each usable bot with its options and defaults, for ``GET /v1/bots``."""
        out = []
        for name in self.names(rules):
            options = {"greedy": True} if name in self.exported else agent_options(name, preset_of(rules))
            kind = "neural" if name in SHIPPED_NETWORK_BOTS or name in self.exported else "bot"
            out.append({"name": name, "kind": kind, "options": options, "search": name in SEARCH_BOTS})
        return out


class BotMemory:
    """Bots as they are after a decision, keyed by everything that led to it, so that a client asking move after
    move does not pay again for the seat's earlier decisions (search would redo its bid's rollouts and its
    searched cards). A least-recently-used store of ``size`` bots; a bot taken out is a copy."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._bots: OrderedDict[bytes, Agent] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def keys(body: dict[str, Any], decisions: list[int]) -> list[bytes]:
        """One key per earlier decision (at those event indices), then one for the decision asked now."""
        fixed = [body["bot"], body["rules"], body.get("seed", 0), body["seat"], body["dealer"], body.get("scores"),
                 body.get("hands_played", 0), body["hand"]]  # fmt: skip
        digest = hashlib.blake2b(json.dumps(fixed, sort_keys=True).encode(), digest_size=20)
        keys, events = [], body["events"]
        for i, event in enumerate(events):
            if i in decisions:
                keys.append(digest.copy().digest())
            digest.update(json.dumps(event, sort_keys=True).encode())
        return [*keys, digest.digest()]

    def recall(self, key: bytes) -> Agent | None:
        with self._lock:
            agent = self._bots.get(key)
            if agent is None:
                return None
            self._bots.move_to_end(key)
        return copy.deepcopy(agent)

    def keep(self, key: bytes, agent: Agent) -> None:
        with self._lock:
            self._bots[key] = agent
            self._bots.move_to_end(key)
            while len(self._bots) > self.size:
                self._bots.popitem(last=False)


def decide_with_memory(
    bots: Bots,
    info: BotInfo,
    rules: Rules | SchneiderRules,
    body: dict[str, Any],
    view: dict[str, Any],
    earlier: list[tuple[int, dict[str, Any]]],
) -> Decision:
    """The bot's decision at ``view``; a bot that is not pure first makes this seat's ``earlier`` decisions of the
    hand (or resumes, as remembered, after the last of them it already made for an earlier request)."""
    seed = body.get("seed", 0)
    if info.pure:
        return bots.make(info, rules, seed).decide(view)
    keys = BotMemory.keys(body, [i for i, _ in earlier])
    agent, start = None, 0
    for k in range(len(earlier) - 1, -1, -1):
        agent = bots.memory.recall(keys[k])
        if agent is not None:
            start = k + 1
            break
    if agent is None:
        agent = bots.make(info, rules, seed)
    for _, past in earlier[start:]:
        agent.decide(past)
    decision = agent.decide(view)
    bots.memory.keep(keys[-1], agent)
    return decision
