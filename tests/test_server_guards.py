"""The guards of the game server one by one, in this process: the network's gate to
the bots, host names and origins, display names, the per-socket queue, the protocols'
time limits, bodies, floods and expiry (the attacks on a whole server process are in
test_server_security.py)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from bohmisch_watten.web import _protocols
from bohmisch_watten.web import server as server_module
from bohmisch_watten.web._guard import HostGuard, host_name, same_origin
from bohmisch_watten.web._outbox import Outbox
from bohmisch_watten.web._wire import display_name
from bohmisch_watten.web.backends import open_storage
from bohmisch_watten.web.network_bots import BotNameError, NetworkBots
from bohmisch_watten.web.server import GameServer, Limits, create_server
from bohmisch_watten.web.table import Table
from live_server import JSON, Server
from threaded_server import running

# ------------------------------------------------------------- the bots' gate


def test_the_gate_reads_built_in_names_and_their_capped_parameters() -> None:
    gate = NetworkBots({"deep": "expert:samples=80"})
    assert gate.resolve("Search:rollouts=060:rollout=random") == "search:rollouts=60:rollout=random"
    assert gate.resolve("expert:race_near=false:leaf=rollout") == "expert:race_near=0:leaf=rollout"
    assert gate.resolve("deep") == "deep"
    assert gate.spec("deep") == "expert:samples=80"
    assert gate.spec("search:rollouts=60") == "search:rollouts=60"
    assert gate.allowed.endswith(", deep")
    for text, message in [
        (7, "a bot is a name of at most 120 characters"),
        ("", "a bot is a name"),
        ("x" * 121, "a bot is a name"),
        ("deep:samples=1", "takes no parameters"),
        ("genius", "unknown bot 'genius'"),
        ("search:rollouts", "not a parameter a client may set"),
        ("search:rollout=greedy", "rollout must be heuristic|random"),
        ("expert:race_near=2", "race_near must be 0|1"),
        ("random:x=1", "(allowed: none)"),
    ]:
        with pytest.raises(BotNameError, match="the allowed bots are") as refused:
            gate.resolve(text)
        assert message in str(refused.value)


def test_registered_names_are_checked() -> None:
    with pytest.raises(TypeError, match="bots must map names"):
        NetworkBots({"deep": 3})  # type: ignore[dict-item]
    with pytest.raises(TypeError, match="bots must map names"):
        NetworkBots(["deep"])  # type: ignore[arg-type]
    for name in ("Deep", "1deep", "de:ep", "x" * 25):
        with pytest.raises(ValueError, match="use lower case letters"):
            NetworkBots({name: "expert"})
    with pytest.raises(ValueError, match="a built-in bot's"):
        NetworkBots({"search": "expert"})
    with pytest.raises(ValueError, match="give a bot spec"):
        NetworkBots({"deep": " "})
    with pytest.raises(ValueError, match="bot 'broken'"):
        create_server(open_storage(":memory:"), bots={"broken": "nosuch"})


def test_a_registered_name_plays_its_spec_at_a_table() -> None:
    table = Table(players=2, bots=["fast"], specs={"fast": "random"}, seed=1)
    assert table.seats[1].kind == "fast"
    assert table.quick_step
    while table.needs_auto:
        table.step()
    assert table.version > 0
    with pytest.raises(ValueError, match="unknown bot 'fast'"):
        Table(players=2, bots=["fast"])


# ----------------------------------------------------------- hosts and names


def test_host_names_and_origins() -> None:
    assert host_name("Example.ORG:8000") == "example.org"
    assert host_name("[::1]:80") == "::1"
    for bad in (None, "", "x" * 256, "a:b", "user@host", "host/path", "host?q", "host#f", ":80"):
        assert host_name(bad) is None, bad
    assert same_origin("http://a.example:1", "A.example:1", frozenset())
    assert not same_origin("http://b.example", "a.example", frozenset())
    assert same_origin("https://b.example", "a.example", frozenset({"https://b.example"}))
    assert not same_origin("http://[", "a.example", frozenset())
    assert not same_origin("null", "a.example", frozenset())
    assert not same_origin("http://a.example", None, frozenset())
    guard = HostGuard(None, ["*"], ["https://b.example/"])
    assert guard.hosts is None
    assert guard.origins == frozenset({"https://b.example"})


def test_the_guard_answers_in_json_before_the_app(tmp_path: Path) -> None:
    app = create_server(open_storage(str(tmp_path / "t.sqlite")), allowed_hosts=["testserver"])
    with TestClient(app) as client:
        refused = client.get("/api/tables", headers={"host": "evil.example"})
        assert refused.status_code == 400
        assert refused.headers["connection"] == "close"
        assert "does not serve the host" in refused.json()["error"]
        wrong = client.post("/api/tables", content="{}", headers={"content-type": "text/plain"})
        assert wrong.status_code == 415
        evil = {"content-type": "application/json; charset=utf-8", "origin": "http://evil.example"}
        assert client.post("/api/tables", content="{}", headers=evil).status_code == 403
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect("/ws/watch/1", headers={"host": "evil.example"}),
        ):
            pass
        assert client.get("/nowhere").json() == {"error": "Not Found"}
        assert client.put("/api/tables", json={}).status_code == 405
        assert client.get("/openapi.json").json()["openapi"] == "3.0.3"


def test_display_names() -> None:
    assert display_name("  Anna   Maria  ") == "Anna Maria"
    assert display_name("") == ""
    assert display_name("Seattle") == "Seattle"
    assert display_name("Café") == "Café"
    for name in ("You", "du", "SEAT", "Platz 3", "Spectator", "a\x1b[31m", "\u2067x", "\ue000"):
        with pytest.raises(ValueError):  # noqa: PT011 - each message is checked elsewhere
            display_name(name)


# ------------------------------------------------------------ one server


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[Server, GameServer]]:
    limits = Limits(messages_per_second=1000, tables_per_client=4, send_timeout=1.0)
    app = create_server(open_storage(str(tmp_path / "t.sqlite")), limits=limits, delay=0)
    with running(app) as port:
        yield Server(None, port, tmp_path, str(tmp_path / "t.sqlite")), app.state.server


def test_bodies_are_read_within_limits(live: tuple[Server, GameServer]) -> None:
    server, _ = live
    status, _, data = server.request("POST", "/api/tables", "{" + " " * 5000 + "}", JSON)
    assert status == 413
    assert "the body is too long" in json.loads(data)["error"]
    raw = socket.create_connection(("127.0.0.1", server.port))
    raw.sendall(
        f"POST /api/tables HTTP/1.1\r\nHost: {server.host}\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n".encode()
        + b"".join(b"400\r\n" + b" " * 1024 + b"\r\n" for _ in range(5))
    )
    raw.settimeout(10)
    assert raw.recv(4096).startswith(b"HTTP/1.1 413")
    raw.close()


def test_a_slow_body_and_a_slow_head_are_cut(
    live: tuple[Server, GameServer], monkeypatch: pytest.MonkeyPatch
) -> None:
    server, _ = live
    monkeypatch.setattr(server_module, "BODY_TIMEOUT", 0.3)
    monkeypatch.setattr(_protocols, "HEAD_TIMEOUT", 0.3)
    slow_body = socket.create_connection(("127.0.0.1", server.port))
    slow_body.sendall(
        f"POST /api/tables HTTP/1.1\r\nHost: {server.host}\r\nContent-Type: application/json"
        "\r\nContent-Length: 100\r\n\r\n{".encode()
    )
    slow_body.settimeout(10)
    assert slow_body.recv(4096).startswith(b"HTTP/1.1 408")
    slow_body.close()
    slow_head = socket.create_connection(("127.0.0.1", server.port))
    slow_head.sendall(b"GET / HTTP/1.1\r\n")
    slow_head.settimeout(10)
    with contextlib.suppress(ConnectionResetError):
        assert slow_head.recv(4096) == b""
    slow_head.close()
    status, _, _ = server.request("GET", "/api/tables")  # a kept-alive request is fine
    assert status == 200


def test_the_per_client_limit_and_the_table_limit(live: tuple[Server, GameServer]) -> None:
    server, game = live
    for _ in range(4):
        assert server.post({"players": 2})[0] == 201
    status, answer = server.post({"players": 2})
    assert status == 429
    assert "this address created 4 tables" in answer["error"]
    game._created["127.0.0.1"][0] -= 2 * game.limits.client_window  # an hour went by
    assert server.post({"players": 2})[0] == 201


def test_a_client_that_does_not_read_is_dropped(live: tuple[Server, GameServer]) -> None:
    server, game = live
    table = server.post({"players": 2, "humans": 2, "delay": 10})[1]["table"]
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.connect(("127.0.0.1", server.port))
    raw.sendall(
        f"GET /ws/watch/{table} HTTP/1.1\r\nHost: {server.host}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    hub = game.hubs[table]
    deadline = time.monotonic() + 10
    while not hub.watchers:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    (watcher,) = hub.watchers
    outbox = hub.outboxes[watcher]
    big = json.dumps({"type": "error", "message": "x" * 60_000})
    for _ in range(200):  # far more than the queue and every buffer hold
        game.loop.call_soon_threadsafe(outbox.put, big)  # type: ignore[union-attr]
        if outbox.closed:
            break
        time.sleep(0.01)
    while hub.watchers:
        assert time.monotonic() < deadline, "not dropped"
        time.sleep(0.01)
    assert outbox.closed
    raw.close()


def test_a_client_that_answers_no_ping_is_cut(tmp_path: Path) -> None:
    app = create_server(open_storage(str(tmp_path / "t.sqlite")), delay=0)
    with running(app, ws_ping_interval=0.2, ws_ping_timeout=0.2) as port:
        server = Server(None, port, tmp_path, "")
        table = server.post({"players": 2, "delay": 10})[1]["table"]
        with connect(server.ws(f"/ws/watch/{table}")) as ws:
            ws.recv(timeout=10)
        raw = socket.create_connection(("127.0.0.1", port))
        raw.sendall(
            f"GET /ws/watch/{table} HTTP/1.1\r\nHost: {server.host}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        raw.settimeout(10)
        received = b""
        with contextlib.suppress(ConnectionResetError):
            while chunk := raw.recv(65536):
                received += chunk
        assert received.startswith(b"HTTP/1.1 101")
        assert b"keepalive ping timeout" in received  # the close frame, then the cut
        raw.close()


def test_without_the_guarded_protocols_a_dropped_client_is_closed(tmp_path: Path) -> None:
    limits = Limits(send_timeout=0.5)
    app = create_server(open_storage(str(tmp_path / "t.sqlite")), limits=limits, delay=10)
    with running(app, guarded=False) as port:
        server = Server(None, port, tmp_path, "")
        table = server.post({"players": 2, "humans": 2, "delay": 10})[1]["table"]
        game: GameServer = app.state.server
        with connect(server.ws(f"/ws/watch/{table}")) as ws:
            ws.recv(timeout=10)
            hub = game.hubs[table]
            (watcher,) = hub.watchers
            outbox = hub.outboxes[watcher]
            assert game.loop is not None
            done = asyncio.run_coroutine_threadsafe(_drop(outbox), game.loop)
            done.result(10)
            with pytest.raises(ConnectionClosed):
                _read_all(ws)


def _read_all(ws: ClientConnection) -> None:
    while True:
        ws.recv(timeout=10)


async def _drop(outbox: Outbox) -> None:
    outbox.drop("a test")
    outbox.drop("twice")  # once is enough
    outbox.put("ignored")


# ------------------------------------------------------------------ expiry


def test_unjoined_and_idle_tables_expire(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite")
    limits = Limits(expire_unjoined=0.3, expire_idle=None)
    app = create_server(open_storage(db), limits=limits, delay=10, allowed_hosts=["testserver"])
    with TestClient(app) as client:
        answer = client.post("/api/tables", json={"players": 2, "delay": 10}).json()
        token = answer["seats"][0]["token"]
        deadline = time.monotonic() + 10
        while client.get(f"/api/tables/{answer['table']}").status_code == 200:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        with client.websocket_connect(f"/ws/{token}") as ws:
            assert ws.receive_json()["message"] == "unknown seat link"
    with sqlite3.connect(db) as stored:
        assert stored.execute("SELECT expired FROM watten_tables").fetchall() == [(1,)]
    again = create_server(open_storage(db), allowed_hosts=["testserver"])
    with TestClient(again) as client:
        assert again.state.server.hubs == {}  # an expired table is not loaded
        assert client.get(f"/api/tables/{answer['table']}").status_code == 404


def test_a_table_being_played_does_not_expire(tmp_path: Path) -> None:
    limits = Limits(expire_unjoined=0.3, expire_idle=0.3)
    app = create_server(open_storage(str(tmp_path / "t.sqlite")), limits=limits)
    game: GameServer = app.state.server
    with TestClient(app, base_url="http://127.0.0.1"):
        table = Table(players=2, bots=["random"], seed=2)
        hub = game.add_table(table, 0.8)
        now = hub.born + 0.1
        assert hub.stale(now, limits) is None
        hub.joined = True
        assert hub.stale(hub.moved + 1, limits) == "nobody moved in 0.3 s"
        hub.finished = True
        assert hub.stale(hub.moved + 1, limits) is None


def test_the_people_of_an_expired_table_are_told_and_closed(tmp_path: Path) -> None:
    limits = Limits(expire_unjoined=None, expire_idle=0.5)
    app = create_server(
        open_storage(str(tmp_path / "t.sqlite")), limits=limits, allowed_hosts=["testserver"]
    )
    with TestClient(app) as client:
        answer = client.post("/api/tables", json={"players": 2, "bots": ["random"], "delay": 0})
        token = answer.json()["seats"][0]["token"]
        with client.websocket_connect(f"/ws/{token}") as ws:
            frames: list[dict[str, Any]] = []
            with pytest.raises(WebSocketDisconnect) as closed:
                _receive_all(ws, frames)
        assert frames[-1]["message"] == "this table expired: nobody moved in 0.5 s"
        assert closed.value.code == 4410


def test_a_table_expired_elsewhere_takes_no_move_and_its_people_are_told(
    tmp_path: Path,
) -> None:
    """The table expired in the database (as another process would do it): the next
    move is refused, nothing is stored, and the table's people are told and closed."""
    app = create_server(open_storage(str(tmp_path / "t.sqlite")), allowed_hosts=["testserver"])
    game: GameServer = app.state.server
    with TestClient(app) as client:
        answer = client.post("/api/tables", json={"players": 2, "humans": 2})
        table = answer.json()["table"]
        token = answer.json()["seats"][0]["token"]
        hub = game.hubs[table]
        deadline = time.monotonic() + 10
        while hub.committed < 1:  # the shuffle is stored
            assert time.monotonic() < deadline
            time.sleep(0.01)
        with client.websocket_connect(f"/ws/{token}") as ws:
            frame = ws.receive_json()
            assert game.storage.expire(table) is True  # "another process" expired it
            mover = hub.table.state.current_player
            if mover != 0:  # seat 1 moves through its own link
                token = answer.json()["seats"][1]["token"]
            with client.websocket_connect(f"/ws/{token}") as mine:
                frame = mine.receive_json()
                mine.send_json({"type": "action", "action": frame["view"]["legal_actions"][0]})
                frames: list[dict[str, Any]] = []
                with pytest.raises(WebSocketDisconnect) as closed:
                    _receive_all(mine, frames)
            assert closed.value.code == 4410
            errors = [f["message"] for f in frames if f["type"] == "error"]
            assert errors[0] == (
                "this table expired: another server process gave it up; the move was not made"
            )
            assert errors[-1] == "this table expired: another server process gave it up"
            assert all(f["version"] == frame["version"] for f in frames if f["type"] == "state")
        assert game.storage.journal(table) == hub.table.journal[: frame["version"]]
        assert client.get(f"/api/tables/{table}").status_code == 404


def test_a_table_the_database_knows_was_joined_is_kept(tmp_path: Path) -> None:
    """The expiry asks the database: a person who joined through another process keeps
    the table open, and this process learns that it was joined."""
    limits = Limits(expire_unjoined=0.2, expire_idle=None)
    app = create_server(
        open_storage(str(tmp_path / "t.sqlite")), limits=limits, allowed_hosts=["testserver"]
    )
    game: GameServer = app.state.server
    with TestClient(app) as client:
        table = client.post("/api/tables", json={"players": 2, "delay": 10}).json()["table"]
        hub = game.hubs[table]
        game.storage.join(table)  # "through another process": this hub does not know
        time.sleep(0.8)  # past the expiry, checked every 0.05 s
        assert client.get(f"/api/tables/{table}").status_code == 200
        assert hub.joined


def _receive_all(ws: Any, into: list[dict[str, Any]]) -> None:
    while True:
        into.append(ws.receive_json())


def test_a_table_read_back_with_a_persons_move_was_joined(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite")
    app = create_server(open_storage(db), delay=0, allowed_hosts=["testserver"])
    with TestClient(app) as client:
        answer = client.post("/api/tables", json={"players": 2, "bots": ["random"]}).json()
        fresh = app.state.server.hubs[answer["table"]]
        assert not fresh.joined
        with client.websocket_connect(f"/ws/{answer['seats'][0]['token']}") as ws:
            frame = ws.receive_json()
            while not frame.get("your_turn"):
                frame = ws.receive_json()
            ws.send_json({"type": "action", "action": frame["view"]["legal_actions"][0]})
            version = frame["version"]
            while frame["type"] != "state" or frame["version"] <= version:
                frame = ws.receive_json()  # the frame of the move: it is stored
    again = create_server(open_storage(db), allowed_hosts=["testserver"])
    with TestClient(again):
        assert again.state.server.hubs[answer["table"]].joined
