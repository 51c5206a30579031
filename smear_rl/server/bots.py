"""Rules and bots as the service names them: parsed once, checked, capped, and asked with the seat's memory.

* ``rules``: a preset name (``"minnesota"``, ``"bohemian_schneider"``) or
  ``{"preset": name, <option>: <value>, ...}`` with house rules.
* ``bot``: a name from :func:`agents.registry.agent_names` with options after a
  colon (``"search:samples=48"``), ``"neural"`` for the shipped agent that plays the
  rules (``"neural_search"``: its bids with search's card play), or the name of
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

Memory: every cache here is bounded, whatever clients send: rule sets parsed (256 texts),
shared bots (``--bot-cache``, one per bot spec and rule set) and bots remembered between
stateless decisions (``--remembered-bots``) drop their least recently used entries, so
twenty thousand calls with twenty thousand house rules cost no more than 256.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from agents.base import Agent, Decision
from agents.neural_agent import NeuralAgent, Policy, load_policy
from agents.registry import agent_names, agent_options, make_agent
from agents.schneider_search import SchneiderSearchAgent
from agents.search_bot import SearchAgent
from agents.shipped import neural_policy_path, shipped_policy_path, shipped_presets, universal_policy_path
from smear_env import list_presets
from smear_env.rules import Rules, get_rules
from smear_env.schneider.game import GAME_NAME as SCHNEIDER
from smear_env.schneider.game import SchneiderRules
from smear_rl.server.errors import RequestError
from smear_rl.server.limits import Settings
from smear_rl.server.workers import PersistentCodec

K = TypeVar("K")
V = TypeVar("V")

#: bots whose move is a function of the view alone (no RNG, no memory between decisions)
PURE_BOTS = frozenset({"rule", "bold"})
#: bots that search (costly): they run in the search pool, capped by the settings
SEARCH_BOTS = frozenset({"search", "searchbid", "neural_search"})
NEURAL = "neural"
#: bots built on the preset's shipped network: offered only where it was trained for exactly these rules
SHIPPED_NETWORK_BOTS = (NEURAL, "neural_search")


class Lru(Generic[K, V]):
    """At most ``size`` entries; reading one makes it the newest, adding one past the size drops the oldest.
    Safe to share between threads."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)


#: characters of a rules spec at most, as JSON (every option of a preset written out takes about 1500)
MAX_RULES_TEXT = 4096


def rules_key(spec: Any) -> str:
    """A canonical text of a rules spec (for caches and table records)."""
    return json.dumps(spec, sort_keys=True, separators=(",", ":"))


def parse_rules(spec: Any) -> Rules | SchneiderRules:
    """Rules from a request's ``rules`` field; 422 naming the problem and the presets."""
    if not isinstance(spec, str | dict):
        raise RequestError(f'rules {spec!r}: expected a preset name or {{"preset": name, ...options}}', "rules")
    try:
        key = rules_key(spec)
    except RecursionError:
        raise RequestError("rules: nested too deeply: expected a preset name and options", "rules") from None
    if len(key) > MAX_RULES_TEXT:
        message = f"rules: {len(key)} characters, more than any preset and its options need ({MAX_RULES_TEXT})"
        raise RequestError(message, "rules")
    try:
        return _parse_rules(key)
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


@functools.lru_cache(maxsize=256)
def rules_text(rules: Rules | SchneiderRules) -> str:
    """The text :func:`parse_rules` reads back as ``rules`` (every option written out): how a table's rules travel to
    a worker, a few dozen bytes that the worker parses once, instead of the pickled rule set on every bot move."""
    options = {name: value for name, value in rules.to_dict().items() if name != "name"}
    return rules_key({"preset": rules.name, **options})


def rules_from_text(text: str) -> Rules | SchneiderRules:
    """The rules :func:`rules_text` wrote (parsed once per process and text)."""
    return _parse_rules(text)


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
        self._shared: Lru[tuple[str, Any], Agent] = Lru(settings.bot_cache)
        self.memory = BotMemory(settings.remembered_bots)

    def policy_paths(self) -> list[str]:
        """Every network file this service may load: the shipped agents' and the exported ones."""
        universal = universal_policy_path()
        shipped = [str(shipped_policy_path(preset)) for preset in shipped_presets()]
        return shipped + ([str(universal)] if universal else []) + list(self.exported.values())

    def names(self, rules: Rules | SchneiderRules) -> list[str]:
        """Every bot name usable on ``rules`` (neural where a shipped agent plays them: the preset's own, or the
        universal agent elsewhere; exported agents only where they fit)."""
        names = [n for n in agent_names(preset_of(rules)) if n not in SHIPPED_NETWORK_BOTS]
        candidates = [*SHIPPED_NETWORK_BOTS, *sorted(self.exported)] if isinstance(rules, Rules) else []
        return names + [n for n in candidates if self._fits(n, rules)]

    def _fits(self, name: str, rules: Rules) -> bool:
        try:
            path = self.exported.get(name) or neural_policy_path(rules)
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
                agent = self._build(info, rules, seed)
                self._shared.put(key, agent)
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
        s = self.settings
        search = agent if isinstance(agent, SearchAgent) else getattr(agent, "search", None)  # neural_search's
        if isinstance(search, SearchAgent):
            search.time_budget = min(search.time_budget, s.search_time_cap)
            search.samples = min(search.samples, s.max_search_samples)
            search.bid_samples = min(search.bid_samples, s.max_bid_samples)
        if isinstance(agent, SchneiderSearchAgent):  # its first deal is solved whatever the time: depth is capped too
            agent.time_budget = min(agent.time_budget, s.search_time_cap)
            agent.samples = min(agent.samples, s.max_search_samples)
            agent.depth = min(agent.depth, s.max_schneider_depth)
            agent.exact_tricks = min(agent.exact_tricks, s.max_schneider_exact_tricks)
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
        self._bots: Lru[bytes, Agent] = Lru(size)

    def __len__(self) -> int:
        return len(self._bots)

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
        agent = self._bots.get(key)
        return None if agent is None else copy.deepcopy(agent)

    def keep(self, key: bytes, agent: Agent) -> None:
        self._bots.put(key, agent)


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


class PolicyCodec(PersistentCodec):
    """Calls and answers pickled with each network the service knows sent as its file's path: every process loads
    the shipped and exported networks once, so a table's neural bot crosses to a worker in kilobytes instead of
    the megabyte of its weights. A network it does not know (none today) travels whole."""

    def __init__(self, paths: list[str]) -> None:
        self.paths = list(paths)
        self._by_path: dict[str, Policy] | None = None
        self._by_id: dict[int, str] = {}  # id of each network held in _by_path (held, so ids are never reused)

    def __getstate__(self) -> dict[str, Any]:
        return {"paths": self.paths}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["paths"])  # type: ignore[misc]

    def _networks(self) -> dict[str, Policy]:
        if self._by_path is None:
            self._by_path = {}
            for path in self.paths:
                try:
                    self._by_path[path] = load_policy(path)
                except ValueError:  # an unreadable file is refused where it is used
                    continue
            self._by_id = {id(policy): path for path, policy in self._by_path.items()}
        return self._by_path

    def reference(self, obj: Any) -> Any:
        if type(obj) is not Policy:
            return None
        self._networks()
        path = self._by_id.get(id(obj))
        return None if path is None else ("policy", path)

    def resolve(self, ref: Any) -> Any:
        kind, path = ref
        return self._networks()[path]
