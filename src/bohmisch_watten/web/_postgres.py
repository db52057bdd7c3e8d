"""The scale-out storage: PostgreSQL through psycopg 3 (extra ``[postgres]``).

Several server processes can share one database: each journal row is written with a
``NOTIFY watten_moves, 'TABLE:VERSION'`` in the same transaction, so every other
process hears of it once it is committed and reads the new rows
(:meth:`PostgresStorage.listen`).  Two processes moving the same table at once cannot
both win: the journal's primary key refuses the second row and that process reads the
table again (:class:`~bohmisch_watten.web.storage.Conflict`).  An expiry is decided by
the database too (one ``UPDATE`` on what every process stored) and announced on
``watten_tables``; a row is never written to an expired table
(:class:`~bohmisch_watten.web.storage.Expired`).

A connection is lost when the database restarts, fails over or cuts idle clients: each
call then connects again, a few times with short waits, before it gives up (the move
it carried is refused, never shown), and the listener connects again for as long as
the server runs, then says so (``resync``) because what was committed meanwhile was
not heard of.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeVar

import psycopg
from psycopg import errors

from .storage import (
    SCHEMA_VERSION,
    Conflict,
    Expired,
    Group,
    StoredSeat,
    StoredTable,
    append_each,
)

__all__ = ["CHANNEL", "MIGRATIONS", "RETRY_WAITS", "TABLES_CHANNEL", "PostgresStorage"]

CHANNEL: Final = "watten_moves"
"""The ``LISTEN/NOTIFY`` channel of moves; a payload is ``TABLE:VERSION``."""
TABLES_CHANNEL: Final = "watten_tables"
"""The channel of a table's own state (it expired); a payload is ``TABLE``."""
RETRY_WAITS: Final = (0.1, 0.4, 1.0)
"""Seconds between the tries of one call whose connection was lost: four tries in
about 1.5 s (plus each connection's own timeout), then the call fails."""
LISTEN_WAIT: Final = 5.0
"""The longest wait between two tries of the listener to connect again."""
_T = TypeVar("_T")
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
    (  # version 3: who joined is stored (the tables of before count as joined)
        "ALTER TABLE watten_tables ADD COLUMN joined BOOLEAN NOT NULL DEFAULT FALSE",
        "UPDATE watten_tables SET joined = TRUE",
    ),
)
"""The statements that bring the schema from version ``i`` to ``i + 1``."""


def _connect(url: str) -> psycopg.Connection[Any]:
    """A connection with the options of every connection: a dead peer is noticed in
    seconds (keepalives, a TCP user timeout), not after TCP's quarter of an hour."""
    return psycopg.connect(
        url,
        autocommit=True,
        connect_timeout=5,
        keepalives=1,
        keepalives_idle=10,
        keepalives_interval=3,
        keepalives_count=3,
        tcp_user_timeout=10000,
    )


class PostgresStorage:
    """The :class:`~bohmisch_watten.web.storage.Storage` in the PostgreSQL database at
    ``url`` (``postgresql://user:password@host:port/dbname``).

    One connection serves the process's calls, one after the other (a call is a few
    rows); a call that finds it lost connects again (:data:`RETRY_WAITS`).  Every call
    may be made again safely: a journal row written twice is refused by its key (a
    :class:`~bohmisch_watten.web.storage.Conflict`, after which the table is read back
    with the row in it), an expiry or a join twice is the same as once.

    Raises:
        ValueError: if the database cannot be reached or its schema is newer.
    """

    local = False

    def __init__(self, url: str) -> None:
        self.url = url
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None
        self._db: psycopg.Connection[Any] | None = None
        self.reconnects = 0
        """How many times a lost connection was replaced (the listener's included)."""
        try:
            self._call(self._migrate)
        except psycopg.Error as error:
            raise ValueError(f"cannot open the database: {error}") from None

    def _connection(self) -> psycopg.Connection[Any]:
        """The open connection, a new one if there is none (called with the lock held)."""
        db = self._db
        if db is None or db.closed or db.broken:
            if db is not None:
                db.close()
                self.reconnects += 1
            self._db = db = _connect(self.url)
        return db

    def _call(self, work: Callable[[psycopg.Connection[Any]], _T]) -> _T:
        """``work(connection)`` with the lock held; if the connection was lost (or cannot
        be made), again on a new one after each wait of :data:`RETRY_WAITS`."""
        with self._lock:
            for wait in (*RETRY_WAITS, None):
                try:
                    return work(self._connection())
                except psycopg.OperationalError as error:
                    db = self._db
                    lost = db is None or db.closed or db.broken
                    if not lost or wait is None or self._stop.is_set():
                        raise
                    _log.warning("the database connection was lost (%s); connecting again", error)
                    time.sleep(wait)
            raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises

    def _migrate(self, db: psycopg.Connection[Any]) -> None:
        with db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            db.execute("CREATE TABLE IF NOT EXISTS watten_schema (version INTEGER NOT NULL)")
            row = db.execute("SELECT version FROM watten_schema").fetchone()
            version = 0 if row is None else int(row[0])
            if version > SCHEMA_VERSION:
                raise ValueError(
                    f"the database has schema version {version}; this server knows"
                    f" versions up to {SCHEMA_VERSION}: upgrade bohmisch_watten"
                )
            for statements in MIGRATIONS[version:]:
                for statement in statements:
                    db.execute(statement)
            db.execute("DELETE FROM watten_schema")
            db.execute("INSERT INTO watten_schema VALUES (%s)", (SCHEMA_VERSION,))

    def _rows(self, query: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self._call(lambda db: db.execute(query, params).fetchall())

    def schema_version(self) -> int:
        """The schema version stored in the database."""
        return int(self._rows("SELECT version FROM watten_schema")[0][0])

    def create_table(self, start: str, delay: float, seats: Sequence[StoredSeat]) -> int:
        created = time.time()

        def create(db: psycopg.Connection[Any]) -> int:
            with db.transaction():
                row = db.execute(
                    "INSERT INTO watten_tables (start, delay, created) VALUES (%s, %s, %s)"
                    " RETURNING id",
                    (start, delay, created),
                ).fetchone()
                assert row is not None
                table_id = int(row[0])
                with db.cursor() as cursor:
                    cursor.executemany(
                        "INSERT INTO watten_seats VALUES (%s, %s, %s, %s, %s)",
                        [(table_id, s.seat, s.kind, s.name, s.token_hash) for s in seats],
                    )
                return table_id

        return self._call(create)

    def _tables(self, where: str, params: Sequence[Any]) -> list[StoredTable]:
        tables = self._rows(
            "SELECT id, start, delay, created, finished, expired, joined FROM watten_tables"
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
            StoredTable(int(r[0]), r[1], float(r[2]), tuple(seats[int(r[0])]), float(r[3]), *r[4:7])
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

        def append(db: psycopg.Connection[Any]) -> None:
            with db.transaction():
                # The row lock waits for an expiry being written, and keeps one from
                # being written until this commits: a row is never added after it.
                row = db.execute(
                    "SELECT expired FROM watten_tables WHERE id = %s FOR SHARE", (table_id,)
                ).fetchone()
                if row is not None and row[0]:
                    raise Expired(f"table {table_id} expired")
                with db.cursor() as cursor:
                    cursor.executemany(
                        "INSERT INTO watten_journal VALUES (%s, %s, %s, %s)",
                        [(table_id, seq + i, entry, now) for i, entry in enumerate(entries)],
                    )
                db.execute(
                    "SELECT pg_notify(%s, %s)", (CHANNEL, f"{table_id}:{seq + len(entries)}")
                )

        try:
            self._call(append)
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

    def expire(
        self,
        table_id: int,
        *,
        unjoined_before: float | None = None,
        idle_before: float | None = None,
    ) -> bool:
        conditions = ["id = %s", "NOT expired"]
        params: list[Any] = [table_id]
        if unjoined_before is not None:
            conditions.append("NOT joined AND created < %s")
            params.append(unjoined_before)
        if idle_before is not None:
            conditions.append(
                "coalesce((SELECT at FROM watten_journal WHERE table_id = id"
                " ORDER BY seq DESC LIMIT 1), created) < %s"
            )
            params.append(idle_before)

        def expire(db: psycopg.Connection[Any]) -> bool:
            with db.transaction():
                changed = db.execute(
                    f"UPDATE watten_tables SET expired = TRUE WHERE {' AND '.join(conditions)}"
                    " RETURNING id",
                    params,
                ).fetchall()
                if changed:
                    db.execute("SELECT pg_notify(%s, %s)", (TABLES_CHANNEL, str(table_id)))
                row = db.execute(
                    "SELECT expired FROM watten_tables WHERE id = %s", (table_id,)
                ).fetchone()
                return row is not None and bool(row[0])

        return self._call(expire)

    def join(self, table_id: int) -> None:
        self._rows(
            "UPDATE watten_tables SET joined = TRUE WHERE id = %s AND NOT joined RETURNING id",
            (table_id,),
        )

    def count_tables(self, *, unfinished: bool = True) -> int:
        where = " WHERE NOT finished AND NOT expired" if unfinished else ""
        return int(self._rows(f"SELECT count(*) FROM watten_tables{where}")[0][0])

    def listen(
        self,
        callback: Callable[[int, int], None],
        changed: Callable[[int], None] | None = None,
        resync: Callable[[], None] | None = None,
    ) -> None:
        """Call ``callback(table, version)`` from a thread of its own for every move any
        process commits (this one's too: the server ignores versions it has),
        ``changed(table)`` for every table expired, and ``resync()`` each time the
        listener connected again after its connection was lost."""
        ready = threading.Event()
        self._listener = threading.Thread(
            target=self._listen,
            args=(callback, changed, resync, ready),
            name="watten-listen",
            daemon=True,
        )
        self._listener.start()
        ready.wait(10)

    def _listen(
        self,
        callback: Callable[[int, int], None],
        changed: Callable[[int], None] | None,
        resync: Callable[[], None] | None,
        ready: threading.Event,
    ) -> None:
        wait, lost = RETRY_WAITS[0], False
        while not self._stop.is_set():
            try:
                with _connect(self.url) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    connection.execute(f"LISTEN {TABLES_CHANNEL}")
                    ready.set()
                    wait = RETRY_WAITS[0]
                    if lost:
                        lost = False
                        _log.warning("listening again to the other processes")
                        _notify(resync)
                    while not self._stop.is_set():
                        for note in connection.notifies(timeout=0.5):
                            _heard(note.channel, note.payload, callback, changed)
            except psycopg.Error as error:
                if self._stop.is_set():
                    return
                if not lost:
                    _log.warning("the listening connection was lost (%s)", error)
                lost = True
                self.reconnects += 1
                self._stop.wait(wait)
                wait = min(2 * wait, LISTEN_WAIT)

    def close(self) -> None:
        self._stop.set()
        if self._listener is not None:
            self._listener.join(5)
        with self._lock:
            if self._db is not None:
                self._db.close()


def _heard(
    channel: str,
    payload: str,
    callback: Callable[[int, int], None],
    changed: Callable[[int], None] | None,
) -> None:
    """Pass one notification on (a bad payload or a failing callback is logged: the
    listener goes on)."""
    try:
        if channel == TABLES_CHANNEL:
            if changed is not None:
                changed(int(payload))
            return
        table, _, version = payload.partition(":")
        callback(int(table), int(version))
    except Exception:
        _log.exception("a notification of another process failed")


def _notify(resync: Callable[[], None] | None) -> None:
    if resync is None:
        return
    try:
        resync()
    except Exception:
        _log.exception("reading the tables again after a lost connection failed")
