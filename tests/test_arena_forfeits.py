"""A broken bot cannot hide in the arena: each forfeit is told once, truly, and fails the run.

A forfeit is one ``forfeit:`` line per game in the log and one ``FORFEITS:`` line per bot
under the table: a bot that raised shows its exception and its own file:line; one that
returned an illegal action shows the action and the rule, not "raised"; a decision that
timed out counts with its time.  The arena command exits 1 after any forfeit unless
``--allow-forfeits``.
"""

from __future__ import annotations

import csv
import io
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bohmisch_watten.arena import run_arena
from bohmisch_watten.arena.match import _where
from bohmisch_watten.arena.report import to_csv, to_table
from bohmisch_watten.bots import RandomBot
from bohmisch_watten.commands.cli import main

TESTS = Path(__file__).resolve().parent
ARENA_BOTS = TESTS / "arena_bots.py"


def line_of(path: Path, text: str) -> int:
    """The number of the one line of ``path`` that holds ``text``."""
    (number,) = [n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line]
    return number


def test_forfeits_in_the_table_and_the_csv() -> None:
    bad = "arena_bots.RaisingBot"
    summary, results = run_arena([bad, "random", "random"], players=3, games=3, seed=2)
    table = to_table(summary)
    header, _, *rows = table.splitlines()
    columns = re.split(r"\s{2,}", header.strip())
    assert columns.index("forfeits") == columns.index("losses") + 1
    row = next(r for r in rows if r.startswith(bad))
    cells = re.split(r"\s{2,}", row.strip())
    assert cells[columns.index("forfeits")] == "3"
    assert cells[columns.index("losses")] == "3"  # each forfeit is a loss
    clean = next(r for r in rows if r.startswith("random "))
    assert re.split(r"\s{2,}", clean.strip())[columns.index("forfeits")] == "0"
    raised = line_of(ARENA_BOTS, 'raise RuntimeError("bug in my bot")')
    reason = f"raised RuntimeError: bug in my bot (at tests/arena_bots.py:{raised} in choose)"
    assert re.search(
        rf"^FORFEITS: {re.escape(bad)} forfeited 3 of 3 games \(100%\), each counted as a"
        rf" loss; first: game \d: {re.escape(reason)}$",
        table,
        re.M,
    )
    games = list(csv.DictReader(io.StringIO(to_csv(summary.setup, results))))
    assert [g["forfeit"] for g in games] == [bad] * 3
    assert all(g["forfeit_reason"] == reason for g in games)
    assert all(bad in g["losers"].split() for g in games)


def test_a_clean_arena_shows_no_forfeit_line() -> None:
    summary, results = run_arena(["heuristic", "random"], players=2, games=2, seed=1)
    assert "FORFEITS" not in to_table(summary)
    games = list(csv.DictReader(io.StringIO(to_csv(summary.setup, results))))
    assert {g["forfeit"] for g in games} == {""}
    assert {g["forfeit_reason"] for g in games} == {""}


def test_an_illegal_action_is_told_apart_from_raising() -> None:
    _, results = run_arena(["arena_bots.IllegalBot", "random"], players=2, games=2, seed=2)
    for result in results:
        assert result.reason is not None
        assert result.reason.startswith("returned an illegal action play HK (R24: seat ")
        assert "raised" not in result.reason
        assert "arena_bots.py" not in result.reason  # its code ran fine: no line to show


def test_a_timed_out_decision_counts_its_time() -> None:
    bad = "arena_bots.SlowBot:seconds=0.3"
    summary, results = run_arena([bad, "random"], players=2, games=2, seed=2,
                                 decision_timeout=0.05, jobs=1)  # fmt: skip
    assert all(r.forfeit is not None for r in results)
    line = next(line for line in summary.lines if line.name == bad)
    assert line.decisions == 2  # its one decision a game, the one that timed out
    assert line.mean_decision_ms >= 45
    assert line.median_decision_ms >= 45
    assert all("(stopped after" in (r.reason or "") for r in results)


BOT_FILE = """
import random

from bohmisch_watten import Card


def pick(options):
    return random.Random(1).choice(options)  # line 8: raises inside the standard library


class EmptyChoice:
    def choose(self, view, rng):
        return pick([])  # line 13


class BadCard:
    def choose(self, view, rng):
        return Card.parse("XX")  # line 18: raises inside the library


def crash(view, rng):
    return pick([])  # a plain function: wrapped by the library's FunctionBot
"""


@pytest.mark.parametrize(
    ("name", "where"),
    [
        ("EmptyChoice", "mybot.py:8 in pick"),
        ("BadCard", "mybot.py:18 in choose"),
        ("crash", "mybot.py:8 in pick"),
    ],
)
def test_the_line_shown_is_the_bots_own_innermost_one(
    name: str, where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "mybot.py").write_text(BOT_FILE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    _, results = run_arena([f"./mybot.py:{name}", "random"], players=2, games=2, seed=1, jobs=1)
    for result in results:
        assert result.reason is not None
        assert result.reason.endswith(f"(at {where})"), result.reason


def test_a_package_bot_shows_its_packages_innermost_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot in a package: the line is the package's innermost, in whichever module;
    outside the working directory the path is shown whole."""
    package = tmp_path / "crashpkg"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "helpers.py").write_text(
        "def first(options):\n    return options[0]  # line 2\n", encoding="utf-8"
    )
    (package / "bots.py").write_text(
        "from crashpkg.helpers import first\n\n\n"
        "class Crash:\n    def choose(self, view, rng):\n        return first([])\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    _, results = run_arena(["crashpkg.bots.Crash", "random"], players=2, games=1, seed=1, jobs=1)
    helpers = (package / "helpers.py").resolve()
    assert (
        results[0].reason == f"raised IndexError: list index out of range (at {helpers}:2 in first)"
    )


def test_a_built_in_bot_shows_the_librarys_line() -> None:
    """Where no frame is the author's, the innermost frame of the library is shown."""
    bot = RandomBot()
    try:
        bot.choose(None, random.Random(1))  # type: ignore[arg-type]
    except AttributeError as error:
        caught = error
    assert caught.__traceback__ is not None
    caught.__traceback__ = caught.__traceback__.tb_next  # as the arena sees it: no test frame
    where = _where(caught, bot)
    assert re.fullmatch(r"\S*bohmisch_watten/bots/random_bot\.py:\d+ in choose", where), where


def arena_command(*extra: str) -> subprocess.CompletedProcess[str]:
    argv = ["-m", "bohmisch_watten", "arena", "--players=3", "--games=3", "--seed=2"]
    argv += ["--bots=arena_bots.RaisingBot,random,random", "--jobs=1", "--quiet", *extra]
    return subprocess.run(
        [sys.executable, *argv],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=TESTS,
    )


def test_the_command_tells_each_forfeit_once_and_exits_1() -> None:
    result = arena_command()
    assert result.returncode == 1, result.stderr
    logged = [line for line in result.stderr.splitlines() if line.startswith("forfeit: ")]
    assert [line.split(":")[1] for line in logged] == [" game 0", " game 1", " game 2"]
    assert result.stdout.count("RuntimeError") == 1  # the FORFEITS line, nothing more
    assert "incident:" not in result.stdout + result.stderr
    assert "exit status 1 (--allow-forfeits: 0)" in result.stderr.splitlines()[-1]


def test_allow_forfeits_exits_0() -> None:
    result = arena_command("--allow-forfeits")
    assert result.returncode == 0, result.stderr
    assert "FORFEITS: arena_bots.RaisingBot forfeited 3 of 3 games" in result.stdout


def test_the_exit_status_is_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["arena", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--allow-forfeits" in text
    assert "1 when any bot forfeited a game (unless --allow-forfeits)" in text


def test_the_exit_status_follows_the_forfeits(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "--players=2", "--games=2", "--jobs=1", "--quiet"]
    assert main([*argv, "--bots=arena_bots.IllegalBot,random"]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        "error: 2 of 2 games ended in a forfeit (see FORFEITS); exit status 1 (--allow-forfeits: 0)"
    )
    assert main([*argv, "--bots=arena_bots.IllegalBot,random", "--allow-forfeits"]) == 0
    assert main([*argv, "--bots=heuristic,random"]) == 0
    assert "forfeit" not in capsys.readouterr().err
