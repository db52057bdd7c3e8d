"""The scale-out storage: PostgreSQL through psycopg 3 (extra ``[postgres]``).

Several server processes can share one database: each journal row is written with a
``NOTIFY watten_moves, 'TABLE:VERSION'`` in the same transaction, so every other
process hears of it once it is committed and reads the new rows
(:meth:`PostgresStorage.listen`).  Two processes moving the same table at once cannot
both win: the journal's primary key refuses the second row and that process reads the
table again (:class:`~bohmisch_watten.web.storage.Conflict`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Final

import psycopg
from psycopg import errors

from .storage import SCHEMA_VERSION, Conflict, Group, StoredSeat, StoredTable, append_each

__all__ = ["CHANNEL", "MIGRATIONS", "PostgresStorage"]

CHANNEL: Final = "watten_moves"
"""The ``LISTEN/NOTIFY`` channel; a payload is ``TABLE:VERSION``."""
_MIGRATION_LOCK: Final = 0x57A77E
"""The advisory lock key that keeps two processes from migrating at once."""
_log = logging.getLogger(__name__)

MIGRATIONS: Final[tuple[tuple[str, ...], ...]] = (
    (  # version 1
        """CREATE TABLE watten_tables (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            start TEXT NOT NULL,
            delay DOUBLE PRECISION NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            finished BOOLEAN NOT NULL DEFAULT FALSE)""",
        """CREATE TABLE watten_seats (
            table_id BIGINT NOT NULL REFERENCES watten_tables(id),
            seat INTEGER NOT NULL,
            kind TEXT NOT NULL,
            name TEXT,
            token_hash TEXT UNIQUE,
            PRIMARY KEY (table_id, seat))""",
        """CREATE TABLE watten_journal (
            table_id BIGINT NOT NULL REFERENCES watten_tables(id),
            seq INTEGER NOT NULL,
            entry TEXT NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (table_id, seq))""",
    ),
    (  # version 2
        "ALTER TABLE watten_tables ADD COLUMN expired BOOLEAN NOT NULL DEFAULT FALSE",
    ),
)
"""The statements that bring the schema from version ``i`` to ``i + 1``."""


class PostgresStorage:
    """The :class:`~bohmisch_watten.web.storage.Storage` in the PostgreSQL database at
    ``url`` (``postgresql://user:password@host:port/dbname``).

    Raises:
        ValueError: if the database cannot be reached or its schema is newer.
    """

    local = False

    def __init__(self, url: str) -> None:
        self.url = url
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None
        try:
            self._db = psycopg.connect(url, autocommit=True)
            self._migrate()
        except psycopg.Error as error:
            raise ValueError(f"cannot open the database: {error}") from None

    def _migrate(self) -> None:
        with self._db.transaction():
            self._db.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            self._db.execute("CREATE TABLE IF NOT EXISTS watten_schema (version INTEGER NOT NULL)")
            row = self._db.execute("SELECT version FROM watten_schema").fetchone()
            version = 0 if row is None else int(row[0])
            if version > SCHEMA_VERSION:
                raise ValueError(
                    f"the database has schema version {version}; this server knows"
                    f" versions up to {SCHEMA_VERSION}: upgrade bohmisch_watten"
                )
            for statements in MIGRATIONS[version:]:
                for statement in statements:
                    self._db.execute(statement)
            self._db.execute("DELETE FROM watten_schema")
            self._db.execute("INSERT INTO watten_schema VALUES (%s)", (SCHEMA_VERSION,))

    def _rows(self, query: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(query, params).fetchall()

    def schema_version(self) -> int:
        """The schema version stored in the database."""
        return int(self._rows("SELECT version FROM watten_schema")[0][0])

    def create_table(self, start: str, delay: float, seats: Sequence[StoredSeat]) -> int:
        with self._lock, self._db.transaction():
            row = self._db.execute(
                "INSERT INTO watten_tables (start, delay, created) VALUES (%s, %s, %s)"
                " RETURNING id",
                (start, delay, time.time()),
            ).fetchone()
            assert row is not None
            table_id = int(row[0])
            with self._db.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO watten_seats VALUES (%s, %s, %s, %s, %s)",
                    [(table_id, s.seat, s.kind, s.name, s.token_hash) for s in seats],
                )
            return table_id

    def _tables(self, where: str, params: Sequence[Any]) -> list[StoredTable]:
        tables = self._rows(
            "SELECT id, start, delay, created, finished, expired FROM watten_tables"
            f" WHERE {where} ORDER BY id",
            params,
        )
        if not tables:
            return []
        seats: dict[int, list[StoredSeat]] = {int(row[0]): [] for row in tables}
        for table_id, *seat in self._rows(
            "SELECT table_id, seat, kind, name, token_hash FROM watten_seats"
            " WHERE table_id = ANY(%s) ORDER BY table_id, seat",
            (list(seats),),
        ):
            seats[int(table_id)].append(StoredSeat(*seat))
        return [
            StoredTable(
                int(r[0]), r[1], float(r[2]), tuple(seats[int(r[0])]), float(r[3]), r[4], r[5]
            )
            for r in tables
        ]

    def table(self, table_id: int) -> StoredTable | None:
        found = self._tables("id = %s", (table_id,))
        return found[0] if found else None

    def tables(self, *, unfinished: bool = False, after: int = 0) -> list[StoredTable]:
        where = "id > %s" + (" AND NOT finished AND NOT expired" if unfinished else "")
        return self._tables(where, (after,))

    def find_token(self, token_hash: str) -> tuple[int, int] | None:
        rows = self._rows(
            "SELECT table_id, seat FROM watten_seats WHERE token_hash = %s", (token_hash,)
        )
        return (int(rows[0][0]), int(rows[0][1])) if rows else None

    def append(self, table_id: int, seq: int, entries: Sequence[str]) -> None:
        now = time.time()
        try:
            with self._lock, self._db.transaction():
                with self._db.cursor() as cursor:
                    cursor.executemany(
                        "INSERT INTO watten_journal VALUES (%s, %s, %s, %s)",
                        [(table_id, seq + i, entry, now) for i, entry in enumerate(entries)],
                    )
                self._db.execute(
                    "SELECT pg_notify(%s, %s)", (CHANNEL, f"{table_id}:{seq + len(entries)}")
                )
        except errors.UniqueViolation:
            raise Conflict(f"table {table_id} has a row {seq} already") from None

    def append_many(self, groups: Sequence[Group]) -> list[Exception | None]:
        # Each its own transaction: a conflict is normal here (several processes).
        return append_each(self, groups)

    def journal(self, table_id: int, since: int = 0) -> list[str]:
        rows = self._rows(
            "SELECT entry FROM watten_journal WHERE table_id = %s AND seq >= %s ORDER BY seq",
            (table_id, since),
        )
        return [row[0] for row in rows]

    def set_finished(self, table_id: int, finished: bool) -> None:
        self._rows(
            "UPDATE watten_tables SET finished = %s WHERE id = %s RETURNING id",
            (finished, table_id),
        )

    def expire(self, table_id: int) -> None:
        self._rows(
            "UPDATE watten_tables SET expired = TRUE WHERE id = %s RETURNING id", (table_id,)
        )

    def count_tables(self, *, unfinished: bool = True) -> int:
        where = " WHERE NOT finished AND NOT expired" if unfinished else ""
        return int(self._rows(f"SELECT count(*) FROM watten_tables{where}")[0][0])

    def listen(self, callback: Callable[[int, int], None]) -> None:
        """Call ``callback(table, version)`` from a thread of its own for every move any
        process commits (this one's too: the server ignores versions it has)."""
        ready = threading.Event()
        self._listener = threading.Thread(
            target=self._listen, args=(callback, ready), name="watten-listen", daemon=True
        )
        self._listener.start()
        ready.wait(10)

    def _listen(self, callback: Callable[[int, int], None], ready: threading.Event) -> None:
        with psycopg.connect(self.url, autocommit=True) as connection:
            connection.execute(f"LISTEN {CHANNEL}")
            ready.set()
            while not self._stop.is_set():
                for note in connection.notifies(timeout=0.5):
                    table, _, version = note.payload.partition(":")
                    try:
                        callback(int(table), int(version))
                    except Exception:  # a bad payload or callback must not stop listening
                        _log.exception("a table-moved notification failed")

    def close(self) -> None:
        self._stop.set()
        if self._listener is not None:
            self._listener.join(5)
        with self._lock:
            self._db.close()
