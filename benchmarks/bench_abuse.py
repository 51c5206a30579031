"""Load test of the bot service under abuse: what well-behaved clients wait, beside abusive ones and alone.

Starts ``smear-rl serve`` (default settings) on a free loopback port, then alternates
*quiet* phases (the well-behaved clients alone) and *abusive* phases (the same clients
beside abusive ones), ``--rounds`` of each, ``--seconds`` a phase. Every client connects
from its own loopback address (any of 127.0.0.0/8 reaches the server), so the server
counts each as a client of its own, as it would separate machines. Nothing leaves the
machine.

Well-behaved clients (this process, measured; raw keep-alive HTTP, on a schedule):

* ``--players`` suggest clients, each asking the rule or the neural bot for a move at real
  ``ten_point`` positions once every ``--pace-ms`` (an open loop: a slow answer does not
  thin the load);
* one person at a table: ``ten_point``, seat 0 remote, rule bots at ``bot_delay_ms`` 0,
  who reads the seat's state every ``--pace-ms`` and moves when it is the seat's turn.

Abusive clients (a child process, not measured; each from its own address):

* **bodies**: suggest bodies just under the size limit, four at a time (65,000 empty
  events, a 256 KB bot name, long moves, wide rules, deep nesting);
* **streams**: a table of rule bots at full speed, watched through as many event streams
  as the server allows one client, asking for more all the time;
* **tables**: as many tables of rule bots at full speed as one client may hold, asking
  for more, each replaced when its match ends;
* **search**: stateless search calls, more at once than one client may queue, and tables
  seated with four search bots;
* **replay**: whole-match replays at their last move, four at a time.

``--abusers`` picks some of them (all by default), to see what each costs the others.
A well-behaved request without an answer within 10 seconds counts as an error.

The abusers' process runs at ``--abuser-nice`` (10): on one machine their own CPU (reading
gigabytes of streams, building bodies) would otherwise be taken from the server, where a
real attacker's is its own machine's. On a machine busy with other people's work,
``--priority -5`` (root) runs the server and the well-behaved clients ahead of it, about as
on a machine of their own; the abusers' work inside the server runs at that priority too.
The table printed has, for each phase, the well-behaved requests' count, p50 and p99
(milliseconds), errors, the server's CPU seconds (its event loop's in parentheses) and each
abuser's answers by status; then, per kind of request, over the rounds, the median p50 and
p99 of the quiet and the abusive phases and the median of each round's ratio (abusive p99 /
quiet p99; the target is at most 2). The suggest answers' own ``ms`` (the time the worker
spent on them) is shown in parentheses: it tells a slower worker from a longer wait for one.
A shared, noisy machine moves both phases of a round alike, which is why rounds alternate
and ratios are taken within a round.

    python benchmarks/bench_abuse.py --rounds 4 --seconds 10
    python benchmarks/bench_abuse.py --rounds 1 --seconds 10 --abusers replay
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import select
import signal
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench_service's helpers, run as a script or imported

from bench_service import free_port, positions, start_server, stop_server, tree_cpu_seconds  # noqa: E402

#: seconds a well-behaved request waits for its answer before it counts as an error
TIMEOUT = 10.0
ABUSERS = {"bodies": "127.0.1.1", "streams": "127.0.1.2", "tables": "127.0.1.3", "search": "127.0.1.4",
           "replay": "127.0.1.5"}  # fmt: skip


# ---------------------------------------------------------------------- a raw keep-alive HTTP client


class Connection:
    """One keep-alive HTTP/1.1 connection from a given local address; answers read by their Content-Length."""

    def __init__(self, port: int, address: str) -> None:
        self.port, self.address = port, address
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: bytes = b"", token: str | None = None) -> tuple[int, bytes]:
        """Status and body of the answer; status 0 when there was none within ``TIMEOUT`` seconds or the connection
        broke (it is opened again for the next request)."""
        try:
            return await asyncio.wait_for(self._request(method, path, body, token), TIMEOUT)
        except (OSError, asyncio.IncompleteReadError, ValueError, TimeoutError):
            self.close()
            return 0, b""

    async def _request(self, method: str, path: str, body: bytes, token: str | None) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port,
                                                                     local_addr=(self.address, 0))  # fmt: skip
        assert self.reader is not None
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(body)}\r\n"
        if body:
            head += "Content-Type: application/json\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        self.writer.write(head.encode() + b"\r\n" + body)
        status = int((await self.reader.readline()).split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return status, await self.reader.readexactly(length)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None


# ---------------------------------------------------------------------- the well-behaved clients


async def on_schedule(pace: float, until: float, step: Any) -> None:
    """Call ``step()`` once every ``pace`` seconds until ``until`` (late steps are not made up)."""
    next_at = time.perf_counter()
    while next_at < until and time.perf_counter() < until:
        await step()
        next_at += pace
        await asyncio.sleep(max(0.0, next_at - time.perf_counter()))


async def player(port: int, address: str, bodies: list[bytes], pace: float, until: float, out: list) -> None:
    connection, k = Connection(port, address), random.randrange(len(bodies))

    async def step() -> None:
        nonlocal k
        k = (k + 1) % len(bodies)
        kind = "suggest neural" if k % 2 else "suggest rule"
        started = time.perf_counter()
        status, data = await connection.request("POST", "/v1/suggest", bodies[k])
        out.append((kind, time.perf_counter() - started, status))
        if status == 200:  # the part of it the worker spent on the answer, as the answer says
            out.append((f"({kind}: in the worker)", json.loads(data)["ms"] / 1e3, status))

    try:
        await on_schedule(pace, until, step)
    finally:
        connection.close()


async def person(port: int, address: str, pace: float, until: float, out: list) -> None:
    """A person at a table of rule bots: reads the seat's state, and moves (the first legal move) on its turn."""
    connection = Connection(port, address)
    table: dict[str, Any] = {}

    async def open_table() -> None:
        body = json.dumps({"rules": "ten_point", "seats": ["remote", "rule", "rule", "rule"]}).encode()
        status, data = await connection.request("POST", "/v1/tables", body)
        if status == 201:
            created = json.loads(data)
            table.update(id=created["id"], token=created["seats"][0]["token"], admin=created["admin_token"])

    async def timed(kind: str, method: str, path: str, body: bytes = b"") -> tuple[int, bytes]:
        started = time.perf_counter()
        status, data = await connection.request(method, path, body, table.get("token"))
        out.append((kind, time.perf_counter() - started, status))
        return status, data

    async def step() -> None:
        if not table:
            await open_table()
            return
        status, data = await timed("table state", "GET", f"/v1/tables/{table['id']}?seat=0")
        state = json.loads(data) if status == 200 else {}
        if state.get("match_over") or status != 200:
            await connection.request("DELETE", f"/v1/tables/{table['id']}", token=table["admin"])
            table.clear()
        elif state["your_turn"]:
            move = json.dumps({"seat": 0, "move": state["legal_moves"][0]}).encode()
            await timed("table move", "POST", f"/v1/tables/{table['id']}/moves", move)

    try:
        await on_schedule(pace, until, step)
    finally:
        if table:
            await connection.request("DELETE", f"/v1/tables/{table['id']}", token=table["admin"])
        connection.close()


def measure(port: int, bodies: list[bytes], players: int, pace: float, seconds: float) -> list[tuple[str, float, int]]:
    out: list[tuple[str, float, int]] = []

    async def main() -> None:
        until = time.perf_counter() + seconds
        addresses = [f"127.0.0.{2 + k}" for k in range(players + 1)]
        await asyncio.gather(
            person(port, addresses[0], pace, until, out),
            *(player(port, address, bodies, pace, until, out) for address in addresses[1:]),
        )

    asyncio.run(main())
    return out


def summary(rows: list[tuple[str, float, int]]) -> dict[str, dict[str, float]]:
    """Per kind, and for all requests together (``all``; a kind in parentheses is a part of some requests' time,
    not a request): requests, p50 and p99 in ms, errors."""
    by_kind: dict[str, list[tuple[float, int]]] = defaultdict(list)
    for kind, seconds, status in rows:
        by_kind[kind].append((seconds, status))
        if not kind.startswith("("):
            by_kind["all"].append((seconds, status))
    out = {}
    for kind, values in by_kind.items():
        latencies = sorted(seconds for seconds, _ in values)
        out[kind] = {
            "requests": len(values),
            "p50": statistics.median(latencies) * 1e3,
            "p99": latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))] * 1e3,
            "errors": sum(status not in (200, 201) for _, status in values),
        }
    return out


# ---------------------------------------------------------------------- the abusers (a child process)


def near_limit_bodies(limit: int) -> list[bytes]:
    base = positions("ten_point", 1, 7)[0] | {"bot": "rule"}
    room = limit - len(json.dumps(base)) - 64
    shapes = [
        base | {"events": [{}] * (room // 4)},
        base | {"bot": "rule:" + "y" * room},
        base | {"events": base["events"] + [{"seat": 0, "move": "x" * 1000}] * (room // 1030)},
        base | {"rules": {"preset": "ten_point", **{f"o{k}": k for k in range(room // 12)}}},
    ]
    bodies = [json.dumps(shape).encode()[: limit - 16] for shape in shapes]
    return [*bodies, b"[" * (limit // 2 - 16) + b"]" * (limit // 2 - 16)]


async def abuse(port: int, limit: int, which: list[str]) -> Counter:
    """The abusers named in ``which``, all at once, until SIGTERM; then their tables are closed (10 s at most).
    Answers counted by abuser and status ("error": no answer, or a broken connection)."""
    import httpx

    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    counts: Counter = Counter()
    owned: list[tuple[httpx.AsyncClient, dict[str, Any]]] = []

    def http(name: str, timeout: float = 30) -> httpx.AsyncClient:
        transport = httpx.AsyncHTTPTransport(local_address=ABUSERS[name])
        return httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=timeout, transport=transport)

    async def forever(name: str, step: Any) -> None:
        """``step()`` again and again, its status counted (a refusal of a limit waits a little first)."""
        while True:
            try:
                status = await step()
            except httpx.HTTPError:
                status = "error"
            counts[(name, status)] += 1
            if status in (429, 503, "error", None):
                await asyncio.sleep(0.1)

    async def new_table(client: httpx.AsyncClient, seats: list[str]) -> tuple[int, dict[str, Any]]:
        answer = await client.post("/v1/tables", json={"rules": "ten_point", "seats": seats})
        created = answer.json() if answer.status_code == 201 else {}
        if created:
            owned.append((client, created))
        return answer.status_code, created

    async def close(client: httpx.AsyncClient, created: dict[str, Any]) -> None:
        admin = {"Authorization": f"Bearer {created['admin_token']}"}
        await client.delete(f"/v1/tables/{created['id']}", headers=admin)

    async def play_table(client: httpx.AsyncClient, seats: list[str]) -> int:
        """A table of bots followed to its end (long polls), then closed; the status of its creation."""
        status, created = await new_table(client, seats)
        if not created:
            return status
        version, params = -1, {"wait": 1, "log_from": 1 << 30}  # the state without its log: small
        while True:
            state = (await client.get(f"/v1/tables/{created['id']}", params=params | {"after": version})).json()
            version = state.get("version", version)
            if state.get("match_over") or state.get("error") or "id" not in state:
                break
        await close(client, created)
        return status

    async def watch(client: httpx.AsyncClient) -> None:
        """A table of bots at full speed, and as many event streams on it as the server lets this client open."""
        _, table = await new_table(client, ["rule"] * 4)
        if not table:
            return

        async def stream() -> str | int:
            async with client.stream("GET", f"/v1/tables/{table['id']}/events") as answer:
                if answer.status_code == 200:
                    async for _ in answer.aiter_bytes():
                        pass
                return answer.status_code

        await asyncio.gather(*(forever("streams", stream) for _ in range(20)))

    bodies = near_limit_bodies(limit)
    match = long_record()
    record = json.dumps({"record": match, "step": len(match["moves"])}).encode()
    search = [json.dumps(body | {"bot": "search"}).encode() for body in positions("ten_point", 40, 9)]
    clients = {name: http(name) for name in ABUSERS}

    def suggest(name: str, body: bytes) -> Any:
        return lambda: post_status(clients[name], "/v1/suggest", body)

    plans = {
        "bodies": lambda: [forever("bodies", suggest("bodies", bodies[k % len(bodies)])) for k in range(4)],
        "streams": lambda: [watch(clients["streams"])],
        "tables": lambda: [forever("tables", lambda: play_table(clients["tables"], ["rule"] * 4)) for _ in range(24)],
        "search": lambda: [*(forever("search", suggest("search", search[k % len(search)])) for k in range(6)),
                           *(forever("search", lambda: play_table(clients["search"], ["search"] * 4))
                             for _ in range(5))],
        "replay": lambda: [forever("replay", lambda: post_status(clients["replay"], "/v1/replay", record))
                           for _ in range(4)],
    }  # fmt: skip
    tasks = [asyncio.ensure_future(task) for name in which for task in plans[name]()]
    print("ready", flush=True)
    await stop.wait()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    closing = [close(client, created) for client, created in owned]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*closing, return_exceptions=True), 10)
    for client in clients.values():
        await client.aclose()
    return counts


async def post_status(client: Any, path: str, body: bytes) -> int:
    answer = await client.post(path, content=body, headers={"content-type": "application/json"})
    return answer.status_code


def long_record() -> dict[str, Any]:
    """A whole ten_point_5p match of rule bots (1026 moves)."""
    from agents.demo import play_match
    from agents.registry import make_agent

    return play_match("ten_point_5p", 3, [make_agent("rule", "ten_point_5p", seat) for seat in range(5)], 500, False)


def run_abusers(port: int, limit: int, nice: int, which: list[str]) -> None:
    """The abusers' process: ``python bench_abuse.py --abuse PORT``."""
    os.setpriority(os.PRIO_PROCESS, 0, nice)  # absolute: not relative to a --priority the parent took
    counts = asyncio.run(abuse(port, limit, which))
    print(json.dumps([[name, str(status), n] for (name, status), n in sorted(counts.items(), key=str)]), flush=True)


def start_abusers(port: int, limit: int, nice: int, which: list[str]) -> subprocess.Popen:
    command = [sys.executable, __file__, "--abuse", str(port), "--limit", str(limit), "--abuser-nice", str(nice),
               "--abusers", *which]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], 120)
    line = process.stdout.readline() if ready else ""
    if line.strip() != "ready":
        process.kill()
        raise SystemExit(f"the abusers did not start: {line!r}")
    return process


def stop_abusers(process: subprocess.Popen) -> dict[str, Counter]:
    process.send_signal(signal.SIGTERM)
    try:
        out, _ = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        return {}
    answers: dict[str, Counter] = defaultdict(Counter)
    for line in out.splitlines():
        if line.startswith("["):
            for name, status, n in json.loads(line):
                answers[name][status] += n
    return answers


# ---------------------------------------------------------------------- the run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="quiet and abusive phases, in turn")
    parser.add_argument("--seconds", type=float, default=12.0, help="length of each measured phase")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds of abuse before a phase is measured")
    parser.add_argument("--players", type=int, default=4, help="well-behaved suggest clients")
    parser.add_argument("--pace-ms", type=float, default=40.0, help="each well-behaved client's interval")
    parser.add_argument("--abuser-nice", type=int, default=10, help="the abusers' process's nice value")
    parser.add_argument("--priority", type=int, default=0, help="nice value of the server and the well-behaved "
                        "clients (below 0 needs root): on a machine busy with others' work, about a machine of their "
                        "own")  # fmt: skip
    parser.add_argument("--abusers", nargs="+", choices=sorted(ABUSERS), default=sorted(ABUSERS), help="which abuse")
    parser.add_argument("--server-args", default="", help="extra options for smear-rl serve")
    parser.add_argument("--abuse", type=int, metavar="PORT", help=argparse.SUPPRESS)  # the abusers' process
    parser.add_argument("--limit", type=int, default=256 * 1024, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.abuse:
        run_abusers(args.abuse, args.limit, args.abuser_nice, args.abusers)
        return
    os.setpriority(os.PRIO_PROCESS, 0, args.priority)  # the server started below inherits it
    bodies = [json.dumps(body | {"bot": "neural" if k % 2 else "rule"}).encode()
              for k, body in enumerate(positions("ten_point", 400, 1))]  # fmt: skip
    port = free_port()
    server = start_server(port, args.server_args.split())
    print(f"smear-rl serve on 127.0.0.1:{port}; {args.players} players and one person at a table, one request "
          f"each {args.pace_ms:g} ms; {args.rounds} rounds of {args.seconds:g} s quiet and abusive; abusers at nice "
          f"{args.abuser_nice}, server and players at {args.priority}; {os.cpu_count()} CPUs shared by "
          f"everything; load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    print("\n| round | phase | requests | p50 ms | p99 ms | errors | server CPU s (event loop) | abusers' answers |")
    print("|---|---|---|---|---|---|---|---|")
    results: dict[str, list[dict[str, dict[str, float]]]] = {"quiet": [], "abusive": []}
    try:
        for round_ in range(1, args.rounds + 1):
            for phase in ("quiet", "abusive"):
                abusers = (
                    start_abusers(port, args.limit, args.abuser_nice, args.abusers) if phase == "abusive" else None
                )
                if abusers is not None:
                    time.sleep(args.warmup)
                cpu, loop = tree_cpu_seconds(server.pid), tree_cpu_seconds(server.pid, children=False)
                rows = measure(port, bodies, args.players, args.pace_ms / 1000, args.seconds)
                cpu, loop = tree_cpu_seconds(server.pid) - cpu, tree_cpu_seconds(server.pid, children=False) - loop
                answers = stop_abusers(abusers) if abusers is not None else {}
                stats = summary(rows)
                results[phase].append(stats)
                told = "; ".join(f"{name} {dict(sorted(c.items()))}" for name, c in sorted(answers.items()))
                s = stats["all"]
                print(f"| {round_} | {phase} | {s['requests']} | {s['p50']:.2f} | {s['p99']:.2f} | {s['errors']} | "
                      f"{cpu:.1f} ({loop:.1f}) | {told} |", flush=True)  # fmt: skip
                time.sleep(2.0)  # the abusers' tables closed, their streams ended
    finally:
        stop_server(server)
    print("\nper kind, over the rounds: median p99 (ms) quiet and abusive, median of the rounds' ratios")
    print("| requests | quiet p50 | quiet p99 | abusive p50 | abusive p99 | p99 ratio |\n|---|---|---|---|---|---|")
    kinds = sorted({k for stats in results["quiet"] for k in stats}, key=lambda k: (k != "all", k))
    for kind in kinds:
        pairs = [(q[kind], a[kind]) for q, a in zip(results["quiet"], results["abusive"]) if kind in q and kind in a]
        if not pairs:
            continue
        ratio = statistics.median(a["p99"] / q["p99"] for q, a in pairs)
        quiet_p50 = statistics.median(q["p50"] for q, _ in pairs)
        quiet_p99 = statistics.median(q["p99"] for q, _ in pairs)
        abusive_p50 = statistics.median(a["p50"] for _, a in pairs)
        abusive_p99 = statistics.median(a["p99"] for _, a in pairs)
        print(f"| {kind} | {quiet_p50:.2f} | {quiet_p99:.2f} | {abusive_p50:.2f} | {abusive_p99:.2f} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
