"""Where the server keeps its tables: each one as its start plus an append-only journal.

A table is stored the way well-liked game servers store games (lichess, boardgame.io,
hanab.live): its start — the seats (a person or a bot spec, a display name, the hash of
the seat link's token), the :class:`~bohmisch_watten.Position` text and the pace of its
bots — and one row per change (table, sequence number, entry text, time).  Rebuilding a
table is replaying its rows (:meth:`~bohmisch_watten.web.table.Table.restore`), so a
server killed at any moment loses nothing it has acknowledged: the server commits a
row before it sends any frame that shows it.

Two backends share the :class:`Storage` interface: SQLite through the standard
library (WAL mode, the embedded default) and PostgreSQL through psycopg 3 (extra
``[postgres]``), whose ``LISTEN/NOTIFY`` lets several server processes serve the same
tables.  :func:`bohmisch_watten.web.backends.open_storage` picks one from a path or a
``postgresql://`` URL.  The
schema carries its version and is migrated when a storage is opened.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, Protocol, TypeAlias

import attrs

__all__ = [
    "SCHEMA_VERSION",
    "Conflict",
    "Expired",
    "Group",
    "Storage",
    "StoredSeat",
    "StoredTable",
    "append_each",
]

SCHEMA_VERSION: Final = 3
"""The schema this code writes; older databases are migrated on open, newer refused."""


class Conflict(Exception):
    """A journal row with this sequence number exists already: another server process
    moved the table first, so this one must read the table again."""


class Expired(Exception):
    """The table is expired in the database (whichever process expired it): no row is
    written to it any more, so no process keeps a game going that the others gave up."""


@attrs.frozen
class StoredSeat:
    """One seat of a stored table."""

    seat: int
    kind: str
    """``human`` or a bot spec (``search:rollouts=60``)."""
    name: str | None = None
    token_hash: str | None = attrs.field(default=None, repr=False)


@attrs.frozen
class StoredTable:
    """The start of a stored table (its journal is read with :meth:`Storage.journal`)."""

    id: int
    start: str
    """The :class:`~bohmisch_watten.Position` text the table began in."""
    delay: float
    seats: tuple[StoredSeat, ...]
    created: float
    finished: bool = False
    expired: bool = False
    """Whether the server gave the table up: nobody joined it, or nobody moved for long."""
    joined: bool = False
    """Whether a person connected to a seat, through any process (:meth:`Storage.join`)."""


Group: TypeAlias = tuple[int, int, Sequence[str]]
"""The rows of one :meth:`Storage.append`: table id, first sequence number, entries."""


def append_each(storage: Storage, groups: Sequence[Group]) -> list[Exception | None]:
    """:meth:`Storage.append_many` as one transaction per group."""
    out: list[Exception | None] = []
    for table_id, seq, entries in groups:
        try:
            storage.append(table_id, seq, entries)
            out.append(None)
        except Exception as error:  # given to that group's waiter, not to the others
            out.append(error)
    return out


class Storage(Protocol):
    """What the server needs of a database; every method is blocking (the server calls
    them from worker threads, or directly when :attr:`local` says they are quick) and
    safe to call from several threads."""

    local: bool
    """True for a database in a local file: a write takes a fraction of a millisecond,
    less than handing it to a worker thread."""

    def create_table(self, start: str, delay: float, seats: Sequence[StoredSeat]) -> int:
        """Store a new table and return its id."""
        ...

    def table(self, table_id: int) -> StoredTable | None:
        """The stored start of table ``table_id``, None if there is none."""
        ...

    def tables(self, *, unfinished: bool = False, after: int = 0) -> list[StoredTable]:
        """Every stored table with an id above ``after`` (only the open ones if asked:
        neither finished nor expired)."""
        ...

    def find_token(self, token_hash: str) -> tuple[int, int] | None:
        """The table and seat whose link token hashes to ``token_hash``, if any."""
        ...

    def append(self, table_id: int, seq: int, entries: Sequence[str]) -> None:
        """Append journal rows ``seq``, ``seq + 1`` … in one transaction, and tell the
        other server processes (if the backend can) that the table moved.

        Raises:
            Conflict: if row ``seq`` exists already (nothing is written).
            Expired: if the table is expired (nothing is written).
        """
        ...

    def append_many(self, groups: Sequence[Group]) -> list[Exception | None]:
        """:meth:`append` for each ``(table_id, seq, entries)`` group, in as few
        transactions as the backend can; per group, None or what its append raised
        (:class:`Conflict`, :class:`Expired`), and a group that fails never loses
        another one."""
        ...

    def journal(self, table_id: int, since: int = 0) -> list[str]:
        """The journal entries of ``table_id`` from sequence number ``since`` on."""
        ...

    def set_finished(self, table_id: int, finished: bool) -> None:
        """Mark whether the table's game is over (the lobby lists open tables)."""
        ...

    def expire(
        self,
        table_id: int,
        *,
        unjoined_before: float | None = None,
        idle_before: float | None = None,
    ) -> bool:
        """Mark the table expired, so that it is no longer served, listed or counted
        open, and tell the other processes (if the backend can); True if it is expired
        now (by this call or before).

        The database decides, in one statement, from what every process stored: with
        ``unjoined_before`` (a :func:`time.time`) only a table no person joined
        (:meth:`join`) and created before it, with ``idle_before`` only one whose last
        journal row (or creation) is older; otherwise the table stays open and the
        answer is False.
        """
        ...

    def join(self, table_id: int) -> None:
        """Mark that a person connected to a seat of the table (it no longer expires
        as unjoined, whichever process decides)."""
        ...

    def count_tables(self, *, unfinished: bool = True) -> int:
        """How many tables are stored (only the open ones by default: neither finished
        nor expired)."""
        ...

    def listen(
        self,
        callback: Callable[[int, int], None],
        changed: Callable[[int], None] | None = None,
        resync: Callable[[], None] | None = None,
    ) -> None:
        """Call ``callback(table_id, version)`` (from another thread) whenever another
        process appends to a table, ``changed(table_id)`` when one expires a table,
        and ``resync()`` after the listening connection was lost and is back (what
        was committed meanwhile was not heard of: read the served tables again); a
        no-op for a backend of one process."""
        ...

    def close(self) -> None:
        """Release the connections (and stop listening)."""
        ...
