"""Nothing a client can start stalls the others: reviews, bots, control frames.

Each test drives a real ``serve`` process over real sockets:

* reviews run in worker processes of their own behind a bounded queue: eight asked for
  at once leave lookups answering in milliseconds (they waited 35 s when reviews ran on
  the server's threads), the queue says 503 with ``Retry-After`` when full, a review is
  computed once per game, and one address may start only so many;
* a client that sends websocket pings (or pongs) without reading is cut, and the server
  does not grow (it grew by hundreds of MB, one pong queued per ping);
* the expert's caps at a 7-seat table are the ones sized for it.
"""

from __future__ import annotations

import json
import os
import random
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from live_server import Server, serving


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    home = tmp_path_factory.mktemp("budgets")
    options = ["--tables-per-client", "1000", "--max-tables", "1000", "--delay", "0"]
    with serving(home, *options) as running:
        yield running


def _finished_game(server: Server, seed: int) -> int:
    """A short 2-seat game (a person, a random bot) played to its end by random moves."""
    body = {"players": 2, "bots": ["random"], "rules": "start_score=10", "delay": 0}
    status, answer = server.post(body)
    assert status == 201, answer
    rng = random.Random(seed)
    with connect(server.ws(f"/ws/{answer['seats'][0]['token']}"), max_size=2**22) as ws:
        while True:
            frame = json.loads(ws.recv(timeout=30))
            if frame.get("type") != "state":
                continue
            if frame["game_over"]:
                return int(answer["table"])
            if frame["your_turn"]:
                ws.send(
                    json.dumps(
                        {"type": "action", "action": rng.choice(frame["view"]["legal_actions"])}
                    )
                )


def _timed(server: Server, path: str) -> tuple[int, dict[str, str], bytes, float]:
    start = time.monotonic()
    status, headers, body = server.request("GET", path, timeout=120)
    return status, headers, body, time.monotonic() - start


def test_reviews_never_stall_lookups_are_queued_kept_and_limited(server: Server) -> None:
    tables = [_finished_game(server, seed) for seed in range(8)]
    answers: dict[int, tuple[int, dict[str, str], bytes, float]] = {}

    def ask(table: int) -> None:
        answers[table] = _timed(server, f"/api/tables/{table}/review")

    askers = [threading.Thread(target=ask, args=(table,)) for table in tables]
    for asker in askers:
        asker.start()
    lookups: list[float] = []
    while any(asker.is_alive() for asker in askers) or len(lookups) < 20:
        for path in ("/api/tables/999999", f"/api/tables/{tables[0]}"):
            status, _, _, spent = _timed(server, path)
            assert status in (404, 200)
            lookups.append(spent)
    for asker in askers:
        asker.join()
    # Eight reviews at once: every lookup meanwhile answered at once (35 s before).
    assert max(lookups) < 0.5, sorted(lookups)[-5:]
    done = [t for t in tables if answers[t][0] == 200]
    busy = [t for t in tables if answers[t][0] == 503]
    assert len(done) == 5, {t: answers[t][0] for t in tables}  # a worker and 4 waiting
    assert len(busy) == 3
    for table in busy:
        assert int(answers[table][1]["retry-after"]) >= 1
        assert "busy" in json.loads(answers[table][2])["error"]
    for table in done:
        review = json.loads(answers[table][2])
        assert review["decisions"], review
        again = _timed(server, f"/api/tables/{table}/review")  # once per game: kept
        assert again[0] == 200
        assert again[2] == answers[table][2]
        assert again[3] < 0.5
    # One address may start six reviews in its window: the sixth passes, then 429.
    status, headers, body, _ = _timed(server, f"/api/tables/{busy[0]}/review")
    assert status == 200, body
    for table in busy[1:]:
        status, headers, body, _ = _timed(server, f"/api/tables/{table}/review")
        assert status == 429, body
        assert int(headers["retry-after"]) >= 1


def _control(opcode: int, payload: bytes) -> bytes:
    """A client's masked control frame (RFC 6455: 0x9 ping, 0xA pong)."""
    mask = os.urandom(4)
    masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked


def _handshake(server: Server, path: str) -> socket.socket:
    """A websocket whose client reads the handshake's answer and nothing more."""
    raw = socket.create_connection(("127.0.0.1", server.port))
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: {server.host}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        byte = raw.recv(1)
        assert byte, head
        head += byte
    assert head.startswith(b"HTTP/1.1 101"), head
    return raw


def _resident(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS in /proc")


def _flood(raw: socket.socket, frame: bytes, count: int) -> bool:
    """Send ``count`` frames without reading; True if the server cut the connection
    (the sending fails, or what follows is the connection's end within a megabyte)."""
    raw.settimeout(10)
    batch = frame * 1000
    try:
        for _ in range(count // 1000):
            raw.sendall(batch)
    except OSError:  # reset or broken pipe: the server cut it
        return True
    read, deadline = 0, time.monotonic() + 5
    try:
        while read < 1 << 20 and time.monotonic() < deadline:
            data = raw.recv(65536)
            if not data:
                return True
            read += len(data)
    except TimeoutError:  # open, and silent for ten seconds
        return False
    except OSError:  # a reset: the server cut it
        return True
    return False  # a megabyte of pongs, or five seconds of them, and still open


@pytest.mark.parametrize(("opcode", "what"), [(0x9, "ping"), (0xA, "pong")])
def test_a_control_frame_flood_is_cut_and_the_server_does_not_grow(
    server: Server, opcode: int, what: str
) -> None:
    assert server.process is not None
    status, answer = server.post({"players": 2, "delay": 10})
    assert status == 201
    before = _resident(server.process.pid)
    raw = _handshake(server, f"/ws/watch/{answer['table']}")
    with raw:
        cut = _flood(raw, _control(opcode, b"x" * 125), 300_000)  # 39 MB of them
        grown = _resident(server.process.pid) - before
        assert cut, f"a {what} flood was not cut"
    assert grown < 8 << 20, f"the server grew by {grown >> 20} MB"
    start = time.monotonic()
    assert server.get("/api/tables")[0] == 200
    assert time.monotonic() - start < 1


def test_a_client_pinging_at_a_sane_rate_stays(server: Server) -> None:
    status, answer = server.post({"players": 2, "delay": 10})
    assert status == 201
    with connect(server.ws(f"/ws/watch/{answer['table']}")) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        for _ in range(20):  # a keepalive every 50 ms, each answered
            assert ws.ping().wait(5)
            time.sleep(0.05)


def test_the_experts_caps_at_seven_seats_are_the_seven_seat_budget(server: Server) -> None:
    body: dict[str, Any] = {"players": 7, "humans": 1, "rules": "pack=36", "delay": 10}
    status, answer = server.post({**body, "bots": ["expert:samples=120"] * 6})
    assert status == 400
    assert "samples must be 1..40" in answer["error"]
    status, answer = server.post({**body, "bots": ["expert:samples=40:max_candidates=5"] * 6})
    assert status == 201, answer
    status, answer = server.post(
        {**body, "players": 3, "rules": "", "bots": ["expert:samples=120"] * 2}
    )
    assert status == 201, answer  # three seats keep their caps
