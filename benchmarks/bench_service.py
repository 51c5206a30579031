"""Load test of the bot service's stateless suggest: requests/s and p50/p99 latency per bot and client count.

Starts ``smear-rl serve`` on a free loopback port (nothing leaves the machine), builds
suggest bodies from real positions (rule-bot matches, every phase, decisions with a
choice), then for each bot and each number of concurrent clients sends them in a
loop for ``--seconds`` (after a short warm-up) and prints one table row: requests,
requests/s, median and 99th-percentile latency, and errors (any answer but 200, or a
socket error). Bounded in time (``--seconds`` per row) and, with the Python client,
in count (``--max-requests`` per row).

The load generator is ``wrk`` (Debian's package, compiled: it keeps the client's cost
off the server's CPU) when it is installed, else a Python asyncio client on raw
keep-alive connections; the output says which. On a 2-core machine both share the
cores with the server, so the figures are a lower bound for a dedicated server. The
last column is the CPU time the server's processes spent per request (from /proc),
which other load on the machine does not inflate the way it does latency.

    python benchmarks/bench_service.py --bots rule neural search --clients 1 8 32 --seconds 10
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from agents.registry import make_agent
from smear_env.game import Game
from smear_env.observation import player_view
from smear_rl.server.history import Tracker, suggest_body


def positions(preset: str, count: int, seed: int) -> list[dict[str, Any]]:
    """Suggest bodies (bot to be filled in) at ``count`` decisions with a choice, spread over real hands."""
    bot = make_agent("rule", preset, 0)
    rng = random.Random(seed)
    bodies: list[dict[str, Any]] = []
    match = 0
    while len(bodies) < count:
        game = Game(preset, seed=seed * 10_000 + match)
        match += 1
        tracker = Tracker(game)
        while not game.is_over and len(game.deals) <= 3:
            seat = game.current_player
            view = player_view(game, seat)
            if len(view["legal_actions"]) > 1 and rng.random() < 0.5:
                bodies.append(suggest_body(tracker, seat, "", preset, seed=rng.randrange(1 << 30)))
            tracker.apply(bot.act(view))
    rng.shuffle(bodies)
    return bodies[:count]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, extra: list[str]) -> subprocess.Popen:
    command = [sys.executable, "-m", "smear_rl.cli", "serve", "--port", str(port), "--log-level", "warning", *extra]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while True:
        if server.poll() is not None:
            raise SystemExit(f"the server did not start: {server.stderr.read().decode() if server.stderr else ''}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/health", timeout=1):
                return server
        except OSError:
            if time.monotonic() > deadline:
                raise SystemExit("the server did not answer within 120 s") from None
            time.sleep(0.2)


def tree_cpu_seconds(pid: int, children: bool = True) -> float:
    """CPU seconds used so far by a process and (unless told not to) its children (Linux /proc): the server's cost,
    whatever the load."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(stat.parent.name) == pid or (children and int(fields[1]) == pid):  # fields[1]: the parent's pid
            total += (int(fields[11]) + int(fields[12])) / ticks  # utime + stime
    return total


# ---------------------------------------------------------------------- wrk


LUA = """
bodies = {%s}
counter = 0
request = function()
  counter = counter %% #bodies + 1
  return wrk.format("POST", "/v1/suggest", {["Content-Type"] = "application/json"}, bodies[counter])
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT %%d %%d %%d %%d %%d\\n", summary.requests, summary.duration,
    e.connect + e.read + e.write + e.status + e.timeout, latency:percentile(50), latency:percentile(99)))
end
"""


def run_wrk(port: int, bodies: list[str], clients: int, seconds: float) -> dict[str, float]:
    literals = ",".join(f"[==[{b}]==]" for b in bodies)
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(LUA % literals)
    try:
        threads = min(clients, 2)
        command = [
            "wrk",
            f"-t{threads}",
            f"-c{clients}",
            f"-d{max(1, round(seconds))}s",
            "--timeout",
            "30s",
            "-s",
            script.name,
            f"http://127.0.0.1:{port}/v1/suggest",
        ]
        out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(script.name)
    line = next(x for x in out.splitlines() if x.startswith("RESULT"))
    requests, duration_us, errors, p50_us, p99_us = (int(v) for v in line.split()[1:])
    return {
        "requests": requests,
        "rps": requests / (duration_us / 1e6),
        "p50": p50_us / 1e3,
        "p99": p99_us / 1e3,
        "errors": errors,
    }


# ---------------------------------------------------------------------- Python asyncio client


async def _client(
    port: int, payloads: list[bytes], until: float, budget: list[int], latencies: list[float], errors: list[int]
) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    k = random.randrange(len(payloads))
    try:
        while time.perf_counter() < until and budget[0] > 0:
            budget[0] -= 1
            k = (k + 1) % len(payloads)
            started = time.perf_counter()
            writer.write(payloads[k])
            status_line = await reader.readline()
            length = 0
            while (header := await reader.readline()) not in (b"\r\n", b""):
                if header.lower().startswith(b"content-length:"):
                    length = int(header.split(b":")[1])
            await reader.readexactly(length)
            latencies.append(time.perf_counter() - started)
            if b" 200 " not in status_line:
                errors[0] += 1
    except (ConnectionError, asyncio.IncompleteReadError):
        errors[0] += 1
    finally:
        writer.close()


def run_python(port: int, bodies: list[str], clients: int, seconds: float, max_requests: int) -> dict[str, float]:
    payloads = [
        f"POST /v1/suggest HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(b.encode())}\r\n\r\n{b}".encode()
        for b in bodies
    ]
    latencies: list[float] = []
    errors, budget = [0], [max_requests]

    async def main() -> float:
        started = time.perf_counter()
        until = started + seconds
        await asyncio.gather(*(_client(port, payloads, until, budget, latencies, errors) for _ in range(clients)))
        return time.perf_counter() - started

    elapsed = asyncio.run(main())
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))] if latencies else float("nan")
    return {
        "requests": len(latencies),
        "rps": len(latencies) / elapsed,
        "p50": statistics.median(latencies) * 1e3 if latencies else float("nan"),
        "p99": p99 * 1e3,
        "errors": errors[0],
    }


def run_sequential(port: int, preset: str, bot: str, hands: int, seed: int) -> dict[str, float]:
    """One client playing whole hands, every seat asking ``bot`` in turn, as a front end would: the server's
    memory of each seat's bot makes a request cost one decision. Latency of every request."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port)
    latencies: list[float] = []
    errors = 0
    for hand in range(hands):
        game = Game(preset, seed=seed * 1000 + hand, single_hand=True)
        tracker = Tracker(game)
        while not game.is_over:
            body = json.dumps(suggest_body(tracker, game.current_player, bot, preset, seed=hand))
            started = time.perf_counter()
            connection.request("POST", "/v1/suggest", body, {"Content-Type": "application/json"})
            response = connection.getresponse()
            answer = json.loads(response.read())
            latencies.append(time.perf_counter() - started)
            if response.status != 200:
                errors += 1
                tracker.apply(game.legal_actions()[0])
                continue
            tracker.apply(answer["action"])
    latencies.sort()
    return {
        "requests": len(latencies),
        "p50": statistics.median(latencies) * 1e3,
        "p99": latencies[int(0.99 * (len(latencies) - 1))] * 1e3,
        "mean": statistics.fmean(latencies) * 1e3,
        "errors": errors,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="ten_point")
    parser.add_argument("--bots", nargs="+", default=["rule", "neural", "search"])
    parser.add_argument("--clients", nargs="+", type=int, default=[1, 8, 32])
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each measured row")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds of load before each row, not counted")
    parser.add_argument("--positions", type=int, default=400, help="distinct suggest bodies sent in turn")
    parser.add_argument("--max-requests", type=int, default=200_000, help="cap per row (Python client)")
    parser.add_argument("--client", choices=["auto", "wrk", "python"], default="auto")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--server-args", default="--search-queue 64", help="extra options for smear-rl serve")
    parser.add_argument("--sequential-hands", type=int, default=3, help="hands of the one-client rows (0: none)")
    args = parser.parse_args()
    use_wrk = args.client == "wrk" or (args.client == "auto" and shutil.which("wrk") is not None)
    base = positions(args.preset, args.positions, args.seed)
    port = free_port()
    server = start_server(port, args.server_args.split())
    client = "wrk (compiled, Debian package)" if use_wrk else "Python asyncio client (raw keep-alive sockets)"
    print(
        f"smear-rl serve on 127.0.0.1:{port}, {args.preset}, {len(base)} positions, {args.seconds:g} s a row, "
        f"load generator: {client}, {os.cpu_count()} CPUs shared by server and client"
    )
    print("| bot | clients | requests | requests/s | p50 ms | p99 ms | errors | server CPU ms/request |")
    print("|---|---|---|---|---|---|---|---|")
    try:
        for bot in args.bots:
            bodies = [json.dumps(body | {"bot": bot}) for body in base]
            for clients in args.clients:
                if use_wrk:
                    run_wrk(port, bodies, clients, args.warmup)
                    cpu = tree_cpu_seconds(server.pid)
                    row = run_wrk(port, bodies, clients, args.seconds)
                else:
                    run_python(port, bodies, clients, args.warmup, args.max_requests)
                    cpu = tree_cpu_seconds(server.pid)
                    row = run_python(port, bodies, clients, args.seconds, args.max_requests)
                cpu_ms = (tree_cpu_seconds(server.pid) - cpu) / max(row["requests"], 1) * 1e3
                print(
                    f"| {bot} | {clients} | {row['requests']} | {row['rps']:.0f} | {row['p50']:.2f} | "
                    f"{row['p99']:.2f} | {row['errors']} | {cpu_ms:.2f} |",
                    flush=True,
                )
        if args.sequential_hands:
            print(f"\none client playing {args.sequential_hands} whole hands, every seat asking the bot in turn:")
            print("| bot | requests | mean ms | p50 ms | p99 ms | errors |\n|---|---|---|---|---|---|")
            for bot in args.bots:
                row = run_sequential(port, args.preset, bot, args.sequential_hands, args.seed)
                print(
                    f"| {bot} | {row['requests']} | {row['mean']:.2f} | {row['p50']:.2f} | {row['p99']:.2f} | "
                    f"{row['errors']} |",
                    flush=True,
                )
    finally:
        stop_server(server)


def stop_server(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(60)
    except subprocess.TimeoutExpired:
        server.kill()


if __name__ == "__main__":
    main()
