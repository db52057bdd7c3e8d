"""The arena: schedule, robustness, statistics, files, and the same results everywhere."""

from __future__ import annotations

import csv
import io
import json
import math
import threading
from pathlib import Path

import pytest

from bohmisch_watten import Rules, load_record, replay
from bohmisch_watten.arena import run_arena
from bohmisch_watten.arena.backends import batches, run_games
from bohmisch_watten.arena.match import ArenaSetup, GameResult, play_game
from bohmisch_watten.arena.report import summarize, to_csv, to_json_dict, to_table, write_plot
from bohmisch_watten.arena.schedule import GameSpec, boards_needed, labels, schedule
from bohmisch_watten.arena.stats import bradley_terry, fair_share_p_value, wilson_interval


def setup_for(bots: list[str], players: int, **kwargs: object) -> ArenaSetup:
    return ArenaSetup(tuple(bots), labels(bots), players, Rules(), 1, **kwargs)  # type: ignore[arg-type]


def outcome(results: list[GameResult]) -> list[tuple[object, ...]]:
    """Everything of the results but the measured times."""
    return [
        (r.index, r.board, r.seating, r.scores, r.winners, r.losers, r.deals, r.forfeit, r.record)
        for r in results
    ]


# ----------------------------------------------------------------- schedule


def test_labels_number_repeated_names() -> None:
    assert labels(["random", "search", "random", "random"]) == (
        "random", "search", "random#2", "random#3",
    )  # fmt: skip


def test_duplicate_format_rotates_every_contestant_over_every_seat() -> None:
    specs = schedule(10, 4, 4)
    assert len(specs) == 12  # rounded up to whole rotations
    for board in range(3):
        seatings = [s.seating for s in specs if s.board == board]
        assert len(seatings) == 4
        for seat in range(4):
            assert sorted(s[seat] for s in seatings) == [0, 1, 2, 3]
    assert [s.index for s in specs] == list(range(12))


def test_league_plays_every_combination_in_every_rotation() -> None:
    specs = schedule(1, 4, 2)
    assert len(specs) == 12 == 6 * 2
    assert {frozenset(s.seating) for s in specs} == {
        frozenset(p) for p in [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    }
    assert boards_needed(13, 4, 2) == 2
    with pytest.raises(ValueError, match="at least 3 bots"):
        schedule(4, 2, 3)
    with pytest.raises(ValueError, match="games"):
        schedule(0, 2, 2)


def test_a_board_deals_the_same_packs_whoever_sits_where() -> None:
    setup = setup_for(["heuristic", "random"], 2, keep_records=True)
    first, second = (play_game(setup, spec) for spec in schedule(2, 2, 2))
    assert first.seating != second.seating
    packs = [
        [a for _, a in replay(load_record(r.record or "")).history if type(a).__name__ == "Shuffle"]
        for r in (first, second)
    ]
    shared = min(len(packs[0]), len(packs[1]))
    assert shared >= 1
    assert packs[0][:shared] == packs[1][:shared]


# ----------------------------------------------------------------- robustness


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("arena_bots.RaisingBot", "raised RuntimeError: bug in my bot"),
        ("arena_bots.IllegalBot", "returned an illegal action play HK (R24: seat"),
        ("arena_bots.SlowBot:seconds=0.2", "exceeded the decision timeout of 0.05 s"),
    ],
)
def test_a_misbehaving_bot_loses_that_game_and_the_arena_goes_on(bad: str, message: str) -> None:
    summary, results = run_arena([bad, "random", "random"], players=3, games=3, seed=2,
                                 decision_timeout=0.05)  # fmt: skip
    assert len(results) == 3
    assert all(r.forfeit is not None for r in results)
    for r in results:
        assert r.losers == (r.forfeit,)
        assert set(r.winners) == {0, 1, 2} - {r.forfeit}
        assert r.incident is not None
        assert message in r.incident
        assert r.incident.startswith(f"game {r.index}: {bad}")
    line = next(line for line in summary.lines if line.name == bad)
    assert (line.wins, line.losses, line.forfeits) == (0, 3, 3)
    assert len(summary.incidents) == 3
    table = to_table(summary)  # the reasons of each game are in the log, not here
    assert table.count(message) == 1
    assert "incident:" not in table


def test_the_timeout_is_measured_where_no_alarm_can_interrupt() -> None:
    setup = setup_for(["arena_bots.SlowBot:seconds=0.06", "random"], 2, decision_timeout=0.05)
    box: list[GameResult] = []
    thread = threading.Thread(target=lambda: box.append(play_game(setup, GameSpec(0, 0, (0, 1)))))
    thread.start()
    thread.join()
    assert box[0].forfeit == 0
    assert "exceeded the decision timeout" in (box[0].incident or "")


def test_a_game_at_the_deal_cap_is_adjudicated_by_score() -> None:
    setup = ArenaSetup(("random", "random"), ("random", "random#2"), 2,
                       Rules(start_score=200), 3, max_deals=2)  # fmt: skip
    result = play_game(setup, GameSpec(0, 0, (0, 1)))
    assert result.capped
    assert result.deals == 2
    low, high = min(result.scores), max(result.scores)
    assert all(result.scores[s] == low for s in result.winners)
    assert all(result.scores[s] == high for s in result.losers)
    even = ArenaSetup(("random", "random"), ("a", "b"), 2, Rules(start_score=200), 0, max_deals=1)
    summary = summarize(even, [result])
    assert "adjudicated" in to_table(summary)


# ----------------------------------------------------------------- statistics


def test_wilson_interval() -> None:
    lo, hi = wilson_interval(0, 10)
    assert lo == 0
    assert math.isclose(hi, 0.2775, abs_tol=1e-4)
    lo, hi = wilson_interval(95, 100)
    assert math.isclose(lo, 0.8882, abs_tol=1e-4)
    assert math.isclose(hi, 0.9785, abs_tol=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_fair_share_p_value() -> None:
    assert fair_share_p_value(25, 100, 0.25) == 1.0
    assert math.isclose(fair_share_p_value(34, 100, 0.25), 0.0375, abs_tol=1e-3)  # z = 2.078
    assert fair_share_p_value(60, 100, 0.25) < 1e-12
    assert fair_share_p_value(0, 0, 0.25) == 1.0


def test_bradley_terry() -> None:
    even = bradley_terry([[0, 10], [10, 0]])
    assert all(abs(r) < 1e-9 for r, _, _ in even)
    ratings = bradley_terry([[0, 30, 30], [10, 0, 20], [10, 20, 0]])
    assert ratings[0][0] > ratings[1][0] > -1e9
    assert math.isclose(ratings[1][0], ratings[2][0], abs_tol=1e-6)
    assert math.isclose(sum(r for r, _, _ in ratings), 0, abs_tol=1e-6)
    for rating, lo, hi in ratings:
        assert lo < rating < hi
    # 3:1 → odds (3.5 / 1.5) with the virtual tie; Elo = 400 log10(odds) / 2 each
    assert math.isclose(
        bradley_terry([[0, 3], [1, 0]])[0][0], 200 * math.log10(3.5 / 1.5), rel_tol=1e-3
    )


def test_table_counts_shared_wins_as_fractions() -> None:
    setup = setup_for(["a", "b", "c"], 3)
    results = [
        GameResult(0, 0, (0, 1, 2), (0, 0, 9), (0, 1), (2,), 3, decision_seconds=(0.1, 0.2, 0.3),
                   decisions=(10, 10, 10)),
        GameResult(1, 0, (1, 2, 0), (0, 5, 7), (0,), (2,), 4, decision_seconds=(0.1, 0.2, 0.3),
                   decisions=(10, 10, 10)),
    ]  # fmt: skip
    summary = summarize(setup, results)
    a, b, c = summary.lines
    assert (a.wins, b.wins, c.wins) == (0.5, 1.5, 0.0)
    assert math.isclose(sum(line.wins for line in summary.lines), len(results))
    assert (a.losses, b.losses, c.losses) == (1, 0, 1)
    assert a.mean_score == 3.5
    assert a.mean_decision_ms == 20.0
    assert b.rating > a.rating > c.rating
    assert summary.fair_share == pytest.approx(1 / 3)


# ----------------------------------------------------------------- same results everywhere


def test_same_seed_same_results_whatever_the_jobs() -> None:
    kwargs: dict[str, object] = {"players": 3, "games": 9, "seed": 5, "keep_records": True}
    bots = ["heuristic", "random", "search:rollouts=2:rollout=random"]
    one, serial = run_arena(bots, jobs=1, **kwargs)  # type: ignore[arg-type]
    two, parallel = run_arena(bots, jobs=2, **kwargs)  # type: ignore[arg-type]
    assert outcome(serial) == outcome(parallel)
    assert [(x.wins, x.losses, x.mean_score) for x in one.lines] == [
        (x.wins, x.losses, x.mean_score) for x in two.lines
    ]
    _, other = run_arena(bots, jobs=1, **{**kwargs, "seed": 6})  # type: ignore[arg-type]
    assert outcome(other) != outcome(serial)


def test_ray_backend_gives_the_process_backend_results() -> None:
    import ray

    bots = ["heuristic", "random"]
    setup = setup_for(bots, 2)
    specs = schedule(8, 2, 2)
    done: list[int] = []
    on_ray = run_games(setup, specs, jobs=2, backend="ray", progress=done.append)
    assert not ray.is_initialized()  # the local cluster it started is shut down
    assert sum(done) == 8
    assert outcome(on_ray) == outcome(run_games(setup, specs, jobs=2))


def test_backend_arguments() -> None:
    setup = setup_for(["random", "random"], 2)
    with pytest.raises(ValueError, match="backend"):
        run_games(setup, [], backend="dask")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="jobs"):
        run_games(setup, [], jobs=0)
    assert [len(b) for b in batches(schedule(40, 2, 2), 2)] == [2] * 20
    assert len(batches(schedule(4000, 2, 2), 2)) == 250


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 5}, r"2 to 4 with the 32-card pack \(R1\), got 5: five to seven need"),
        ({"players": 8, "rules": Rules(pack=36)}, r"2 to 7 with the 36-card pack \(R1\), got 8"),
        ({"players": 1}, r"2 to 4 with the 32-card pack \(R1\), got 1$"),
        ({"decision_timeout": 0}, "timeout"),
        ({"max_deals": 0}, "max deals"),
    ],
)
def test_arena_arguments(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        run_arena(["random", "random"], **kwargs)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown bot"):
        run_arena(["random", "chess"], players=2)


@pytest.mark.rule("R1", "R6")
def test_seven_seats_play_the_36_card_pack_and_their_records_replay() -> None:
    bots = ["heuristic", *["random"] * 6]
    summary, results = run_arena(
        bots, players=7, games=7, seed=3, rules=Rules(pack=36), max_deals=12, keep_records=True
    )
    assert summary.games == 7
    assert summary.fair_share == pytest.approx(1 / 7)
    assert sorted(r.seating for r in results) == sorted(
        tuple((seat - shift) % 7 for seat in range(7)) for shift in range(7)
    )
    for result in results:
        state = replay(load_record(result.record or ""))
        assert state.rules.pack == 36
        assert state.num_players == 7
        assert state.scores == result.scores
        assert state.deal_number >= result.deals  # a capped game stops at a chance node


# ----------------------------------------------------------------- files


def test_json_csv_and_plot(tmp_path: Path) -> None:
    summary, results = run_arena(["heuristic", "random", "random"], players=3, games=3, seed=4)
    document = to_json_dict(summary)
    assert {"players", "games", "seed", "rules", "bots"} <= set(document)
    assert (document["players"], document["games"], document["seed"]) == (3, 3, 4)
    assert [b["name"] for b in document["bots"]] == ["heuristic", "random", "random#2"]
    for bot in document["bots"]:
        assert {"name", "games", "wins", "win_rate", "ci95", "losses", "mean_score",
                "mean_decision_ms"} <= set(bot)  # fmt: skip
        assert bot["ci95"][0] <= bot["win_rate"] <= bot["ci95"][1]
    json.dumps(document)
    rows = list(csv.DictReader(io.StringIO(to_csv(summary.setup, results))))
    assert len(rows) == 3
    assert rows[0]["game"] == "0"
    assert {rows[0][f"seat{s}"] for s in range(3)} == {"heuristic", "random", "random#2"}
    path = tmp_path / "rates.png"
    write_plot(summary, path)
    assert path.read_bytes().startswith(b"\x89PNG")


@pytest.mark.rule("R1")
def test_the_command_seats_five_only_with_the_36_card_pack(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from bohmisch_watten.commands.cli import main

    argv = ["arena", "--players=5", "--bots=" + ",".join(["random"] * 5), "--games=5"]
    argv += ["--jobs=1", "--quiet", "--max-deals=3"]
    assert main(argv) == 2
    assert capsys.readouterr().err.strip() == (
        "error: --players 5: 32 cards seat 2 to 4 players (R1); five to seven play with --pack 36"
    )
    assert main([*argv, "--rules=pack=36"]) == 0
    assert "5 games on 1 board, 5 players, seed 2026, rules: pack=36" in capsys.readouterr().out
