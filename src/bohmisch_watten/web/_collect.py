"""The server process's garbage collection: full collections on a clock, not mid-move.

CPython's cycle collector stops the whole process while it runs.  Its young
generations are quick (a millisecond or two), but a full collection walks every tracked
object: with a hundred busy tables (their states, logs and the engine's shared action
tables) that is a quarter of a million objects and 120–300 ms on the 2-core
development machine, several times a minute under load, and every move waiting in that
moment waits that long (benchmarks/RESULTS-web.md).  Yet the tables' data has no cycles:
states, logs and frames are freed by reference counting, and a full collection after
a 20-second flood found no garbage at all.

So a server that asks for it (:func:`~.server.create_server`'s ``collect_every``, on in
``serve``) keeps the young collections as they are and makes the full ones a chore on
a clock: at start the objects that live as long as the process (modules, classes, the
catalogs) are frozen out of every later collection (:func:`gc.freeze`), the automatic
full collection is switched off, and a task runs one every ``collect_every`` seconds
(default 10 minutes), so a stray cycle is still freed.  Stopping restores the
process's settings.  Only the process that serves does this: a library user's
process is not touched unless it asks.
"""

from __future__ import annotations

import asyncio
import gc
from typing import Final

__all__ = ["NEVER", "ScheduledCollection"]

NEVER: Final = 1 << 30
"""A third threshold no count of young collections reaches: no automatic full one."""


class ScheduledCollection:
    """Full collections every ``every`` seconds instead of when CPython decides.

    :meth:`start` freezes what is alive now and switches off automatic full
    collections; :meth:`run` is the task that collects on the clock; :meth:`stop`
    restores the thresholds and unfreezes.
    """

    def __init__(self, every: float) -> None:
        if not every > 0:
            raise ValueError(f"collect_every must be a positive number of seconds, got {every}")
        self.every = every
        self.collections = 0
        """How many full collections :meth:`run` made."""
        self._saved: tuple[int, int, int] | None = None

    def start(self) -> None:
        """Freeze the objects alive now and switch off the automatic full collection."""
        if self._saved is not None:
            return
        self._saved = gc.get_threshold()
        gc.collect()  # what is garbage now is not frozen with the rest
        gc.freeze()
        young, middle, _ = self._saved
        gc.set_threshold(young, middle, NEVER)

    async def run(self) -> None:
        """Collect every :attr:`every` seconds until cancelled."""
        while True:
            await asyncio.sleep(self.every)
            gc.collect()
            self.collections += 1

    def stop(self) -> None:
        """The process's own thresholds again; frozen objects are collected as usual."""
        saved, self._saved = self._saved, None
        if saved is not None:
            gc.set_threshold(*saved)
            gc.unfreeze()
