"""A game server app run by real uvicorn on a real loopback socket, in a thread of the
test process, with the protocols ``serve`` uses (so what it runs is measured too).

With another version of the package on ``PYTHONPATH`` that has no such protocols,
uvicorn's own are used, so the same tests attack it."""

from __future__ import annotations

import importlib
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

from live_server import free_port


def _protocols() -> dict[str, Any]:
    try:
        module = importlib.import_module("bohmisch_watten.web._protocols")
    except ImportError:  # a version without them
        return {}
    return {"http": module.GuardedHTTP, "ws": module.GuardedWebSocket}


@contextmanager
def running(app: Any, *, guarded: bool = True, **config: Any) -> Iterator[int]:
    """Serve ``app`` until the block ends; yields the port."""
    port = free_port()
    protocols = _protocols() if guarded else {}
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
