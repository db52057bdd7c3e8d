"""Where the games run: in this process, in a local process pool, or on Ray.

Every backend plays the same batches with the same pure function
(:func:`~bohmisch_watten.arena.match.play_games`) and returns the results in game
order, so the table does not depend on the backend or on the number of jobs.

The process pool's workers end with the arena however it ends: each worker asks the
kernel for SIGKILL when its parent dies (``PR_SET_PDEATHSIG`` on Linux) or, elsewhere,
watches its parent from a thread, so a SIGKILLed or SIGTERMed arena leaves no worker
playing on; the engines a worker started see their input end and exit, as the engine
protocol asks.
"""

from __future__ import annotations

import ctypes
import importlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, Final, Literal

from .match import ArenaSetup, GameResult, play_games
from .schedule import GameSpec

__all__ = ["BACKENDS", "batches", "run_games"]

BACKENDS = ("process", "ray")
Progress = Callable[[int], None]

_PR_SET_PDEATHSIG: Final = 1
"""``prctl`` option (linux/prctl.h): the signal this process gets when its parent dies."""
WATCH_S: Final = 0.5
"""How often a worker without ``PR_SET_PDEATHSIG`` looks whether its parent is alive."""


def _kernel_watch() -> bool:
    """Ask Linux for SIGKILL at the parent's death; False where that is not possible."""
    if not sys.platform.startswith("linux"):  # pragma: no cover - not Linux
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)) == 0
    except (OSError, AttributeError):  # pragma: no cover - a libc without prctl
        return False


def _watch(parent: int) -> None:  # pragma: no cover - the thread of non-Linux systems
    while os.getppid() == parent:
        time.sleep(WATCH_S)
    os.kill(os.getpid(), signal.SIGKILL)


def die_with_parent(parent: int) -> None:
    """The pool's worker initializer: this worker ends when process ``parent`` ends.

    A worker killed so does not finish its batch: its engines' stdin closes and they
    exit; nothing of the run is left playing for a host that is gone.
    """
    if not _kernel_watch():  # pragma: no cover - not Linux
        threading.Thread(target=_watch, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # pragma: no cover - the parent died before the watch
        os.kill(os.getpid(), signal.SIGKILL)


def batches(specs: Sequence[GameSpec], jobs: int) -> list[list[GameSpec]]:
    """Split the games into batches: about eight per job, at most 16 games each."""
    size = max(1, min(16, len(specs) // (8 * max(1, jobs))))
    return [list(specs[i : i + size]) for i in range(0, len(specs), size)]


def _serial(setup: ArenaSetup, parts: list[list[GameSpec]], progress: Progress) -> list[GameResult]:
    results = []
    for part in parts:
        done = play_games(setup, part)
        results.extend(done)
        progress(len(done))
    return results


def _processes(
    setup: ArenaSetup, parts: list[list[GameSpec]], jobs: int, progress: Progress
) -> list[GameResult]:
    # spawn: a clean interpreter per worker, the same on every platform and Python.
    context = multiprocessing.get_context("spawn")
    results: list[GameResult] = []
    with ProcessPoolExecutor(
        max_workers=jobs, mp_context=context, initializer=die_with_parent, initargs=(os.getpid(),)
    ) as pool:
        futures = [pool.submit(play_games, setup, part) for part in parts]
        for future in as_completed(futures):
            done = future.result()
            results.extend(done)
            progress(len(done))
    return results


def _ray(
    setup: ArenaSetup,
    parts: list[list[GameSpec]],
    jobs: int,
    address: str | None,
    progress: Progress,
) -> list[GameResult]:
    ray: Any = importlib.import_module("ray")
    started = not ray.is_initialized()
    if started:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False)
    try:
        task = ray.remote(play_games)
        pending = [task.remote(setup, part) for part in parts]
        results: list[GameResult] = []
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                done = ray.get(ref)
                results.extend(done)
                progress(len(done))
    finally:
        if started:
            ray.shutdown()
    return results


def run_games(
    setup: ArenaSetup,
    specs: Sequence[GameSpec],
    *,
    jobs: int = 1,
    backend: Literal["process", "ray"] = "process",
    address: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[GameResult]:
    """Play ``specs`` and return their results in game order.

    Args:
        setup: the arena.
        specs: the games.
        jobs: worker processes (process backend) or local Ray CPUs; 1 plays in this
            process.
        backend: ``"process"`` (:mod:`concurrent.futures`) or ``"ray"`` (the ``[ray]``
            extra).
        address: a Ray cluster to join; None starts a local one with the dashboard off.
        progress: called with the number of games finished, batch by batch.

    Raises:
        ValueError: for an unknown backend or fewer than one job.
        ImportError: for ``backend="ray"`` without Ray installed.
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    report = progress if progress is not None else (lambda done: None)
    parts = batches(specs, jobs)
    if backend == "ray":
        results = _ray(setup, parts, jobs, address, report)
    elif jobs == 1 or len(parts) == 1:
        results = _serial(setup, parts, report)
    else:
        results = _processes(setup, parts, jobs, report)
    return sorted(results, key=lambda result: result.index)
