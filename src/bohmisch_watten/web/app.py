"""The web table's server: a Starlette app that moves frames between a Table and sockets.

Routes:

* ``GET /`` — sends the visitor to the first free human seat's link (``/play/TOKEN``).
* ``GET /play/{token}`` — the page for that seat; an unknown token gets 403.
* ``WS /ws/{token}`` — the seat's live connection: the server sends ``state`` frames
  (the seat's view and log, see :meth:`Table.frame`), ``hint`` and ``error`` frames; the
  page sends ``{"type": "action", "action": "play HK"}``, ``{"type": "hint"}`` and,
  from the host, ``{"type": "new_game"}``.
* ``GET /record`` — the finished game's record as text; 409 while it is running.
* ``GET /review`` — the review of the human seats' decisions in the finished game
  (JSON, :meth:`Table.review`); 409 while it is running.

The server holds the only state.  A connection can act only for the seat of its
token, and only when that seat is to act; a malformed, oversized or refused message
gets an ``error`` frame and the connection and the game go on.  Bot and chance moves are
made by one background task per table, paced by ``delay`` seconds so people can follow.

A server may group moves (``group=True``, ``serve --group-moves``): at pace 0 nobody
is meant to follow the automatic moves, so the quick ones (a shuffle, a random or
heuristic bot) that follow a move are then made at once, with it: the server commits
them together and sends each socket one ``state`` frame for the latest version, not
one per move, which is most of a busy server's work.  It is off by default, so that
a client sees one ``state`` frame per version unless the server's host chose
otherwise.  A socket that so
skipped versions first gets an ``events`` frame with the events of every entry since
its last frame, exactly what a client reconnecting with ``?since=V`` gets, so nothing
a page could animate is lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from typing import Any, Final

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import (
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import FormatError, IllegalActionError
from ..phases import Phase
from ._frames import encode
from ._i18n import localized_html
from ._outbox import Outbox
from ._page import render_page
from ._wire import MAX_MESSAGE_CHARS, check_message, foreign_origin
from .table import Table, TableError

__all__ = ["MAX_MESSAGE_CHARS", "SETTLE_MOVES", "Hub", "create_app", "encode"]

SETTLE_MOVES: Final = 64
"""The most automatic moves made at once after a move at pace 0 (a table of bots only
would otherwise play a whole game in one go and keep the other tables waiting)."""

QUEUED_FRAMES: Final = 64
"""The most frames waiting for one socket; a client further behind is dropped."""
QUEUED_CHARS: Final = 1 << 20
"""The most characters waiting for one socket (frames are a few kB each)."""
SEND_TIMEOUT: Final = 10.0
"""Seconds a client may take to accept one frame before it is dropped."""

_log = logging.getLogger(__name__)
_HEADERS: Final = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline';"
        " img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class Hub:
    """The sockets of one table and the task that makes the automatic moves.

    Every socket has an :class:`~._outbox.Outbox` (:meth:`attach`): a frame is queued,
    never awaited, so the lock is never held while a client reads, and a client that
    does not read is dropped instead of stalling the table.
    """

    def __init__(self, table: Table, delay: float, group: bool = False) -> None:
        self.table = table
        self.delay = delay
        self.group = group
        """Whether :meth:`settle` groups the quick moves at pace 0 (module docstring)."""
        self.sockets: dict[int, set[WebSocket]] = {seat: set() for seat in table.human_seats}
        self.claimed: set[int] = set()
        self.lock = asyncio.Lock()
        self.runner: asyncio.Task[None] | None = None
        self.shown: dict[WebSocket, int] = {}
        """Per socket, the version of the last ``state`` frame it was sent."""
        self.outboxes: dict[WebSocket, Outbox] = {}
        self.send_timeout = SEND_TIMEOUT
        """Seconds a client may take to accept a frame (the server sets its limit)."""

    def attach(self, socket: WebSocket) -> None:
        """Give ``socket`` its own outgoing queue (call it before sending it anything)."""
        self.outboxes[socket] = Outbox(
            socket,
            frames=QUEUED_FRAMES,
            chars=QUEUED_CHARS,
            timeout=self.send_timeout,
            dropped=self.dropped,
        )

    def dropped(self, socket: WebSocket) -> None:
        """``socket`` was dropped for not reading: it gets nothing more."""
        for sockets in self.sockets.values():
            sockets.discard(socket)
        self.shown.pop(socket, None)

    def free_seat(self) -> int | None:
        """The first human seat nobody was sent to yet, else the first without a connection."""
        for seat in self.table.human_seats:
            if seat not in self.claimed and not self.sockets[seat]:
                return seat
        for seat in self.table.human_seats:
            if not self.sockets[seat]:
                return seat
        return None

    async def send(self, socket: WebSocket, message: dict[str, Any]) -> None:
        """Send one frame; a socket that went away is forgotten, never an error."""
        await self.send_text(socket, encode(message))

    async def send_text(self, socket: WebSocket, text: str) -> None:
        """Queue one encoded frame (:func:`encode`) for ``socket``: this never waits for
        the client; a socket that went away is forgotten."""
        outbox = self.outboxes.get(socket)
        if outbox is not None:
            outbox.put(text)
            return
        try:  # a socket never attached (a refusal): only its own handler waits
            async with asyncio.timeout(self.send_timeout):
                await socket.send_text(text)
        except Exception:  # the peer closed: its handler cleans up
            _log.debug("send to a closed socket")

    async def send_state(
        self, socket: WebSocket, seat: int | None, text: str, caught_up: dict[int, str]
    ) -> None:
        """Send ``socket`` the ``state`` frame ``text`` of the current version, after an
        ``events`` frame with what it missed if its last frame was older than the one
        before (the automatic moves made at once, see the module's docstring).

        ``caught_up`` keeps the ``events`` frames built for this version by the version
        they start at, as the sockets of a seat (or the spectators) share them.
        """
        version = self.table.version
        last = self.shown.get(socket)
        if last is not None and last < version - 1:
            missed = caught_up.get(last)
            if missed is None:
                missed = encode(
                    {
                        "type": "events",
                        "since": last,
                        "version": version,
                        "events": self.table.missed(seat, last),
                    }
                )
                caught_up[last] = missed
            await self.send_text(socket, missed)
        self.shown[socket] = version
        await self.send_text(socket, text)

    def forget(self, socket: WebSocket) -> None:
        """A socket closed: no frame is kept for it."""
        self.shown.pop(socket, None)
        outbox = self.outboxes.pop(socket, None)
        if outbox is not None:
            outbox.close()

    async def broadcast(self) -> None:
        """Send every connection the frame of its own seat (built and encoded once per
        seat, however many tabs show it)."""
        for seat, sockets in self.sockets.items():
            if sockets:
                text = self.table.frame_text(seat)
                caught_up: dict[int, str] = {}
                for socket in list(sockets):
                    await self.send_state(socket, seat, text, caught_up)

    def settle(self) -> None:
        """With :attr:`group` at pace 0, make the quick automatic moves that are due now
        (at most :data:`SETTLE_MOVES`), so that one frame shows them with the move
        before; a bot that fails leaves the table waiting, as in :meth:`_run`."""
        if not self.group or self.delay > 0:
            return
        table = self.table
        for _ in range(SETTLE_MOVES):
            if not (table.needs_auto and table.quick_step):
                return
            try:
                table.step()
            except Exception:  # a broken bot must not lose the move before it
                _log.exception("an automatic move failed; the table waits")
                return

    def kick(self) -> None:
        """Start the automatic moves if chance or a bot is to move and none is running."""
        if self.table.needs_auto and (self.runner is None or self.runner.done()):
            self.runner = asyncio.create_task(self._run())

    def _pause(self) -> float:
        """Longer after a finished trick or deal, so the table can be read (seconds)."""
        state = self.table.state
        if state.phase is Phase.DEAL or (
            state.phase is Phase.PLAY and not state.trick and state.tricks
        ):
            return self.delay * 2.5
        return self.delay

    async def _run(self) -> None:
        while True:
            async with self.lock:
                if not self.table.needs_auto:
                    return
                pause = self._pause()
                version = self.table.version
            await asyncio.sleep(pause)
            async with self.lock:
                if not self.table.needs_auto:
                    return
                if self.table.version != version:  # it moved meanwhile: wait anew
                    continue
                try:
                    if self.table.quick_step:  # a shuffle or a quick bot: no thread hop
                        self.table.step()
                    else:
                        await asyncio.to_thread(self.table.step)  # a search bot: ~50 ms
                except Exception:  # a broken bot must not take the server down with it
                    _log.exception("an automatic move failed; the table waits")
                    return
                self.settle()
                try:
                    await self.broadcast()
                except TableError:  # not stored (a server's database): read back, wait
                    continue

    async def handle(self, seat: int, socket: WebSocket, text: str | None) -> None:
        """Answer one client message; every refusal is an ``error`` frame to ``socket``."""
        error = check_message(text)
        if isinstance(error, str):
            await self.send(socket, {"type": "error", "message": error})
            return
        message = error
        kind = message.get("type")
        try:
            async with self.lock:
                if kind == "action":
                    self.table.act(seat, message.get("action"))
                elif kind == "hint":
                    hint = await asyncio.to_thread(self.table.hint, seat)
                    await self.send(socket, {"type": "hint", "action": hint})
                    return
                elif kind == "new_game":
                    self.table.new_game(seat)
                else:
                    raise TableError(f"unknown message type {str(kind)[:20]!r}")
                self.settle()
                # Before the broadcast's first wait: a client that leaves right after its
                # move cancels this handler there, and the bots must move all the same.
                # The runner waits for the lock, so the move's frames still go first.
                self.kick()
                await self.broadcast()
        except (TableError, FormatError, IllegalActionError) as refusal:
            await self.send(socket, {"type": "error", "message": str(refusal)})


def create_app(table: Table, *, delay: float = 0.8) -> Starlette:
    """The ASGI app serving ``table``; run it with uvicorn (see ``serve``).

    Args:
        table: the game to serve.
        delay: seconds between automatic moves (bots, shuffles), so people can follow.
    """
    hub = Hub(table, delay)

    def page_response(request: Request, token: str) -> Response:
        if table.seat_of(token) is None:
            return PlainTextResponse("unknown seat link", status_code=403, headers=_HEADERS)
        return localized_html(request, lambda lang: render_page(token, lang=lang), _HEADERS)

    async def index(request: Request) -> Response:
        seat = hub.free_seat()
        if seat is None:
            return PlainTextResponse(
                "every seat is taken: ask the host for your link", status_code=503
            )
        hub.claimed.add(seat)
        token = table.seats[seat].token
        return RedirectResponse(f"/play/{token}", status_code=303)

    async def play(request: Request) -> Response:
        return page_response(request, request.path_params["token"])

    async def record(request: Request) -> Response:
        text = table.record_text()
        if text is None:
            return JSONResponse(
                {"error": "the game is not over yet"}, status_code=409, headers=_HEADERS
            )
        headers = {**_HEADERS, "Content-Disposition": 'attachment; filename="watten-game.txt"'}
        return PlainTextResponse(text, headers=headers)

    async def review(request: Request) -> Response:
        data = await asyncio.to_thread(table.review)  # the judge searches for seconds
        if data is None:
            return JSONResponse(
                {"error": "the game is not over yet"}, status_code=409, headers=_HEADERS
            )
        return JSONResponse(data, headers=_HEADERS)

    async def socket_endpoint(socket: WebSocket) -> None:
        seat = table.seat_of(socket.path_params["token"])
        await socket.accept()
        refusal = "unknown seat link" if seat is None else foreign_origin(socket)
        if seat is None or refusal:
            await socket.send_text(json.dumps({"type": "error", "message": refusal}))
            await socket.close(code=4403)
            return
        hub.attach(socket)
        try:
            async with hub.lock:  # a bot may be moving in a worker thread
                hub.sockets[seat].add(socket)
                await hub.send_state(socket, seat, table.frame_text(seat), {})
            hub.kick()
            while True:
                message = await socket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                try:
                    await hub.handle(seat, socket, message.get("text"))
                except Exception:  # nothing a client sends may stop the table
                    _log.exception("error while handling a message")
                    await hub.send(socket, {"type": "error", "message": "internal error"})
        except WebSocketDisconnect:
            pass
        finally:
            hub.sockets[seat].discard(socket)
            hub.forget(socket)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        if hub.runner is not None:
            hub.runner.cancel()

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/play/{token}", play),
            Route("/record", record),
            Route("/review", review),
            WebSocketRoute("/ws/{token}", socket_endpoint),
        ],
        lifespan=lifespan,
    )
    app.state.hub = hub
    return app
