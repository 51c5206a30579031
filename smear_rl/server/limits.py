"""What bounds the service, declared once: every limit with its default and why, and the command-line options.

A service on the open internet (or a busy LAN party) must stay up under load and
abuse: tables and streams are counted, in all and per client, idle tables expire,
request bodies and histories have a size cap, every call to a worker has a deadline,
and search, the one expensive bot, runs in its own bounded pool of processes at a
lower CPU priority with a cap on its time per decision, so a burst of search calls
queues there while cheap bots keep answering. A *client* is the address a request
comes from (``docs/service-security.md`` says why, and what a proxy must do).
"""

from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass
from pathlib import Path

WEB_DIR = Path(__file__).resolve().parent.parent / "web"


@dataclass(frozen=True)
class Settings:
    """Every limit and setting of the service. Field comments say what each one means."""

    host: str = "127.0.0.1"  # address to bind: loopback only unless asked (0.0.0.0 for every interface)
    port: int = 8000  # TCP port
    max_tables: int = 200  # tables open at once; creating one more answers 503
    table_idle_seconds: float = 1800.0  # a table nobody has read, moved on or streamed for this long is removed
    max_body_bytes: int = 256 * 1024  # suggest and replay bodies above this answer 413
    max_small_body_bytes: int = 16 * 1024  # every other request body (a table, a move) above this answers 413
    max_events: int = 1000  # events in one suggest history (a Smear hand has at most about 150)
    search_time_cap: float = 1.0  # seconds a search decision may take at most (its time_budget is capped here)
    max_search_samples: int = 200  # cap on search's samples per card decision
    max_bid_samples: int = 32  # cap on search's rollout deals per bid (rollouts are not bounded by time)
    max_schneider_depth: int = 4  # cap on Bohemian Schneider search's depth (one deal at 4: 50 ms at most here)
    max_schneider_exact_tricks: int = 8  # cap on its tricks solved to the end (one deal at 8: 20 ms at most here)
    search_workers: int = 1  # processes running search bots (0: threads in the server process, for tests)
    search_queue: int = 16  # search calls waiting at most; beyond, 503 (retry later)
    bot_workers: int = 2  # processes answering cheap suggest calls (random, rule, neural); 0: threads instead
    bulk_workers: int = 1  # more of them at a lower CPU priority (nice +10), for the calls of heavy clients only
    heavy_share: float = 0.1  # a client using more of a worker than this lately is heavy (1.0: a whole worker)
    bot_threads: int = 4  # threads answering cheap calls (suggest, tables' bots, replay) when bot_workers = 0
    max_wait_seconds: float = 60.0  # longest long-poll wait
    max_streams: int = 256  # server-sent event streams open at once
    keepalive_seconds: float = 15.0  # a comment line on idle event streams, so proxies keep them open
    max_bot_delay_ms: int = 5000  # most a table may ask its bots to wait before each move
    max_bot_moves_per_client: int = 100  # bot moves a second at all of one client's tables together; beyond, they wait
    stream_interval_ms: int = 50  # an event stream sends at most one state this often (the newest; 0: every one)
    bot_call_timeout: float = 10.0  # seconds a bot worker may spend on one call before it is replaced (503)
    search_call_timeout: float = 60.0  # the same for a search worker (a call remakes the hand's earlier decisions)
    search_nice: int = 10  # how much lower the search workers' CPU priority is (Unix nice): cheap calls go first
    max_tables_per_client: int = 20  # tables one client may hold open at once; one more answers 429
    max_streams_per_client: int = 16  # event streams one client may hold open at once; one more answers 429
    max_requests_per_client: int = 32  # requests of one client in progress at once (streams apart); more answer 429
    search_queue_per_client: int = 4  # stateless search calls of one client running or waiting; more answer 429
    max_replay_moves: int = 3000  # moves in one replayed record (a long match has about 1000)
    max_table_moves: int = 3000  # moves in one table's match; there it stops (a new table may resume its scores)
    bot_cache: int = 64  # ready bots kept per process (one per pure bot and rule set), least recently used dropped
    remembered_bots: int = 256  # bots kept after a stateless decision so the next of the hand resumes them
    cors_origins: tuple[str, ...] = ()  # origins allowed to call from a browser page elsewhere ("*": any)
    web_dir: Path | None = WEB_DIR  # a folder with index.html is served at / (the web table)

    def replace(self, **changes: object) -> Settings:
        return dataclasses.replace(self, **changes)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """One option per setting (``--max-tables 50``), defaults from :class:`Settings`."""
    defaults = Settings()
    for f in dataclasses.fields(Settings):
        flag = "--" + f.name.replace("_", "-")
        default = getattr(defaults, f.name)
        if f.name == "cors_origins":
            parser.add_argument(flag, nargs="*", default=list(default), help="origins allowed from browsers ('*': any)")
        elif f.name == "web_dir":
            parser.add_argument(flag, type=Path, default=default, help="folder served at / when it holds index.html")
        else:
            parser.add_argument(flag, type=type(default), default=default, help=f"(default {default})")


def settings_from_args(args: argparse.Namespace) -> Settings:
    """Settings from parsed options; ``ValueError`` naming a value out of range."""
    values = {f.name: getattr(args, f.name) for f in dataclasses.fields(Settings)}
    values["cors_origins"] = tuple(values["cors_origins"])
    settings = Settings(**values)
    check(settings)
    return settings


#: numeric settings that may be 0 (every other number must be positive)
MAY_BE_ZERO = frozenset(
    {"search_workers", "bot_workers", "bulk_workers", "max_bot_delay_ms", "search_nice", "stream_interval_ms"}
)


def check(settings: Settings) -> None:
    """Refuse settings that cannot work, naming the option."""
    for f in dataclasses.fields(Settings):
        value = getattr(settings, f.name)
        if f.name == "port" or isinstance(value, bool) or not isinstance(value, int | float):
            continue
        flag = "--" + f.name.replace("_", "-")
        if f.name in MAY_BE_ZERO and value < 0:
            raise ValueError(f"{flag} {value}: cannot be negative")
        if f.name not in MAY_BE_ZERO and not value > 0:  # NaN fails too
            raise ValueError(f"{flag} {value}: expected a positive number")
    if settings.search_nice > 19:
        raise ValueError(f"--search-nice {settings.search_nice}: expected 0..19")
    if not 0 < settings.port < 65536:
        raise ValueError(f"--port {settings.port}: expected 1..65535")
