"""Stateful tables: the server keeps the game, bots move on their own, remote players move through the API.

A table is one match: its rules, which seats are bots and which remote players,
and a seed. The server deals, checks every move and runs the bots (each seat's bot
lives as long as the table, as in an in-process match). Every change bumps the
table's ``version`` and wakes whoever waits on it (long polls and event streams).

Who sees what (``docs/service-security.md``): a remote seat's token reads that seat's
hand and moves for it, and nothing else; the creator's ``admin_token`` reads any remote
seat, the seed and the full record (every hand's cards) before the match is over, and
closes the table, but moves for nobody; anyone who knows the table's id may watch, and
sees what a spectator at the table would: no hand, no seed. The seed and the record open
to all once the match is over. Each state is built and serialized once per version and
viewer (:meth:`Table.encoded`), however many streams and polls read it.

A table belongs to the client that created it (``owner``): its bots' calls are that
client's turns in the pools, and it counts toward that client's ``--max-tables-per-client``.
Tables nobody has touched for ``table_idle_seconds`` are removed.

Seeds: the table's ``seed`` (drawn at random when not given, and reported to its
creator) seeds the deal; the bot in seat ``k`` is ``make_agent(spec, rules, seed=bot_seed(seed, k))``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from agents.base import Agent, Decision
from smear_env.cards import format_card
from smear_env.game import Game, check_scores
from smear_env.observation import player_view as smear_view
from smear_env.schneider import game as schneider
from smear_env.schneider.observation import player_view as schneider_view
from smear_env.scoring import Trick
from smear_rl.server.bots import BotInfo, Bots, parse_rules
from smear_rl.server.display import display_fields
from smear_rl.server.errors import ApiError, RequestError
from smear_rl.server.history import Tracker, is_schneider, match_scores, parse_move, seat_view_of
from smear_rl.server.limits import Settings
from smear_rl.server.results import hand_result, round_result
from smear_rl.server.workers import WorkerError

log = logging.getLogger("smear_rl.server")

REMOTE = "remote"
#: view keys that belong to the seat looking (its cards and moves): left out of a spectator's view
PRIVATE_KEYS = ("team", "hand", "my_discards", "my_draws", "legal_actions", "legal_moves")


def same_token(given: str | None, expected: str | None) -> bool:
    """Whether a token a client sent is ``expected``, in constant time; any text may come in a header (as bytes: a
    string comparison refuses characters beyond ASCII with an error)."""
    if given is None or expected is None:
        return False
    return secrets.compare_digest(given.encode("utf-8", "surrogatepass"), expected.encode())


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` at a table seeded ``seed``."""
    return (seed * 1_000_003 + seat) % (1 << 63)


@dataclass
class Seat:
    seat: int
    kind: str  # "remote" or "bot"
    bot: BotInfo | None = None
    token: str | None = None
    agent: Agent | None = None


@dataclass
class Table:
    """One match and everything the API shows of it."""

    id: str
    rules: Any  # smear_env Rules, or SchneiderRules
    seed: int
    bot_delay_ms: int
    seats: list[Seat]
    tracker: Tracker
    admin_token: str
    version: int = 0
    touched: float = field(default_factory=time.monotonic)
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    results: list[dict[str, Any]] = field(default_factory=list)
    last_trick: dict[str, Any] | None = None
    error: str | None = None  # a bot failed: the table stops, saying why
    driver: asyncio.Task | None = None
    streams: int = 0
    owner: str = ""  # the client that created it: its bots' calls are that client's, it counts in its quota
    _encoded: dict[tuple[int | None, bool], bytes] = field(default_factory=dict)  # this version's states, as sent
    _events: dict[tuple[int | None, bool], bytes] = field(default_factory=dict)  # the same as server-sent events
    _encoded_version: int = -1

    @property
    def game(self) -> Any:
        return self.tracker.game

    @property
    def teams(self) -> list[list[int]]:
        """The seats of each team, in the order of ``scores`` (Bohemian Schneider: each seat alone)."""
        if is_schneider(self.game):
            return [[seat] for seat in range(schneider.NUM_PLAYERS)]
        return [list(seats) for seats in self.rules.team_seats]

    def touch(self) -> None:
        self.touched = time.monotonic()

    def is_over(self) -> bool:
        return self.game.is_over or self.error is not None

    # ------------------------------------------------------------------ what a seat sees
    def encoded(self, seat: int | None, admin: bool = False) -> bytes:
        """:meth:`state` as JSON bytes, built once per version and viewer however many readers ask for it."""
        if self._encoded_version != self.version:
            self._encoded, self._events, self._encoded_version = {}, {}, self.version
        key = (seat, admin or self.game.is_over)
        data = self._encoded.get(key)
        if data is None:
            data = self._encoded[key] = json.dumps(self.state(seat, admin=admin)).encode()
        return data

    def event(self, seat: int | None, admin: bool = False) -> bytes:
        """The server-sent event carrying :meth:`encoded`, built once per version and viewer like it."""
        self.encoded(seat, admin)
        key = (seat, admin or self.game.is_over)
        frame = self._events.get(key)
        if frame is None:
            frame = self._events[key] = b"id: %d\nevent: state\ndata: %s\n\n" % (self.version, self._encoded[key])
        return frame

    def state(self, seat: int | None, log_from: int = 0, admin: bool = False) -> dict[str, Any]:
        """Everything ``seat`` may see (``None``: a spectator), as the protocol documents it; the seed only to the
        ``admin`` (the table's creator) until the match is over."""
        game = self.game
        view = (schneider_view if is_schneider(game) else smear_view)(game, seat if seat is not None else 0)
        if seat is None:
            view = {k: v for k, v in view.items() if k not in PRIVATE_KEYS} | {"seat": None}
        on_turn = seat is not None and game.current_player == seat and not self.is_over()
        entries = self.public_log(seat, log_from)
        return {
            "id": self.id,
            "version": self.version,
            "preset": self.rules.name,
            "rules": self.rules.to_dict(),
            "seed": self.seed if admin or game.is_over else None,
            "bot_delay_ms": self.bot_delay_ms,
            "seats": [{"seat": s.seat, "kind": s.kind, "bot": s.bot.spec if s.bot else None} for s in self.seats],
            "seat": seat,
            "hand_number": len(self.tracker.hands) - 1,
            "dealer": game.dealer,
            "current_player": game.current_player,
            "your_turn": on_turn,
            "legal_moves": view.get("legal_moves", []) if on_turn else [],
            "legal_actions": view.get("legal_actions", []) if on_turn else [],
            "view": view,
            "last_trick": self.last_trick,
            "teams": self.teams,
            "scores": match_scores(game),
            "hand_results": self.results,
            "log": entries,
            "log_size": self.moves(),
            "match_over": game.is_over,
            "winners": sorted(game.winners),
            "error": self.error,
            **display_fields(self.rules, view),  # hand_groups, categories: what a page draws
        }

    def moves(self) -> int:
        """Events of the match so far (its log's length)."""
        return sum(len(events) for events in self.tracker.hands)

    def public_log(self, seat: int | None, start: int = 0) -> list[dict[str, Any]]:
        """Every event of the match from the ``start``-th on, as ``seat`` sees it, each with its hand number (the
        events before ``start`` are skipped, not built and dropped: a poll for the newest few costs a few)."""
        out: list[dict[str, Any]] = []
        for hand, events in enumerate(self.tracker.hands):
            if start >= len(events):
                start -= len(events)
                continue
            out += [{"hand": hand, **seat_view_of(event, seat)} for event in events[start:]]
            start = 0
        return out

    # ------------------------------------------------------------------ changes
    def apply(self, action: int) -> None:
        """Apply a legal action (the engine checks it: ``ValueError``, nothing changed), noting tricks and results."""
        hand = len(self.tracker.hands) - 1
        trick, result = self._apply_schneider(action) if is_schneider(self.game) else self._apply_smear(action)
        if trick is not None:
            leader, plays, winner = trick
            cards = [[s, format_card(c)] for s, c in plays]
            self.last_trick = {"hand": hand, "leader": leader, "cards": cards, "winner": winner}
        if result is not None:
            self.results.append(result)
        self.version += 1

    def _apply_smear(self, action: int) -> tuple[Trick | None, dict[str, Any] | None]:
        """The trick the move completed and the hand it scored, as the engine recorded them (None: none)."""
        game = self.game
        hand, scored, tricks = len(self.tracker.hands) - 1, game.hands_played, len(game.completed_tricks())
        self.tracker.apply(action)
        if game.hands_played > scored:  # the last trick ended the hand: its result keeps the tricks
            newest = game.hand_results[-1]  # read, not changed (results() would copy every hand so far)
            return newest.tricks[-1], hand_result(newest, len(self.results), self.tracker.dealers[hand])
        done = game.completed_tricks()
        return (done[-1] if len(done) > tricks else None), None

    def _apply_schneider(self, action: int) -> tuple[Trick | None, dict[str, Any] | None]:
        """The trick the move completed (the engine keeps no trick past its round) and the round it scored."""
        game = self.game
        seat, trick, rounds = game.current_player, list(game.trick), len(game.round_results)
        self.tracker.apply(action)
        done = None
        if trick:  # the follower's card completes the trick
            leader, led = trick[0]
            winner = seat if schneider.follower_wins(led, action) else leader
            done = Trick(leader, ((leader, led), (seat, action)), winner)
        if len(game.round_results) == rounds:
            return done, None
        return done, round_result(game.round_results[-1], len(self.results), list(game.scores))


class BotRunner(Protocol):
    """Where tables' bots decide (:class:`smear_rl.server.pools.Pools`)."""

    async def decide(
        self, bot: BotInfo, agent: Any, rules: Any, view: dict[str, Any], owner: str
    ) -> tuple[Decision, Any]: ...


class TableStore:
    """The open tables, their limits (in all and per client) and their bots' turns."""

    def __init__(self, settings: Settings, bots: Bots, pools: BotRunner) -> None:
        self.settings, self.bots, self.pools = settings, bots, pools
        self.tables: dict[str, Table] = {}
        self.streams = 0
        self._owned: Counter[str] = Counter()  # open tables per client
        self._watching: Counter[str] = Counter()  # open event streams per client
        self._next_move: dict[str, float] = {}  # per client with tables: when its tables' next bot move may be made

    # ------------------------------------------------------------------ create, find, close
    def create(
        self,
        rules_spec: Any,
        seat_specs: list[Any],
        seed: int | None,
        bot_delay_ms: int,
        start: MatchStart | None = None,
        owner: str = "",
    ) -> Table:
        """A new table for ``owner``, its bots on their way; ``start`` resumes a match (its scores, hands played,
        dealer)."""
        s = self.settings
        self.expire()
        if self._owned[owner] >= s.max_tables_per_client:
            message = (
                f"you hold {self._owned[owner]} open tables, this server's limit per client: "
                "close one (DELETE with its admin_token) or let one finish"
            )
            raise ApiError(429, "table_quota", message)
        if len(self.tables) >= s.max_tables:
            raise ApiError(503, "tables_full", f"this server holds at most {s.max_tables} tables: retry later")
        rules = parse_rules(rules_spec)
        n = schneider.NUM_PLAYERS if isinstance(rules, schneider.SchneiderRules) else rules.num_players
        if not isinstance(seat_specs, list) or len(seat_specs) != n:
            raise RequestError(f"seats: expected a list of {n} entries, one per seat ('remote' or a bot)", "seats")
        if not 0 <= bot_delay_ms <= s.max_bot_delay_ms:
            raise RequestError(f"bot_delay_ms {bot_delay_ms}: expected 0..{s.max_bot_delay_ms}", "bot_delay_ms")
        seed = secrets.randbits(62) if seed is None else seed
        game = new_game(rules, seed, start or MatchStart())
        seats = [self._seat(k, spec, rules, seed) for k, spec in enumerate(seat_specs)]
        table = Table(
            secrets.token_urlsafe(9),
            rules,
            seed,
            bot_delay_ms,
            seats,
            Tracker(game),
            secrets.token_urlsafe(18),
            owner=owner,
        )
        self.tables[table.id] = table
        self._owned[owner] += 1
        self.drive(table)
        return table

    def _seat(self, k: int, spec: Any, rules: Any, seed: int) -> Seat:
        if spec == REMOTE:
            return Seat(k, REMOTE, token=secrets.token_urlsafe(18))
        try:
            info = self.bots.info(spec, rules)
            agent = self.bots.make(info, rules, bot_seed(seed, k), shared=info.pure)  # a bot with memory: its own
        except RequestError as err:
            raise RequestError(f"seats[{k}]: {err.message}", f"seats[{k}]") from None
        return Seat(k, "bot", info, agent=agent)

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            idle = self.settings.table_idle_seconds
            message = f"no table {table_id!r} here: it never existed, was closed, or expired ({idle:g} s idle)"
            raise ApiError(404, "unknown_table", message)
        table.touch()
        return table

    def close(self, table: Table) -> None:
        if table.driver is not None:
            table.driver.cancel()
        if self.tables.pop(table.id, None) is not None:
            self._owned[table.owner] -= 1
            if not self._owned[table.owner]:
                del self._owned[table.owner]
                self._next_move.pop(table.owner, None)

    def expire(self) -> int:
        """Remove tables idle past the limit (an open event stream keeps a table alive); how many went."""
        now = time.monotonic()
        idle = [t for t in self.tables.values() if not t.streams and now - t.touched > self.settings.table_idle_seconds]
        for table in idle:
            self.close(table)
        return len(idle)

    # ------------------------------------------------------------------ who may look
    def is_admin(self, table: Table, token: str | None) -> bool:
        return same_token(token, table.admin_token)

    def check_seat(self, table: Table, seat: int | None, token: str | None, moving: bool = False) -> None:
        """403/422 unless ``token`` opens ``seat``: to read, the seat's token or the admin token; to move, the
        seat's token alone."""
        if seat is None:
            if moving:
                raise RequestError("seat: say which seat moves", "seat")
            return
        if not 0 <= seat < len(table.seats):
            raise RequestError(f"seat {seat} is not a seat: expected 0..{len(table.seats) - 1}", "seat")
        entry = table.seats[seat]
        if entry.kind != REMOTE:
            raise ApiError(
                409 if moving else 403,
                "bot_seat",
                f"seat {seat} is played by the bot {entry.bot.spec!r}"  # type: ignore[union-attr]
                + ("" if moving else ": its hand is private; leave seat out for a spectator's view"),
                "seat",
            )
        own = same_token(token, entry.token)
        if own or (not moving and self.is_admin(table, token)):
            return
        if moving and self.is_admin(table, token):
            message = f"the admin_token reads seats but moves for none: seat {seat} moves with its own token"
        else:
            message = f"seat {seat}'s token is missing or wrong: send it as 'Authorization: Bearer <token>'"
        raise ApiError(403, "bad_token", message, "token")

    def open_stream(self, table: Table, client: str) -> Callable[[], None]:
        """Count one event stream of ``client`` on ``table`` (429 past the client's quota, 503 past the server's);
        the function returned gives the slot back (once, however often it is called)."""
        s = self.settings
        if self._watching[client] >= s.max_streams_per_client:
            message = (
                f"you hold {self._watching[client]} event streams open, this server's limit per client: "
                "close one, or poll with ?after=&wait="
            )
            raise ApiError(429, "stream_quota", message)
        if self.streams >= s.max_streams:
            raise ApiError(
                503,
                "too_many_streams",
                f"{s.max_streams} event streams are open (this server's limit): poll with ?after=&wait= instead",
            )
        self.streams += 1
        table.streams += 1
        self._watching[client] += 1
        open_ = [True]

        def release() -> None:
            if open_.pop() if open_ else False:
                self.streams -= 1
                table.streams -= 1
                self._watching[client] -= 1
                if not self._watching[client]:
                    del self._watching[client]

        return release

    # ------------------------------------------------------------------ moves
    async def move(self, table: Table, seat: int, move: Any) -> None:
        """A remote seat's move: 409 when it is not that seat's turn, 422 (nothing changed) when illegal."""
        game = table.game
        if table.is_over():
            raise ApiError(409, "match_over", "the match is over" + (f": {table.error}" if table.error else ""))
        if game.current_player != seat:
            raise ApiError(409, "not_your_turn", f"it is seat {game.current_player}'s turn, not seat {seat}'s", "seat")
        action = self._action(table, move)
        try:
            self._apply(table, action)
        except ValueError as err:
            raise RequestError(str(err), "move", "illegal_move") from None
        await self._changed(table)
        self.drive(table)

    def _apply(self, table: Table, action: int) -> None:
        """Apply a move; a match that reaches ``max_table_moves`` stops there, as a failed bot stops it.

        Each state a table sends holds its whole log: without an end, a match to a huge target
        played out by bots would make every read of it, and the event loop, ever slower.
        """
        table.apply(action)
        limit = self.settings.max_table_moves
        if not table.game.is_over and table.moves() >= limit:
            table.error = (
                f"the match reached this server's limit of {limit} moves a table: "
                "open a new table with its scores and hands_played to play on"
            )
            table.version += 1

    @staticmethod
    def _action(table: Table, move: Any) -> int:
        if isinstance(move, int) and not isinstance(move, bool):
            return move
        if not isinstance(move, str):
            raise RequestError(f"move {move!r}: expected notation such as 'play AS', or an action id", "move")
        try:
            return parse_move(table.rules, move)
        except ValueError as err:
            raise RequestError(str(err), "move", "illegal_move") from None

    async def _changed(self, table: Table) -> None:
        async with table.changed:
            table.changed.notify_all()

    async def wait(self, table: Table, after: int, seconds: float) -> None:
        """Until the table's version passes ``after`` or ``seconds`` go by."""
        async with table.changed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(table.changed.wait_for(lambda: table.version > after), seconds)

    # ------------------------------------------------------------------ bots
    def drive(self, table: Table) -> None:
        """Let the bots on turn move, one after another, each after the table's delay."""
        if table.driver is None or table.driver.done():
            table.driver = asyncio.get_running_loop().create_task(self._run_bots(table))

    async def _run_bots(self, table: Table) -> None:
        """Each bot on turn decides in a worker, as its owner's call; a bot that fails stops the table, saying which
        and how (the details go to the server's log, not to the players)."""
        while not table.is_over():
            entry = table.seats[table.game.current_player]
            if entry.kind == REMOTE or entry.bot is None:
                return
            if table.bot_delay_ms:
                await asyncio.sleep(table.bot_delay_ms / 1000)
            await self._bot_turn(table.owner)
            game, seat = table.game, entry.seat
            view = (schneider_view if is_schneider(game) else smear_view)(game, seat)
            version = table.version
            try:
                decision, entry.agent = await self.pools.decide(entry.bot, entry.agent, table.rules, view, table.owner)
                if table.version != version:
                    continue  # the table changed meanwhile (it cannot, but never apply a stale move)
                self._apply(table, decision.action)
            except (ApiError, WorkerError, ValueError) as err:  # a bot failing is a bug: stop this table, keep serving
                log.error("table %s: the bot in seat %d (%s) failed: %s", table.id, seat, entry.bot.spec, err)
                how = err.message if isinstance(err, ApiError) else "it raised an error"
                table.error = f"the bot in seat {seat} ({entry.bot.spec}) failed: {how}"
                table.version += 1
            await self._changed(table)

    async def _bot_turn(self, owner: str) -> None:
        """Wait, if need be, so that all of ``owner``'s tables together make at most ``max_bot_moves_per_client``
        bot moves a second (a tenth of a second's worth may come at once). A bot move costs the event loop too (its
        view, its state for every reader): without this, twenty tables of bots playing flat out would take a share
        of it that no queue of workers can give back."""
        rate = self.settings.max_bot_moves_per_client
        now = asyncio.get_running_loop().time()
        at = max(self._next_move.get(owner, now), now - 0.1)
        self._next_move[owner] = at + 1 / rate
        if at > now:
            await asyncio.sleep(at - now)


def is_schneider_rules(rules: Any) -> bool:
    return isinstance(rules, schneider.SchneiderRules)


@dataclass(frozen=True)
class MatchStart:
    """Where a table's match starts: the first dealer, and for a match resumed part-way, its scores (one per team)
    and the hands already played."""

    dealer: int = 0
    scores: list[int] | None = None
    hands_played: int = 0


def new_game(rules: Any, seed: int, start: MatchStart) -> Any:
    """The table's game from ``start``, checked by the engine: 422 naming the field it refuses."""
    n = schneider.NUM_PLAYERS if is_schneider_rules(rules) else rules.num_players
    if not 0 <= start.dealer < n:
        raise RequestError(f"dealer {start.dealer} is not a seat: expected 0..{n - 1} ({n} players)", "dealer")
    if is_schneider_rules(rules):
        if any(start.scores or ()) or start.hands_played:
            raise RequestError(
                "a Bohemian Schneider table starts a new match: its engine takes no starting scores or rounds",
                "scores" if any(start.scores or ()) else "hands_played",
            )
        return schneider.Game(rules, seed=seed, dealer=start.dealer)
    scores = None
    if start.scores is not None:
        try:
            scores = check_scores(rules, start.scores)
        except ValueError as err:
            raise RequestError(str(err), "scores") from None
    try:
        return Game(rules, seed=seed, dealer=start.dealer, scores=scores, hands_played=start.hands_played)
    except ValueError as err:  # what is left for the engine to refuse: hands_played past a fixed-length match
        raise RequestError(str(err), "hands_played") from None
