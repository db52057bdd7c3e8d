"""The server's journal writer: moves committed on a thread of its own, in groups,
each waiter told only once its rows are stored, and what failed told to its waiter."""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path

import pytest

from bohmisch_watten.web._sqlite import SqliteStorage
from bohmisch_watten.web._writer import JournalWriter
from bohmisch_watten.web.storage import Conflict, StoredSeat

START = "p2/d0/n1/s20.20/f00/default"


def _seats() -> list[StoredSeat]:
    return [
        StoredSeat(0, "human", "Anna", secrets.token_hex(32)),
        StoredSeat(1, "random", None, None),
    ]


def test_moves_that_wait_together_are_committed_together(tmp_path: Path) -> None:
    storage = SqliteStorage(str(tmp_path / "w.sqlite"))
    tables = [storage.create_table(START, 0.0, _seats()) for _ in range(30)]

    async def main() -> int:
        writer = JournalWriter(storage, asyncio.get_running_loop())
        with storage._lock:  # the database is busy: every move queues meanwhile
            waiting = [
                asyncio.ensure_future(writer.append(t, 0, ["shuffle X", f"play {t}"]))
                for t in tables
            ]
            await asyncio.sleep(0.05)
            assert not any(w.done() for w in waiting)  # none is told before it is stored
        await asyncio.gather(*waiting)
        writer.close()
        return writer.commits

    commits = asyncio.run(main())
    assert commits <= 2  # the first move alone at most, then all the others at once
    assert all(storage.journal(t) == ["shuffle X", f"play {t}"] for t in tables)
    storage.close()


def test_a_conflict_is_told_to_its_waiter_only(tmp_path: Path) -> None:
    storage = SqliteStorage(str(tmp_path / "w.sqlite"))
    a, b = (storage.create_table(START, 0.0, _seats()) for _ in range(2))
    storage.append(b, 0, ["shuffle B"])

    async def main() -> list[object]:
        writer = JournalWriter(storage, asyncio.get_running_loop())
        with storage._lock:
            waiting = [
                asyncio.ensure_future(writer.append(a, 0, ["shuffle A"])),
                asyncio.ensure_future(writer.append(b, 0, ["shuffle C"])),
            ]
            await asyncio.sleep(0.02)
        results = await asyncio.gather(*waiting, return_exceptions=True)
        writer.close()
        return results

    first, second = asyncio.run(main())
    assert first is None
    assert isinstance(second, Conflict)
    assert storage.journal(a) == ["shuffle A"]
    assert storage.journal(b) == ["shuffle B"]
    storage.close()


def test_a_failing_database_is_told_to_every_waiter(tmp_path: Path) -> None:
    storage = SqliteStorage(str(tmp_path / "w.sqlite"))
    table = storage.create_table(START, 0.0, _seats())

    def broken(groups: object) -> list[Exception | None]:
        raise OSError("disk full")

    storage.append_many = broken  # type: ignore[method-assign]

    async def main() -> None:
        writer = JournalWriter(storage, asyncio.get_running_loop())
        try:
            with pytest.raises(OSError, match="disk full"):
                await writer.append(table, 0, ["shuffle A"])
        finally:
            writer.close()

    asyncio.run(main())
    assert storage.journal(table) == []
    storage.close()
