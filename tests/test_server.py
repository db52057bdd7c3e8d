"""The game server in one process (Starlette's TestClient): the API, many tables, the
journal committed before frames, resuming after a restart, reconnecting with
``?since=V``, spectators who see only public cards, limits and away seats."""

from __future__ import annotations

import json
import random
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from bohmisch_watten import load_record, replay
from bohmisch_watten.web.backends import open_storage
from bohmisch_watten.web.server import GameServer, Limits, create_server
from test_storage import postgres_url  # noqa: F401 - the fixture

from knowledge import cards_in, known_cards

QUICK = "start_score=2"
"""A game of one or two deals."""


@contextmanager
def serving(
    db: str, group_moves: bool = False, **limits: Any
) -> Iterator[tuple[TestClient, GameServer]]:
    app = create_server(
        open_storage(db),
        limits=Limits(**limits),
        delay=0,
        group_moves=group_moves,
        allowed_hosts=["testserver"],  # the TestClient's name
    )
    with TestClient(app) as client:
        yield client, app.state.server


def create(client: TestClient, **request: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json=request)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def wait_for(predicate: Any, limit: float = 20) -> None:
    deadline = time.monotonic() + limit
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


_LAST: weakref.WeakKeyDictionary[Any, dict[str, Any]] = weakref.WeakKeyDictionary()
"""The last frame each socket received, so a turn shown already is not awaited."""


def receive(ws: Any) -> dict[str, Any]:
    frame: dict[str, Any] = ws.receive_json()
    _LAST[ws] = frame
    return frame


def my_turn(ws: Any, server: GameServer, table: int) -> dict[str, Any]:
    """The frame that shows it is this socket's turn, at the table's current version."""
    frame = _LAST.get(ws) or receive(ws)
    while True:
        hub = server.hubs[table]
        if (
            frame["type"] == "state"
            and frame["your_turn"]
            and frame["version"] == hub.table.version
        ):
            return frame
        frame = receive(ws)


def play(
    server: GameServer,
    table: int,
    sockets: dict[int, Any],
    rng: random.Random,
    *,
    moves: int = 10_000,
) -> int:
    """Random legal moves for the people's sockets until the game ends (or ``moves``)."""
    made = 0
    while made < moves:
        state = server.hubs[table].table.state
        if state.is_terminal:
            break
        seat = state.current_player
        if seat not in sockets:
            time.sleep(0.002)  # chance or a bot moves
            continue
        frame = my_turn(sockets[seat], server, table)
        sockets[seat].send_json(
            {"type": "action", "action": rng.choice(frame["view"]["legal_actions"])}
        )
        made += 1
        wait_for(lambda v=frame["version"]: server.hubs[table].table.version > v)
    return made


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "tables.sqlite")


def test_a_table_is_created_listed_and_served(db: str) -> None:
    with serving(db) as (client, _):
        answer = create(
            client, players=4, humans=2, bots=["random", "heuristic"], rules="must_head=false"
        )
        table = answer["table"]
        assert answer["watch"] == f"/watch/{table}"
        assert [s["seat"] for s in answer["seats"]] == [0, 1]
        for seat in answer["seats"]:
            assert seat["url"] == f"/play/{seat['token']}"
            page = client.get(seat["url"])
            assert page.status_code == 200
            assert f"/api/tables/{table}/record" in page.text
            assert "default-src 'none'" in page.headers["content-security-policy"]
        assert client.get("/play/nobody").status_code == 403
        listed = client.get("/api/tables").json()["tables"]
        assert [t["table"] for t in listed] == [table]
        (line,) = listed
        assert line["players"] == 4
        assert line["rules"] == "must_head=false"
        assert [s["kind"] for s in line["seats"]] == ["human", "human", "random", "heuristic"]
        assert line["free_seats"] == 2
        assert "token" not in json.dumps(line)
        assert client.get(f"/api/tables/{table}").json()["table"] == table
        assert client.get("/api/tables/77").status_code == 404
        assert client.get("/api/tables/x/record").status_code == 404
        assert client.get(f"/api/tables/{table}/record").status_code == 409
        assert client.get(f"/api/tables/{table}/review").status_code == 409
        assert client.get(f"/watch/{table}").status_code == 200
        assert client.get("/watch/9").status_code == 404
        lobby = client.get("/")
        assert lobby.status_code == 200
        assert "/api/tables" in lobby.text
        assert '"expert"' in lobby.text  # the bot kinds of the form
        stored = open_storage(db)
        assert stored.find_token(answer["seats"][0]["token"]) is None  # only hashes stored
        stored.close()


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ("{", 400, "the body is not JSON"),
        ('{"players": 2, "players": 4}', 400, "field 'players' appears twice"),
        ('{"delay": NaN}', 400, "the body is not JSON"),
        ('{"rules": [[[[["deep"]]]]]}', 400, "nested 6 levels deep"),
        ("[1]", 400, "the body must be a JSON object"),
        ('{"colour": 1}', 400, "unknown field 'colour'"),
        ('{"players": "4"}', 400, "players must be an integer"),
        ('{"players": 5}', 400, "players must be 2 to 4 with the 32-card pack (R1)"),
        ('{"players": 8, "rules": "pack=36"}', 400, "must be 2 to 7 with the 36-card pack (R1)"),
        ('{"players": 7, "rules": "pack=32"}', 400, "rules pack=36, seats up to 7"),
        ('{"humans": 0}', 400, "humans must be from 1 to 4"),
        ('{"humans": 2, "bots": ["genius", "random"]}', 400, "unknown bot 'genius'"),
        ('{"bots": "random"}', 400, "bots must be a list"),
        ('{"humans": 3, "bots": []}', 400, "need 1 bot name for the seats without a human"),
        ('{"rules": "colour=red"}', 400, "rules: "),
        ('{"rules": 3}', 400, "rules must be a text"),
        ('{"rules": "pack=35"}', 400, "pack must be 32 or 36 (R6), got 35"),
        ('{"delay": -1}', 400, "delay must be from 0 to 10"),
        ('{"delay": "slow"}', 400, "delay must be a number"),
        ('{"names": [7]}', 400, "a name must be a text"),
        ('{"bots": ["expertt"]}', 400, "unknown bot 'expertt'"),
        ('{"names": ["' + "x" * 5000 + '"]}', 413, "the body is too long"),
    ],
)
def test_bad_requests_are_refused_and_change_nothing(
    db: str, body: str, status: int, message: str
) -> None:
    with serving(db) as (client, server):
        response = client.post(
            "/api/tables", content=body, headers={"Content-Type": "application/json"}
        )
        assert response.status_code == status
        assert message in response.json()["error"]
        assert server.storage.count_tables(unfinished=False) == 0


def test_the_table_limit(db: str) -> None:
    with serving(db, max_tables=2) as (client, server):
        create(client, players=2)
        create(client, players=2)
        response = client.post("/api/tables", json={"players": 2})
        assert response.status_code == 429
        assert "too many open tables (at most 2)" in response.json()["error"]
        assert server.storage.count_tables() == 2


def test_a_game_is_played_stored_and_recorded(db: str) -> None:
    with serving(db) as (client, server):
        answer = create(client, players=3, humans=2, bots=["random"], rules=QUICK, names=["Anna"])
        table = answer["table"]
        tokens = [s["token"] for s in answer["seats"]]
        with (
            client.websocket_connect(f"/ws/{tokens[0]}") as a,
            client.websocket_connect(f"/ws/{tokens[1]}") as b,
        ):
            first = receive(a)
            assert first["players"][0]["name"] == "You"
            assert receive(b)["players"][0]["name"] == "Anna"
            assert play(server, table, {0: a, 1: b}, random.Random(1)) > 5
        hub = server.hubs[table]
        assert hub.table.state.is_terminal
        wait_for(lambda: server.storage.table(table).finished)  # type: ignore[union-attr]
        # the journal holds every change: replaying it gives the same game
        journal = server.storage.journal(table)
        assert journal == hub.table.journal
        record = client.get(f"/api/tables/{table}/record")
        assert record.status_code == 200
        assert replay(load_record(record.text)) == hub.table.state
        assert client.get("/api/tables").json()["tables"] == []  # only open tables
        assert [t["table"] for t in client.get("/api/tables?all=1").json()["tables"]] == [table]


def test_a_restarted_server_resumes_every_table(db: str) -> None:
    with serving(db) as (client, server):
        tables = [create(client, players=2, rules=QUICK) for _ in range(3)]
        first = tables[0]["table"]
        token = tables[0]["seats"][0]["token"]
        with client.websocket_connect(f"/ws/{token}") as ws:
            play(server, first, {0: ws}, random.Random(2), moves=3)
        before = server.hubs[first].table
    stored = open_storage(db)
    kept = len(stored.journal(first))  # what the first server committed
    stored.close()
    assert kept >= 4  # the shuffle and three moves of the person at least
    with serving(db) as (client, server):
        assert sorted(server.hubs) == [t["table"] for t in tables]
        again = server.hubs[first].table  # its bots may be moving on already
        assert again.journal[:kept] == before.journal[:kept]
        assert again.state_at(kept) == before.state_at(kept)
        with client.websocket_connect(f"/ws/{token}") as ws:  # the same link
            frame = receive(ws)
            assert frame["version"] >= kept
            play(server, first, {0: ws}, random.Random(3))
        assert server.hubs[first].table.state.is_terminal
        hub = server.hubs[first]
        wait_for(lambda: hub.committed == hub.table.version)  # the last move's commit
        assert server.storage.journal(first) == hub.table.journal


def test_a_restored_table_has_the_same_logs(db: str) -> None:
    with serving(db) as (client, server):
        answer = create(client, players=3, humans=3, bots=[])
        tokens = [s["token"] for s in answer["seats"]]
        with (
            client.websocket_connect(f"/ws/{tokens[0]}") as a,
            client.websocket_connect(f"/ws/{tokens[1]}") as b,
            client.websocket_connect(f"/ws/{tokens[2]}") as c,
        ):
            play(server, answer["table"], {0: a, 1: b, 2: c}, random.Random(7), moves=6)
        before = server.hubs[answer["table"]].table  # nobody moves by itself now
    with serving(db) as (client, server):
        again = server.hubs[answer["table"]].table
        assert again.state == before.state
        assert [list(log) for log in again.logs] == [list(log) for log in before.logs]
        assert list(again.public_log) == list(before.public_log)
        assert again.frame(1) == before.frame(1)
        assert again.public_frame() == before.public_frame()


def test_a_finished_table_is_read_when_asked_for(db: str) -> None:
    with serving(db) as (client, server):
        answer = create(client, players=2, rules=QUICK)
        with client.websocket_connect(answer["seats"][0]["url"].replace("/play/", "/ws/")) as ws:
            play(server, answer["table"], {0: ws}, random.Random(4))
    with serving(db) as (client, server):
        assert server.hubs == {}  # finished tables are not loaded at start
        assert client.get(f"/api/tables/{answer['table']}/record").status_code == 200
        page = client.get(answer["seats"][0]["url"])
        assert page.status_code == 200


def test_reconnecting_with_since_gets_what_was_missed(db: str) -> None:
    with serving(db) as (client, server):
        answer = create(client, players=3, humans=2, bots=["random"])
        table = answer["table"]
        tokens = [s["token"] for s in answer["seats"]]
        with (
            client.websocket_connect(f"/ws/{tokens[0]}") as a,
            client.websocket_connect(f"/ws/{tokens[1]}") as b,
        ):
            seen = receive(a)["version"]  # the last frame this tab read
            play(server, table, {0: a, 1: b}, random.Random(5), moves=4)
        hub = server.hubs[table]
        wait_for(lambda: hub.table.state.current_player in (0, 1))
        now = hub.table.version
        assert now >= seen + 4
        with client.websocket_connect(f"/ws/{tokens[0]}?since={seen}") as a:
            missed = receive(a)
            assert missed["type"] == "events"
            assert (missed["since"], missed["version"]) == (seen, now)
            assert len(missed["events"]) == now - seen
            assert missed["events"] == hub.table.missed(0, seen)
            text = json.dumps(missed)
            assert cards_in(text) <= known_cards(hub.table.state, 0)  # seat 0's eyes only
            state = receive(a)
            assert (state["type"], state["version"]) == ("state", now)
        with client.websocket_connect(f"/ws/{tokens[0]}?since={now}") as a:
            assert receive(a)["type"] == "state"  # nothing missed: the frame only
        with client.websocket_connect(f"/ws/{tokens[0]}?since=junk") as a:
            assert "since must be" in receive(a)["message"]


def spectator_may_know(server: GameServer, table: int) -> set[str]:
    """The cards every seat has been able to see: all a spectator may be shown."""
    state = server.hubs[table].table.state
    known = [known_cards(state, seat) for seat in range(state.num_players)]
    return set.intersection(*known)


@pytest.mark.rule("R13", "R23")
@settings(max_examples=4, deadline=None)
@example(players=4, seed=1)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_a_spectator_sees_no_card_hidden_from_every_seat(
    tmp_path_factory: pytest.TempPathFactory, players: int, seed: int
) -> None:
    db = str(tmp_path_factory.mktemp("watch") / "tables.sqlite")
    with serving(db) as (client, server):
        answer = create(client, players=players, humans=1, bots=["random"] * (players - 1))
        table = answer["table"]
        with (
            client.websocket_connect(f"/ws/watch/{table}") as watcher,
            client.websocket_connect(f"/ws/{answer['seats'][0]['token']}") as person,
        ):
            rng = random.Random(seed)
            while server.hubs[table].table.state.deal_number == 1:
                play(server, table, {0: person}, rng, moves=1)
            final = server.hubs[table].table.version
            frames = 0
            shown: set[int] = set()  # the versions whose events or frame the watcher got
            while True:
                frame = watcher.receive_json()
                # the frame is checked against the cards public at its own version
                hub = server.hubs[table]
                at = hub.table.state_at(frame["version"])
                public = set.intersection(*(known_cards(at, s) for s in range(players)))
                assert cards_in(json.dumps(frame)) <= public
                if frame["type"] == "events":  # the bots' moves made with the person's
                    assert len(frame["events"]) == frame["version"] - frame["since"]
                    shown.update(range(frame["since"] + 1, frame["version"] + 1))
                    continue
                assert frame["type"] == "state"
                assert frame["your_turn"] is False
                assert frame["view"]["hand"] == []
                if frames == 0:
                    first = frame["version"]
                shown.add(frame["version"])
                frames += 1
                if frame["version"] == final:
                    break
            assert frames > 1
            assert shown >= set(range(first, final + 1))  # no move went untold
            watcher.send_json({"type": "action", "action": "fold"})
            reply = watcher.receive_json()
            while reply["type"] == "state":  # the bots may be moving on
                reply = watcher.receive_json()
            assert reply == {"type": "error", "message": "spectators cannot act"}
        with client.websocket_connect(f"/ws/watch/{table}?since=0") as late:
            missed = late.receive_json()
            assert missed["type"] == "events"
            shown = cards_in(json.dumps(missed))
            assert shown <= spectator_may_know(server, table)
            assert late.receive_json()["type"] == "state"
        with client.websocket_connect("/ws/watch/99") as nowhere:
            assert nowhere.receive_json()["message"] == "no such table (or it expired)"


def drain(ws: Any, into: list[dict[str, Any]] | None = None) -> None:
    """Receive until the server closes the connection."""
    while True:
        frame = receive(ws)
        if into is not None:
            into.append(frame)


def test_misbehaving_clients_are_closed_and_the_table_goes_on(db: str) -> None:
    limits = {"connections_per_seat": 1, "spectators_per_table": 2, "messages_per_second": 5}
    with serving(db, **limits) as (client, _):
        answer = create(client, players=2)
        url = f"/ws/{answer['seats'][0]['token']}"
        with client.websocket_connect(url) as ws:
            receive(ws)
            ws.send_text("x" * 5000)
            frames = [receive(ws)]
            while frames[-1]["type"] == "state":
                frames.append(receive(ws))
            assert frames[-1]["message"] == "message too long: closing"
            with pytest.raises(WebSocketDisconnect):
                drain(ws)
        with client.websocket_connect(url) as ws:
            for _ in range(30):
                ws.send_json({"type": "hint"})
            replies: list[dict[str, Any]] = []
            with pytest.raises(WebSocketDisconnect):
                drain(ws, replies)
            assert {"type": "error", "message": "too many messages: closing"} in replies
        with (
            client.websocket_connect(url) as a,
            client.websocket_connect(f"/ws/watch/{answer['table']}") as b,
            client.websocket_connect(f"/ws/watch/{answer['table']}") as c,
        ):
            for ws in (a, b, c):
                assert receive(ws)["type"] == "state"
            with client.websocket_connect(url) as d:
                assert d.receive_json()["message"] == "this seat has too many connections"
            with client.websocket_connect(f"/ws/watch/{answer['table']}") as e:
                assert e.receive_json()["message"] == "this table has too many spectators"
        with client.websocket_connect(url) as ws:  # the server is still fine
            assert receive(ws)["type"] == "state"
        with client.websocket_connect("/ws/unknown") as ws:
            assert receive(ws)["message"] == "unknown seat link"
        with client.websocket_connect(url, headers={"origin": "http://evil.example"}) as ws:
            assert receive(ws)["message"] == "connections from other sites are refused"


def test_a_person_away_too_long_is_replaced_by_a_bot_until_back(db: str) -> None:
    with serving(db, away=0.2, away_bot="random") as (client, server):
        answer = create(client, players=2, humans=2, bots=[], rules=QUICK)
        table = answer["table"]
        host, guest = (s["token"] for s in answer["seats"])
        with client.websocket_connect(f"/ws/{host}") as ws:
            receive(ws)
            hub = server.hubs[table]
            wait_for(lambda: "!bot 1 random" in server.storage.journal(table), 10)
            assert hub.table.seats[1].kind == "random"
            play(server, table, {0: ws}, random.Random(6), moves=3)
        with client.websocket_connect(f"/ws/{guest}") as ws:
            wait_for(lambda: "!human 1" in server.storage.journal(table))
            assert hub.table.seats[1].is_human
            assert receive(ws)["type"] == "state"
    with serving(db) as (client, server):  # the journal replays the hand-overs
        assert server.hubs[table].table.journal == hub.table.journal


def test_a_row_another_process_stored_first_wins(db: str) -> None:
    """A journal row another process wrote first wins: this server reads the table back."""
    with serving(db) as (client, server):
        answer = create(client, players=2, humans=2, bots=[])
        table = answer["table"]
        hub = server.hubs[table]
        wait_for(lambda: hub.table.version >= 1)  # the shuffle: then a person is to act
        seat = hub.table.state.current_player
        assert seat in (0, 1)
        with client.websocket_connect(f"/ws/{answer['seats'][seat]['token']}") as ws:
            frame = receive(ws)
            version = hub.table.version
            legal = sorted(str(a) for a in hub.table.state.legal_actions())
            assert len(legal) > 1
            server.storage.append(table, version, [legal[0]])  # "the other process"
            ws.send_json({"type": "action", "action": legal[-1]})
            while frame["version"] <= version:
                frame = receive(ws)
            assert hub.table.journal == [*hub.table.journal[:version], legal[0]]
            assert server.storage.journal(table) == hub.table.journal


def test_two_servers_on_one_postgres_database(postgres_url: str) -> None:  # noqa: F811
    """In one process for brevity (test_server_processes runs two real ones)."""
    with serving(postgres_url) as (client_a, a), serving(postgres_url) as (client_b, b):
        answer = create(client_a, players=2, humans=2, bots=[], rules=QUICK)
        table = answer["table"]
        tokens = [s["token"] for s in answer["seats"]]
        assert client_b.get("/api/tables").json()["tables"][0]["table"] == table
        with (
            client_a.websocket_connect(f"/ws/{tokens[0]}") as ws_a,
            client_b.websocket_connect(f"/ws/{tokens[1]}") as ws_b,
        ):
            sockets, servers = {0: ws_a, 1: ws_b}, {0: a, 1: b}
            rng = random.Random(8)
            for _ in range(6):
                wait_for(
                    lambda: (
                        a.hubs[table].table.version == b.hubs[table].table.version
                        and a.hubs[table].table.state.current_player is not None
                    )
                )
                seat = a.hubs[table].table.state.current_player
                assert seat is not None
                frame = my_turn(sockets[seat], servers[seat], table)
                action = rng.choice(frame["view"]["legal_actions"])
                sockets[seat].send_json({"type": "action", "action": action})
                other = 1 - seat  # the move reaches the other server's seat
                seen = receive(sockets[other])
                while seen["version"] <= frame["version"]:
                    seen = receive(sockets[other])
                assert b.hubs[table].table.journal == a.hubs[table].table.journal
        assert a.storage.journal(table) == b.hubs[table].table.journal


def test_a_database_failure_loses_the_move_never_the_server(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with serving(db) as (client, server):
        answer = create(client, players=2, humans=2, bots=[])
        table = answer["table"]
        hub = server.hubs[table]
        # The shuffle stored, not only made: else the write that fails below is its.
        wait_for(lambda: hub.table.version >= 1 and hub.committed == hub.table.version)
        seat = hub.table.state.current_player
        assert seat in (0, 1)
        broken = {"calls": 0}
        real = server.storage.append_many  # what the server's journal writer calls

        def failing(*args: Any) -> None:
            broken["calls"] += 1
            raise OSError("disk full")

        monkeypatch.setattr(server.storage, "append_many", failing)
        with client.websocket_connect(f"/ws/{answer['seats'][seat]['token']}") as ws:
            frame = my_turn(ws, server, table)
            ws.send_json({"type": "action", "action": frame["view"]["legal_actions"][0]})
            after = receive(ws)  # the table read back: the move did not happen
            assert broken["calls"] == 1
            assert after["version"] == frame["version"]
            refusal = receive(ws)  # and the sender is told so
            assert refusal["type"] == "error"
            assert "could not be stored" in refusal["message"]
            assert hub.table.version == frame["version"] == len(real.__self__.journal(table))  # type: ignore[attr-defined]
            monkeypatch.setattr(server.storage, "append_many", real)
            ws.send_json({"type": "action", "action": frame["view"]["legal_actions"][0]})
            assert receive(ws)["version"] == frame["version"] + 1


def test_a_database_that_stays_down_is_asked_again_ever_more_slowly(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table whose automatic move (here the first shuffle) cannot be stored reads
    itself back and wants the same move again: the retries back off, doubling from
    MIN_BACKOFF, instead of asking the database again at once, for ever."""
    with serving(db) as (client, server):
        broken = {"calls": 0}
        real = server.storage.append_many

        def failing(*args: Any) -> None:
            broken["calls"] += 1
            raise OSError("disk full")

        monkeypatch.setattr(server.storage, "append_many", failing)
        answer = create(client, players=2, humans=2, bots=[])
        hub = server.hubs[answer["table"]]
        time.sleep(1.0)
        # Tries at 0, 0.05, 0.15, 0.35 and 0.75 s (the waits doubling): five in the
        # second, and one more allowed for a slow start.
        assert 1 <= broken["calls"] <= 6
        assert hub.committed == 0  # nothing stored
        assert len(server.storage.journal(answer["table"])) == 0
        monkeypatch.setattr(server.storage, "append_many", real)
        wait_for(lambda: hub.table.version >= 1 and hub.committed == hub.table.version)
        assert hub.backoff == 0.0
        assert len(server.storage.journal(answer["table"])) == hub.table.version


def test_a_move_of_another_process_on_an_unknown_table_is_ignored(db: str) -> None:
    with serving(db) as (_, server):
        server._moved(12345, 3)  # no such table here: nothing to do
        assert server.hubs == {}


class Recording:
    """A test client's socket that keeps every frame it receives."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []

    def receive_json(self) -> dict[str, Any]:
        frame: dict[str, Any] = self.ws.receive_json()
        self.frames.append(frame)
        return frame

    def send_json(self, message: Any) -> None:
        self.ws.send_json(message)


@pytest.mark.rule("R13", "R23")
@pytest.mark.parametrize("group", [False, True])
def test_moves_made_at_once_are_committed_together_and_every_one_is_told(
    db: str, monkeypatch: pytest.MonkeyPatch, group: bool
) -> None:
    """With ``group_moves`` at pace 0 the bots' and the shuffle's moves after a
    person's move are made with it: one commit, one ``state`` frame per socket; a
    socket that so skipped versions first gets an ``events`` frame with each skipped
    entry's events as its seat saw them, so every version is told, and nothing its seat
    may not know.  Without it (the default) every version has a ``state`` frame."""
    with serving(db, group_moves=group) as (client, server):
        appended: list[int] = []  # the rows of each move's commit
        append_many = server.storage.append_many  # what the journal writer calls

        def counting(groups: Any) -> list[Exception | None]:
            appended.extend(len(entries) for _, _, entries in groups)
            return append_many(groups)

        monkeypatch.setattr(server.storage, "append_many", counting)
        answer = create(client, players=4, humans=2, bots=["random", "random"])
        table = answer["table"]
        tokens = [s["token"] for s in answer["seats"]]
        with (
            client.websocket_connect(f"/ws/{tokens[0]}") as a,
            client.websocket_connect(f"/ws/{tokens[1]}") as b,
        ):
            seen = Recording(b)
            play(server, table, {0: a, 1: seen}, random.Random(8), moves=30)
            hub = server.hubs[table]
            final = hub.table.version
            while seen.frames[-1]["type"] != "state" or seen.frames[-1]["version"] < final:
                seen.receive_json()
        frames = iter(seen.frames)
        first = next(frames)
        assert first["type"] == "state"
        told = set(range(first["version"] + 1))
        state_frames = 1
        for frame in frames:
            assert cards_in(json.dumps(frame)) <= known_cards(hub.table.state, 1)
            if frame["type"] == "events":
                since, version = frame["since"], frame["version"]
                assert since == max(told)
                assert version > since + 1
                assert frame["events"] == hub.table.described(1, since)[: version - since]
                told.update(range(since + 1, version + 1))
                frame = next(frames)  # then the frame of that version
                assert (frame["type"], frame["version"]) == ("state", version)
            else:
                assert frame["type"] == "state"
                assert frame["version"] == max(told) + 1  # the next version: none skipped
                told.add(frame["version"])
            state_frames += 1
        assert told == set(range(final + 1))  # every version, in a frame or its events
        if not group:  # one state frame per version, one commit per move
            assert state_frames == final - first["version"] + 1
            assert set(appended) == {1}  # (the bots may have moved on since: no total)
            return
        assert sum(appended) == final
        assert state_frames < final - first["version"]  # fewer frames than moves
        assert max(appended) > 1  # a person's move and the bots' after it: one commit


def test_a_commit_whose_caller_is_cancelled_ends_with_the_callers_own_cancellation(
    tmp_path: Path,
) -> None:
    """The write runs to its end, then the caller's cancellation goes on: the same
    exception, so that the cancel scope that cancelled it (anyio's, under the ASGI
    server and the test client) swallows it; a new bare one escaped the scope and a
    socket closed during a commit ended the session with a CancelledError."""
    with serving(str(tmp_path / "t.sqlite")) as (client, server):
        answer = create(client, players=2, humans=2, bots=[])
        hub = server.hubs[answer["table"]]

        async def cancelled_commit() -> tuple[bool, int]:
            with anyio.CancelScope() as scope:
                scope.cancel()  # delivered at the commit's first wait
                await hub.commit()
            return scope.cancelled_caught, hub.committed

        assert client.portal is not None
        caught, committed = client.portal.call(cancelled_commit)
        assert caught
        assert committed == len(hub.table.journal)  # the write ran to its end
