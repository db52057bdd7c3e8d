"""A game server app run by real uvicorn on a real loopback socket, in a thread of the
test process, with the protocols ``serve`` uses (so what it runs is measured too)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

from bohmisch_watten.web._protocols import GuardedHTTP, GuardedWebSocket
from live_server import free_port


@contextmanager
def running(app: Any, *, guarded: bool = True, **config: Any) -> Iterator[int]:
    """Serve ``app`` until the block ends; yields the port."""
    port = free_port()
    protocols: dict[str, Any] = {"http": GuardedHTTP, "ws": GuardedWebSocket} if guarded else {}
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host="127.0.0.1",
            port=port,
            log_level="warning",
            ws_per_message_deflate=False,
            **protocols,
            **config,
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive(), "uvicorn stopped"
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(30)
