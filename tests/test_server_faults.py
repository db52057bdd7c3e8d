"""The server under faults: real ``serve`` processes on real sockets, a real PostgreSQL
(``WATTEN_TEST_POSTGRES``, a database of each test's own) and a real SQLite file, no
mocks.  The faults: every connection of the servers killed mid-game
(``pg_terminate_backend``), the database stopped and started again, one of two
processes ``kill -9``-ed, one paused (``SIGSTOP``) past the expiry time, two processes
racing moves of one table, expiry decided by one process while the people play through
the other, a write a SQLite file refuses.

Each test checks the server's promises (``docs/server.md``, Under faults):

* every frame anyone was shown is the stored table at that version (its view equals
  the view of the journal replayed from the database to that version): no move is
  shown before it is stored, and every acknowledged move is in the journal;
* both processes and a replay from the database agree (version, turn, scores);
* a move that was not stored is refused to its sender with an error frame.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from bohmisch_watten.web._public import public_view
from bohmisch_watten.web.backends import open_storage
from bohmisch_watten.web.server import build_table
from bohmisch_watten.web.table import Table
from live_server import Server, serving
from test_storage import postgres_server, postgres_url  # noqa: F401 - the fixture

QUICK = "start_score=3"
"""Short games: a few deals."""
DEEP = ("--bot", "deep=heuristic")
"""A bot the operator registered (a table naming it must keep it through a reload)."""
SPECS = {"deep": "heuristic"}


class Socket:
    """A websocket client of one seat (``seat`` None: a spectator) that keeps every
    frame it is sent, and the close code it got, if any."""

    def __init__(self, server: Server, path: str, seat: int | None) -> None:
        self._stack = ExitStack()
        self.ws: ClientConnection = self._stack.enter_context(
            connect(server.ws(path), open_timeout=10)
        )
        self.seat = seat
        self.frames: list[dict[str, Any]] = []
        self.closed: int | None = None

    def receive(self, timeout: float) -> dict[str, Any] | None:
        """The next frame, None after ``timeout`` seconds or once closed."""
        if self.closed is not None:
            return None
        try:
            text = self.ws.recv(timeout=timeout)
        except TimeoutError:
            return None
        except ConnectionClosed as closed:
            self.closed = closed.rcvd.code if closed.rcvd is not None else 1006
            return None
        frame: dict[str, Any] = json.loads(text)
        self.frames.append(frame)
        return frame

    def until(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 20
    ) -> dict[str, Any]:
        """The first frame from now on for which ``predicate`` holds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            frame = self.receive(max(0.01, deadline - time.monotonic()))
            if frame is not None and predicate(frame):
                return frame
            assert self.closed is None, f"closed ({self.closed}) while waiting"
        raise AssertionError(f"no such frame in {timeout} s; the last: {self.frames[-3:]}")

    def state(self) -> dict[str, Any]:
        """The last state frame received (the first one, if none was yet)."""
        for frame in reversed(self.frames):
            if frame["type"] == "state":
                return frame
        return self.until(_is_state)

    def turn(self, timeout: float = 30) -> dict[str, Any]:
        """The state frame once it is this seat's turn (or the game is over)."""
        frame = self.state()
        if frame["your_turn"] or frame["game_over"]:
            return frame
        return self.until(lambda f: _is_state(f) and (f["your_turn"] or f["game_over"]), timeout)

    def move(self, action: str, timeout: float = 30) -> str:
        """Send ``action``: ``"acknowledged"`` once a frame of a later version shows it,
        else the error message the server refused it with."""
        version = self.state()["version"]
        self.ws.send(json.dumps({"type": "action", "action": action}))
        frame = self.until(
            lambda f: f["type"] == "error" or (_is_state(f) and f["version"] > version), timeout
        )
        return "acknowledged" if frame["type"] == "state" else str(frame["message"])

    def close(self) -> None:
        self._stack.close()


def _is_state(frame: dict[str, Any]) -> bool:
    return frame["type"] == "state"


def _play_one(sockets: dict[int, Socket], rng: random.Random) -> tuple[int, str, str]:
    """The seat to move makes a random legal move: (seat, action, outcome)."""
    deadline = time.monotonic() + 30
    while True:
        assert time.monotonic() < deadline, "nobody's turn"
        for seat, socket in sockets.items():
            frame = socket.state()
            if frame["game_over"]:
                return seat, "", "game over"
            if frame["your_turn"]:
                action = rng.choice(frame["view"]["legal_actions"])
                return seat, action, socket.move(action)
        for socket in sockets.values():  # a shuffle, a bot, the other process
            socket.receive(0.05)


def stored(url: str, table_id: int) -> tuple[Table, list[str], bool, bool]:
    """The table replayed from the database, its journal, finished and expired."""
    storage = open_storage(url)
    try:
        start = storage.table(table_id)
        assert start is not None
        journal = storage.journal(table_id)
    finally:
        storage.close()
    return build_table(start, journal, SPECS), journal, start.finished, start.expired


def check_shown(url: str, table_id: int, sockets: list[Socket]) -> tuple[Table, list[str]]:
    """Every state frame any socket was shown is the stored table at its version."""
    table, journal, _, _ = stored(url, table_id)
    shown = 0
    for socket in sockets:
        for frame in socket.frames:
            if frame["type"] != "state":
                continue
            version = frame["version"]
            assert version <= len(journal), f"version {version} shown, {len(journal)} stored"
            state = table.state_at(version)
            seat = socket.seat
            view = state.view(0 if seat is None else seat).to_dict()
            assert frame["view"] == (public_view(view) if seat is None else view), version
            shown += 1
    assert shown > 0
    return table, journal


def check_agree(url: str, table_id: int, servers: list[Server], timeout: float = 15) -> None:
    """Every server answers the table as the database replays it (once caught up)."""
    table, journal, _, _ = stored(url, table_id)
    state = table.state
    want = {
        "version": len(journal),
        "scores": list(state.scores),
        "game_over": state.is_terminal,
        "turn": None if state.is_terminal else state.current_player,
    }
    for server in servers:
        deadline = time.monotonic() + timeout
        while True:
            status, summary = server.get(f"/api/tables/{table_id}")
            assert status == 200, (server.port, summary)
            got = {key: summary[key] for key in want}
            if got == want:
                break
            assert time.monotonic() < deadline, (server.port, got, want)
            time.sleep(0.05)


@contextmanager
def two_servers(tmp_path: Path, url: str, *options: str) -> Iterator[tuple[Server, Server]]:
    with ExitStack() as stack:
        homes = [tmp_path / "a", tmp_path / "b"]
        for home in homes:
            home.mkdir()
        yield tuple(stack.enter_context(serving(h, *options, db=url)) for h in homes)  # type: ignore[misc]


def server_log(server: Server) -> str:
    return "".join(p.read_text(errors="replace") for p in server.home.glob("server-*.log"))


def kill_connections(url: str) -> int:
    """``pg_terminate_backend`` of every connection to this test's database (only its
    own: other tests may be using the same PostgreSQL); how many."""
    name = url.rpartition("/")[2]
    with psycopg.connect(postgres_server(), autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = %s AND pid <> pg_backend_pid()",
            (name,),
        ).fetchall()
    return len(rows)


def create(server: Server, **body: Any) -> dict[str, Any]:
    status, answer = server.post({"delay": 0, "rules": QUICK, **body})
    assert status == 201, answer
    return answer  # type: ignore[no-any-return]


# ------------------------------------------------------------- finding 1


def test_killed_connections_lose_no_move_and_both_processes_carry_on(
    tmp_path: Path,
    postgres_url: str,  # noqa: F811
) -> None:
    """Every connection of both servers killed mid-game: the next moves are stored
    before they are shown (or refused, never shown), the listeners connect again (a
    move through one process reaches the other's seat), and both keep answering."""
    with two_servers(tmp_path, postgres_url) as (a, b):
        answer = create(a, players=2, humans=2)
        table = answer["table"]
        tokens = [s["token"] for s in answer["seats"]]
        sockets = {0: Socket(a, f"/ws/{tokens[0]}", 0), 1: Socket(b, f"/ws/{tokens[1]}", 1)}
        watcher = Socket(b, f"/ws/watch/{table}", None)
        rng = random.Random(5)
        for _ in range(3):
            assert _play_one(sockets, rng)[2] == "acknowledged"
        assert kill_connections(postgres_url) >= 4  # each process: its calls, its listener
        outcomes = [_play_one(sockets, rng) for _ in range(4)]
        acknowledged = [o for o in outcomes if o[2] == "acknowledged"]
        assert len(acknowledged) >= 3, outcomes  # connected again at once
        # The other process heard of them: its listener is back.
        check_agree(postgres_url, table, [a, b])
        version = len(stored(postgres_url, table)[1])
        for socket in (*sockets.values(), watcher):
            if socket.state()["version"] < version:
                socket.until(lambda f: _is_state(f) and f["version"] >= version)
        assert a.request("GET", "/api/tables")[0] == b.request("GET", "/api/tables")[0] == 200
        assert create(b, players=2)["table"] > table  # the table creation is back too
        check_shown(postgres_url, table, [*sockets.values(), watcher])
        for socket in (*sockets.values(), watcher):
            socket.close()
    assert "connecting again" in server_log(a) + server_log(b)


def _cluster() -> list[str]:
    """``pg_ctlcluster VERSION main`` of the local cluster (CI runs as root)."""
    home = Path("/etc/postgresql")
    versions = sorted((p.name for p in home.iterdir()), key=int) if home.is_dir() else []
    if not versions or shutil.which("pg_ctlcluster") is None or os.geteuid() != 0:
        if os.environ.get("CI") == "true":
            pytest.fail("CI runs as root with Debian's PostgreSQL cluster (.ci/run)")
        pytest.skip("stopping the database needs root and Debian's pg_ctlcluster")
    return ["pg_ctlcluster", versions[-1], "main"]


def _wait_for_database(timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with psycopg.connect(postgres_server(), connect_timeout=2) as probe:
                probe.execute("SELECT 1")
            return
        except psycopg.OperationalError:
            assert time.monotonic() < deadline, "the database did not come back"
            time.sleep(0.2)


@contextmanager
def database_down() -> Iterator[None]:
    """The PostgreSQL cluster stopped (``pg_ctlcluster … stop -m fast``) inside the
    block, and running again after it, whatever happened (other tests use it)."""
    cluster = _cluster()
    subprocess.run([*cluster, "stop", "-m", "fast"], check=True, timeout=60)
    try:
        yield
    finally:
        subprocess.run([*cluster, "start"], check=False, timeout=60)
        _wait_for_database()


def test_the_database_restarted_mid_game(tmp_path: Path, postgres_url: str) -> None:  # noqa: F811
    """The database stopped and started again mid-game: a move while it is down is
    refused to its sender with an error (and shown to nobody), the table is as it
    was, and once it is back the same move is stored and reaches the other process."""
    with two_servers(tmp_path, postgres_url) as (a, b):
        answer = create(a, players=2, humans=2)
        table = answer["table"]
        tokens = [s["token"] for s in answer["seats"]]
        sockets = {0: Socket(a, f"/ws/{tokens[0]}", 0), 1: Socket(b, f"/ws/{tokens[1]}", 1)}
        rng = random.Random(8)
        for _ in range(3):
            assert _play_one(sockets, rng)[2] == "acknowledged"
        seat = next(s for s, socket in sockets.items() if socket.turn()["your_turn"])
        frame = sockets[seat].state()
        action = rng.choice(frame["view"]["legal_actions"])
        with database_down():
            refusal = sockets[seat].move(action)
            assert "could not be stored" in refusal
            assert sockets[seat].state()["version"] == frame["version"]  # as it was
        assert sockets[seat].move(action) == "acknowledged"
        other = sockets[1 - seat]
        other.until(lambda f: _is_state(f) and f["version"] > frame["version"])
        for _ in range(3):
            assert _play_one(sockets, rng)[2] == "acknowledged"
        check_agree(postgres_url, table, [a, b])
        _, journal = check_shown(postgres_url, table, list(sockets.values()))
        assert journal[frame["version"]] == action  # stored once, after the restart
        for socket in sockets.values():
            socket.close()


# ------------------------------------------------------------- finding 2


def _races_lost(*sockets: Socket) -> int:
    """How many moves were refused because the other process stored one first."""
    return sum(
        f["type"] == "error" and "stored a move of this table first" in f["message"]
        for socket in sockets
        for f in socket.frames
    )


def test_two_processes_racing_moves_keep_the_registered_bot(
    tmp_path: Path,
    postgres_url: str,  # noqa: F811
) -> None:
    """One seat's link open on both processes, each sending a move at the same moment:
    one is stored, the other refused (another process stored first); the table read
    back keeps the operator's registered bot, which moves on (no "unknown bot")."""
    with two_servers(tmp_path, postgres_url, *DEEP) as (a, b):
        answer = create(a, players=2, humans=1, bots=["deep"])
        table = answer["table"]
        token = answer["seats"][0]["token"]
        on_a, on_b = Socket(a, f"/ws/{token}", 0), Socket(b, f"/ws/{token}", 0)
        rng = random.Random(3)
        lost = 0
        for _ in range(30):
            frame = on_a.turn()
            if frame["game_over"] or lost >= 3:
                break
            if on_b.state()["version"] < frame["version"]:
                on_b.until(lambda f, v=frame["version"]: _is_state(f) and f["version"] >= v)
            legal = frame["view"]["legal_actions"]
            first, second = rng.choice(legal), rng.choice(legal)
            on_a.ws.send(json.dumps({"type": "action", "action": first}))
            on_b.ws.send(json.dumps({"type": "action", "action": second}))
            version = frame["version"]
            answers = [
                s.until(
                    lambda f, v=version: f["type"] == "error" or (_is_state(f) and f["version"] > v)
                )
                for s in (on_a, on_b)
            ]
            assert any(_is_state(f) for f in answers)  # one of them was stored
            lost = _races_lost(on_a, on_b)
            # the bot (a registered name) moves on at both processes' tables
            on_a.turn()
        assert _races_lost(on_a, on_b) >= 1, "the moves never raced"
        for socket in (on_a, on_b):
            frame = socket.turn()
            assert frame["your_turn"] or frame["game_over"]
        check_agree(postgres_url, table, [a, b])
        check_shown(postgres_url, table, [on_a, on_b])
        on_a.close()
        on_b.close()
    assert "unknown bot" not in server_log(a) + server_log(b)


def test_a_write_sqlite_refuses_is_refused_to_the_sender_and_keeps_the_bot(
    tmp_path: Path,
) -> None:
    """A SQLite file that refuses a write (here a trigger that fails every insert, as
    a full disk would): the move is refused to its sender with an error, the table is
    read back with the registered bot, and once the file takes writes again the game
    goes on."""
    db = str(tmp_path / "tables.sqlite")
    with serving(tmp_path, *DEEP, db=db) as server:
        answer = create(server, players=2, humans=1, bots=["deep"])
        table = answer["table"]
        socket = Socket(server, f"/ws/{answer['seats'][0]['token']}", 0)
        frame = socket.turn()
        with sqlite3.connect(db) as file:
            file.execute(
                "CREATE TRIGGER refuse BEFORE INSERT ON watten_journal"
                " BEGIN SELECT RAISE(ABORT, 'disk full'); END"
            )
        action = frame["view"]["legal_actions"][0]
        assert "could not be stored" in socket.move(action)
        assert socket.state()["version"] == frame["version"]
        with sqlite3.connect(db) as file:
            file.execute("DROP TRIGGER refuse")
        assert socket.move(action) == "acknowledged"
        for _ in range(6):  # the registered bot answers every move
            frame = socket.turn()
            if frame["game_over"]:
                break
            assert socket.move(frame["view"]["legal_actions"][0]) == "acknowledged"
        frame = socket.turn()
        assert frame["your_turn"] or frame["game_over"]
        check_shown(db, table, [socket])
        check_agree(db, table, [server])
        socket.close()
    assert "unknown bot" not in server_log(server)


# ------------------------------------------------------------- finding 3


def test_a_table_joined_through_one_process_does_not_expire_on_the_other(
    tmp_path: Path,
    postgres_url: str,  # noqa: F811
) -> None:
    """``--expire-unjoined``: a table created through A whose person joined through B
    is not expired by A (the database knows that a person joined), and B's moves are
    stored."""
    with two_servers(tmp_path, postgres_url, "--expire-unjoined", "2") as (a, b):
        answer = create(a, players=2, humans=1, bots=["random"])
        table = answer["table"]
        socket = Socket(b, f"/ws/{answer['seats'][0]['token']}", 0)
        frame = socket.turn()
        time.sleep(3.5)  # past the expiry, with A's check every 0.5 s
        assert a.get(f"/api/tables/{table}")[0] == 200
        assert stored(postgres_url, table)[3] is False
        assert socket.move(frame["view"]["legal_actions"][0]) == "acknowledged"
        check_agree(postgres_url, table, [a, b])
        check_shown(postgres_url, table, [socket])
        socket.close()


def test_a_process_paused_past_the_expiry_stores_nothing_more_and_tells_its_people(
    tmp_path: Path,
    postgres_url: str,  # noqa: F811
) -> None:
    """``--expire-idle``: B paused (SIGSTOP) while A expires the table; resumed, B
    refuses the move its person sends at once (no row after the expiry) and tells
    its people that the table expired, as A told its own."""
    with two_servers(tmp_path, postgres_url, "--expire-idle", "3") as (a, b):
        answer = create(a, players=2, humans=2)
        table = answer["table"]
        tokens = [s["token"] for s in answer["seats"]]
        sockets = {0: Socket(a, f"/ws/{tokens[0]}", 0), 1: Socket(b, f"/ws/{tokens[1]}", 1)}
        rng = random.Random(9)
        while True:  # a few moves, until it is the turn of B's seat
            assert _play_one(sockets, rng)[2] == "acknowledged"
            version = len(stored(postgres_url, table)[1])
            for socket in sockets.values():
                if socket.state()["version"] < version:
                    socket.until(lambda f, v=version: _is_state(f) and f["version"] >= v)
            if version >= 4 and sockets[1].state()["your_turn"]:
                break
        frame = sockets[1].state()
        assert b.process is not None
        b.process.send_signal(signal.SIGSTOP)
        try:
            told = sockets[0].until(lambda f: f["type"] == "error", timeout=15)
            assert told["message"].startswith("this table expired: nobody moved")
            assert stored(postgres_url, table)[3] is True
            sockets[0].receive(5)
            assert sockets[0].closed == 4410
            before = len(stored(postgres_url, table)[1])
            sockets[1].ws.send(
                json.dumps({"type": "action", "action": frame["view"]["legal_actions"][0]})
            )
        finally:
            b.process.send_signal(signal.SIGCONT)
        got = sockets[1].until(
            lambda f: f["type"] == "error" and f["message"].startswith("this table expired"),
            timeout=15,
        )
        assert "another server process" in got["message"] or "nobody moved" in got["message"]
        deadline = time.monotonic() + 10
        while sockets[1].closed is None:
            assert time.monotonic() < deadline, "B did not close its socket"
            sockets[1].receive(1)
        assert sockets[1].closed == 4410
        assert len(stored(postgres_url, table)[1]) == before  # nothing after the expiry
        assert a.get(f"/api/tables/{table}")[0] == b.get(f"/api/tables/{table}")[0] == 404
        check_shown(postgres_url, table, list(sockets.values()))
        for socket in sockets.values():
            socket.close()
    with serving(tmp_path / "a", db=postgres_url) as again:  # restarted: still expired
        assert again.get(f"/api/tables/{table}")[0] == 404
        assert table not in [t["table"] for t in again.tables()]
        assert len(stored(postgres_url, table)[1]) == before


# ------------------------------------------------------------- kill -9


def test_one_of_two_processes_killed_the_other_carries_on_to_the_end(
    tmp_path: Path,
    postgres_url: str,  # noqa: F811
) -> None:
    """A killed (``kill -9``) mid-game: the person reconnects through B, which moves the
    bots A moved (after its stand-by wait) and plays the game to its end; the end is
    stored (the table is no longer open) and a process started afterwards agrees."""
    with two_servers(tmp_path, postgres_url) as (a, b):
        answer = create(a, players=3, humans=1, bots=["random", "random"])
        table = answer["table"]
        token = answer["seats"][0]["token"]
        first = Socket(a, f"/ws/{token}", 0)
        rng = random.Random(4)
        for _ in range(3):
            frame = first.turn()
            assert first.move(rng.choice(frame["view"]["legal_actions"])) == "acknowledged"
        assert a.process is not None
        a.process.kill()
        a.process.wait(10)
        last = first.state()["version"]
        second = Socket(b, f"/ws/{token}?since={last}", 0)
        while True:
            frame = second.turn(60)
            if frame["game_over"]:
                break
            assert second.move(rng.choice(frame["view"]["legal_actions"])) == "acknowledged"
        check_agree(postgres_url, table, [b])
        replayed, journal = check_shown(postgres_url, table, [first, second])
        assert replayed.state.is_terminal
        assert stored(postgres_url, table)[2] is True  # finished: no longer open
        second.close()
        with serving(tmp_path / "b", db=postgres_url) as c:
            assert table not in [t["table"] for t in c.tables() if not t["game_over"]]
            status, _, record = c.request("GET", f"/api/tables/{table}/record")
            assert status == 200
            assert record.decode() == replayed.record_text()
            assert len(journal) == c.get(f"/api/tables/{table}")[1]["version"]
