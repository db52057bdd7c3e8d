"""``serve``'s server options: the database, the limits, the away seats."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from bohmisch_watten.commands.cli import main


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append({"app": app}))
    return calls


def test_serve_opens_the_database_and_passes_the_limits(
    started: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "mine.sqlite"
    argv = ["serve", "--db", str(db), "--max-tables", "7", "--rate", "3", "--away", "30"]
    assert main([*argv, "--away-bot", "random"]) == 0
    server = started[0]["app"].state.server
    assert (server.limits.max_tables, server.limits.messages_per_second) == (7, 3.0)
    assert (server.limits.away, server.limits.away_bot) == (30.0, "random")
    assert server.hubs == {}  # no table options: only the lobby
    assert f"tables in {db}" in capsys.readouterr().out
    assert db.exists()


def test_serve_does_not_print_a_database_password(
    started: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--db", "postgresql://me:secret@127.0.0.1:1/none"]) == 2
    captured = capsys.readouterr()
    assert "cannot open the database" in captured.err
    assert "secret" not in captured.out + captured.err
    assert started == []


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rate", "0"], "--rate must be positive"),
        (["--max-tables", "0"], "--max-tables must be at least 1"),
        (["--away", "0"], "--away must be positive"),
    ],
)
def test_serve_refuses_bad_limits(
    started: list[dict[str, Any]], capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(["serve", *argv]) == 2
    assert message in capsys.readouterr().err
    assert started == []


def test_a_file_that_is_no_database_is_refused(
    started: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"no database" * 200)
    assert main(["serve", "--db", str(junk)]) == 2
    assert "cannot open the database" in capsys.readouterr().err


def test_the_away_bot_must_be_a_bot(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--away-bot", ""])
    assert "name a bot" in capsys.readouterr().err


def test_serve_registers_bots_and_the_names_served(
    started: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["serve", "--bot", "deep=expert:samples=80", "--bot", "quick = random"]
    argv += ["--host", "0.0.0.0", "--tables-per-client", "5", "--spectators", "3"]
    argv += ["--expire-unjoined", "0", "--expire-idle", "60", "--allowed-origin", "https://a.b"]
    assert main(argv) == 0
    server = started[0]["app"].state.server
    assert dict(server.bots.registered) == {"deep": "expert:samples=80", "quick": "random"}
    limits = server.limits
    assert (limits.tables_per_client, limits.spectators_per_table) == (5, 3)
    assert (limits.expire_unjoined, limits.expire_idle) == (None, 60.0)
    assert server.origins == frozenset({"https://a.b"})
    assert "add --allowed-host" in capsys.readouterr().err  # every address, loopback names


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bot", "deep"], "--bot takes NAME=SPEC"),
        (["--bot", "deep=expert", "--bot", "deep=random"], "a name is registered twice"),
        (["--bot", "deep=nosuch"], "--bot bot 'deep': unknown bot 'nosuch'"),
        (["--bot", "Deep=random"], "use lower case letters"),
        (["--tables-per-client", "0"], "--tables-per-client must be at least 1"),
        (["--expire-idle", "-1"], "must not be negative"),
    ],
)
def test_serve_refuses_bad_security_options(
    started: list[dict[str, Any]], capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) if argv == ["--bot", "deep"] else contextlib.nullcontext():
        assert main(["serve", *argv]) == 2
    assert message in capsys.readouterr().err
    assert started == []
