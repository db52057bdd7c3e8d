"""The embedded storage: one SQLite file through the standard library, in WAL mode.

WAL lets readers go on while a row is written, and with ``synchronous=NORMAL`` a
committed row survives the server process being killed (only a power cut may lose the
last rows).  One connection serves every thread, behind a lock: SQLite writes one row
at a time anyway, and a row is a few bytes.  One server process per file.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Final

from .storage import (
    SCHEMA_VERSION,
    Conflict,
    Expired,
    Group,
    StoredSeat,
    StoredTable,
    append_each,
)

__all__ = ["MIGRATIONS", "SqliteStorage"]

MIGRATIONS: Final[tuple[tuple[str, ...], ...]] = (
    (  # version 1
        """CREATE TABLE watten_tables (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            start TEXT NOT NULL,
            delay REAL NOT NULL,
            created REAL NOT NULL,
            finished INTEGER NOT NULL DEFAULT 0)""",
        """CREATE TABLE watten_seats (
            table_id INTEGER NOT NULL REFERENCES watten_tables(id),
            seat INTEGER NOT NULL,
            kind TEXT NOT NULL,
            name TEXT,
            token_hash TEXT UNIQUE,
            PRIMARY KEY (table_id, seat))""",
        """CREATE TABLE watten_journal (
            table_id INTEGER NOT NULL REFERENCES watten_tables(id),
            seq INTEGER NOT NULL,
            entry TEXT NOT NULL,
            at REAL NOT NULL,
            PRIMARY KEY (table_id, seq))""",
    ),
    (  # version 2
        "ALTER TABLE watten_tables ADD COLUMN expired INTEGER NOT NULL DEFAULT 0",
    ),
    (  # version 3: who joined is stored (the tables of before count as joined)
        "ALTER TABLE watten_tables ADD COLUMN joined INTEGER NOT NULL DEFAULT 0",
        "UPDATE watten_tables SET joined = 1",
    ),
)
"""The statements that bring the schema from version ``i`` to ``i + 1``."""


_DUPLICATE_ROW: Final = frozenset({"SQLITE_CONSTRAINT_PRIMARYKEY", "SQLITE_CONSTRAINT_UNIQUE"})
"""The errors of a journal row that exists already (a :class:`Conflict`); any other
failed constraint (a trigger, a foreign key) is a failed write."""
_ROWS_PER_STATEMENT: Final = 200
"""The most journal rows one ``INSERT`` writes (4 parameters a row, well below SQLite's
limit of 32766 parameters); more are written in an explicit transaction."""


def _conflict(error: sqlite3.IntegrityError, table_id: int, seq: int) -> Exception:
    """What a failed insert of journal rows means: a :class:`Conflict` for a row that
    exists already, else the error itself."""
    if getattr(error, "sqlite_errorname", None) in _DUPLICATE_ROW:
        return Conflict(f"table {table_id} has a row {seq} already")
    return error


def _private(path: str, *, create: bool) -> None:
    """Make the file at ``path`` readable by its owner only (``0600``), creating it so
    if asked: it holds every running game's deck order and the seat links' hashes."""
    if path == ":memory:" or path.startswith("file:"):
        return
    if create:
        os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    with contextlib.suppress(FileNotFoundError, PermissionError):  # another owner's file
        os.chmod(path, 0o600)


class _OnTheirOwn(Exception):
    """A group of :meth:`SqliteStorage.append_many` is for an expired table: each group
    is then written on its own, so that only that one is refused."""


class SqliteStorage:
    """The :class:`~bohmisch_watten.web.storage.Storage` in a SQLite file at ``path``.

    Raises:
        ValueError: if the file is no database or its schema is newer than this code's.
    """

    local = True

    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.Lock()
        try:
            _private(path, create=True)
            self._db = sqlite3.connect(
                path, check_same_thread=False, isolation_level=None, timeout=10
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            for suffix in ("-wal", "-shm"):  # SQLite gives them the file's mode; older
                _private(path + suffix, create=False)  # files may have been made wider
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except (sqlite3.Error, OSError) as error:
            raise ValueError(f"cannot open the database {path!r}: {error}") from None

    def _migrate(self) -> None:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute("CREATE TABLE IF NOT EXISTS watten_schema (version INTEGER NOT NULL)")
            row = db.execute("SELECT version FROM watten_schema").fetchone()
            version = 0 if row is None else int(row[0])
            if version > SCHEMA_VERSION:
                raise ValueError(
                    f"the database {self.path!r} has schema version {version}; this server"
                    f" knows versions up to {SCHEMA_VERSION}: upgrade bohmisch_watten"
                )
            for statements in MIGRATIONS[version:]:
                for statement in statements:
                    db.execute(statement)
            db.execute("DELETE FROM watten_schema")
            db.execute("INSERT INTO watten_schema VALUES (?)", (SCHEMA_VERSION,))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def schema_version(self) -> int:
        """The schema version stored in the file."""
        with self._lock:
            return int(self._db.execute("SELECT version FROM watten_schema").fetchone()[0])

    def create_table(self, start: str, delay: float, seats: Sequence[StoredSeat]) -> int:
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                cursor = db.execute(
                    "INSERT INTO watten_tables (start, delay, created) VALUES (?, ?, ?)",
                    (start, delay, time.time()),
                )
                table_id = cursor.lastrowid
                assert table_id is not None
                db.executemany(
                    "INSERT INTO watten_seats VALUES (?, ?, ?, ?, ?)",
                    [(table_id, s.seat, s.kind, s.name, s.token_hash) for s in seats],
                )
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            return table_id

    def _seats(self, table_id: int) -> tuple[StoredSeat, ...]:
        rows = self._db.execute(
            "SELECT seat, kind, name, token_hash FROM watten_seats WHERE table_id = ?"
            " ORDER BY seat",
            (table_id,),
        ).fetchall()
        return tuple(StoredSeat(*row) for row in rows)

    def _tables(self, where: str, params: tuple[object, ...]) -> list[StoredTable]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, start, delay, created, finished, expired, joined FROM watten_tables"
                f" WHERE {where} ORDER BY id",
                params,
            ).fetchall()
            return [
                StoredTable(
                    row[0],
                    row[1],
                    row[2],
                    self._seats(row[0]),
                    row[3],
                    bool(row[4]),
                    bool(row[5]),
                    bool(row[6]),
                )
                for row in rows
            ]

    def table(self, table_id: int) -> StoredTable | None:
        found = self._tables("id = ?", (table_id,))
        return found[0] if found else None

    def tables(self, *, unfinished: bool = False, after: int = 0) -> list[StoredTable]:
        where = "id > ?" + (" AND finished = 0 AND expired = 0" if unfinished else "")
        return self._tables(where, (after,))

    def find_token(self, token_hash: str) -> tuple[int, int] | None:
        with self._lock:
            row = self._db.execute(
                "SELECT table_id, seat FROM watten_seats WHERE token_hash = ?", (token_hash,)
            ).fetchone()
        return None if row is None else (int(row[0]), int(row[1]))

    def _expired(self, table_ids: Sequence[int]) -> set[int]:
        """Which of the tables are expired (called with the lock held)."""
        marks = ", ".join("?" * len(table_ids))
        rows = self._db.execute(
            f"SELECT id FROM watten_tables WHERE expired = 1 AND id IN ({marks})",
            list(table_ids),
        ).fetchall()
        return {int(row[0]) for row in rows}

    def append(self, table_id: int, seq: int, entries: Sequence[str]) -> None:
        now = time.time()
        with self._lock:
            db = self._db
            if self._expired([table_id]):  # one process per file, behind this lock:
                raise Expired(f"table {table_id} expired")  # nothing expires it meanwhile
            if len(entries) <= _ROWS_PER_STATEMENT:  # a move and the automatic moves made
                rows = ", ".join(["(?, ?, ?, ?)"] * len(entries))  # with it: one statement,
                values = [  # its own transaction, all rows or none
                    value
                    for number, entry in enumerate(entries)
                    for value in (table_id, seq + number, entry, now)
                ]
                try:
                    db.execute(f"INSERT INTO watten_journal VALUES {rows}", values)
                except sqlite3.IntegrityError as error:
                    raise _conflict(error, table_id, seq) from None
                return
            db.execute("BEGIN IMMEDIATE")
            try:
                db.executemany(
                    "INSERT INTO watten_journal VALUES (?, ?, ?, ?)",
                    [(table_id, seq + i, entry, now) for i, entry in enumerate(entries)],
                )
                db.execute("COMMIT")
            except sqlite3.IntegrityError as error:
                db.execute("ROLLBACK")
                raise _conflict(error, table_id, seq) from None
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def append_many(self, groups: Sequence[Group]) -> list[Exception | None]:
        """Every group in one transaction (one commit, one write of the shared pages);
        if one of them conflicts, fails or is expired, each group on its own, so the
        others are kept."""
        now = time.time()
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                if self._expired(sorted({table_id for table_id, _, _ in groups})):
                    raise _OnTheirOwn
                db.executemany(
                    "INSERT INTO watten_journal VALUES (?, ?, ?, ?)",
                    [
                        (table_id, seq + i, entry, now)
                        for table_id, seq, entries in groups
                        for i, entry in enumerate(entries)
                    ],
                )
                db.execute("COMMIT")
                return [None] * len(groups)
            except (sqlite3.IntegrityError, _OnTheirOwn):
                db.execute("ROLLBACK")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        return append_each(self, groups)

    def journal(self, table_id: int, since: int = 0) -> list[str]:
        with self._lock:
            rows = self._db.execute(
                "SELECT entry FROM watten_journal WHERE table_id = ? AND seq >= ? ORDER BY seq",
                (table_id, since),
            ).fetchall()
        return [row[0] for row in rows]

    def set_finished(self, table_id: int, finished: bool) -> None:
        with self._lock:
            self._db.execute(
                "UPDATE watten_tables SET finished = ? WHERE id = ?", (int(finished), table_id)
            )

    def expire(
        self,
        table_id: int,
        *,
        unjoined_before: float | None = None,
        idle_before: float | None = None,
    ) -> bool:
        conditions = ["id = ?"]
        params: list[Any] = [table_id]
        if unjoined_before is not None:
            conditions.append("joined = 0 AND created < ?")
            params.append(unjoined_before)
        if idle_before is not None:
            conditions.append(
                "coalesce((SELECT at FROM watten_journal WHERE table_id = id"
                " ORDER BY seq DESC LIMIT 1), created) < ?"
            )
            params.append(idle_before)
        with self._lock:
            self._db.execute(
                f"UPDATE watten_tables SET expired = 1 WHERE {' AND '.join(conditions)}", params
            )
            row = self._db.execute(
                "SELECT expired FROM watten_tables WHERE id = ?", (table_id,)
            ).fetchone()
        return row is not None and bool(row[0])

    def join(self, table_id: int) -> None:
        with self._lock:
            self._db.execute("UPDATE watten_tables SET joined = 1 WHERE id = ?", (table_id,))

    def count_tables(self, *, unfinished: bool = True) -> int:
        where = " WHERE finished = 0 AND expired = 0" if unfinished else ""
        with self._lock:
            return int(self._db.execute(f"SELECT count(*) FROM watten_tables{where}").fetchone()[0])

    def listen(
        self,
        callback: Callable[[int, int], None],
        changed: Callable[[int], None] | None = None,
        resync: Callable[[], None] | None = None,
    ) -> None:
        """Nothing to listen to: one process owns a SQLite file."""

    def close(self) -> None:
        with self._lock:
            self._db.close()
