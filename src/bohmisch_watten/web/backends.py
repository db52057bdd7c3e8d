"""Opening the server's storage: the backend for a path or a ``postgresql://`` URL.

Above both backends (:mod:`._sqlite`, :mod:`._postgres`) and the interface they
implement (:mod:`.storage`), so that the interface never imports an implementation.
"""

from __future__ import annotations

from ._sqlite import SqliteStorage
from .storage import Storage

__all__ = ["open_storage"]


def open_storage(url: str) -> Storage:
    """The storage at ``url``: ``postgresql://…`` (or ``postgres://…``) for PostgreSQL,
    anything else is the path of a SQLite file (created if missing).

    Raises:
        ValueError: for a database that cannot be opened or has a newer schema.
        ImportError: for PostgreSQL without the ``[postgres]`` extra.
    """
    if not isinstance(url, str):
        raise TypeError(f"url must be a str, got {type(url).__name__}")
    if url.startswith(("postgresql://", "postgres://")):
        from ._postgres import PostgresStorage  # psycopg is the optional extra [postgres]

        return PostgresStorage(url)
    return SqliteStorage(url)
