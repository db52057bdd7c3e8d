"""Load on the game server: many tables, two websocket clients each, random legal moves.

A script, not a test::

    python benchmarks/server_load.py [--tables 100] [--seconds 30] [--db PATH|URL]
                                     [--processes 1|2] [--players 3] [--reviews 8]

It starts ``python -m bohmisch_watten serve`` as real processes on loopback (one on a
fresh SQLite file by default; ``--processes 2`` needs a ``postgresql://`` ``--db`` and
connects the two people of each table to different processes), creates ``--tables``
tables of ``--players`` seats with two people and random bots at pace 0, and for
``--seconds`` lets two clients per table play random legal moves (the host starts a new
game after each one; with ``--think S`` each waits on average S seconds before a move,
as a person would; 0, the default, floods the server).  It prints the moves made, the
errors (error frames, closed sockets, timeouts) and the latency from sending a move to
receiving the frame that shows it: at the mover's socket, and at the other person's
socket (on the other process with ``--processes 2``, through PostgreSQL's
``LISTEN/NOTIFY``); and, on Linux, the CPU the servers used per move, the figure that
depends least on other jobs of a shared machine.  With ``--reviews N``, N clients ask
for reviews of finished games all through the run (each of games played to their end
before it, ``--review-games`` of them, each asked for once it was computed or refused:
a refused one waits its ``Retry-After``), while another client looks tables up (a known
one and an unknown one, 404) every 20 ms, timing each answer.  A move is timed by the first
``state`` frame whose version is past it (at pace 0 the bots' moves after it come in
the same frame).

The clients run in this one process, on the servers' machine, and time a frame when
their own event loop reads it: a busy client process would add its own delay to the
latency it measures.  Real clients are browsers on other machines, so these clients
are kept lean: uvloop where installed, and a frame is read by its compact JSON text
(the type at its start, the version at its end, the legal actions' list) instead of
being decoded whole.  The last line prints the CPU this process used.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from websockets.asyncio.client import ClientConnection, connect

T = TypeVar("T")
SRC = Path(__file__).resolve().parents[1] / "src"
# The client reads a frame by its compact JSON text (the server writes ``type`` first and
# ``version`` last, and a key in quotes cannot occur inside a string, where a quote is
# escaped), not by decoding all of it: see the module's docstring.
STATE = '{"type":"state"'
EVENTS = '{"type":"events"'
VERSION = '"version":'
GAME_OVER = '"game_over":true'
YOUR_TURN = '"your_turn":true'
LEGAL = '"legal_actions":['
NEW_GAME = json.dumps({"type": "new_game"})


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def start_server(
    db: str, max_tables: int, group: bool = False, reviews: bool = False
) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    command = [sys.executable, "-m", "bohmisch_watten", "serve", "--db", db]
    command += ["--port", str(port), "--max-tables", str(max_tables), "--delay", "0"]
    command += ["--rate", "1000"]  # the clients move as fast as frames come
    command += ["--tables-per-client", str(max_tables)]  # all the tables from one address
    if group:
        command.append("--group-moves")
    if reviews:  # every review from this one address: the per-client limit is not measured
        command += ["--reviews-per-client", "100000"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"the server on {db} did not start")
        try:
            with urllib.request.urlopen(base + "/api/tables", timeout=2):
                return process, base
        except OSError:
            time.sleep(0.1)


def create_table(base: str, players: int) -> dict[str, Any]:
    body = {"players": players, "humans": 2, "bots": ["random"] * (players - 2), "delay": 0}
    request = urllib.request.Request(
        base + "/api/tables",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        answer: dict[str, Any] = json.load(response)
    return answer


def finish_game(base: str, seed: int) -> int:
    """A 2-seat table (a person, a random bot) played to its end by random moves."""
    from websockets.sync.client import connect as connect_sync

    body = {"players": 2, "humans": 1, "bots": ["random"], "delay": 0}
    request = urllib.request.Request(
        base + "/api/tables",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        answer: dict[str, Any] = json.load(response)
    rng = random.Random(seed)
    url = base.replace("http://", "ws://") + "/ws/" + answer["seats"][0]["token"]
    with connect_sync(url, max_size=2**22) as ws:
        while True:
            text = ws.recv(timeout=60)
            assert isinstance(text, str)
            if not text.startswith(STATE):
                continue
            if GAME_OVER in text:
                return int(answer["table"])
            if YOUR_TURN in text:
                ws.send(json.dumps({"type": "action", "action": rng.choice(legal_actions(text))}))


def timed_get(url: str) -> tuple[int, dict[str, str], float]:
    """A GET's status, headers and seconds (an error status is an answer too)."""
    start = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=120) as response:
            response.read()
            status, headers = response.status, dict(response.headers)
    except urllib.error.HTTPError as error:
        error.read()
        status, headers = error.code, dict(error.headers)
    return status, headers, time.monotonic() - start


class Reviews:
    """What the review clients and the lookup client saw."""

    def __init__(self) -> None:
        self.done = 0
        self.refused = 0
        self.lookups: list[float] = []
        self.statuses: dict[int, int] = {}


async def in_thread(pool: ThreadPoolExecutor, url: str) -> tuple[int, dict[str, str], float]:
    """:func:`timed_get` in a thread of ``pool`` (the clients' own: the default pool's few
    threads, all waiting for reviews, would delay the lookups this measures)."""
    return await asyncio.get_running_loop().run_in_executor(pool, timed_get, url)


async def reviewer(
    base: str, games: list[int], stop: float, seen: Reviews, pool: ThreadPoolExecutor
) -> None:
    """Ask for the review of each of ``games`` in turn, waiting ``Retry-After`` on 503."""
    for table in games:
        while time.monotonic() < stop:
            status, headers, _ = await in_thread(pool, f"{base}/api/tables/{table}/review")
            seen.statuses[status] = seen.statuses.get(status, 0) + 1
            if status == 200:
                seen.done += 1
                break
            seen.refused += 1
            await asyncio.sleep(min(float(headers.get("Retry-After", 1)), 2.0))


async def looker(
    base: str, known: int, stop: float, seen: Reviews, pool: ThreadPoolExecutor
) -> None:
    """Look a known table and an unknown one up every 20 ms, timing each answer."""
    while time.monotonic() < stop:
        for path in (f"/api/tables/{known}", "/api/tables/999999999"):
            _, _, spent = await in_thread(pool, base + path)
            seen.lookups.append(spent)
        await asyncio.sleep(0.02)


class Stats:
    def __init__(self) -> None:
        self.own: list[float] = []
        self.other: list[float] = []
        self.errors: list[str] = []
        self.moves = 0
        self.games = 0


async def client(
    url: str,
    seat: int,
    sent: dict[int, tuple[float, int, set[int]]],
    stats: Stats,
    stop: float,
    rng: random.Random,
    think: float,
) -> None:
    """One person: a random legal move whenever it is this seat's turn.

    ``sent`` is shared by the table's two clients: the version before a move -> the time
    it was sent and the mover's seat, so both clients time the move's arrival.
    """
    try:
        async with connect(url, max_size=2**22) as ws:
            await play(ws, seat, sent, stats, stop, rng, think)
    except Exception as error:  # a closed socket or a timeout is an error of the run
        if time.monotonic() < stop:
            stats.errors.append(f"seat {seat}: {type(error).__name__}: {error}")


async def play(
    ws: ClientConnection,
    seat: int,
    sent: dict[int, tuple[float, int, set[int]]],
    stats: Stats,
    stop: float,
    rng: random.Random,
    think: float,
) -> None:
    asked_new_game = -1
    async with asyncio.timeout(None) as deadline:  # one timer, not a task per frame
        while time.monotonic() < stop:
            deadline.reschedule(
                asyncio.get_running_loop().time() + max(0.1, stop - time.monotonic())
            )
            try:
                text = await ws.recv(decode=True)  # the server sends text frames only
                assert isinstance(text, str)
            except TimeoutError:
                if time.monotonic() < stop:
                    stats.errors.append(f"seat {seat}: no frame for the rest of the run")
                return
            now = time.monotonic()
            if not text.startswith(STATE):
                if not text.startswith(EVENTS):  # an events frame: nothing to time
                    frame = json.loads(text)
                    if frame["type"] == "error":
                        stats.errors.append(f"seat {seat}: {frame['message']}")
                continue
            version = read_state(text)
            for shown in [v for v in sent if v < version]:  # the moves this frame shows
                move = sent[shown]
                if seat not in move[2]:
                    move[2].add(seat)
                    (stats.own if move[1] == seat else stats.other).append(now - move[0])
                    if len(move[2]) == 2:
                        del sent[shown]
            if GAME_OVER in text:
                if seat == 0 and asked_new_game != version:
                    asked_new_game = version
                    stats.games += 1
                    await ws.send(NEW_GAME)
                continue
            if YOUR_TURN in text:
                if think:
                    await asyncio.sleep(think * 2 * rng.random())  # a person thinks
                action = rng.choice(legal_actions(text))
                sent[version] = (time.monotonic(), seat, set())
                stats.moves += 1
                await ws.send(json.dumps({"type": "action", "action": action}))


def read_state(text: str) -> int:
    """The ``version`` of a ``state`` frame, its last field."""
    return int(text[text.rindex(VERSION) + len(VERSION) : -1])


def legal_actions(text: str) -> list[str]:
    """The ``view``'s ``legal_actions`` of a ``state`` frame (a list of short texts)."""
    start = text.index(LEGAL) + len(LEGAL) - 1
    found: list[str] = json.loads(text[start : text.index("]", start) + 1])
    return found


def run(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)``, on uvloop where it is installed (the ``[web]`` extra)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def cpu_seconds(pids: list[int]) -> float | None:
    """The CPU time the server processes used so far (Linux ``/proc``; None elsewhere).

    On a shared machine the latencies depend on the other jobs; the CPU a move costs
    the server does much less, so it is the figure to compare versions by.
    """
    try:
        total = 0
        for pid in pids:
            fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
            total += int(fields[11]) + int(fields[12])  # utime + stime, in clock ticks
    except (OSError, ValueError, IndexError):
        return None
    return total / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def run_clients(
    tables: list[dict[str, Any]],
    bases: list[str],
    seconds: float,
    think: float,
    reviews: list[list[int]] | None = None,
    seen: Reviews | None = None,
) -> tuple[Stats, float]:
    stats = Stats()
    stop = time.monotonic() + seconds
    tasks = []
    asking: list[asyncio.Task[None]] = []
    pool = ThreadPoolExecutor(len(reviews or ()) + 2)
    if reviews and seen is not None:  # not awaited at the end: a review may be under way
        asking += [
            asyncio.ensure_future(reviewer(bases[0], games, stop, seen, pool)) for games in reviews
        ]
        asking.append(asyncio.ensure_future(looker(bases[0], reviews[0][0], stop, seen, pool)))
    for number, table in enumerate(tables):
        sent: dict[int, tuple[float, int, set[int]]] = {}
        for seat in table["seats"]:
            base = bases[seat["seat"] % len(bases)]
            url = base.replace("http://", "ws://") + "/ws/" + seat["token"]
            rng = random.Random(number * 10 + seat["seat"])
            tasks.append(client(url, seat["seat"], sent, stats, stop, rng, think))
    started = time.monotonic()
    await asyncio.gather(*tasks)
    elapsed = time.monotonic() - started
    for task in asking:
        task.cancel()
    pool.shutdown(wait=False, cancel_futures=True)
    return stats, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=3)
    parser.add_argument("--db", default=None, help="SQLite path or postgresql:// URL")
    parser.add_argument("--processes", type=int, choices=(1, 2), default=1)
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds a client waits before its move (0: move at once, a flood)",
    )
    parser.add_argument(
        "--group-moves",
        action="store_true",
        help="serve with --group-moves: a move and the bots' moves after it in one frame",
    )
    parser.add_argument(
        "--base", action="append", help="use a running server at this URL (not started here)"
    )
    parser.add_argument(
        "--reviews", type=int, default=0, help="clients asking for reviews all through the run"
    )
    parser.add_argument(
        "--review-games", type=int, default=24, help="finished games they ask reviews of"
    )
    args = parser.parse_args()
    temporary = None
    db = args.db
    if db is None:
        temporary = tempfile.TemporaryDirectory()
        db = str(Path(temporary.name) / "load.sqlite")
    if args.processes == 2 and not db.startswith("postgres"):
        raise SystemExit("--processes 2 needs a postgresql:// --db")
    servers = (
        []
        if args.base
        else [
            start_server(
                db, args.tables + args.review_games + 10, args.group_moves, args.reviews > 0
            )
            for _ in range(args.processes)
        ]
    )
    bases = args.base or [base for _, base in servers]
    try:
        finished = (
            [finish_game(bases[0], seed) for seed in range(args.review_games)]
            if args.reviews
            else []
        )
        reviews = [finished[i :: args.reviews] for i in range(args.reviews)] if finished else None
        seen = Reviews()
        tables = [create_table(bases[0], args.players) for _ in range(args.tables)]
        pids = [process.pid for process, _ in servers]
        cpu_before = cpu_seconds(pids)
        clients_before = time.process_time()
        stats, elapsed = run(run_clients(tables, bases, args.seconds, args.think, reviews, seen))
        cpu_after = cpu_seconds(pids)
        clients_cpu = time.process_time() - clients_before
    finally:
        for process, _ in servers:
            process.terminate()
            process.wait(10)
        if temporary is not None:
            temporary.cleanup()
    kind = "PostgreSQL" if db.startswith("postgres") else "SQLite"
    print(
        f"{args.tables} tables of {args.players} ({2 * args.tables} sockets),"
        f" {args.processes} server process(es) on {kind}, {elapsed:.1f} s,"
        f" think {args.think} s"
    )
    print(
        f"moves by the clients: {stats.moves} ({stats.moves / elapsed:.0f}/s), games {stats.games}"
    )
    print(f"errors: {len(stats.errors)}")
    for error in stats.errors[:10]:
        print(f"  {error}")
    print(
        f"move -> frame at the mover:     p50 {percentile(stats.own, 0.5):.1f} ms,"
        f" p99 {percentile(stats.own, 0.99):.1f} ms ({len(stats.own)} moves)"
    )
    print(
        f"move -> frame at the other seat: p50 {percentile(stats.other, 0.5):.1f} ms,"
        f" p99 {percentile(stats.other, 0.99):.1f} ms ({len(stats.other)} moves)"
    )
    if stats.own:
        print(f"mean at the mover: {statistics.mean(stats.own) * 1000:.1f} ms")
    if pids and cpu_before is not None and cpu_after is not None and stats.moves:
        used = cpu_after - cpu_before
        print(
            f"server CPU: {used:.1f} s ({100 * used / elapsed:.0f} % of one core),"
            f" {1000 * used / stats.moves:.2f} ms per client move (bot moves included);"
            f" load average {os.getloadavg()[0]:.1f}"
        )
    if args.reviews:
        print(
            f"reviews: {args.reviews} clients, {seen.done} computed, {seen.refused} refused"
            f" ({seen.statuses}); lookups: p50 {percentile(seen.lookups, 0.5):.1f} ms,"
            f" p99 {percentile(seen.lookups, 0.99):.1f} ms, max"
            f" {max(seen.lookups, default=float('nan')) * 1000:.1f} ms ({len(seen.lookups)})"
        )
    print(f"the clients' CPU (this process): {clients_cpu:.1f} s")


if __name__ == "__main__":
    main()
