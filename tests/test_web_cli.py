"""``python -m bohmisch_watten serve``: options, links printed, the server started."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import uvicorn

from bohmisch_watten.commands.cli import main


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[dict[str, Any]]:
    """Replace uvicorn.run: record what would be served instead of serving it (the
    tables' database, ``watten.sqlite`` by default, lands in a temporary directory)."""
    monkeypatch.chdir(tmp_path)
    calls: list[dict[str, Any]] = []

    def fake_run(app: Any, **options: Any) -> None:
        calls.append({"app": app, **options})

    monkeypatch.setattr(uvicorn, "run", fake_run)
    return calls


def test_serve_prints_the_links_and_starts_uvicorn(
    started: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(
        [
            "serve",
            "--port",
            "8123",
            "--humans",
            "2",
            "--bots",
            "random,search:rollouts=12",
            "--seed",
            "1",
        ]
    )
    assert status == 0
    out = capsys.readouterr().out
    assert "http://127.0.0.1:8123/" in out
    assert out.count("/play/") == 2
    assert "seat 0 (host)" in out
    assert "seat 2: random bot" in out
    assert "seat 3: search:rollouts=12 bot" in out
    (call,) = started
    assert call["host"] == "127.0.0.1"
    assert call["port"] == 8123
    hub = call["app"].state.hub
    assert [s.kind for s in hub.table.seats] == ["human", "human", "random", "search:rollouts=12"]
    assert hub.delay == pytest.approx(0.8)


def test_serve_takes_the_rules(started: list[dict[str, Any]]) -> None:
    argv = ["serve", "--players", "3", "--rules", "schleck=none", "--delay", "0", "--dealer", "2"]
    assert main(argv) == 0
    table = started[0]["app"].state.hub.table
    assert table.state.dealer == 2
    assert table.rules.schleck.value == "none"
    assert [s.kind for s in table.seats] == ["human", "search", "heuristic"]


@pytest.mark.rule("R1")
def test_serve_seats_seven_with_the_36_card_pack(started: list[dict[str, Any]]) -> None:
    argv = ["serve", "--players", "7", "--rules", "pack=36", "--bots", "random," * 5 + "heuristic"]
    assert main(argv) == 0
    table = started[0]["app"].state.hub.table
    assert table.rules.pack == 36
    assert [s.kind for s in table.seats] == ["human", *["random"] * 5, "heuristic"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--humans", "5"], "humans must be from 1 to 4"),
        (["--players", "5"], "players must be 2 to 4 with the 32-card pack (R1)"),
        (["--bots", "random"], "need 3 bot names"),
        (["--delay", "-1"], "--delay must not be negative"),
        (["--dealer", "4"], "dealer must be a seat from 0 to 3"),
    ],
)
def test_serve_refuses_bad_options(
    started: list[dict[str, Any]], capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(["serve", *argv]) == 2
    assert message in capsys.readouterr().err
    assert started == []


def test_unknown_bot_is_an_argument_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--bots", "genius,random,random"])
    assert "unknown bot 'genius'" in capsys.readouterr().err
