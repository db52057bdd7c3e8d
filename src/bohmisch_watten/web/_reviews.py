"""The reviews of finished games: worker processes of their own and a bounded queue.

A review judges every decision of the people at a table, a search each (a 4-seat game:
about 1,400 decisions), far more than any other request.  Run on the server's threads it
held the interpreter's lock for a minute, and eight of them kept a lookup waiting
35 s.  So reviews run here, apart from everything else:

* in **worker processes** of their own (a thread would still hold the lock), at a lower
  CPU priority than the server, so that moves and lookups keep their core;
* with a **bounded queue**: at most ``workers + queue`` reviews are asked for at once,
  more are refused (:class:`ReviewRefused`, 503 with ``Retry-After``);
* **once per game**: a finished game's review is kept (the last :data:`KEPT_REVIEWS`)
  and every later request, or one asking while it is computed, gets the same answer;
* **rate-limited per client**: one address may start :data:`REVIEWS_PER_CLIENT` reviews
  in the server's client window (an hour; 429 with ``Retry-After``); a kept one costs
  nothing;
* with a **work budget** of its own, :data:`REVIEW_JUDGE`, sized from 7-seat 36-card
  measurements (``benchmarks/RESULTS-budgets.md``).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import multiprocessing
import os
import time
from collections import OrderedDict, deque
from collections.abc import Hashable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, Final

from ..bots import make_bot
from ..records import load_record
from ..review import Judge, review

__all__ = [
    "KEPT_REVIEWS",
    "REVIEWS_PER_CLIENT",
    "REVIEW_JUDGE",
    "REVIEW_QUEUE",
    "REVIEW_WINDOW",
    "REVIEW_WORKERS",
    "ReviewRefused",
    "Reviews",
    "judge_record",
]

REVIEW_JUDGE: Final = "expert:samples=12:exchange_samples=8:proposals=2:max_candidates=3"
"""The judge of a server's reviews: the expert with a small fixed budget, about a
quarter of the CPU of the expert's default at seven seats, 36 cards (a hint's budget;
benchmarks/RESULTS-budgets.md)."""
REVIEW_WORKERS: Final = 1
"""Worker processes computing reviews (``serve --review-workers``)."""
REVIEW_QUEUE: Final = 4
"""Reviews that may wait for a worker; one more is refused (503)."""
REVIEWS_PER_CLIENT: Final = 6
"""Reviews one client address may start in :data:`REVIEW_WINDOW` seconds."""
REVIEW_WINDOW: Final = 3600.0
"""The window of :data:`REVIEWS_PER_CLIENT`, in seconds (a server uses its
``Limits.client_window``, by default as long)."""
KEPT_REVIEWS: Final = 256
"""Finished reviews kept in memory (a review is a few kB to a few hundred kB)."""
_FIRST_GUESS: Final = 10.0
"""Seconds a review is thought to take before one was measured (``Retry-After``)."""


class ReviewRefused(Exception):
    """A review not started now: ``status`` 503 (every worker and the queue busy) or 429
    (the client asked for too many); ``retry_after`` is whole seconds to wait."""

    def __init__(self, message: str, status: int, retry_after: int) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


def judge_record(record_text: str, seats: tuple[int, ...]) -> dict[str, Any]:
    """The review of ``seats``' decisions in the game of ``record_text``, as JSON data
    (run in a worker process: the arguments and the result cross as text and data)."""
    judge = make_bot(REVIEW_JUDGE)
    assert isinstance(judge, Judge)  # the expert has hint() and evaluate()
    return review(load_record(record_text), judge, seats=seats).to_dict()


def _lower_priority() -> None:
    """A worker's start: below the server's CPU priority (where the system allows it)."""
    with contextlib.suppress(AttributeError, OSError):  # no os.nice on Windows
        os.nice(10)


class Reviews:
    """The reviews of one server: see the module's docstring.

    Args:
        workers: worker processes (started at the first review).
        queue: reviews that may wait for a worker.
        per_client: reviews one client may start in ``window`` seconds.
        window: seconds.
        executor: where reviews run instead of worker processes of their own (a test's
            or an embedding program's); it is not shut down by :meth:`close`.
    """

    def __init__(
        self,
        workers: int = REVIEW_WORKERS,
        queue: int = REVIEW_QUEUE,
        per_client: int = REVIEWS_PER_CLIENT,
        window: float = REVIEW_WINDOW,
        executor: Executor | None = None,
    ) -> None:
        if workers < 1 or queue < 0 or per_client < 1 or not window > 0:
            raise ValueError("reviews need a worker, a queue of 0 or more and a client rate")
        self.workers = workers
        self.queue = queue
        self.per_client = per_client
        self.window = window
        self._executor = executor
        self._own: ProcessPoolExecutor | None = None
        self._done: OrderedDict[Hashable, dict[str, Any]] = OrderedDict()
        self._running: dict[Hashable, asyncio.Future[dict[str, Any]]] = {}
        self._asked: dict[str, deque[float]] = {}
        self._seconds = _FIRST_GUESS
        """How long a review took lately (a moving mean), for ``Retry-After``."""

    def _pool(self) -> Executor:
        if self._executor is not None:
            return self._executor
        if self._own is None:
            # spawn: a fork of a server with running threads (the listener, the
            # writer) may copy a lock held by one of them.
            self._own = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_lower_priority,
            )
        return self._own

    def kept(self, key: Hashable) -> dict[str, Any] | None:
        """The review of ``key`` if it was computed already."""
        found = self._done.get(key)
        if found is not None:
            self._done.move_to_end(key)
        return found

    def _retry_after(self, waiting: int) -> int:
        return max(1, math.ceil(self._seconds * waiting / self.workers))

    def _client_may_start(self, client: str, now: float) -> float | None:
        """None if ``client`` may start a review now, else the seconds until it may."""
        for address, times in list(self._asked.items()):  # forget the quiet ones
            while times and now - times[0] > self.window:
                times.popleft()
            if not times:
                del self._asked[address]
        asked = self._asked.get(client)
        if asked is None or len(asked) < self.per_client:
            return None
        return self.window - (now - asked[0])

    async def review(
        self, key: Hashable, record_text: str, seats: tuple[int, ...], client: str
    ) -> dict[str, Any]:
        """The review of the game ``key`` (kept, under way, or started now for
        ``client``).

        Raises:
            ReviewRefused: if it cannot start now (the queue is full, 503, or the client
                asked for too many, 429).
        """
        found = self.kept(key)
        if found is not None:
            return found
        running = self._running.get(key)
        if running is None:
            if len(self._running) >= self.workers + self.queue:
                raise ReviewRefused(
                    f"every review worker is busy ({len(self._running)} reviews asked for):"
                    " try later",
                    503,
                    self._retry_after(len(self._running) - self.workers + 1),
                )
            now = time.monotonic()
            wait = self._client_may_start(client, now)
            if wait is not None:
                raise ReviewRefused(
                    f"this address asked for {self.per_client} reviews in the last"
                    f" {self.window:g} s, the most it may: try later",
                    429,
                    max(1, math.ceil(wait)),
                )
            self._asked.setdefault(client, deque()).append(now)
            running = self._start(key, record_text, seats)
        # shield: a client that goes away does not cancel the review the others share.
        return await asyncio.shield(running)

    def _start(
        self, key: Hashable, record_text: str, seats: tuple[int, ...]
    ) -> asyncio.Future[dict[str, Any]]:
        loop = asyncio.get_running_loop()
        started = time.monotonic()
        running = loop.run_in_executor(self._pool(), judge_record, record_text, seats)
        self._running[key] = running

        def finished(future: asyncio.Future[dict[str, Any]]) -> None:
            self._running.pop(key, None)
            if future.cancelled() or future.exception() is not None:
                return  # asked again, it is started again
            self._done[key] = future.result()
            while len(self._done) > KEPT_REVIEWS:
                self._done.popitem(last=False)
            spent = time.monotonic() - started
            self._seconds = 0.7 * self._seconds + 0.3 * spent

        running.add_done_callback(finished)
        return running

    def close(self) -> None:
        """Stop the worker processes (a review under way is given up: the process
        would otherwise wait for it to end before it exits)."""
        own, self._own = self._own, None
        if own is not None:
            processes = getattr(own, "_processes", None) or {}
            for process in list(processes.values()):
                process.terminate()
            own.shutdown(wait=True, cancel_futures=True)  # its queues, once they are gone
