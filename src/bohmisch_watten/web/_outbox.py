"""One socket's frames on their way out, so that no client can stall another.

A frame is put in the socket's own bounded queue and the caller goes on at once; a task
of the socket's own sends the queue out.  A client that does not read fills its
queue or takes longer than the time limit to accept a frame, and is dropped: its
connection is cut and it may reconnect with ``?since=V``.  So the hub's lock is never
held while waiting for a client, and a table's frames reach every other socket on
time whatever one socket does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable
from typing import Any, Final

from starlette.websockets import WebSocket

__all__ = ["ABORT", "Outbox", "cut"]

ABORT: Final = "bohmisch_watten.abort"
"""The scope extension under which the server's websocket protocol (:mod:`._protocols`)
offers ``{"abort": callable}``, cutting the connection at once even if its send buffer
is full (a plain close waits for the client to read it)."""

_log = logging.getLogger(__name__)


def cut(socket: WebSocket) -> asyncio.Task[None] | None:
    """End ``socket``'s connection now: abort it where the server's protocol allows,
    else ask for a close in the background (it may wait for the client); returns that
    close's task, for the caller to hold."""
    extension: Any = (socket.scope.get("extensions") or {}).get(ABORT)
    if extension is not None:
        extension["abort"]()
        return None

    async def close() -> None:
        with contextlib.suppress(Exception):
            async with asyncio.timeout(5):
                await socket.close(code=1008)

    return asyncio.ensure_future(close())


class Outbox:
    """The frames waiting for one socket, and the task that sends them.

    Args:
        socket: the client's socket.
        frames: the most frames waiting; one more drops the client.
        chars: the most characters waiting; more drops the client.
        timeout: seconds the client may take to accept one frame.
        dropped: called once (in the loop) when the client is dropped.
    """

    def __init__(
        self,
        socket: WebSocket,
        *,
        frames: int,
        chars: int,
        timeout: float,
        dropped: Callable[[WebSocket], None],
    ) -> None:
        self.socket = socket
        self.frames = frames
        self.chars = chars
        self.timeout = timeout
        self._dropped = dropped
        self._queue: deque[str] = deque()
        self._size = 0
        self._ready = asyncio.Event()
        self.closed = False
        """True once the client was dropped or its connection ended."""
        self._close_code: int | None = None
        self._closing: asyncio.Task[None] | None = None
        """The close of a dropped client's connection, where it cannot be cut."""
        self._task = asyncio.ensure_future(self._pump())

    def put(self, text: str) -> None:
        """Queue one frame (never waits); a client too far behind is dropped."""
        if self.closed:
            return
        if len(self._queue) >= self.frames or self._size + len(text) > self.chars:
            self.drop(f"{len(self._queue)} frames unread")
            return
        self._queue.append(text)
        self._size += len(text)
        self._ready.set()

    def drop(self, why: str) -> None:
        """Stop sending, forget the client and cut its connection."""
        if self.closed:
            return
        _log.info("dropping a client that does not read (%s)", why)
        self.close()
        self._dropped(self.socket)
        self._closing = cut(self.socket)

    def finish(self, code: int) -> None:
        """Send what is queued, then close the connection with ``code``."""
        self._close_code = code
        self._ready.set()

    def close(self) -> None:
        """The connection ended: stop the sending task, forget the waiting frames."""
        self.closed = True
        self._queue.clear()
        if self._task is not asyncio.current_task():
            self._task.cancel()

    async def _pump(self) -> None:
        queue = self._queue
        while not self.closed:
            await self._ready.wait()
            self._ready.clear()
            while queue and not self.closed:
                text = queue.popleft()
                self._size -= len(text)
                try:
                    async with asyncio.timeout(self.timeout):
                        await self.socket.send_text(text)
                except TimeoutError:
                    self.drop(f"a frame not taken in {self.timeout:g} s")
                    return
                except Exception:  # the peer went away: its handler cleans up
                    self.closed = True
                    return
            if self._close_code is not None and not self.closed:
                self.closed = True
                with contextlib.suppress(Exception):
                    async with asyncio.timeout(self.timeout):
                        await self.socket.close(code=self._close_code)
                return
