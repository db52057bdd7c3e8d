"""The game server on a hostile network, attacked as a real process on real sockets.

A client on the network names bots, never code: every spec form ``make_bot`` accepts
locally (a command, a file, a module, a checkpoint, an unbounded work budget) is
refused over HTTP and over the websockets, with canaries showing that nothing was
imported, opened, created or started.  No web page of another site can write, no
host name the server does not serve is answered, no client can stall another (a
spectator that never reads, 32 spectators), no flood takes the server (a huge body,
many tables, idle connections), and the smaller holes are closed: ids out of range,
a malformed ``since``, the database's file mode, display names.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import random
import re
import socket
import sqlite3
import stat
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from bohmisch_watten.web.backends import open_storage
from bohmisch_watten.web.server import Limits, create_server
from live_server import JSON, Server, peak_memory, serving
from threaded_server import running

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "examples" / "engines" / "random_engine.py"

CANARY_FILE_BOT = """
from pathlib import Path
Path(__file__).with_name("canary-file").write_text("imported")
class Bot:
    def choose(self, view, rng):
        return view.legal_actions()[0]
"""
CANARY_MODULE = """
from pathlib import Path
Path(__file__).with_name("canary-module").write_text("imported")
class Bot:
    def choose(self, view, rng):
        return view.legal_actions()[0]
"""


def plant_canaries(home: Path) -> None:
    """Files whose import, and a FIFO whose opening, the server must never cause."""
    (home / "canary_bot.py").write_text(CANARY_FILE_BOT)
    (home / "canary_module.py").write_text(CANARY_MODULE)
    os.mkfifo(home / "checkpoint.pt")


def canaries(home: Path) -> list[str]:
    """What of the canaries was touched: created files, an opened FIFO."""
    found = sorted(p.name for p in home.iterdir() if p.name.startswith("canary-"))
    try:  # a reader holding the FIFO open lets a non-blocking writer open it
        os.close(os.open(home / "checkpoint.pt", os.O_WRONLY | os.O_NONBLOCK))
        found.append("checkpoint.pt opened")
    except OSError as error:  # ENXIO: nobody is reading it
        if error.errno != errno.ENXIO:
            found.append(f"checkpoint.pt: {error}")
    return found


def spec_forms(home: Path) -> list[str]:
    """Every form of spec ``make_bot`` accepts that a client must not name."""
    python = sys.executable
    return [
        f"engine:touch {home}/canary-engine",
        f"engine:{python} -c \"open('{home}/canary-engine-py', 'w')\"",
        "./canary_bot.py:Bot",
        f"{home}/canary_bot.py:Bot",
        "canary_module.Bot",
        "os.system",
        "subprocess.Popen",
        "policy:checkpoint.pt",
        f"policy:{home}/checkpoint.pt",
        "search:rollouts=100000000",
        "expert:samples=100000",
        "expert:time_ms=100000000",
        "search:time_ms=100000000",
        "bohmisch_watten.bots.SearchBot",
        "bohmisch_watten.bots.SearchBot:rollouts=100000000",
    ]


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("hostile")
    plant_canaries(path)
    return path


@pytest.fixture(scope="module")
def server(home: Path) -> Iterator[Server]:
    options = ["--bot", "deep=expert:samples=80", "--bot", f"mine=engine:{sys.executable} {ENGINE}"]
    options += ["--tables-per-client", "1000", "--max-tables", "1000", "--delay", "0"]
    with serving(home, *options) as running:
        yield running


def test_no_spec_form_of_make_bot_is_accepted_over_http(server: Server, home: Path) -> None:
    before = len(server.tables())
    for spec in spec_forms(home):
        for body in (
            {"players": 2, "bots": [spec], "delay": 0},
            {"players": 3, "bots": ["random", spec], "delay": 0},
        ):
            status, answer = server.post(body)
            assert status == 400, (spec, answer)
            assert "the allowed bots are random, heuristic, search" in answer["error"], spec
            assert "deep, mine" in answer["error"]  # the registered names are named too
    time.sleep(1.0)  # a command or a bot started now would have left its mark by then
    assert canaries(home) == []
    assert len(server.tables()) == before  # nothing was created


def test_no_websocket_frame_or_query_string_names_a_bot(server: Server, home: Path) -> None:
    status, answer = server.post({"players": 2, "bots": ["random"], "delay": 0})
    assert status == 201
    token = answer["seats"][0]["token"]
    for spec in spec_forms(home):
        query = f"?bot={spec}&bots={spec}&kind={spec}".replace(" ", "%20")
        assert server.request("GET", "/api/tables" + query)[0] == 200
        with connect(server.ws(f"/ws/{token}" + query)) as ws:
            for message in (
                {"type": "action", "action": spec},
                {"type": "new_game", "bots": [spec], "bot": spec},
                {"type": "bot", "bot": spec, "kind": spec},
                {"type": "hint", "bot": spec},
                {"type": spec},
            ):
                ws.send(json.dumps(message))
    time.sleep(1.0)
    assert canaries(home) == []


def test_the_caps_of_the_built_in_bots(server: Server) -> None:
    at_cap = [
        "search:rollouts=480:max_candidates=10:rollout=random",
        "expert:samples=120:exchange_samples=80:proposals=6:max_candidates=8",
        "expert:leaf=rollout:race_near=0",
        "Heuristic",
        "random",
    ]
    for spec in at_cap:
        status, answer = server.post({"players": 2, "bots": [spec], "delay": 10})
        assert status == 201, (spec, answer)
    past_cap = {
        "search:rollouts=481": "rollouts must be 1..480",
        "search:rollouts=0": "rollouts must be 1..480",
        "expert:samples=121": "samples must be 1..120",
        "expert:exchange_samples=81": "exchange_samples must be 1..80",
        "expert:proposals=7": "proposals must be 1..6",
        "expert:leaf=solver": "leaf must be respond|rollout",
        "expert:time_ms=1": "not a parameter a client may set",
        "search:rollouts=60:rollouts=60": "rollouts is given twice",
        "random:seed=1": "not a parameter a client may set",
        "search:rollouts=1e3": "rollouts must be 1..480",
        "deep:samples=1": "takes no parameters from the network",
    }
    for spec, message in past_cap.items():
        status, answer = server.post({"players": 2, "bots": [spec]})
        assert status == 400, (spec, answer)
        assert message in answer["error"], (spec, answer)
        assert "the allowed bots are" in answer["error"]


def test_registered_names_work(server: Server) -> None:
    status, answer = server.post({"players": 3, "humans": 1, "bots": ["deep", "mine"], "delay": 0})
    assert status == 201, answer
    status, table = server.get(f"/api/tables/{answer['table']}")
    assert [s["kind"] for s in table["seats"]] == ["human", "deep", "mine"]
    assert "engine" not in json.dumps(table)  # the operator's spec stays the operator's
    # the engine plays: the table moves past the deal until the person is to act
    deadline = time.monotonic() + 60
    while table["turn"] != 0:
        assert time.monotonic() < deadline, table
        time.sleep(0.2)
        table = server.get(f"/api/tables/{answer['table']}")[1]


def test_an_unknown_name_is_told_before_the_number_of_bots(server: Server) -> None:
    status, answer = server.post({"bots": ["expertt"]})
    assert status == 400
    assert answer["error"].startswith("bots: unknown bot 'expertt'")


_NAMES = ["random", "heuristic", "search", "expert", "Search", "deep", "mine", "engine"]
_NAMES += ["policy", "os.system", "./canary_bot.py", "canary_module.Bot", "nosuch", ""]
_CAPS: dict[str, dict[str, Any]] = {  # the documented caps (docs/server.md, Security)
    "random": {},
    "heuristic": {},
    "search": {"rollouts": (1, 480), "max_candidates": (1, 10), "rollout": {"heuristic", "random"}},
    "expert": {
        "samples": (1, 120),
        "exchange_samples": (1, 80),
        "proposals": (1, 6),
        "max_candidates": (1, 8),
        "leaf": {"respond", "rollout"},
        "race_near": {"0", "1", "true", "false"},
    },
}
_KEYS = sorted({key for caps in _CAPS.values() for key in caps} | {"time_ms", "seed", ""})
_VALUES = st.one_of(
    st.integers(-5, 1_000_000).map(str),
    st.sampled_from(["heuristic", "random", "solver", "selfish", "true", "0", "1", "1e3"]),
    st.text(max_size=8),
)


def _allowed(spec: str) -> bool:
    """The oracle: whether a client may name ``spec`` (the documented rules)."""
    name, *params = spec.split(":")
    if name.lower() in ("deep", "mine"):
        return not params
    caps = _CAPS.get(name.lower())
    if caps is None or len(spec) > 120:
        return False
    keys = [p.partition("=")[0] for p in params]
    if len(set(keys)) != len(keys):
        return False
    for param in params:
        key, sep, value = param.partition("=")
        cap = caps.get(key)
        if not sep or cap is None:
            return False
        if isinstance(cap, set):
            if value not in cap:
                return False
        elif not (re.fullmatch("[0-9]{1,9}", value) and cap[0] <= int(value) <= cap[1]):
            return False
    return True


@st.composite
def specs(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        return draw(st.text(max_size=40))
    params = draw(st.lists(st.tuples(st.sampled_from(_KEYS), _VALUES), max_size=3))
    return ":".join([draw(st.sampled_from(_NAMES)), *(f"{k}={v}" for k, v in params)])


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(spec=specs())
def test_any_spec_string_is_a_name_the_server_allows_or_a_400(
    server: Server, home: Path, spec: str
) -> None:
    status, answer = server.post({"players": 2, "bots": [spec], "delay": 10})
    if _allowed(spec):
        assert status == 201, (spec, answer)
    else:
        assert status == 400, (spec, answer)
        assert "allowed bots are" in answer["error"]
    assert canaries(home) == []


# ------------------------------------------------------------- cross-site writes


def test_a_cross_site_text_plain_post_is_refused(tmp_path: Path) -> None:
    body = json.dumps({"players": 2, "bots": ["random"]})
    with serving(tmp_path, "--allowed-origin", "https://friends.example") as server:
        # what fetch(…, {mode: "no-cors", headers: {"Content-Type": "text/plain"}}) sends
        no_cors = {"Content-Type": "text/plain;charset=UTF-8", "Origin": "http://evil.example"}
        status, _, data = server.request("POST", "/api/tables", body, no_cors)
        assert status == 415
        assert "application/json" in json.loads(data)["error"]
        for content_type in ("application/x-www-form-urlencoded", "multipart/form-data", ""):
            status, _, _ = server.request(
                "POST", "/api/tables", body, {"Content-Type": content_type}
            )
            assert status == 415
        evil = {**JSON, "Origin": "http://evil.example"}
        status, _, data = server.request("POST", "/api/tables", body, evil)
        assert status == 403
        assert "other sites" in json.loads(data)["error"]
        assert server.tables() == []
        own = {**JSON, "Origin": server.base}
        assert server.request("POST", "/api/tables", body, own)[0] == 201
        friends = {**JSON, "Origin": "https://friends.example"}
        assert server.request("POST", "/api/tables", body, friends)[0] == 201
        assert server.request("POST", "/api/tables", body, JSON)[0] == 201  # curl: no Origin


def test_the_host_header_is_checked_against_the_names_served(tmp_path: Path) -> None:
    with serving(tmp_path, "--allowed-host", "watten.example") as server:
        for host in (f"localhost:{server.port}", server.host, "watten.example", "[::1]:1"):
            assert server.request("GET", "/api/tables", headers={"Host": host})[0] == 200
        for host in ("evil.example", f"evil.example:{server.port}", "127.0.0.1.evil.example", ""):
            status, _, data = server.request("GET", "/api/tables", headers={"Host": host})
            assert status == 400
            assert "does not serve the host" in json.loads(data)["error"]
        status, answer = server.post({"players": 2})
        rebound = {**JSON, "Host": "evil.example", "Origin": "http://evil.example"}
        body = json.dumps({"players": 2})
        assert server.request("POST", "/api/tables", body, rebound)[0] == 400
        token = answer["seats"][0]["token"]
        with pytest.raises(AssertionError, match="HTTP/1.1 403"):  # a rebound page's socket
            _handshake(server.port, f"/ws/{token}", host="evil.example")
        _handshake(server.port, f"/ws/{token}", host="watten.example").close()


# ------------------------------------------------------------ nobody stalls


def _handshake(port: int, path: str, rcvbuf: int = 4096, host: str = "") -> socket.socket:
    """A websocket whose client reads the handshake's answer and never anything more."""
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    raw.connect(("127.0.0.1", port))
    host = host or f"127.0.0.1:{port}"
    raw.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        byte = raw.recv(1)  # byte by byte: not one byte of a frame is read
        assert byte, head
        head += byte
    assert head.startswith(b"HTTP/1.1 101"), head
    return raw


def _frame(ws: ClientConnection, after: int, limit: float) -> dict[str, Any]:
    """The first ``state`` frame past version ``after``, within ``limit`` seconds."""
    deadline = time.monotonic() + limit
    while True:
        frame: dict[str, Any] = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if frame["type"] == "state" and frame["version"] > after:
            return frame


def test_a_spectator_that_never_reads_does_not_delay_the_seat(tmp_path: Path) -> None:
    """In uvicorn in this process, on a real socket (so that the server's code is
    measured), with the pace compressed: a minute of play in 25 s."""
    seconds, bound = 25.0, 2.0
    limits = Limits(messages_per_second=1000)
    app = create_server(open_storage(str(tmp_path / "t.sqlite")), limits=limits, delay=0)
    with running(app) as port:
        server = Server(None, port, tmp_path, "")
        body = {"players": 2, "bots": ["random"], "delay": 0, "rules": "start_score=6"}
        status, answer = server.post(body)
        assert status == 201
        table, token = answer["table"], answer["seats"][0]["token"]
        silent = _handshake(server.port, f"/ws/watch/{table}")
        rng = random.Random(3)
        worst, moves = 0.0, 0
        with connect(server.ws(f"/ws/{token}"), max_size=2**22) as ws:
            frame = _frame(ws, -1, bound)
            stop = time.monotonic() + seconds
            while time.monotonic() < stop:
                while not (frame["your_turn"] or frame["game_over"]):
                    frame = _frame(ws, frame["version"], bound)
                message = (
                    {"type": "new_game"}
                    if frame["game_over"]
                    else {"type": "action", "action": rng.choice(frame["view"]["legal_actions"])}
                )
                sent = time.monotonic()
                ws.send(json.dumps(message))
                frame = _frame(ws, frame["version"], bound)  # raises past the bound
                worst = max(worst, time.monotonic() - sent)
                moves += 1
        assert moves > 300, moves  # enough frames to fill every buffer of the spectator
        assert worst < bound
        # the spectator was dropped: the server cut its connection
        status, summary = server.get(f"/api/tables/{table}")
        assert summary["spectators"] == 0
        silent.settimeout(10)
        try:
            while silent.recv(1 << 20):  # what was sent before the cut, then the end
                pass
            end = "closed"
        except ConnectionResetError:
            end = "reset"
        except TimeoutError:
            end = "still open"
        silent.close()
        assert end in ("closed", "reset")


def test_32_spectators_and_the_seats_still_get_in(tmp_path: Path) -> None:
    with serving(tmp_path) as server:
        status, answer = server.post({"players": 2, "humans": 2, "delay": 10})
        assert status == 201
        table = answer["table"]
        with contextlib.ExitStack() as stack:
            spectators = [
                stack.enter_context(connect(server.ws(f"/ws/watch/{table}"))) for _ in range(32)
            ]
            for ws in spectators:
                assert json.loads(ws.recv(timeout=10))["type"] == "state"
            with connect(server.ws(f"/ws/watch/{table}")) as extra:
                refusal = json.loads(extra.recv(timeout=10))
                assert refusal["message"] == "this table has too many spectators"
            for seat in answer["seats"]:
                with connect(server.ws(f"/ws/{seat['token']}")) as ws:
                    frame = json.loads(ws.recv(timeout=10))
                    assert frame["type"] == "state"
                    assert frame["seat"] == seat["seat"]


# ----------------------------------------------------------------- floods


def test_a_large_body_is_refused_before_it_is_read(tmp_path: Path) -> None:
    size = 200 << 20
    with serving(tmp_path) as server:
        assert server.process is not None
        server.post({"players": 2})  # warm: the first request imports what it needs
        before = peak_memory(server.process.pid)
        chunk = b" " * (1 << 20)
        for chunked in (False, True):
            raw = socket.create_connection(("127.0.0.1", server.port))
            length = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}"
            raw.sendall(
                f"POST /api/tables HTTP/1.1\r\nHost: {server.host}\r\n"
                f"Content-Type: application/json\r\n{length}\r\n\r\n".encode()
            )
            sent = 0
            try:
                while sent < size:
                    raw.sendall(b"100000\r\n" + chunk + b"\r\n" if chunked else chunk)
                    sent += len(chunk)
            except OSError:  # the server answered and closed: the rest is never sent
                pass
            raw.settimeout(10)
            answer = raw.recv(65536)
            raw.close()
            assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
            assert b"the body is too long" in answer
            assert sent < size // 2, sent  # it stopped reading long before the end
        grown = peak_memory(server.process.pid) - before
        assert grown < 20 << 20, f"the server grew by {grown >> 20} MB"


def test_table_creation_is_limited_per_client_and_tables_expire(tmp_path: Path) -> None:
    options = ["--tables-per-client", "3", "--max-tables", "2", "--expire-unjoined", "2"]
    with serving(tmp_path, *options) as server:
        assert server.post({"players": 2, "delay": 10})[0] == 201
        status, answer = server.post({"players": 2, "delay": 10})
        assert status == 201
        status, full = server.post({"players": 2})
        assert status == 429
        assert "too many open tables" in full["error"]
        deadline = time.monotonic() + 20
        while server.post({"players": 2, "delay": 10})[0] != 201:  # nobody joined: expired
            assert time.monotonic() < deadline, "the tables did not expire"
            time.sleep(0.5)
        status, limited = server.post({"players": 2})
        assert status == 429
        assert "this address created 3 tables" in limited["error"]
        status, _gone = server.get(f"/api/tables/{answer['table']}")
        assert status == 404
        with sqlite3.connect(server.db) as db:
            rows = db.execute("SELECT id, expired FROM watten_tables ORDER BY id").fetchall()
        assert rows[:2] == [(1, 1), (2, 1)]
        with connect(server.ws(f"/ws/{answer['seats'][0]['token']}")) as ws:
            assert json.loads(ws.recv(timeout=10))["message"] == "unknown seat link"


def test_an_idle_table_expires_and_its_people_are_told(tmp_path: Path) -> None:
    with serving(tmp_path, "--expire-idle", "2") as server:
        _status, answer = server.post({"players": 2, "bots": ["random"], "delay": 0})
        with connect(server.ws(f"/ws/{answer['seats'][0]['token']}")) as ws:
            frames = _until_closed(ws)  # the person never moves
            assert frames[-1]["message"].startswith("this table expired: nobody moved")
            assert ws.close_code == 4410
        with sqlite3.connect(server.db) as db:
            assert db.execute("SELECT expired FROM watten_tables").fetchall() == [(1,)]


def _until_closed(ws: ClientConnection) -> list[dict[str, Any]]:
    frames = []
    with contextlib.suppress(ConnectionClosed):
        while True:
            frames.append(json.loads(ws.recv(timeout=20)))
    return frames


def test_idle_connections_and_slow_heads_are_closed(tmp_path: Path) -> None:
    with serving(tmp_path) as server:
        silent = socket.create_connection(("127.0.0.1", server.port))
        slow = socket.create_connection(("127.0.0.1", server.port))
        slow.sendall(f"GET /api/tables HTTP/1.1\r\nHost: {server.host}\r\n".encode())
        started = time.monotonic()
        for raw in (silent, slow):
            raw.settimeout(30)
            with contextlib.suppress(ConnectionResetError):
                assert raw.recv(1024) == b""  # closed by the server
            raw.close()
        assert time.monotonic() - started < 20
        assert server.request("GET", "/api/tables")[0] == 200


# --------------------------------------------------------------- small holes


def test_ids_out_of_range_and_a_malformed_since_are_refused(tmp_path: Path) -> None:
    with serving(tmp_path) as server:
        status, answer = server.post({"players": 2, "delay": 10})
        token = answer["seats"][0]["token"]
        huge = "99999999999999999999"
        for path in (
            f"/api/tables/{huge}",
            f"/api/tables/{huge}/record",
            f"/api/tables/{huge}/review",
            f"/watch/{huge}",
            "/api/tables/9223372036854775808",
            "/api/tables/-1",
            "/api/tables/%C2%B2",
            "/api/tables/1%00",
        ):
            status, _headers, data = server.request("GET", path)
            assert status == 404, path
            assert json.loads(data)["error"].startswith("no such table"), path
        for path, message in (
            (f"/ws/watch/{huge}", "no such table"),
            (f"/ws/{token}?since=%C2%B2", "since must be"),
            (f"/ws/{token}?since=-1", "since must be"),
            (f"/ws/{token}?since={huge}", "since must be"),
            ("/ws/watch/1?since=%C2%B2", "since must be"),
            (f"/ws/{'x' * 500}", "unknown seat link"),
        ):
            with connect(server.ws(path)) as ws:
                assert json.loads(ws.recv(timeout=10))["message"].startswith(message), path
        assert server.request("GET", "/api/tables")[0] == 200  # still answering


def test_the_database_files_are_private(tmp_path: Path) -> None:
    old = tmp_path / "old.sqlite"
    old.touch(mode=0o644)
    old.chmod(0o644)
    for db in (str(tmp_path / "new.sqlite"), str(old)):
        with serving(tmp_path, db=db) as server:
            assert server.post({"players": 2, "delay": 10})[0] == 201
            for suffix in ("", "-wal", "-shm"):
                mode = stat.S_IMODE(os.stat(db + suffix).st_mode)
                assert mode == 0o600, (db + suffix, oct(mode))


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("Ann\x00a", "U+0000"),
        ("Anna\nBob", "U+000A"),
        ("Anna\u202eBob", "U+202E"),
        ("\u200bAnna", "U+200B"),
        ("You", "a name the page gives seats itself"),
        ("you", "a name the page gives seats itself"),
        ("Du", "a name the page gives seats itself"),
        ("Seat 2", "a name the page gives seats itself"),
        ("Seat 1 (search bot)", "a name the page gives seats itself"),
        # Confusables of the page's own words: full-width letters (NFKC),
        # a Cyrillic letter among Latin ones, a whole name in lookalike letters.
        ("\uff39\uff2f\uff35", "a name the page gives seats itself"),
        ("\uff53\uff45\uff41\uff54\u3000\uff13", "a name the page gives seats itself"),
        ("Y\u043eu", "may not mix the lookalike alphabets Cyrillic and Latin"),
        ("S\u0435at 2", "may not mix the lookalike alphabets Cyrillic and Latin"),
        ("\u0405\u0435\u0430\u0442 2", "a name the page gives seats itself"),
        ("x" * 31, "longer than 30 characters"),
    ],
)
def test_display_names_are_cleaned(server: Server, name: str, message: str) -> None:
    status, answer = server.post({"players": 2, "names": [name]})
    assert status == 400, answer
    assert answer["error"].startswith("names: ")
    assert message in answer["error"]


def test_names_in_other_alphabets_and_nfkc_forms_are_kept(server: Server) -> None:
    names = ["\u0417\u043e\u044f", "\u0396\u03c9\u03ae", "\u5c71\u7530", "\uff21nna"]
    status, answer = server.post({"players": 4, "humans": 4, "names": names, "delay": 10})
    assert status == 201, answer
    status, table = server.get(f"/api/tables/{answer['table']}")
    assert [s["name"] for s in table["seats"]] == [*names[:3], "Anna"]  # full-width A: NFKC


def test_a_clean_name_is_kept_and_the_default_rules_are_named(server: Server) -> None:
    status, answer = server.post({"players": 2, "names": ["  Anna   Maria "], "delay": 10})
    assert status == 201
    status, table = server.get(f"/api/tables/{answer['table']}")
    assert table["seats"][0]["name"] == "Anna Maria"
    assert table["rules"] == "default"
    status, _, data = server.request("GET", f"/api/tables/{answer['table']}/record")
    assert status == 409
    assert json.loads(data) == {"error": "the game is not over yet"}
