"""A seven-seat table of the 36-card pack on the game server (R1), on a real socket:
created through the API, played to the end by two people (websocket clients) and five
bots, watched by a spectator who sees only public cards, its record replayed; the
per-seat and spectator connection limits hold at seven seats as at two."""

from __future__ import annotations

import json
import queue
import random
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from bohmisch_watten import Rules, Shuffle, load_record, replay
from bohmisch_watten.cards import CARDS
from bohmisch_watten.web.backends import open_storage
from bohmisch_watten.web.server import Limits, create_server
from threaded_server import running

from knowledge import cards_in, known_cards

RULES = "pack=36,start_score=3,plus_fifty=true"
"""Seven seats, and an end within a few deals: 0 or 50 points wins (R31, R33)."""
BOTS = ["heuristic", "random", "heuristic", "random", "heuristic"]


def post(base: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        base + "/api/tables",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


class Reader:
    """A socket read in a thread of its own, so that no client falls behind the server
    (a client too far behind is dropped): every text frame lands in :attr:`frames`."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.frames: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[str] = []
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            while True:
                text = self.ws.recv(timeout=60)
                assert isinstance(text, str)
                self.seen.append(text)
                self.frames.put(json.loads(text))
        except (ConnectionClosed, TimeoutError):
            return

    def newest(self, frame: dict[str, Any] | None) -> dict[str, Any] | None:
        """The newest ``state`` frame received so far (``frame`` if none came since)."""
        while True:
            try:
                message = self.frames.get_nowait()
            except queue.Empty:
                return frame
            if message["type"] == "state":
                frame = message


@pytest.mark.rule("R1", "R6", "R13", "R23")
def test_a_seven_seat_table_plays_to_the_end_and_its_record_replays(tmp_path: Path) -> None:
    limits = Limits(connections_per_seat=1, spectators_per_table=1)
    app = create_server(open_storage(str(tmp_path / "seven.sqlite")), limits=limits, delay=0)
    rng = random.Random(7)
    with running(app) as port:
        base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
        status, refused = post(base, {"players": 7, "humans": 2, "bots": BOTS})
        assert status == 400
        assert "players must be 2 to 4 with the 32-card pack (R1)" in refused["error"]
        body = {"players": 7, "humans": 2, "bots": BOTS, "rules": RULES, "delay": 0}
        status, answer = post(base, body)
        assert status == 201
        table = answer["table"]
        tokens = [seat["token"] for seat in answer["seats"]]
        assert len(tokens) == 2
        with (
            connect(f"{ws_base}/ws/{tokens[0]}") as first,
            connect(f"{ws_base}/ws/{tokens[1]}") as second,
            connect(f"{ws_base}/ws/watch/{table}") as spectator,
        ):
            seats = {0: Reader(first), 1: Reader(second)}
            watcher = Reader(spectator)
            # the limits hold at seven seats: one more tab of a seat, one more spectator
            for path, message in (
                (f"/ws/{tokens[1]}", "this seat has too many connections"),
                (f"/ws/watch/{table}", "this table has too many spectators"),
            ):
                with connect(ws_base + path) as extra:
                    assert json.loads(extra.recv(timeout=10))["message"] == message
            frames: dict[int, dict[str, Any] | None] = {0: None, 1: None}
            acted = {0: -1, 1: -1}
            moves, deadline = 0, time.monotonic() + 60
            while True:
                assert time.monotonic() < deadline, "the game did not end"
                for seat, reader in seats.items():
                    frames[seat] = reader.newest(frames[seat])
                over = [f is not None and f["game_over"] for f in frames.values()]
                if all(over):
                    break
                for seat, frame in frames.items():
                    if frame and frame["your_turn"] and frame["version"] > acted[seat]:
                        assert len(frame["players"]) == 7
                        action = rng.choice(frame["view"]["legal_actions"])
                        seats[seat].ws.send(json.dumps({"type": "action", "action": action}))
                        acted[seat] = frame["version"]
                        moves += 1
                time.sleep(0.002)
            assert moves >= 10
            version = max(f["version"] for f in frames.values() if f is not None)
            spectator_frame = None
            while spectator_frame is None or spectator_frame["version"] < version:
                assert time.monotonic() < deadline, "the spectator did not see the end"
                spectator_frame = watcher.newest(spectator_frame)
                time.sleep(0.002)
            assert spectator_frame["game_over"] is True
            assert spectator_frame["view"]["hand"] == []
        with urllib.request.urlopen(f"{base}/api/tables/{table}/record", timeout=10) as response:
            record = load_record(response.read().decode())
        with urllib.request.urlopen(f"{base}/api/tables/{table}", timeout=10) as response:
            summary = json.load(response)
    assert record.rules == Rules(pack=36, start_score=3, plus_fifty=True)
    final = replay(record)
    assert final.is_terminal
    assert final.num_players == summary["players"] == 7
    assert list(final.scores) == summary["scores"]
    assert len(final.history) == summary["version"]  # every move was one journal entry
    shuffles = [action for _, action in final.history if isinstance(action, Shuffle)]
    assert shuffles
    assert all(set(s.pack) == set(CARDS) for s in shuffles)  # the Sixes in every deal
    public = set.intersection(*(known_cards(final, seat) for seat in range(7)))
    assert watcher.seen
    for text in watcher.seen:
        assert cards_in(text) <= public  # R13, R23: no card hidden from every seat, ever
