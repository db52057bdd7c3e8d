"""The connections ``serve`` runs uvicorn with: uvicorn's own, with two more guards.

* A request's head must arrive within :data:`HEAD_TIMEOUT` seconds of the connection
  (or of the answer before it): uvicorn closes an idle kept-alive connection, but not
  one that never sends a request or sends its head a byte at a time, and each such
  connection holds a socket of the server.
* A websocket may be cut at once (:data:`~._outbox.ABORT`): closing waits until the
  client has read what was sent before, which a client that never reads never does,
  and the connection would stay open for ever.  A client that answers no ping is cut
  the same way.
* A websocket's **control frames count**: uvicorn answers every ping at once with a
  pong written past the app's outgoing queue, so a client that sends pings without
  reading grew the server by hundreds of MB.  Here the pings and pongs a client sends
  are limited like its messages (:attr:`GuardedWebSocket.control_rate` a second, bursts
  of twice as many; ``serve --rate``), and a pong is answered only while what waits
  for the client to read stays under :data:`MAX_UNSENT` bytes; past either the
  connection is cut.
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar, Final

from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame
from websockets.http11 import Request

from ._outbox import ABORT
from ._rate import Bucket

__all__ = ["HEAD_TIMEOUT", "GuardedHTTP", "GuardedWebSocket"]

HEAD_TIMEOUT: Final = 10.0
"""Seconds a client has to send a request's head (the line and the headers)."""
CONTROL_RATE: Final = 20.0
"""The pings and pongs a websocket client may send a second by default (``--rate``'s)."""
MAX_UNSENT: Final = 1 << 20
"""The most bytes waiting for a websocket client to read (the app's frames are held to
this by their own queue, :mod:`._outbox`); a pong past it cuts the connection."""


class GuardedHTTP(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, closing a connection whose request head is late."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        cycle = self.cycle
        super().data_received(data)
        if self.cycle is not cycle or self.transport.get_protocol() is not self:
            self._disarm()  # a whole head came (or the connection became a websocket)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request's head has as long

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(HEAD_TIMEOUT, self._late)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _late(self) -> None:
        self._head_timer = None
        if self.transport.get_protocol() is self:
            self.transport.abort()


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol, offering the app a way to cut the connection and
    limiting the client's control frames (the module's docstring)."""

    control_rate: ClassVar[float] = CONTROL_RATE
    """Pings and pongs a client may send a second (:meth:`limited` sets another)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._controls = Bucket(self.control_rate)

    @classmethod
    def limited(cls, rate: float) -> type[GuardedWebSocket]:
        """The protocol with ``rate`` control frames a second (``serve --rate``)."""
        return type(cls.__name__, (cls,), {"control_rate": float(rate)})

    def _over(self, why: str) -> bool:
        """Whether the client is over a limit; if so its connection is cut."""
        if self.transport.is_closing():
            return True
        if self._controls.take() and self.transport.get_write_buffer_size() <= MAX_UNSENT:
            return False
        self.logger.info("cutting a websocket: %s", why)
        self.close_sent = True
        self.transport.abort()  # a close frame would wait behind what it does not read
        return True

    def handle_ping(self) -> None:
        if not self._over("too many pings, or pongs it does not read"):
            super().handle_ping()

    def handle_pong(self, event: Frame) -> None:
        if not self._over("too many pongs"):
            super().handle_pong(event)

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:  # the handshake was accepted and the app is starting
            extensions = scope.setdefault("extensions", {})
            extensions[ABORT] = {"abort": self.transport.abort}

    def keepalive_timeout(self) -> None:
        super().keepalive_timeout()
        self.transport.abort()
