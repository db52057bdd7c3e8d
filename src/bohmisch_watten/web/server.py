"""The game server: many stored tables in one process, a lobby, an API and spectators.

One job in one file, although it is long: the server process — its routes, the hub of
live tables they share, and the limits that protect it; frames, storage, narration
and the table itself are modules of their own.

Routes (see ``docs/server.md`` for examples):

* ``GET /`` — the lobby: the open tables and a form to create one (it uses the API).
* ``POST /api/tables`` — create a table from JSON ``{"players": 4, "humans": 2, "bots":
  ["search", "heuristic"], "rules": "must_head=false", "delay": 0.8, "names": […]}``;
  answers 201 with ``{"table": ID, "seats": [{"seat", "token", "url"}], "watch"}``.
* ``GET /api/tables`` (``?all=1`` with the finished ones), ``GET /api/tables/ID``.
* ``GET /api/tables/ID/record`` — the game's record once it is over (409 before);
  ``GET /api/tables/ID/review`` — the review of the people's decisions (409 before).
* ``GET /play/{token}`` and ``WS /ws/{token}?since=V`` — a seat's page and connection.
* ``GET /watch/ID`` and ``WS /ws/watch/ID?since=V`` — a spectator's page and connection:
  the public view only (:meth:`Table.public_frame`).

Everything a client on the network may ask for is checked here and in the modules this
one calls: bots by name only (:mod:`.network_bots`), the host names served and no
cross-site writes (:mod:`._guard`), bodies limited while they are read, a bounded queue
per socket (:mod:`._outbox`), spectators with a cap of their own, table creation
limited per client address, and tables nobody uses expired (``docs/server.md``,
Security).

Every table is stored (:mod:`.storage`) and every change is committed before any frame
showing it is sent, so a server restarted after a crash resumes every unfinished table
where it was: same state, same links, bots carry on.  Every frame carries ``version``,
the table's journal length; a client that reconnects with ``?since=V`` first gets an
``events`` frame with what it missed (per journal entry, the events as its seat saw
them), then the current ``state`` frame.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from collections import deque
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Coroutine,
    Iterable,
    Mapping,
    Sequence,
)
from typing import Any, Final

import attrs
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import FormatError
from ..notation import parse_json
from ..rules import rules_from_text
from ._collect import ScheduledCollection
from ._guard import LOOPBACK, HostGuard
from ._i18n import localized_html
from ._openapi import openapi
from ._page import render_lobby, render_page
from ._players import check as check_bot
from ._rate import Bucket
from ._reviews import REVIEW_QUEUE, REVIEW_WORKERS, REVIEWS_PER_CLIENT, ReviewRefused, Reviews
from ._story import KEPT
from ._wire import MAX_MESSAGE_CHARS, MAX_NAME, display_name, foreign_origin
from ._writer import JournalWriter
from .app import Hub, encode
from .network_bots import BotNameError, NetworkBots
from .storage import Conflict, Expired, Storage, StoredSeat, StoredTable
from .table import NEW_GAME, Seat, Table, TableError, hash_token

__all__ = ["GameServer", "Limits", "TableHub", "create_server"]

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
_MAX_BODY: Final = 4096
"""The longest ``POST /api/tables`` body read."""
BODY_TIMEOUT: Final = 10.0
"""Seconds a client has to send a request's body."""
_ID: Final = re.compile(r"[1-9][0-9]{0,17}")
"""A table id as a client writes it (below 2**63, what every database stores)."""
_TOKEN: Final = re.compile(r"[A-Za-z0-9_-]{1,100}")
"""A seat link's token as the server makes them (URL-safe base64)."""
_ALL: Final = frozenset({"0", "1", "true", "false"})
"""The values of ``GET /api/tables?all=``."""
_VERSION: Final = re.compile(r"[0-9]{1,9}")
"""A ``since`` version (or a ``Content-Length``) as a client writes it."""
_MISSED_LIMIT: Final = KEPT
"""A client further behind than this gets the current frame only (the table keeps the
states of that many entries to describe them, :meth:`Table.trail`)."""
MIN_BACKOFF: Final = 0.05
"""Seconds a table's automatic moves wait after its first failed write in a row."""
MAX_BACKOFF: Final = 5.0
"""The longest wait: each failed write in a row doubles it up to this."""
STANDBY: Final = 5.0
"""Seconds a process waits, on top of the pace, before it moves the bots of a table
another process moved last (if that one was killed, this one carries on)."""
EXPIRED_ELSEWHERE: Final = "another server process gave it up"
"""Why a table expired, as a process tells its people when another one decided it."""


class NotStored(TableError):
    """A move was not stored (the database failed, another process stored a move first,
    or the table expired): the table is back as stored and the sender is told why."""


@attrs.frozen
class Limits:
    """What one server accepts, so that no client can take it down.

    Attributes:
        max_tables: open (unfinished) tables at once; more get 429.
        tables_per_client: tables one client address may create in ``client_window``
            seconds; more get 429 (behind a proxy, see ``serve --forwarded-allow-ips``).
        client_window: the window of ``tables_per_client``, in seconds.
        spectators_per_table: spectators' sockets at one table; the seats' sockets
            do not count, so spectators can never keep a player out.
        connections_per_seat: sockets (tabs) of one seat's link at once.
        send_timeout: seconds a client may take to accept one frame; a client slower
            than that, or too many frames behind, is dropped (it may reconnect).
        expire_unjoined: seconds after which a table where no person ever connected
            expires (None: never).
        expire_idle: seconds after which a table where nobody moved expires (None:
            never).  An expired table is marked so in the database and no longer served.
        message_chars: the longest message read; a longer one closes the connection.
        messages_per_second: the steady rate a connection may send (with a burst of
            twice as many); faster closes it.
        away: seconds a person may be away while it is their turn before a bot takes
            the seat (None: never); the person's link gets the seat back.
        away_bot: the bot that takes such a seat.
        max_delay: the longest bot pace a table may ask for.
        review_workers: worker processes computing reviews (:mod:`._reviews`).
        review_queue: reviews that may wait for a worker; more get 503.
        reviews_per_client: reviews one client address may start in
            ``client_window`` seconds; more get 429 (a review computed already is free).
    """

    max_tables: int = 100
    tables_per_client: int = 20
    client_window: float = 3600.0
    spectators_per_table: int = 32
    connections_per_seat: int = 8
    send_timeout: float = 10.0
    expire_unjoined: float | None = 900.0
    expire_idle: float | None = 3 * 3600.0
    message_chars: int = MAX_MESSAGE_CHARS
    messages_per_second: float = 20.0
    away: float | None = None
    away_bot: str = "heuristic"
    max_delay: float = 10.0
    review_workers: int = REVIEW_WORKERS
    review_queue: int = REVIEW_QUEUE
    reviews_per_client: int = REVIEWS_PER_CLIENT


class TableHub(Hub):
    """A stored table's sockets and bot runner: :meth:`broadcast` commits first."""

    def __init__(self, server: GameServer, table_id: int, table: Table, delay: float) -> None:
        super().__init__(table, delay, server.group_moves)
        self.server = server
        self.table_id = table_id
        self.committed = table.version
        """How many journal entries are in the database."""
        self.finished = table.state.is_terminal
        """Whether the database was told the game is over (:meth:`_store_finished`)."""
        self.watchers: set[WebSocket] = set()
        self.send_timeout = server.limits.send_timeout
        self.born = self.moved = time.monotonic()
        """When the table was served here, and when it last moved (:meth:`stale`)."""
        people = {s.number for s in table.seats if s.token_hash is not None}
        self._joined = NEW_GAME in table.journal or any(
            seat in people for seat, _ in table.state.history
        )
        self.away_since: dict[int, float] = dict.fromkeys(self.sockets, time.monotonic())
        self._writing: asyncio.Future[str | None] | None = None
        """The journal write under way, if any (:meth:`commit`)."""
        self.backoff = 0.0
        """Seconds the automatic moves wait, on top of the pace, after a failed write."""
        self.remote = False
        """Whether the table's last change came from another process (:meth:`catch_up`,
        a conflict): that process moves its bots, this one stands by (:meth:`_pause`)."""

    @property
    def joined(self) -> bool:
        """Whether a person connected to a seat or moved (a table nobody joins expires);
        a table read back from the database was joined if a person's move is in it.
        Set to True, it is stored (:meth:`Storage.join`), so that no process expires a
        table whose people joined through another one."""
        return self._joined

    @joined.setter
    def joined(self, value: bool) -> None:
        if value and not self._joined:
            self.server.schedule(self._store_join())
        self._joined = value

    async def _store_join(self) -> None:
        storage = self.server.storage
        try:
            if storage.local:
                storage.join(self.table_id)
            else:
                await asyncio.to_thread(storage.join, self.table_id)
        except Exception:  # the next person to connect stores it again
            _log.exception("table %s: storing that a person joined failed", self.table_id)
            self._joined = False

    def dropped(self, socket: WebSocket) -> None:
        super().dropped(socket)
        self.watchers.discard(socket)

    def stale(self, now: float, limits: Limits) -> str | None:
        """Why the table should expire now, None if it should not (the database has the
        last word, :meth:`GameServer.expire`)."""
        if self.finished:
            return None
        unjoined, idle = limits.expire_unjoined, limits.expire_idle
        if unjoined is not None and not self.joined and now - self.born > unjoined:
            return f"no person joined it in {unjoined:g} s"
        if idle is not None and now - self.moved > idle:
            return f"nobody moved in {idle:g} s"
        return None

    async def broadcast(self) -> None:
        """Commit what is new, then send every socket its frame.

        Raises:
            NotStored: if the move could not be stored; the table was read back from
                the database first (the move is undone) and every socket was sent that.
        """
        self.moved = time.monotonic()
        refusal = await self.commit()
        await self.send_frames()
        if refusal is not None:
            raise NotStored(refusal)

    async def commit(self) -> str | None:
        """Write the journal entries not yet stored, and whether the game is over; on a
        conflict (another process moved first) or a database error, read the table
        back from the database.  Returns why the new entries were not stored, None
        when they were.

        The work runs to its end even if the caller is cancelled (a socket's handler
        when its client goes away), and the caller waits for it all the same, holding
        the table's lock: :attr:`committed` must count what is stored, and nobody may
        be shown the table while it holds a move that may yet fail.
        """
        self._writing = writing = asyncio.ensure_future(self._store(self._writing))
        cancellation: asyncio.CancelledError | None = None
        while True:
            try:
                refusal = await asyncio.shield(writing)
                break
            except asyncio.CancelledError as error:
                if writing.cancelled():  # the loop itself is going away
                    raise
                cancellation = error
        if cancellation is not None:
            # The caller's own cancellation, not a new one: a cancel scope (anyio's, as
            # the ASGI servers and the test client use) recognises it by its message
            # and swallows it; a bare CancelledError would escape the scope.
            raise cancellation
        return refusal

    async def _store(self, previous: asyncio.Future[str | None] | None) -> str | None:
        if previous is not None and not previous.done():
            with contextlib.suppress(Exception):
                await previous  # the commit before this one, still under way
        new = self.table.journal[self.committed :]
        refusal = await self._write(new) if new else None
        if refusal is None:
            await self._store_finished()
        return refusal

    async def _store_finished(self) -> None:
        """Store whether the game is over, once it changed (tried again at the next
        commit if it fails: the lobby and the open tables' count read it)."""
        storage = self.server.storage
        finished = self.table.state.is_terminal
        if finished == self.finished:
            return
        try:
            if storage.local:
                storage.set_finished(self.table_id, finished)
            else:
                await asyncio.to_thread(storage.set_finished, self.table_id, finished)
            self.finished = finished
        except Exception:
            _log.exception("table %s: storing that the game is over failed", self.table_id)

    async def _write(self, new: list[str]) -> str | None:
        storage, writer = self.server.storage, self.server.writer
        try:
            if writer is not None:
                await writer.append(self.table_id, self.committed, new)
            elif storage.local:
                storage.append(self.table_id, self.committed, new)
            else:
                await asyncio.to_thread(storage.append, self.table_id, self.committed, new)
        except Conflict:
            self.remote = True  # the process that stored first moves the bots
            await self.reload()
            return "another server process stored a move of this table first: yours was not made"
        except Expired:
            await self.reload()
            self.server.schedule(self.server.close_table(self, EXPIRED_ELSEWHERE))
            return f"this table expired: {EXPIRED_ELSEWHERE}; the move was not made"
        except Exception:
            _log.exception("table %s: storing a move failed; reading it back", self.table_id)
            # The table read back may want the same automatic move again (a shuffle, a
            # bot): without a wait a database that stays down would be asked again at
            # once, for ever, at full speed.
            self.backoff = min(max(2 * self.backoff, MIN_BACKOFF), MAX_BACKOFF)
            await self.reload()
            return "the move could not be stored (the database failed): it was not made, try again"
        self.committed += len(new)
        self.backoff = 0.0
        self.remote = False
        return None

    def _pause(self) -> float:
        """The pace of the automatic moves, plus the wait after a failed write, plus
        :data:`STANDBY` while another process moves this table's bots (this one steps
        in only if that one stops, say it was killed)."""
        return super()._pause() + self.backoff + (STANDBY if self.remote else 0.0)

    async def reload(self) -> None:
        """Rebuild the table from the database (what it stored is the truth), with the
        server's registered bots; if the database cannot be read, from the entries
        this process stored (the ones after them are dropped: they failed)."""
        storage, specs = self.server.storage, self.server.bots.registered
        try:
            stored = await asyncio.to_thread(storage.table, self.table_id)
            assert stored is not None
            journal = await asyncio.to_thread(storage.journal, self.table_id)
            self.table = build_table(stored, journal, specs)
        except Exception:
            _log.exception("table %s: not read back; undoing what is not stored", self.table_id)
            table = self.table
            seats = tuple(  # the seats as stored: a person's seat a bot took is replayed
                StoredSeat(s.number, "human" if s.token_hash else s.kind, s.display, s.token_hash)
                for s in table.seats
            )
            known = StoredTable(self.table_id, str(table.start.position), self.delay, seats, 0.0)
            self.table = build_table(known, table.journal[: self.committed], specs)
        self.committed = self.table.version

    async def send_frames(self) -> None:
        """Each seat's socket its own frame, each spectator the public one."""
        await super().broadcast()  # the seats' sockets: Hub's broadcast commits nothing
        if self.watchers:
            public = encode(self.table.public_frame())
            caught_up: dict[int, str] = {}
            for socket in list(self.watchers):
                await self.send_state(socket, None, public, caught_up)

    async def catch_up(self, version: int | None = None) -> None:
        """Another process committed up to ``version`` (None: maybe, unknown how far):
        read and replay the new rows; this process then stands by to move the bots."""
        async with self.lock:
            if version is not None and self.table.version >= version:
                return
            try:
                entries = await asyncio.to_thread(
                    self.server.storage.journal, self.table_id, self.table.version
                )
                for entry in entries:  # a frame per entry, as for a move made here
                    self.moved = time.monotonic()
                    self.remote = True
                    seat = self.table.state.current_player
                    if seat is not None and self.table.seats[seat].is_human:
                        self.joined = True  # a person moved through another process
                    self.table.replay(entry)
                    self.committed = self.table.version
                    await self.send_frames()
            except Exception:
                _log.exception("table %s: replaying another process's move failed", self.table_id)
                await self.reload()
                await self.send_frames()
            self.finished = self.table.state.is_terminal
        self.kick()

    async def hand_over(self, now: float) -> bool:
        """Give the seat of a person away too long to a bot; True if one was."""
        away = self.server.limits.away
        seat = self.table.state.current_player
        if away is None or seat is None or self.table.state.is_terminal:
            return False
        if not self.table.seats[seat].is_human or self.sockets[seat]:
            return False
        if now - self.away_since.get(seat, now) < away:
            return False
        async with self.lock:
            if self.table.state.current_player != seat or self.sockets[seat]:
                return False
            self.table.hand_to_bot(seat, self.server.limits.away_bot)
            self.kick()  # before the broadcast's wait, as in Hub.handle
            try:
                await self.broadcast()
            except NotStored:  # read back as stored: the next round tries again
                return False
        return True

    async def welcome_back(self, seat: int) -> None:
        """A person opened the link of a seat a bot took over: the seat is theirs again."""
        if self.table.seats[seat].is_human:
            return
        async with self.lock:
            if not self.table.seats[seat].is_human:
                self.table.hand_back(seat)
                with contextlib.suppress(NotStored):  # the next connection tries again
                    await self.broadcast()

    def summary(self) -> dict[str, Any]:
        """The lobby's line for this table (public information only), as stored: a
        move still being written is not in it."""
        table = self.table
        committed = min(self.committed, table.version)
        state = table.state if committed == table.version else table.state_at(committed)
        turn = state.current_player
        return {
            "table": self.table_id,
            "players": len(table.seats),
            "rules": str(table.rules) or "default",
            "seats": [
                {
                    "seat": s.number,
                    "kind": s.kind,
                    "name": s.name,
                    "connected": bool(self.sockets.get(s.number)),
                }
                for s in table.seats
            ],
            "free_seats": sum(
                1 for s in table.seats if s.is_human and not self.sockets.get(s.number)
            ),
            "spectators": len(self.watchers),
            "turn": None if turn is None or state.is_terminal else turn,
            "game": table.game_number,
            "deal": state.deal_number,
            "scores": list(state.scores),
            "game_over": state.is_terminal,
            "version": committed,
            "watch": f"/watch/{self.table_id}",
        }


def build_table(
    stored: StoredTable, journal: Sequence[str], specs: Mapping[str, str] | None = None
) -> Table:
    """The :class:`Table` of a stored start and journal (``specs``: the operator's
    registered bot names, :class:`~.network_bots.NetworkBots`)."""
    seats = [Seat(s.seat, s.kind, token_hash=s.token_hash, display=s.name) for s in stored.seats]
    return Table.restore(seats, stored.start, journal, specs=specs)


def _error(message: str, status: int) -> JSONResponse:
    """An error as every route answers one: ``{"error": message}``."""
    return JSONResponse({"error": message}, status_code=status, headers=_HEADERS)


class _Methods:
    """One path's endpoints by method, as an ASGI app: ``HEAD`` is ``GET`` without its
    body, ``OPTIONS`` answers 204 listing the methods in ``Allow`` (404 for a table
    number that is none, as ``GET`` would), any other method 405 with the same
    ``Allow`` (what ``/openapi.json`` declares)."""

    def __init__(self, **endpoints: Callable[[Request], Awaitable[Response]]) -> None:
        self.endpoints = endpoints
        methods = [*endpoints, *(["HEAD"] if "GET" in endpoints else []), "OPTIONS"]
        self.allow = ", ".join(methods)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        request = Request(scope, receive)
        method = request.method
        endpoint = self.endpoints.get("GET" if method == "HEAD" else method)
        headers = {**_HEADERS, "Allow": self.allow}
        table = request.path_params.get("table")
        response: Response
        if endpoint is not None:
            response = await endpoint(request)
        elif method != "OPTIONS":
            response = JSONResponse(
                {"error": f"method not allowed here (allowed: {self.allow})"},
                status_code=405,
                headers=headers,
            )
        elif table is not None and not _ID.fullmatch(table):
            response = _error("no such table (or it expired)", 404)
        else:
            response = Response(status_code=204, headers=headers)
        await response(scope, receive, send)


async def _http_error(request: Request, error: Exception) -> Response:
    """Starlette's own refusals (no such route, a method the route does not take) in
    the same JSON as the server's."""
    assert isinstance(error, HTTPException)
    return JSONResponse(
        {"error": str(error.detail)}, status_code=error.status_code, headers=error.headers
    )


async def _server_error(request: Request, error: Exception) -> Response:
    return _error("internal error", 500)


class _BadRequest(Exception):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _int(data: dict[str, Any], name: str, default: int) -> int:
    value = data.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _BadRequest(f"{name} must be an integer, got {json.dumps(value)[:30]}")
    return value


def _table_request(
    data: object, limits: Limits, default_delay: float, bots_allowed: NetworkBots
) -> dict[str, Any]:
    """The checked arguments of a ``POST /api/tables`` body (raises :class:`_BadRequest`).

    Each bot is read by ``bots_allowed`` (the network's one gate to the bots) before
    anything else is checked of them, so an unknown name is what a request hears of.
    """
    if not isinstance(data, dict):
        raise _BadRequest('the body must be a JSON object such as {"players": 4, "humans": 1}')
    unknown = sorted(set(data) - {"players", "humans", "bots", "rules", "delay", "names"})
    if unknown:
        raise _BadRequest(f"unknown field {unknown[0][:30]!r}")
    players = _int(data, "players", 4)
    humans = _int(data, "humans", 1)
    bots = data.get("bots")
    if "bots" in data:  # null too: leave the field out for the default bots
        if not isinstance(bots, list) or len(bots) > 8:
            raise _BadRequest(
                'bots must be a list of bot names such as ["search", "heuristic"], one per'
                " seat without a person (left out: the default bots)"
            )
        try:  # the caps depend on the seats (network_bots.LARGE_TABLE_PARAMETERS)
            bots = [bots_allowed.resolve(bot, players) for bot in bots]
        except BotNameError as error:
            raise _BadRequest(f"bots: {error}") from None
    rules_text = data.get("rules", "")
    if not isinstance(rules_text, str) or len(rules_text) > 400:
        raise _BadRequest("rules must be a text such as 'must_head=false,schleck=none'")
    try:
        rules = rules_from_text(rules_text)
    except FormatError as error:
        raise _BadRequest(f"rules: {error}") from None
    delay = data.get("delay", default_delay)
    if isinstance(delay, bool) or not isinstance(delay, (int, float)):
        raise _BadRequest("delay must be a number of seconds")
    if not 0 <= delay <= limits.max_delay:
        raise _BadRequest(f"delay must be from 0 to {limits.max_delay} seconds")
    names = data.get("names", [])
    if not isinstance(names, list) or len(names) > 8:
        raise _BadRequest(f"names must be a list of texts of at most {MAX_NAME} characters")
    try:
        cleaned = [display_name(name) for name in names]
    except ValueError as error:
        raise _BadRequest(f"names: {error}") from None
    return {
        "players": players,
        "humans": humans,
        "bots": bots,
        "rules": rules,
        "delay": float(delay),
        "names": cleaned,
    }


class GameServer:
    """Every table of one storage, in memory while it is used, and the routes to them.

    Args:
        storage: where the tables are kept (:func:`~.backends.open_storage`).
        limits: what the server accepts.
        delay: the bots' pace of a table that asks for none (seconds).
        group_moves: at tables of pace 0, make the quick automatic moves after a move
            with it and show them in one frame (:class:`~.app.Hub`, ``group``).
        collect_every: seconds between full garbage collections, made on this clock
            instead of when CPython decides, so none stops the process mid-move
            (:mod:`~._collect`); None leaves the process's collector as it is.
        bots: the bots a client may name (by default the built-in ones within their
            caps, :class:`~.network_bots.NetworkBots`).
        origins: the origins of other sites whose pages may create tables and connect
            (``https://example.org``); the server's own always may.
    """

    def __init__(
        self,
        storage: Storage,
        limits: Limits | None = None,
        delay: float = 0.8,
        group_moves: bool = False,
        collect_every: float | None = None,
        bots: NetworkBots | None = None,
        origins: Iterable[str] = (),
    ) -> None:
        self.storage = storage
        self.bots = bots or NetworkBots()
        self.origins = frozenset(origins)
        self._created: dict[str, deque[float]] = {}
        """Per client address, when it created its recent tables (the per-client limit)."""
        self.collector = None if collect_every is None else ScheduledCollection(collect_every)
        self.writer: JournalWriter | None = None
        """Commits the moves of a local database on a thread of its own, while the
        server runs (:mod:`~._writer`)."""
        self.limits = limits = limits or Limits()
        self.reviews = Reviews(
            limits.review_workers,
            limits.review_queue,
            limits.reviews_per_client,
            limits.client_window,
        )
        """The reviews of finished games, in worker processes of their own."""
        self.delay = delay
        self.group_moves = group_moves
        self.hubs: dict[int, TableHub] = {}
        self.tokens: dict[str, tuple[int, int]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------ the registry

    def register(self, table_id: int, table: Table, delay: float) -> TableHub:
        """Serve ``table`` (stored as ``table_id``) from now on; a table served already
        keeps its hub (two requests may have read it at once).  Call it in the loop's
        thread (or before the loop runs)."""
        existing = self.hubs.get(table_id)
        if existing is not None:
            return existing
        hub = TableHub(self, table_id, table, delay)
        self.hubs[table_id] = hub
        for seat in table.seats:
            if seat.token_hash is not None:
                self.tokens[seat.token_hash] = (table_id, seat.number)
        return hub

    def store(self, table: Table, delay: float) -> int:
        """Store a new table; returns its id (blocking)."""
        seats = [
            StoredSeat(s.number, s.kind, s.display, s.token_hash if s.is_human else None)
            for s in table.seats
        ]
        return self.storage.create_table(str(table.start.position), delay, seats)

    def add_table(self, table: Table, delay: float) -> TableHub:
        """Store a new table and serve it (blocking: for start-up, before the loop runs)."""
        return self.register(self.store(table, delay), table, delay)

    def _build(self, stored: StoredTable) -> Table | None:
        """The table of a stored start and its journal (blocking); None if it is damaged."""
        try:
            return build_table(stored, self.storage.journal(stored.id), self.bots.registered)
        except Exception:  # one damaged table must not keep the others from starting
            _log.exception("table %s cannot be restored; it is skipped", stored.id)
            return None

    async def _serve_stored(self, stored: StoredTable) -> TableHub | None:
        table = await asyncio.to_thread(self._build, stored)
        if table is None:
            return None
        served = stored.id in self.hubs
        hub = self.register(stored.id, table, stored.delay)
        if served:
            return hub
        hub.joined = hub.joined or stored.joined
        if hub.finished != stored.finished:  # the write of a game's end had failed
            hub.finished = stored.finished
            await hub.commit()
        if not self.storage.local:  # another process may be moving it: stand by
            hub.remote = True
            hub.kick()
        return hub

    async def load(self) -> int:
        """Serve every unfinished stored table not served yet; returns how many."""
        stored = await asyncio.to_thread(self.storage.tables, unfinished=True)
        loaded = [await self._serve_stored(s) for s in stored if s.id not in self.hubs]
        return sum(hub is not None for hub in loaded)

    async def hub(self, table_id: int) -> TableHub | None:
        """The table ``table_id``, read from the database if it is not in memory."""
        hub = self.hubs.get(table_id)
        if hub is None:
            stored = await asyncio.to_thread(self.storage.table, table_id)
            if stored is None or stored.expired:
                return None
            hub = self.hubs.get(table_id) or await self._serve_stored(stored)
        return hub

    async def find(self, token: str) -> tuple[TableHub, int] | None:
        """The table and seat of a seat link's token, None for an unknown one."""
        if not isinstance(token, str) or not _TOKEN.fullmatch(token):
            return None
        digest = hash_token(token)
        found = self.tokens.get(digest) or await asyncio.to_thread(self.storage.find_token, digest)
        if found is None:
            return None
        hub = await self.hub(found[0])
        return None if hub is None else (hub, found[1])

    # ---------------------------------------------------------------- running

    async def start(self) -> None:
        """Resume every unfinished table (bots carry on) and listen to other processes."""
        self.loop = asyncio.get_running_loop()
        await self.load()
        if self.storage.local:
            self.writer = JournalWriter(self.storage, self.loop)
        if self.collector is not None:  # after loading: the loaded tables are frozen too
            self.collector.start()
            self._spawn(self.collector.run())
        for hub in self.hubs.values():
            hub.kick()
        self.storage.listen(self._moved, self._changed, self._resync)
        if self.limits.away is not None:
            self._spawn(self._watch_away(self.limits.away))
        times = [t for t in (self.limits.expire_unjoined, self.limits.expire_idle) if t]
        if times:
            self._spawn(self._watch_stale(min(30.0, min(times) / 4)))

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def schedule(self, coroutine: Coroutine[Any, Any, None]) -> None:
        """Run ``coroutine`` as a task of the server's loop, called from that loop or
        from another thread (the listener); dropped if the server is not running."""
        loop = self.loop
        try:
            here: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        if loop is None or loop.is_closed():
            coroutine.close()
        elif here is loop:
            self._spawn(coroutine)
        else:
            try:
                loop.call_soon_threadsafe(self._spawn, coroutine)
            except RuntimeError:  # the loop closed while shutting down
                coroutine.close()

    def _moved(self, table_id: int, version: int) -> None:
        """From the listening thread: another process committed a move of ``table_id``."""
        hub = self.hubs.get(table_id)
        if hub is not None:
            self.schedule(hub.catch_up(version))

    def _changed(self, table_id: int) -> None:
        """From the listening thread: another process expired ``table_id``."""
        if table_id in self.hubs:
            self.schedule(self._refresh(table_id))

    def _resync(self) -> None:
        """From the listening thread, back after its connection was lost: what was
        committed meanwhile was not heard of, so every served table is read again."""
        for table_id in list(self.hubs):
            self.schedule(self._refresh(table_id))

    async def _refresh(self, table_id: int) -> None:
        """Read table ``table_id`` again: close it if it expired, else catch up."""
        hub = self.hubs.get(table_id)
        if hub is None:
            return
        stored = await asyncio.to_thread(self.storage.table, table_id)
        if stored is None or stored.expired:
            await self.close_table(hub, EXPIRED_ELSEWHERE)
        else:
            hub.joined = hub.joined or stored.joined
            await hub.catch_up()

    async def _watch_away(self, away: float) -> None:
        while True:
            await asyncio.sleep(min(1.0, away / 4))
            now = time.monotonic()
            for hub in list(self.hubs.values()):
                try:
                    await hub.hand_over(now)
                except Exception:
                    _log.exception("handing a seat to a bot failed")

    async def _watch_stale(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            now = time.monotonic()
            for hub in list(self.hubs.values()):
                why = hub.stale(now, self.limits)
                if why is not None:
                    try:
                        await self.expire(hub, why)
                    except Exception:
                        _log.exception("table %s: expiring it failed", hub.table_id)

    async def expire(self, hub: TableHub, why: str) -> bool:
        """Give up the table of ``hub`` if the database agrees that it is stale (what
        every process stored: a person who joined or a move through another process
        keeps it open), then :meth:`close_table`; True if it expired."""
        limits, now = self.limits, time.time()
        unjoined = limits.expire_unjoined
        if hub.joined or unjoined is None or time.monotonic() - hub.born <= unjoined:
            unjoined = None  # not why it is stale here: the idle time is
        idle = limits.expire_idle if unjoined is None else None
        async with hub.lock:
            expired = await asyncio.to_thread(
                self.storage.expire,
                hub.table_id,
                unjoined_before=None if unjoined is None else now - unjoined,
                idle_before=None if idle is None else now - idle,
            )
        if not expired:  # the database knows better: a person joined, or a move
            _log.info("table %s is not stale in the database: kept", hub.table_id)
            hub.moved = time.monotonic()
            await self._refresh(hub.table_id)
            return False
        await self.close_table(hub, why)
        return True

    async def close_table(self, hub: TableHub, why: str) -> None:
        """Serve the expired table of ``hub`` no more: stop its bots, tell its sockets
        why and close them (4410)."""
        async with hub.lock:
            if self.hubs.get(hub.table_id) is not hub:
                return  # closed already
            _log.info("table %s expired: %s", hub.table_id, why)
            if hub.runner is not None:
                hub.runner.cancel()
            self.hubs.pop(hub.table_id, None)
            for seat in hub.table.seats:
                if seat.token_hash is not None:
                    self.tokens.pop(seat.token_hash, None)
            message = encode({"type": "error", "message": f"this table expired: {why}"})
            for socket in [*hub.watchers, *(s for ss in hub.sockets.values() for s in ss)]:
                await hub.send_text(socket, message)
                outbox = hub.outboxes.get(socket)
                if outbox is not None:
                    outbox.finish(4410)

    async def stop(self) -> None:
        """Stop the bots and the listener; the database keeps everything."""
        for task in list(self._tasks):
            task.cancel()
        for hub in self.hubs.values():
            if hub.runner is not None:
                hub.runner.cancel()
        if self.collector is not None:
            self.collector.stop()
        writer, self.writer = self.writer, None
        if writer is not None:
            await asyncio.to_thread(writer.close)
        await asyncio.to_thread(self.storage.close)

    # ------------------------------------------------------------------- HTTP

    async def _body(self, request: Request) -> bytes:
        """The request's body, read only up to :data:`_MAX_BODY` bytes: a longer one is
        refused as soon as that is known (its ``Content-Length`` or the first bytes
        past the limit), never read whole (raises :class:`_BadRequest`)."""
        too_long = _BadRequest(f"the body is too long (at most {_MAX_BODY} bytes)", 413)
        length = request.headers.get("content-length", "").strip()
        if (_VERSION.fullmatch(length) and int(length) > _MAX_BODY) or len(length) > 9:
            raise too_long  # (uvicorn refuses a Content-Length that is no number)
        body = bytearray()
        try:
            async with asyncio.timeout(BODY_TIMEOUT):
                async for chunk in request.stream():
                    body += chunk
                    if len(body) > _MAX_BODY:
                        raise too_long
        except TimeoutError:
            raise _BadRequest(f"the body did not come within {BODY_TIMEOUT:g} s", 408) from None
        return bytes(body)

    def _client_may_create(self, client: str, now: float) -> bool:
        """Whether ``client`` created fewer than its limit of tables in the window."""
        window = self.limits.client_window
        for address, times in list(self._created.items()):  # forget the quiet ones
            while times and now - times[0] > window:
                times.popleft()
            if not times:
                del self._created[address]
        return len(self._created.get(client, ())) < self.limits.tables_per_client

    async def create(self, request: Request) -> Response:
        client = request.client.host if request.client is not None else "?"
        try:
            body = await self._body(request)
            try:  # the one hardened parser: no repeated key, no NaN, no deep nesting
                data = parse_json(body, "the body", max_chars=_MAX_BODY, max_depth=4)
            except ValueError as error:
                raise _BadRequest(f"the body is not JSON ({error})") from None
            spec = _table_request(data, self.limits, self.delay, self.bots)
            if not self._client_may_create(client, time.monotonic()):
                raise _BadRequest(
                    f"this address created {self.limits.tables_per_client} tables in the last"
                    f" {self.limits.client_window:g} s, the most it may: try later",
                    429,
                )
            open_tables = await asyncio.to_thread(self.storage.count_tables)
            if open_tables >= self.limits.max_tables:
                raise _BadRequest(
                    f"too many open tables (at most {self.limits.max_tables}): try later", 429
                )
            try:
                table = Table(
                    players=spec["players"],
                    humans=spec["humans"],
                    bots=spec["bots"],
                    rules=spec["rules"],
                    specs=self.bots.registered,
                )
            except ValueError as error:
                raise _BadRequest(str(error)) from None
        except _BadRequest as error:
            headers = _HEADERS if error.status != 413 else {**_HEADERS, "Connection": "close"}
            return JSONResponse({"error": str(error)}, status_code=error.status, headers=headers)
        self._created.setdefault(client, deque()).append(time.monotonic())
        names = spec["names"][: len(table.human_seats)]
        for seat, name in enumerate(names):
            if name:
                table.seats = (
                    *table.seats[:seat],
                    attrs.evolve(table.seats[seat], display=name),
                    *table.seats[seat + 1 :],
                )
        table_id = await asyncio.to_thread(self.store, table, spec["delay"])
        hub = self.register(table_id, table, spec["delay"])
        hub.kick()
        seats = [
            {"seat": s.number, "token": s.token, "url": f"/play/{s.token}"}
            for s in table.seats
            if s.is_human
        ]
        answer = {"table": hub.table_id, "seats": seats, "watch": f"/watch/{hub.table_id}"}
        return JSONResponse(answer, status_code=201, headers=_HEADERS)

    async def list_tables(self, request: Request) -> Response:
        shown = request.query_params.get("all", "0")
        if shown not in _ALL:
            return _error("all must be 1 or true (with the finished tables), 0 or false", 400)
        await self.load()  # tables another process created
        everything = shown in ("1", "true")
        tables = [
            hub.summary()
            for _, hub in sorted(self.hubs.items())
            if everything or not hub.table.state.is_terminal
        ]
        return JSONResponse({"tables": tables}, headers=_HEADERS)

    async def _hub_of(self, request: Request) -> TableHub | Response:
        text = request.path_params["table"]
        hub = await self.hub(int(text)) if _ID.fullmatch(text) else None
        if hub is None:
            return _error("no such table (or it expired)", 404)
        return hub

    async def one_table(self, request: Request) -> Response:
        hub = await self._hub_of(request)
        if isinstance(hub, Response):
            return hub
        return JSONResponse(hub.summary(), headers=_HEADERS)

    async def record(self, request: Request) -> Response:
        hub = await self._hub_of(request)
        if isinstance(hub, Response):
            return hub
        text = hub.table.record_text()
        if text is None:
            return _error("the game is not over yet", 409)
        name = f"watten-table-{hub.table_id}.txt"
        headers = {**_HEADERS, "Content-Disposition": f'attachment; filename="{name}"'}
        return PlainTextResponse(text, headers=headers)

    async def review(self, request: Request) -> Response:
        """The review of a finished game: computed once, in the review workers
        (:mod:`._reviews`), never on the threads that serve moves and lookups."""
        hub = await self._hub_of(request)
        if isinstance(hub, Response):
            return hub
        table = hub.table
        text = table.record_text()
        if text is None:
            return _error("the game is not over yet", 409)
        client = request.client.host if request.client is not None else "?"
        key = (hub.table_id, table.version)  # a table's finished game, one per version
        try:
            data = await self.reviews.review(key, text, table.persons, client)
        except ReviewRefused as refused:
            headers = {**_HEADERS, "Retry-After": str(refused.retry_after)}
            return JSONResponse(
                {"error": str(refused)}, status_code=refused.status, headers=headers
            )
        return JSONResponse(data, headers=_HEADERS)

    async def lobby(self, request: Request) -> Response:
        return localized_html(request, render_lobby, _HEADERS)

    async def play(self, request: Request) -> Response:
        found = await self.find(request.path_params["token"])
        if found is None:
            return PlainTextResponse("unknown seat link", status_code=403, headers=_HEADERS)
        table_id = found[0].table_id
        token = request.path_params["token"]
        return localized_html(
            request, lambda lang: render_page(token, table=table_id, lang=lang), _HEADERS
        )

    async def watch(self, request: Request) -> Response:
        hub = await self._hub_of(request)
        if isinstance(hub, Response):
            return hub
        table_id = hub.table_id
        return localized_html(
            request, lambda lang: render_page(None, table=table_id, lang=lang), _HEADERS
        )

    # ------------------------------------------------------------- websockets

    async def _refuse(self, socket: WebSocket, message: str, code: int) -> None:
        with contextlib.suppress(Exception):  # a client that does not read waits no longer
            async with asyncio.timeout(self.limits.send_timeout):
                await socket.send_text(json.dumps({"type": "error", "message": message}))
                await socket.close(code=code)

    async def _greet(self, hub: TableHub, socket: WebSocket, seat: int | None) -> None:
        """The missed events (``?since=V``, checked by :meth:`_refusal`) and the current
        frame, in one locked step."""
        since = socket.query_params.get("since")
        table = hub.table
        behind = table.version - int(since) if since is not None else 0
        if since is not None and 0 < behind <= _MISSED_LIMIT:
            events = table.missed(seat, int(since))
            await hub.send(
                socket,
                {"type": "events", "since": int(since), "version": table.version, "events": events},
            )
        text = table.frame_text(seat) if seat is not None else encode(table.public_frame())
        await hub.send_state(socket, seat, text, {})

    async def _serve(self, hub: TableHub, socket: WebSocket, seat: int | None) -> None:
        """Read the socket's messages until it closes; a flood or an oversized message
        closes this connection, nothing else."""
        bucket = Bucket(self.limits.messages_per_second)
        while True:
            message = await socket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            size = len(text if text is not None else message.get("bytes") or b"")
            if size > self.limits.message_chars:
                await self._refuse(socket, "message too long: closing", 1009)
                return
            if not bucket.take():
                await self._refuse(socket, "too many messages: closing", 1008)
                return
            if seat is None:
                await hub.send(socket, {"type": "error", "message": "spectators cannot act"})
                continue
            try:
                await hub.handle(seat, socket, text)
            except Exception:  # nothing a client sends may stop the table
                _log.exception("error while handling a message")
                await hub.send(socket, {"type": "error", "message": "internal error"})

    def _refusal(self, socket: WebSocket) -> tuple[str, int] | None:
        """Why a websocket is refused before its table is looked at, if it is."""
        refusal = foreign_origin(socket, self.origins)
        if refusal is not None:
            return refusal, 4403
        since = socket.query_params.get("since")
        if since is not None and not _VERSION.fullmatch(since):
            return "since must be the version of the last frame seen (a number)", 4400
        return None

    async def seat_socket(self, socket: WebSocket) -> None:
        await socket.accept()
        refused = self._refusal(socket)
        found = None if refused else await self.find(socket.path_params["token"])
        if refused is not None or found is None:
            await self._refuse(socket, *(refused or ("unknown seat link", 4403)))
            return
        hub, seat = found
        if len(hub.sockets[seat]) >= self.limits.connections_per_seat:
            await self._refuse(socket, "this seat has too many connections", 4429)
            return
        hub.joined = True
        await hub.welcome_back(seat)
        hub.attach(socket)
        try:
            async with hub.lock:
                hub.sockets[seat].add(socket)
                await self._greet(hub, socket, seat)
            hub.kick()
            await self._serve(hub, socket, seat)
        except WebSocketDisconnect:
            pass
        finally:
            hub.sockets[seat].discard(socket)
            hub.forget(socket)
            if not hub.sockets[seat]:
                hub.away_since[seat] = time.monotonic()

    async def watch_socket(self, socket: WebSocket) -> None:
        await socket.accept()
        refused = self._refusal(socket)
        if refused is not None:
            await self._refuse(socket, *refused)
            return
        text = socket.path_params["table"]
        hub = await self.hub(int(text)) if _ID.fullmatch(text) else None
        if hub is None:
            await self._refuse(socket, "no such table (or it expired)", 4404)
            return
        if len(hub.watchers) >= self.limits.spectators_per_table:
            await self._refuse(socket, "this table has too many spectators", 4429)
            return
        hub.attach(socket)
        try:
            async with hub.lock:
                hub.watchers.add(socket)
                await self._greet(hub, socket, None)
            await self._serve(hub, socket, None)
        except WebSocketDisconnect:
            pass
        finally:
            hub.watchers.discard(socket)
            hub.forget(socket)


def create_server(
    storage: Storage,
    *,
    limits: Limits | None = None,
    delay: float = 0.8,
    group_moves: bool = False,
    collect_every: float | None = None,
    bots: Mapping[str, str] | None = None,
    allowed_hosts: Iterable[str] = LOOPBACK,
    allowed_origins: Iterable[str] = (),
) -> Starlette:
    """The ASGI app of a :class:`GameServer` on ``storage``; run it with uvicorn
    (``serve`` runs it with the guards of :mod:`._protocols`).

    ``group_moves`` and ``collect_every``: see :class:`GameServer` (``serve`` collects
    every 10 minutes; an app embedded in another program leaves its collector alone
    unless asked).

    Args:
        bots: the operator's own bots a client may name, name -> any
            :func:`~bohmisch_watten.bots.make_bot` spec (``{"mine":
            "engine:./my_engine"}``); a client names only these and the built-in bots
            within their caps (:mod:`.network_bots`).
        allowed_hosts: the host names the server answers to (the ``Host`` header;
            ``"*"``: any); by default the loopback names.
        allowed_origins: other sites whose pages may create tables and connect.

    ``app.state.server`` is the :class:`GameServer`.  The tables are loaded and their
    bots resumed when the app starts (its lifespan), the storage closed when it stops.

    Raises:
        ValueError: for a registered bot whose name or spec is refused (naming it).
    """
    network_bots = NetworkBots(bots)
    for name, spec in network_bots.registered.items():
        try:
            check_bot(spec)
        except (ValueError, ImportError) as error:
            raise ValueError(f"bot {name!r}: {error}") from None
    origins = frozenset(allowed_origins)
    server = GameServer(
        storage, limits, delay, group_moves, collect_every, bots=network_bots, origins=origins
    )
    schema = openapi()

    async def schema_route(request: Request) -> Response:
        return JSONResponse(schema, headers=_HEADERS)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.start()
        try:
            yield
        finally:
            await server.stop()
            server.reviews.close()

    app = Starlette(
        routes=[
            Route("/openapi.json", _Methods(GET=schema_route)),
            Route("/", server.lobby),
            Route("/api/tables", _Methods(GET=server.list_tables, POST=server.create)),
            Route("/api/tables/{table}", _Methods(GET=server.one_table)),
            Route("/api/tables/{table}/record", _Methods(GET=server.record)),
            Route("/api/tables/{table}/review", _Methods(GET=server.review)),
            Route("/play/{token}", server.play),
            Route("/watch/{table}", server.watch),
            WebSocketRoute("/ws/watch/{table}", server.watch_socket),
            WebSocketRoute("/ws/{token}", server.seat_socket),
        ],
        middleware=[
            Middleware(HostGuard, hosts=allowed_hosts, origins=origins, writes={"/api/tables"})
        ],
        exception_handlers={HTTPException: _http_error, 500: _server_error},
        lifespan=lifespan,
    )
    app.state.server = server
    return app
