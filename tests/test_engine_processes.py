"""No engine process outlives its host: reaped on close, on failure, and on a killed host.

The host runs each engine in its own
session and kills that whole process group when it closes the engine (so helpers an
engine started go too), and when the host itself is killed with SIGKILL its pipes
close, so every engine that reads its stdin (the protocol asks it to exit at the end
of input, as all our examples do) exits by itself.  The arena's pool workers die with
the arena's main process, however it is killed.  An engine that ignores its input and
outlives a SIGKILLed host cannot be stopped by any host-side code; that is documented,
not tested.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from bohmisch_watten.arena.backends import die_with_parent
from bohmisch_watten.engine import Engine
from engine_scripts import PYTHON, alive, engine_script, session_members

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "engines"
SLOW_START = {"hello_timeout_ms": 30_000, "timeout_ms": 20_000}


def _wait_until(condition, seconds: float = 20.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def test_close_kills_the_engine_and_every_process_it_started(tmp_path: Path) -> None:
    """An engine that ignores quit and the end of its input, and has a helper process."""
    script = engine_script(
        tmp_path,
        """
        helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        sys.stdin.readline()
        hello()
        time.sleep(60)
        """,
    )
    engine = Engine.popen(script, **SLOW_START)
    sid = engine.pid
    assert sid is not None
    assert _wait_until(lambda: len(session_members(sid)) == 2)  # the engine and its helper
    started = time.monotonic()
    engine.close()
    assert time.monotonic() - started < 10
    # SIGKILL reaches the helper (not our child, so not reaped by close) asynchronously:
    # under load /proc may list it for a moment after killpg returned.
    assert _wait_until(lambda: session_members(sid) == [])


def test_a_killed_host_leaves_no_engine_behind(tmp_path: Path) -> None:
    host = tmp_path / "host.py"
    host.write_text(
        f"""
import sys, time
from bohmisch_watten.engine import Engine
engines = [Engine.popen([sys.executable, {str(EXAMPLES / "random_engine.py")!r}],
                        hello_timeout_ms=30_000) for _ in range(2)]
engines.append(Engine.popen([sys.executable, "-m", "bohmisch_watten", "engine"],
                            hello_timeout_ms=30_000))
print(" ".join(str(engine.pid) for engine in engines), flush=True)
time.sleep(120)
""",
        encoding="utf-8",
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    process = subprocess.Popen([PYTHON, str(host)], stdout=subprocess.PIPE, env=env, text=True)
    try:
        assert process.stdout is not None
        pids = [int(pid) for pid in process.stdout.readline().split()]
        assert len(pids) == 3
        assert all(alive(pid) for pid in pids)
        process.send_signal(signal.SIGKILL)
        process.wait(30)
        assert _wait_until(lambda: not any(alive(pid) for pid in pids))
        assert all(session_members(pid) == [] for pid in pids)
    finally:
        process.kill()
        process.wait()


def _marked(marker: str) -> list[int]:
    """The live processes whose environment holds ``marker`` (Linux ``/proc``)."""
    found = []
    needle = marker.encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if needle in (entry / "environ").read_bytes() and alive(int(entry.name)):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_killing_the_arena_leaves_no_process_of_the_run(
    tmp_path: Path, how: signal.Signals
) -> None:
    """The arena's main process killed mid-run (two pool workers, two engine seats a
    game): its workers, their engines and multiprocessing's helper are all gone soon
    after, instead of playing on for the rest of their batches."""
    marker = f"WATTEN_RUN_MARK={uuid.uuid4().hex}"
    key, _, value = marker.partition("=")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), key: value}
    engine = f"engine:{PYTHON} {EXAMPLES / 'random_engine.py'}"
    command = [PYTHON, "-m", "bohmisch_watten", "arena", "--players", "2", "--games", "4000",
               "--jobs", "2", "--quiet", "--bots", f"{engine},{engine}"]  # fmt: skip
    arena = subprocess.Popen(command, env=env, cwd=tmp_path, stdout=subprocess.DEVNULL)
    try:
        # the main process, two workers, the resource tracker and the engines
        assert _wait_until(lambda: len(_marked(marker)) >= 5, 60)
        assert arena.poll() is None
        arena.send_signal(how)
        arena.wait(30)
        assert _wait_until(lambda: not _marked(marker), 20), [
            Path(f"/proc/{pid}/cmdline").read_bytes() for pid in _marked(marker)
        ]
    finally:
        arena.kill()
        arena.wait()
        for pid in _marked(marker):
            os.kill(pid, signal.SIGKILL)


def test_a_pool_worker_asks_for_sigkill_at_its_parents_death() -> None:
    """The initializer, in this process: the kernel then holds SIGKILL as its
    parent-death signal (read back with PR_GET_PDEATHSIG), reset afterwards."""
    libc = ctypes.CDLL(None, use_errno=True)
    held = ctypes.c_int(-1)
    try:
        die_with_parent(os.getppid())
        assert libc.prctl(2, ctypes.byref(held), 0, 0, 0) == 0  # PR_GET_PDEATHSIG
        assert held.value == signal.SIGKILL
    finally:
        libc.prctl(1, 0, 0, 0, 0)  # PR_SET_PDEATHSIG: none, as before
