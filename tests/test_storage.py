"""The server's storage, one suite run on both backends: a real SQLite file and a real
PostgreSQL server (``WATTEN_TEST_POSTGRES``, a URL of a database this test may create
databases from; ``.ci/run`` starts Debian's PostgreSQL and sets it)."""

from __future__ import annotations

import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bohmisch_watten.web._sqlite import MIGRATIONS
from bohmisch_watten.web.backends import open_storage
from bohmisch_watten.web.storage import (
    SCHEMA_VERSION,
    Conflict,
    Expired,
    Storage,
    StoredSeat,
)

POSTGRES_ENV = "WATTEN_TEST_POSTGRES"


def postgres_server() -> str:
    """The URL of the PostgreSQL server for tests; in CI a missing one is a failure."""
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{POSTGRES_ENV} is not set: .ci/run starts PostgreSQL and sets it")
        pytest.skip(f"set {POSTGRES_ENV}=postgresql://… to run the PostgreSQL tests")
    return url


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh, empty database on the test server, dropped afterwards."""
    import psycopg

    server = postgres_server()
    name = f"watten_test_{secrets.token_hex(6)}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    base, _, _ = server.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(params=["sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "tables.sqlite")
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture
def storage(url: str) -> Iterator[Storage]:
    opened = open_storage(url)
    yield opened
    opened.close()


def seats() -> tuple[StoredSeat, ...]:
    """Three seats, two of them people with tokens of their own (a token is unique)."""
    return (
        StoredSeat(0, "human", "Anna", secrets.token_hex(32)),
        StoredSeat(1, "search:rollouts=12", None, None),
        StoredSeat(2, "human", None, secrets.token_hex(32)),
    )


START = "p3/d0/n1/s20.20.20/f000/default"


def test_a_table_is_stored_with_its_seats(storage: Storage) -> None:
    people = seats()
    first = storage.create_table(START, 0.5, people)
    second = storage.create_table("p2/d1/n1/s20.20/f00/schleck:none", 0.0, seats()[:2])
    assert second > first
    table = storage.table(first)
    assert table is not None
    assert (table.id, table.start, table.delay, table.seats) == (first, START, 0.5, people)
    assert table.finished is False
    assert table.created > 0
    assert storage.table(second + 100) is None
    assert [t.id for t in storage.tables()] == [first, second]
    assert [t.id for t in storage.tables(after=first)] == [second]
    assert people[2].token_hash is not None
    assert storage.find_token(people[2].token_hash) == (first, 2)
    assert storage.find_token("c" * 64) is None


def test_the_journal_is_append_only_and_ordered(storage: Storage) -> None:
    table = storage.create_table(START, 0.0, seats())
    other = storage.create_table(START, 0.0, seats()[:1])
    storage.append(table, 0, ["shuffle A", "take"])
    storage.append(other, 0, ["fold"])
    storage.append(table, 2, ["play HK"])
    assert storage.journal(table) == ["shuffle A", "take", "play HK"]
    assert storage.journal(table, since=2) == ["play HK"]
    assert storage.journal(other) == ["fold"]
    with pytest.raises(Conflict):
        storage.append(table, 1, ["leave", "play S7"])  # another process was first
    assert storage.journal(table) == ["shuffle A", "take", "play HK"]  # nothing written
    with pytest.raises(Conflict):
        storage.append(table, 2, ["play HK", "play S7", "play E7"])  # the first row clashes
    assert storage.journal(table) == ["shuffle A", "take", "play HK"]
    many = [f"play {n}" for n in range(450)]  # more rows than one statement writes
    storage.append(other, 1, many)
    assert storage.journal(other) == ["fold", *many]
    with pytest.raises(Conflict):
        storage.append(other, 300, [*many, "last"])
    assert storage.journal(other) == ["fold", *many]


def test_many_tables_are_appended_at_once_and_a_conflict_loses_no_other(
    storage: Storage,
) -> None:
    a, b, c = (storage.create_table(START, 0.0, seats()) for _ in range(3))
    storage.append(b, 0, ["shuffle A"])
    results = storage.append_many([(a, 0, ["shuffle A", "take"]), (b, 0, ["shuffle B"])])
    assert results[0] is None
    assert isinstance(results[1], Conflict)  # row 0 of b exists: b is not written
    assert storage.journal(a) == ["shuffle A", "take"]  # a is, all the same
    assert storage.journal(b) == ["shuffle A"]
    assert storage.append_many([(a, 2, ["fold"]), (c, 0, ["shuffle C"]), (b, 1, ["leave"])]) == [
        None,
        None,
        None,
    ]
    assert [storage.journal(t) for t in (a, b, c)] == [
        ["shuffle A", "take", "fold"],
        ["shuffle A", "leave"],
        ["shuffle C"],
    ]


def test_finished_tables_and_counts(storage: Storage) -> None:
    a = storage.create_table(START, 0.0, seats())
    b = storage.create_table(START, 0.0, seats())
    storage.set_finished(a, True)
    assert storage.count_tables() == 1
    assert storage.count_tables(unfinished=False) == 2
    assert [t.id for t in storage.tables(unfinished=True)] == [b]
    assert storage.table(a).finished is True  # type: ignore[union-attr]
    storage.set_finished(a, False)
    assert storage.count_tables() == 2


def test_an_expired_table_is_marked_and_no_longer_open(storage: Storage) -> None:
    a = storage.create_table(START, 0.0, seats())
    b = storage.create_table(START, 0.0, seats())
    storage.expire(a)
    assert storage.count_tables() == 1
    assert storage.count_tables(unfinished=False) == 2
    assert [t.id for t in storage.tables(unfinished=True)] == [b]
    assert [t.expired for t in storage.tables()] == [True, False]
    assert storage.table(a).expired is True  # type: ignore[union-attr]


def test_a_version_1_database_is_migrated(tmp_path: Path) -> None:
    path = tmp_path / "v1.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE watten_schema (version INTEGER NOT NULL)")
        db.execute("INSERT INTO watten_schema VALUES (1)")
        for statement in MIGRATIONS[0]:
            db.execute(statement)
        db.execute(
            "INSERT INTO watten_tables (start, delay, created) VALUES (?, 0.0, 0.0)", (START,)
        )
    migrated = open_storage(str(path))
    try:
        (table,) = migrated.tables(unfinished=True)
        assert table.expired is False
    finally:
        migrated.close()


def test_a_second_open_sees_everything_and_keeps_the_schema(url: str) -> None:
    first = open_storage(url)
    table = first.create_table(START, 0.25, seats())
    first.append(table, 0, ["x"])
    first.close()
    again = open_storage(url)
    try:
        assert again.journal(table) == ["x"]
        assert again.schema_version() == SCHEMA_VERSION  # type: ignore[attr-defined]
    finally:
        again.close()


def test_threads_share_one_storage(storage: Storage) -> None:
    tables = [storage.create_table(START, 0.0, seats()) for _ in range(4)]

    def writer(table: int) -> None:
        for seq in range(20):
            storage.append(table, seq, [f"entry {seq}"])

    threads = [threading.Thread(target=writer, args=(t,)) for t in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for table in tables:
        assert storage.journal(table) == [f"entry {seq}" for seq in range(20)]


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    open_storage(str(path)).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE watten_schema SET version = ?", (SCHEMA_VERSION + 1,))
    with pytest.raises(ValueError, match=f"schema version {SCHEMA_VERSION + 1}"):
        open_storage(str(path))


def test_a_newer_postgres_schema_is_refused(postgres_url: str) -> None:
    import psycopg

    open_storage(postgres_url).close()
    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("UPDATE watten_schema SET version = %s", (SCHEMA_VERSION + 1,))
    with pytest.raises(ValueError, match=f"schema version {SCHEMA_VERSION + 1}"):
        open_storage(postgres_url)


def test_what_is_no_database_is_refused(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database, just text" * 100)
    with pytest.raises(ValueError, match="cannot open the database"):
        open_storage(str(junk))
    with pytest.raises(ValueError, match="cannot open the database"):
        open_storage("postgresql://nobody@127.0.0.1:1/none")
    with pytest.raises(TypeError, match="url must be a str"):
        open_storage(7)  # type: ignore[arg-type]


def test_postgres_tells_other_processes_of_moves(postgres_url: str) -> None:
    writer, reader = open_storage(postgres_url), open_storage(postgres_url)
    heard: list[tuple[int, int]] = []
    done = threading.Event()

    def hear(table: int, version: int) -> None:
        heard.append((table, version))
        if version == 3:
            done.set()

    reader.listen(hear)
    try:
        table = writer.create_table(START, 0.0, seats())
        writer.append(table, 0, ["a"])
        writer.append(table, 1, ["b", "c"])
        assert done.wait(10)
        assert heard == [(table, 1), (table, 3)]
    finally:
        writer.close()
        reader.close()


def test_sqlite_has_nobody_to_listen_to(tmp_path: Path) -> None:
    storage = open_storage(str(tmp_path / "one.sqlite"))
    storage.listen(lambda table, version: None)  # accepted, never called
    storage.close()


def test_an_expiry_is_decided_by_what_is_stored(storage: Storage) -> None:
    """``expire`` with conditions asks the database: a table a person joined (through
    any process) does not expire as unjoined, one with a recent row not as idle; an
    expired table takes no more rows (:class:`Expired`), and a batch keeps the others."""
    joined, fresh, idle, other = (storage.create_table(START, 0.0, seats()) for _ in range(4))
    storage.join(joined)
    assert storage.table(joined).joined is True  # type: ignore[union-attr]
    storage.append(fresh, 0, ["shuffle A"])
    later = time.time() + 60
    assert storage.expire(joined, unjoined_before=later) is False
    assert storage.expire(fresh, idle_before=time.time() - 60) is False  # a row just now
    assert storage.expire(idle, idle_before=later) is True
    assert storage.expire(idle, idle_before=later) is True  # expired already: still True
    assert storage.expire(fresh, unjoined_before=later) is True  # nobody joined it
    assert storage.table(joined).expired is False  # type: ignore[union-attr]
    with pytest.raises(Expired):
        storage.append(fresh, 1, ["take"])
    assert storage.journal(fresh) == ["shuffle A"]
    results = storage.append_many([(other, 0, ["a"]), (idle, 0, ["b"])])
    assert results[0] is None
    assert isinstance(results[1], Expired)
    assert (storage.journal(other), storage.journal(idle)) == (["a"], [])


def test_a_failed_sqlite_insert_that_is_no_duplicate_is_no_conflict(tmp_path: Path) -> None:
    """Only a row that exists already is a :class:`Conflict` (another process moved
    first); any other failed insert (a trigger, as a full disk would) is a failed write."""
    path = str(tmp_path / "t.sqlite")
    storage = open_storage(path)
    try:
        table = storage.create_table(START, 0.0, seats())
        with sqlite3.connect(path) as db:
            db.execute(
                "CREATE TRIGGER refuse BEFORE INSERT ON watten_journal"
                " BEGIN SELECT RAISE(ABORT, 'disk full'); END"
            )
        with pytest.raises(sqlite3.IntegrityError, match="disk full"):
            storage.append(table, 0, ["a"])
        with pytest.raises(sqlite3.IntegrityError, match="disk full"):
            storage.append(table, 0, [f"e{n}" for n in range(300)])  # the long path
        (result,) = storage.append_many([(table, 0, ["a"])])
        assert isinstance(result, sqlite3.IntegrityError)
    finally:
        storage.close()


def test_a_version_2_database_is_migrated_and_its_tables_count_as_joined(tmp_path: Path) -> None:
    path = tmp_path / "v2.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE watten_schema (version INTEGER NOT NULL)")
        db.execute("INSERT INTO watten_schema VALUES (2)")
        for statement in (*MIGRATIONS[0], *MIGRATIONS[1]):
            db.execute(statement)
        db.execute(
            "INSERT INTO watten_tables (start, delay, created) VALUES (?, 0.0, 0.0)", (START,)
        )
    migrated = open_storage(str(path))
    try:
        (table,) = migrated.tables()
        assert table.joined is True  # never expired as "nobody joined"
        assert migrated.expire(table.id, unjoined_before=time.time()) is False
    finally:
        migrated.close()


def _terminate(url: str) -> int:
    """``pg_terminate_backend`` of every connection to the database of ``url`` only."""
    import psycopg

    with psycopg.connect(postgres_server(), autocommit=True) as admin:
        return len(
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = %s AND pid <> pg_backend_pid()",
                (url.rpartition("/")[2],),
            ).fetchall()
        )


def test_postgres_connects_again_and_so_does_its_listener(postgres_url: str) -> None:
    """Its connections killed (a restart, a failover, an idle cut): the next call
    connects again, the listener too, and says so (``resync``) so that the server reads
    what it missed; moves and expiries are heard again afterwards."""
    storage, other = open_storage(postgres_url), open_storage(postgres_url)
    heard: list[tuple[int, int]] = []
    changed: list[int] = []
    resynced = threading.Event()
    storage.listen(lambda t, v: heard.append((t, v)), changed.append, resynced.set)
    try:
        table = other.create_table(START, 0.0, seats())
        assert _terminate(postgres_url) >= 3  # each one's calls, the listener
        assert storage.journal(table) == []  # connected again
        assert resynced.wait(10)
        other.append(table, 0, ["a"])
        assert other.expire(table) is True
        deadline = time.monotonic() + 10
        while not (heard and changed):
            assert time.monotonic() < deadline, (heard, changed)
            time.sleep(0.02)
        assert (heard, changed) == ([(table, 1)], [table])
        assert storage.reconnects >= 2  # type: ignore[attr-defined]
    finally:
        storage.close()
        other.close()


def test_postgres_gives_up_after_its_retries(postgres_url: str) -> None:
    """A database that stays away: a call fails after its bounded retries (about 1.5 s),
    it does not hang; the storage works again once the database is back."""
    import psycopg

    storage = open_storage(postgres_url)
    try:
        table = storage.create_table(START, 0.0, seats())
        name = postgres_url.rpartition("/")[2]
        with psycopg.connect(postgres_server(), autocommit=True) as admin:
            admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
            try:
                _terminate(postgres_url)
                started = time.monotonic()
                with pytest.raises(psycopg.OperationalError):
                    storage.append(table, 0, ["a"])
                assert time.monotonic() - started < 10
            finally:
                admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
        storage.append(table, 0, ["a"])
        assert storage.journal(table) == ["a"]
    finally:
        storage.close()
