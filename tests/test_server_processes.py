"""The game server as real processes on real sockets: ``kill -9`` in the middle of a deal
loses no acknowledged move, and two processes on one PostgreSQL database serve the same
table (a move made through one reaches the clients of the other)."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from bohmisch_watten import load_record, replay
from bohmisch_watten.web.backends import open_storage
from test_storage import postgres_url  # noqa: F401 - the fixture

SRC = Path(__file__).resolve().parents[1] / "src"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@contextmanager
def server(db: str) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``python -m bohmisch_watten serve --db DB`` on a free port, until it answers."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    process = subprocess.Popen(
        [sys.executable, "-m", "bohmisch_watten", "serve", "--db", db, "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, "the server exited"
            assert time.monotonic() < deadline, "the server did not start"
            try:
                with urllib.request.urlopen(base + "/api/tables", timeout=2):
                    break
            except OSError:
                time.sleep(0.1)
        yield process, base
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(10)


def post(base: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        base + "/api/tables",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 201
        answer: dict[str, Any] = json.load(response)
    return answer


def get_json(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=10) as response:
        data: dict[str, Any] = json.load(response)
    return data


def ws_url(base: str, path: str) -> str:
    return base.replace("http://", "ws://") + path


def next_frame(ws: ClientConnection, predicate: Any) -> dict[str, Any]:
    while True:
        frame: dict[str, Any] = json.loads(ws.recv(timeout=20))
        if frame["type"] == "state" and predicate(frame):
            return frame


def my_turn_or_end(ws: ClientConnection, frame: dict[str, Any]) -> dict[str, Any]:
    """The latest frame once it is this seat's turn or the game is over."""
    while not (frame["your_turn"] or frame["game_over"]):
        frame = next_frame(ws, lambda f: True)
    return frame


def test_kill_9_in_the_middle_of_a_deal_loses_no_acknowledged_move(tmp_path: Path) -> None:
    db = str(tmp_path / "crash.sqlite")
    rng = random.Random(11)
    acknowledged: dict[int, str] = {}  # version -> the action it showed
    with server(db) as (process, base):
        answer = post(
            base,
            {"players": 2, "humans": 1, "bots": ["random"], "delay": 0, "rules": "start_score=10"},
        )
        token = answer["seats"][0]["token"]
        with connect(ws_url(base, f"/ws/{token}")) as ws:
            frame = next_frame(ws, lambda f: True)
            # a few moves, then stop in the middle of a deal (after an exchange or a card)
            while len(acknowledged) < 4 or frame["view"]["phase"] not in ("exchange", "play"):
                frame = my_turn_or_end(ws, frame)
                assert not frame["game_over"]
                action = rng.choice(frame["view"]["legal_actions"])
                ws.send(json.dumps({"type": "action", "action": action}))
                version = frame["version"]
                frame = next_frame(ws, lambda f, v=version: f["version"] > v)
                assert frame["version"] == version + 1  # the frame of this very move
                acknowledged[frame["version"]] = action
        assert frame["view"]["phase"] in ("exchange", "play")
        process.send_signal(signal.SIGKILL)
        process.wait(10)
    stored = open_storage(db)
    journal = stored.journal(answer["table"])
    stored.close()
    for version, action in acknowledged.items():
        assert journal[version - 1] == action
    with server(db) as (_, base):  # the same database, the same link
        last = max(acknowledged)
        with connect(ws_url(base, f"/ws/{token}?since={last}")) as ws:
            first = json.loads(ws.recv(timeout=20))
            if first["type"] == "events":  # the bots moved after the last acknowledgement
                assert first["since"] == last
                first = json.loads(ws.recv(timeout=20))
            assert first["type"] == "state"
            assert first["version"] >= len(journal)
            frame = first
            while True:
                frame = my_turn_or_end(ws, frame)
                if frame["game_over"]:
                    break
                action = rng.choice(frame["view"]["legal_actions"])
                ws.send(json.dumps({"type": "action", "action": action}))
                frame = next_frame(ws, lambda f, v=frame["version"]: f["version"] > v)
        with urllib.request.urlopen(f"{base}/api/tables/{answer['table']}/record") as response:
            record = load_record(response.read().decode())
        final = replay(record)
        assert final.is_terminal
        # the record starts with the moves acknowledged before the crash
        played = [str(action) for _, action in final.history]
        for version, action in acknowledged.items():
            assert played[version - 1] == action


def test_two_processes_on_one_postgres_database_serve_one_table(postgres_url: str) -> None:  # noqa: F811
    with server(postgres_url) as (_, base_a), server(postgres_url) as (_, base_b):
        answer = post(
            base_a, {"players": 2, "humans": 2, "bots": [], "delay": 0, "rules": "start_score=2"}
        )
        tokens = [s["token"] for s in answer["seats"]]
        rng = random.Random(12)
        with (
            connect(ws_url(base_a, f"/ws/{tokens[0]}")) as a,
            connect(ws_url(base_b, f"/ws/{tokens[1]}")) as b,
            connect(ws_url(base_b, f"/ws/watch/{answer['table']}")) as spectator,
        ):
            sockets = {0: a, 1: b}
            frames = {seat: next_frame(ws, lambda f: True) for seat, ws in sockets.items()}
            moves_across = 0
            while True:
                summary = get_json(f"{base_a}/api/tables/{answer['table']}")
                # Process A learns what B stored by NOTIFY, a moment later: a frame may
                # be ahead of A's summary (a move or the next deal stored through B).
                behind = any(frames[seat]["version"] > summary["version"] for seat in sockets)
                if behind or (summary["turn"] is None and not summary["game_over"]):
                    time.sleep(0.01)  # the shuffle, or A not yet told
                    continue
                # both seats, one on each process, reach the table's version
                for seat, ws in sockets.items():
                    if frames[seat]["version"] < summary["version"]:
                        frames[seat] = next_frame(
                            ws, lambda f, v=summary["version"]: f["version"] >= v
                        )
                    assert frames[seat]["version"] == summary["version"]
                if summary["game_over"]:
                    break
                turn = summary["turn"]
                assert frames[turn]["your_turn"]
                action = rng.choice(frames[turn]["view"]["legal_actions"])
                sockets[turn].send(json.dumps({"type": "action", "action": action}))
                version = summary["version"]
                frames[1 - turn] = next_frame(
                    sockets[1 - turn], lambda f, v=version: f["version"] > v
                )
                moves_across += 1
            assert moves_across >= 10
            assert frames[0]["version"] == frames[1]["version"]
            seen = next_frame(spectator, lambda f: f["version"] == frames[0]["version"])
            assert seen["game_over"] is True
            assert seen["view"]["hand"] == []
        for base in (base_a, base_b):
            with urllib.request.urlopen(f"{base}/api/tables/{answer['table']}/record") as response:
                assert replay(load_record(response.read().decode())).is_terminal


def test_the_server_sends_frames_uncompressed(tmp_path: Path) -> None:
    """No per-message deflate: the client offers it (websockets does by default), the
    server declines, so frames cost no compression (benchmarks/RESULTS-web.md)."""
    with server(str(tmp_path / "plain.sqlite")) as (_, base):
        token = post(base, {"players": 2, "humans": 1, "bots": ["random"], "delay": 0})["seats"][0][
            "token"
        ]
        with connect(ws_url(base, f"/ws/{token}")) as ws:
            offered = ws.request.headers.get("Sec-WebSocket-Extensions") if ws.request else None
            assert offered is not None
            assert "permessage-deflate" in offered
            assert ws.response is not None
            assert ws.response.headers.get("Sec-WebSocket-Extensions") is None
            assert next_frame(ws, lambda f: True)["version"] >= 0
