"""Where each piece of the service's work runs, and whose turn it is: two pools, shared fairly between clients.

* the **bot pool** (``--bot-workers`` processes, and ``--bulk-workers`` more at a lower CPU
  priority for the calls of clients that use more than ``--heavy-share`` of a worker lately)
  answers suggest calls, catalog and replay requests, and makes the tables' cheap bots move;
* the **search pool** (``--search-workers`` processes, at a lower CPU priority) runs
  search, for stateless calls and for tables' search seats alike.

Each pool serves its clients in turn (:class:`~smear_rl.server.fair.FairQueue`): a table's
bots are its creator's calls, so twenty tables seated with search bots get one client's
share of the search pool, and a stateless caller beside them gets another. Stateless search
calls are bounded twice: ``--search-queue-per-client`` for one client (429) and
``--search-queue`` beyond the running ones for everybody (503); tables' calls wait instead,
as many as the tables that hold search seats.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from agents.base import Decision
from smear_rl.server import work
from smear_rl.server.bots import BotInfo, Bots, PolicyCodec, rules_text
from smear_rl.server.errors import ApiError
from smear_rl.server.limits import Settings
from smear_rl.server.workers import Pool, ThreadPool, WorkerPool

#: bytes a call's message may carry beyond the largest body (a table bot's state and view)
MESSAGE_ROOM = 1 << 20


class Pools:
    """The bot and search pools of one server, and the limits on what a client may queue in them."""

    def __init__(self, settings: Settings, bots: Bots) -> None:
        self.settings, self.bots = settings, bots
        codec = PolicyCodec(bots.policy_paths())
        self.cheap = self._pool("bots", settings.bot_workers, settings.bot_threads, settings.bot_call_timeout, codec)
        self.search = self._pool("search", settings.search_workers, 1, settings.search_call_timeout, codec)
        self.stateless_search = 0  # stateless search calls running or waiting (tables' calls apart)
        self._stateless_of: Counter[str] = Counter()  # the same, per client
        if isinstance(self.cheap, ThreadPool) or isinstance(self.search, ThreadPool):
            work.init_worker(settings, bots.exported)  # the threads run the workers' code in this process

    def _pool(self, name: str, processes: int, threads: int, timeout: float, codec: PolicyCodec) -> Pool:
        s = self.settings
        if not processes:
            return ThreadPool(name, threads, timeout)
        search = name == "search"
        return WorkerPool(
            name,
            processes,
            work.init_worker,
            (s, self.bots.exported),
            timeout=timeout,
            max_message=s.max_body_bytes + MESSAGE_ROOM,
            codec=codec,
            nice=s.search_nice if search else 0,
            bulk=0 if search else s.bulk_workers,  # search is all bulk: it runs at search_nice already
            heavy_share=s.heavy_share,
        )

    async def start(self) -> None:
        """Wait until every worker process has started and loaded the shipped agents."""
        await asyncio.gather(self.cheap.start(), self.search.start())

    @property
    def search_waiting(self) -> int:
        return self.search.busy

    async def suggest(self, raw: bytes, client: str) -> tuple[int, bytes] | None:
        """A suggest call's status and JSON answer from the bot pool, or None when its bot searches: then
        :meth:`search_answer` answers it."""
        verdict = await self.cheap.call(work.triage, raw, client=client)
        return None if verdict == work.SEARCH else verdict

    async def search_answer(self, raw: bytes, client: str) -> tuple[int, bytes]:
        """A stateless search call answered in the search pool; 429 or 503 when ``client`` or everybody has as many
        running or waiting as allowed (checked and counted in one step, so a burst cannot slip past)."""
        s = self.settings
        if self._stateless_of[client] >= s.search_queue_per_client:
            message = (
                f"{s.search_queue_per_client} of your search calls are already running or waiting (this server's "
                "limit per client): wait for their answers, or ask a cheaper bot"
            )
            raise ApiError(429, "search_quota", message)
        if self.stateless_search >= max(s.search_workers, 1) + s.search_queue:
            message = (
                f"{self.stateless_search} search calls are already running or waiting (this server's limit): "
                "retry shortly, or ask a cheaper bot"
            )
            raise ApiError(503, "search_busy", message)
        self.stateless_search += 1
        self._stateless_of[client] += 1
        try:
            return await self.search.call(work.answer_raw, raw, client=client)
        finally:
            self.stateless_search -= 1
            self._stateless_of[client] -= 1
            if not self._stateless_of[client]:
                del self._stateless_of[client]

    async def describe_bots(self, rules_text: str, client: str) -> tuple[int, bytes]:
        return await self.cheap.call(work.describe_bots, rules_text, client=client)

    async def replay(self, raw: bytes, client: str) -> tuple[int, bytes]:
        return await self.cheap.call(work.replay_raw, raw, client=client)

    async def decide(
        self, bot: BotInfo, agent: Any, rules: Any, view: dict[str, Any], owner: str
    ) -> tuple[Decision, Any]:
        """A table bot's decision, charged to the table's ``owner``, and the bot as it is after it (a pure bot
        is the workers' own copy: nothing of it travels)."""
        pool = self.search if bot.search else self.cheap
        if bot.pure:
            return await pool.call(work.decide_shared, bot.spec, rules_text(rules), view, client=owner), agent
        return await pool.call(work.decide, agent, view, client=owner)

    def health(self) -> dict[str, dict[str, Any]]:
        return {"bots": self.cheap.health(), "search": self.search.health()}

    def close(self) -> None:
        for pool in (self.cheap, self.search):
            pool.close()
