"""The journal's writer: a thread of its own that commits the tables' moves in groups.

A local SQLite file takes about 60 µs to commit a move, with about a dozen system
calls, and now and then a WAL checkpoint of several milliseconds.  Made in the event
loop's thread, every commit stopped every table for that long: a tenth of the server's
time under load (benchmarks/RESULTS-web.md).  SQLite releases the GIL while it works, so
a thread of its own commits on the other core while the loop builds frames, and the
moves that arrive while it commits wait for the next commit together: under load a
commit holds many tables' moves, one transaction for all (``Storage.append_many``).

A move is still committed before any frame shows it: :meth:`JournalWriter.append`
returns only once its rows are in the database, and raises what the storage raised
for them (:class:`~.storage.Conflict`) without failing the other tables of its group.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Sequence

from .storage import Group, Storage

__all__ = ["JournalWriter"]

_Item = tuple[Group, "asyncio.Future[None]"]


class JournalWriter:
    """Commits :meth:`append` calls of one event loop on a thread, in groups."""

    def __init__(self, storage: Storage, loop: asyncio.AbstractEventLoop) -> None:
        self.storage = storage
        self.loop = loop
        self.commits = 0
        """How many groups were committed (each one transaction, or one per table
        after a conflict)."""
        self._queue: queue.SimpleQueue[_Item | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="journal-writer", daemon=True)
        self._thread.start()

    async def append(self, table_id: int, seq: int, entries: Sequence[str]) -> None:
        """Store the rows as :meth:`Storage.append` does, from the loop, once committed.

        Raises:
            Conflict: if row ``seq`` exists already (nothing of this table is written).
        """
        done: asyncio.Future[None] = self.loop.create_future()
        self._queue.put(((table_id, seq, entries), done))
        await done

    def close(self) -> None:
        """Commit what is queued, then stop the thread."""
        self._queue.put(None)
        self._thread.join()

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            items = [item]
            stop = False
            while True:  # everything queued meanwhile joins this commit
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                items.append(more)
            try:
                results: Sequence[BaseException | None] = self.storage.append_many(
                    [group for group, _ in items]
                )
            except Exception as error:  # the database failed: every waiter hears it
                results = [error] * len(items)
            self.commits += 1
            settled = [(done, result) for (_, done), result in zip(items, results, strict=True)]
            try:
                self.loop.call_soon_threadsafe(_settle, settled)  # one wake-up per group
            except RuntimeError:  # the loop is closed: nobody waits any more
                return
            if stop:
                return


def _settle(settled: list[tuple[asyncio.Future[None], BaseException | None]]) -> None:
    for done, result in settled:
        if done.done():  # its waiter was cancelled (the server is stopping)
            continue
        if result is None:
            done.set_result(None)
        else:
            done.set_exception(result)
