"""A broken bot cannot hide in the arena's table: its forfeits are shown, as losses."""

from __future__ import annotations

import csv
import io
import re

from bohmisch_watten.arena import run_arena
from bohmisch_watten.arena.report import to_csv, to_table


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
    assert re.search(
        rf"^FORFEITS: {re.escape(bad)} forfeited 3 of 3 games \(100%\), each counted as a"
        r" loss; first: game \d: raised RuntimeError: bug in my bot$",
        table,
        re.M,
    )
    games = list(csv.DictReader(io.StringIO(to_csv(summary.setup, results))))
    assert [g["forfeit"] for g in games] == [bad] * 3
    assert all(g["forfeit_reason"] == "raised RuntimeError: bug in my bot" for g in games)
    assert all(bad in g["losers"].split() for g in games)


def test_a_clean_arena_shows_no_forfeit_line() -> None:
    summary, results = run_arena(["heuristic", "random"], players=2, games=2, seed=1)
    assert "FORFEITS" not in to_table(summary)
    games = list(csv.DictReader(io.StringIO(to_csv(summary.setup, results))))
    assert {g["forfeit"] for g in games} == {""}
    assert {g["forfeit_reason"] for g in games} == {""}
