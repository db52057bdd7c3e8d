"""Small engine programs for the engine tests, written to a temporary directory."""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

PYTHON = sys.executable

PRELUDE = """\
import json, os, subprocess, sys, time

def send(message):
    sys.stdout.write(json.dumps(message) + "\\n")
    sys.stdout.flush()

def hello():
    send({"type": "hello", "protocol": 1, "name": "test engine"})

def messages():
    for line in sys.stdin:
        yield json.loads(line)

"""


def engine_script(directory: Path, body: str) -> list[str]:
    """The command of a Python engine whose main code is ``body`` (after the prelude)."""
    path = directory / f"engine_{len(list(directory.glob('engine_*.py')))}.py"
    path.write_text(PRELUDE + textwrap.dedent(body).strip() + "\n", encoding="utf-8")
    return [PYTHON, str(path)]


def alive(pid: int) -> bool:
    """Whether ``pid`` is a running process (a zombie has exited: not alive)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    except OSError:  # pragma: no cover - not Linux
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return stat.rpartition(")")[2].split()[0] not in ("Z", "X")


def session_members(sid: int) -> list[int]:
    """The live processes of session ``sid`` (Linux ``/proc``)."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[3]) == sid and fields[0] not in ("Z", "X"):
            members.append(int(entry.name))
    return members


if not sys.platform.startswith("linux"):  # pragma: no cover
    raise ImportError("the engine tests read /proc")


def children(pid: int) -> list[int]:
    """The live child processes of ``pid`` (Linux ``/proc``)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] not in ("Z", "X"):
            found.append(int(entry.name))
    return found
