"""The web table through HTTP and its websocket (Starlette's TestClient): routes, turns,
tokens, hostile messages, and that every frame holds only what its seat may know."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from bohmisch_watten import Rules, load_record, replay
from bohmisch_watten.web import Table
from bohmisch_watten.web.app import MAX_MESSAGE_CHARS, create_app

from knowledge import cards_in, known_cards


def serve(table: Table) -> TestClient:
    return TestClient(create_app(table, delay=0))


def frames_until(ws: Any, predicate: Any, limit: int = 2000) -> Iterator[dict[str, Any]]:
    """Receive frames (yielding each) until one satisfies ``predicate``."""
    for _ in range(limit):
        frame = ws.receive_json()
        yield frame
        if predicate(frame):
            return
    raise AssertionError("predicate never met")


def wait_turn(ws: Any) -> dict[str, Any]:
    *_, last = frames_until(
        ws, lambda f: f["type"] == "state" and (f["your_turn"] or f["game_over"])
    )
    return last


def reply_to(ws: Any) -> dict[str, Any]:
    """The next frame that is not a state update (those keep coming while bots move,
    with an ``events`` frame before one that shows several moves)."""
    *_, last = frames_until(ws, lambda f: f["type"] not in ("state", "events"))
    return last


def test_pages_links_and_headers() -> None:
    table = Table(players=4, humans=2, seed=1)
    with serve(table) as client:
        first = client.get("/", follow_redirects=False)
        assert first.status_code == 303
        assert first.headers["location"] == f"/play/{table.seats[0].token}"
        second = client.get("/", follow_redirects=False)
        assert second.headers["location"] == f"/play/{table.seats[1].token}"
        page = client.get(first.headers["location"])
        assert page.status_code == 200
        assert "default-src 'none'" in page.headers["content-security-policy"]
        html = page.text
        assert '"data-action"' in html  # the script makes the controls
        assert 'button("Take it", "take"' in html
        assert "http://" not in html.replace("http://www.w3.org/2000/svg", "")
        assert "https://" not in html
        assert html.count("data-card=") == 36  # each face of both packs once, from .svg
        assert client.get("/play/not-a-token").status_code == 403
        # every seat handed out and none connected: hand out the first again
        assert client.get("/", follow_redirects=False).status_code == 303


def test_every_seat_taken() -> None:
    table = Table(players=2, humans=1, seed=1)
    with serve(table) as client, client.websocket_connect(f"/ws/{table.seats[0].token}") as ws:
        ws.receive_json()
        assert client.get("/", follow_redirects=False).status_code == 503


def test_record_only_after_the_game() -> None:
    table = Table(players=2, humans=1, seed=4, rules=Rules(start_score=2))
    with serve(table) as client:
        early = client.get("/record")
        assert early.status_code == 409
        assert early.json() == {"error": "the game is not over yet"}
        token = table.seats[0].token
        with client.websocket_connect(f"/ws/{token}") as ws:
            frame = wait_turn(ws)
            while not frame["game_over"]:
                ws.send_json({"type": "action", "action": frame["view"]["legal_actions"][0]})
                frame = wait_turn(ws)
        response = client.get("/record")
        assert response.status_code == 200
        assert "attachment" in response.headers["content-disposition"]
        assert replay(load_record(response.text)) == table.state


def test_a_token_is_needed() -> None:
    table = Table(players=2, seed=1)
    with serve(table) as client, client.websocket_connect("/ws/guess") as ws:
        assert ws.receive_json() == {"type": "error", "message": "unknown seat link"}
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403


HOSTILE: list[Any] = [
    b"\x00\x01binary",
    "not json",
    "[1, 2, 3]",
    "null",
    '"play HK"',
    "{}",
    '{"type": "action"}',
    '{"type": "action", "action": 7}',
    '{"type": "action", "action": ["play", "HK"]}',
    '{"type": "action", "action": "play ZZ"}',
    '{"type": "action", "action": "shuffle HK"}',
    '{"type": "action", "action": "play HK"}',
    '{"type": "teleport"}',
    '{"type": {"nested": 1}}',
    "[" * 500 + "]" * 500,
    json.dumps({"type": "action", "action": "x" * 200}),
    json.dumps({"type": "action", "action": "exchange " + "E7 " * 30}),
    "x" * (MAX_MESSAGE_CHARS + 1),
    '{"type": "action", "action": "play \\u0000"}',
]


def test_hostile_messages_get_errors_and_change_nothing() -> None:
    rng = random.Random(99)
    junk = [
        "".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randrange(1, 300)))
        for _ in range(30)
    ]
    table = Table(players=4, humans=2, seed=3)
    with serve(table) as client:
        tokens = [table.seats[s].token for s in (0, 1)]
        with (
            client.websocket_connect(f"/ws/{tokens[0]}") as a,
            client.websocket_connect(f"/ws/{tokens[1]}") as b,
        ):
            seat_of = {0: a, 1: b}
            # let the bots reach a human seat
            while table.needs_auto:
                a.receive_json()
            turn = table.state.current_player
            assert turn in (0, 1)
            waiting = seat_of[1 - turn]
            before = table.state
            for message in [*HOSTILE, *junk]:
                if isinstance(message, bytes):
                    waiting.send_bytes(message)
                else:
                    waiting.send_text(message)
                reply = reply_to(waiting)
                assert reply["type"] == "error", message
                assert isinstance(reply["message"], str)
            # out of turn: the waiting seat cannot act for the seat to act, nor start a game
            waiting.send_json({"type": "action", "action": "exchange"})
            assert "not your turn" in reply_to(waiting)["message"]
            if turn == 0:
                waiting.send_json({"type": "new_game"})
                assert "every person asks" in reply_to(waiting)["message"]
                table.restart_votes.clear()
            assert table.state is before
            # the seat to act is untouched and can still play
            mover = seat_of[turn]
            mover.send_json({"type": "hint"})
            hint = reply_to(mover)
            mover.send_json({"type": "action", "action": hint["action"]})
            list(frames_until(mover, lambda f: f["type"] == "state" and table.state is not before))
            assert table.state is not before


def sync(ws: Any, seat: int, table: Table) -> dict[str, Any]:
    """Receive until the frame shows the state the table waits in; check every frame
    on the way holds only cards the seat has seen (seen cards only accumulate)."""
    last: dict[str, Any] = {}
    for frame in frames_until(
        ws,
        lambda f: (
            f["type"] == "state" and not table.needs_auto and f["view"] == table.frame(seat)["view"]
        ),
    ):
        assert cards_in(json.dumps(frame)) <= known_cards(table.state, seat)
        last = frame
    return last


@pytest.mark.rule("R13", "R23")
@settings(max_examples=6, deadline=None)
@example(players=4, seed=1)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_a_whole_deal_through_the_socket_leaks_nothing(players: int, seed: int) -> None:
    """Two people play a whole deal; every frame to each holds only cards it may know."""
    table = Table(players=players, humans=2, seed=seed)
    with serve(table) as client:
        tokens = [table.seats[s].token for s in (0, 1)]
        with (
            client.websocket_connect(f"/ws/{tokens[0]}") as a,
            client.websocket_connect(f"/ws/{tokens[1]}") as b,
        ):
            sockets = {0: a, 1: b}
            moves = 0
            while table.state.deal_number == 1:
                frames = {seat: sync(ws, seat, table) for seat, ws in sockets.items()}
                turn = table.state.current_player
                assert turn in sockets
                assert frames[turn]["your_turn"]
                assert not frames[1 - turn]["your_turn"]
                action = frames[turn]["view"]["legal_actions"][-1]
                sockets[turn].send_json({"type": "action", "action": action})
                moves += 1
            for seat, ws in sockets.items():
                sync(ws, seat, table)
            assert moves >= 7  # two exchanges and five cards each, at least
            assert table.state.last_deal is not None


def test_a_failing_bot_does_not_stop_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table(players=2, seed=1)

    def broken() -> None:
        raise RuntimeError("bot crashed")

    monkeypatch.setattr(table, "step", broken)
    with serve(table) as client, client.websocket_connect(f"/ws/{table.seats[0].token}") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "hint"})
        assert reply_to(ws) == {
            "type": "error",
            "message": "not your turn: waiting for the dealer's shuffle",
        }


def test_an_unexpected_error_is_answered_and_the_connection_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = Table(players=2, seed=1)

    def broken(seat: int, text: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(table, "act", broken)
    with serve(table) as client, client.websocket_connect(f"/ws/{table.seats[0].token}") as ws:
        ws.send_json({"type": "action", "action": "fold"})
        assert reply_to(ws) == {"type": "error", "message": "internal error"}
        ws.send_json({"type": "teleport"})
        assert reply_to(ws)["message"] == "unknown message type 'teleport'"


def test_the_host_starts_a_new_game_for_everybody() -> None:
    table = Table(players=3, humans=2, seed=2)
    with serve(table) as client:
        tokens = [table.seats[s].token for s in (0, 1)]
        with (
            client.websocket_connect(f"/ws/{tokens[0]}") as host,
            client.websocket_connect(f"/ws/{tokens[1]}") as guest,
        ):
            sync(host, 0, table)
            host.send_json({"type": "new_game"})
            assert "waiting for" in reply_to(host)["message"]
            guest.send_json({"type": "new_game"})
            frame = next(
                f for f in frames_until(guest, lambda f: f.get("game") == 2) if f.get("game") == 2
            )
            assert frame["host"] is False
            assert table.game_number == 2


def test_sending_to_a_closed_socket_is_no_error() -> None:
    import asyncio

    from bohmisch_watten.web.app import Hub

    class Gone:
        async def send_text(self, text: str) -> None:
            raise RuntimeError("closed")

    hub = Hub(Table(players=2, seed=1), delay=0)
    asyncio.run(hub.send(Gone(), {"type": "state"}))  # type: ignore[arg-type]


def test_a_page_of_another_site_cannot_connect() -> None:
    table = Table(players=2, seed=1)
    token = table.seats[0].token
    with serve(table) as client:
        evil = {"origin": "http://evil.example"}
        with client.websocket_connect(f"/ws/{token}", headers=evil) as ws:
            assert ws.receive_json()["message"] == "connections from other sites are refused"
            with pytest.raises(WebSocketDisconnect):
                ws.receive_json()
        ours = {"origin": "http://testserver"}
        with client.websocket_connect(f"/ws/{token}", headers=ours) as ws:
            assert ws.receive_json()["type"] == "state"


def test_a_message_is_read_by_the_hardened_parser() -> None:
    """A repeated key, NaN or deep nesting is refused, never resolved silently."""
    from bohmisch_watten.web._wire import check_message

    assert check_message('{"type": "hint"}') == {"type": "hint"}
    twice = check_message('{"type": "hint", "type": "action", "action": "fold"}')
    assert isinstance(twice, str)
    assert "appears twice" in twice
    assert isinstance(check_message('{"type": NaN}'), str)
    deep = check_message('{"type": [[[[["x"]]]]]}')
    assert isinstance(deep, str)
    assert "deep" in deep


def test_quick_moves_are_made_at_once_only_at_pace_0(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``group``, :meth:`Hub.settle` makes the due quick moves (at most
    SETTLE_MOVES) at pace 0 only, and a bot that fails leaves the moves before it made
    and the table waiting; without it (the default) it makes none."""
    from bohmisch_watten.web.app import SETTLE_MOVES, Hub

    paced = Hub(Table(players=3, humans=1, bots=["random", "random"], seed=3), 0.5, True)
    paced.settle()
    assert paced.table.version == 0  # the shuffle waits for its pace
    plain = Hub(Table(players=3, humans=1, bots=["random", "random"], seed=3), delay=0)
    plain.settle()
    assert plain.table.version == 0  # not grouping: the runner makes them, one by one
    hub = Hub(Table(players=3, humans=1, bots=["random", "random"], seed=3), 0, True)
    hub.settle()
    assert hub.table.version > 0
    assert hub.table.state.current_player == 0 or hub.table.state.is_terminal
    bots = Hub(Table(players=2, humans=1, bots=["random"], seed=3), 0, True)
    bots.table.hand_to_bot(0, "random")  # nobody left to wait for
    bots.settle()
    assert bots.table.version == 1 + SETTLE_MOVES
    broken = Hub(Table(players=3, humans=1, bots=["random", "random"], seed=3), 0, True)
    broken.settle()
    broken.table.act(0, broken.table.frame(0)["view"]["legal_actions"][0])
    made = broken.table.version
    assert broken.table.needs_auto
    assert broken.table.quick_step
    monkeypatch.setattr(Table, "step", lambda self: 1 / 0)
    broken.settle()  # logged, not raised
    assert broken.table.version == made


def test_the_bots_move_after_a_move_whose_client_left_at_once() -> None:
    """A client that closes right after its move cancels its handler while the move's
    frames are being sent; the bots' runner was started before that wait, so the game
    goes on without anyone reconnecting (R11, R24)."""
    import asyncio
    import contextlib

    from bohmisch_watten.web.app import Hub

    class Stalled:  # a client whose connection hangs: a send never finishes
        async def send_text(self, text: str) -> None:
            await asyncio.Event().wait()

    async def scenario() -> tuple[int, int, bool]:
        hub = Hub(Table(players=2, humans=1, bots=["random"], seed=4), delay=0)
        table = hub.table
        (seat,) = table.human_seats
        while table.needs_auto:  # the shuffle and the bot, up to the person's turn
            table.step()
        socket = Stalled()
        hub.sockets[seat].add(socket)  # type: ignore[arg-type]
        action = table.frame(seat)["view"]["legal_actions"][0]
        message = json.dumps({"type": "action", "action": action})
        handler = asyncio.create_task(hub.handle(seat, socket, message))  # type: ignore[arg-type]
        await asyncio.sleep(0)  # the move is made; its frame waits on the socket
        moved = table.version
        bot_next = table.needs_auto
        handler.cancel()  # the client went away
        with contextlib.suppress(asyncio.CancelledError):
            await handler
        hub.sockets[seat].discard(socket)  # type: ignore[arg-type]  # its handler's cleanup
        if hub.runner is not None:
            await asyncio.wait_for(hub.runner, 10)
        return moved, table.version, bot_next

    moved, after, bot_next = asyncio.run(scenario())
    assert bot_next  # the bot (or the shuffle) is to move after the person's move
    assert after > moved  # and it moved although the handler was cancelled
