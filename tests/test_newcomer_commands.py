"""The command line as a newcomer met it: big tables, the arena's options, saves.

Each test runs the real command (``main``) or the example script in a subprocess.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bohmisch_watten import GameState, Rules, load_record, new_game, replay
from bohmisch_watten.arena import run_arena
from bohmisch_watten.arena.report import to_table
from bohmisch_watten.commands.cli import build_parser, main

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------ big tables (RULES.md §9.3)


@pytest.mark.rule("R29", "R31", "R33")
def test_the_demo_of_seven_plays_the_suggested_rules_says_so_and_ends(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A newcomer's command: it printed 12,545 lines and stopped after 500 deals."""
    code, out, err = run(["--players", "7", "--pack", "36", "--seed", "3"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Böhmisch Watten, 7 players, seed 3, rules: plus_fifty=true,pack=36"
    assert lines[1].startswith("rules: plus_fifty=true,pack=36, suggested for 7 players")
    assert "RULES.md §9.3" in lines[1]
    assert out.count("suggested for") == 1
    assert re.search(r"^Game over after \d+ deals\.$", out, re.M)
    assert "warning" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ["--rules", "pack=36"],
        ["--rules", "default", "--pack", "36"],
        ["--pack", "36", "--plus-fifty", "false"],
    ],
)
def test_rules_that_may_not_end_a_big_table_are_played_with_a_warning(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["--players", "6", "--max-deals", "3", "--seed", "1", *argv], capsys)
    assert code == 0
    assert out.splitlines()[0].endswith("rules: pack=36")  # played as named
    assert "suggested for" not in out
    assert err.strip() == (
        "warning: with 6 players under these rules (pack=36) a game may never end: the scores"
        " drift away from 0 (R29, R31); the suggested rules add plus_fifty=true (RULES.md §9.3)"
    )
    assert out.rstrip().endswith(
        "Stopped after 3 deals without a winner: nobody reached 0 (R31); with 6 players the"
        " scores drift away from 0 (R29): play with plus_fifty=true to end the game"
        " (RULES.md §9.3)."
    )


def test_a_variant_option_keeps_the_suggestion_and_small_tables_get_none(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(["--players", "5", "--pack", "36", "--start-score", "6"], capsys)
    assert code == 0
    assert out.startswith(
        "Böhmisch Watten, 5 players, seed 2026, rules: plus_fifty=true,start_score=6,pack=36\n"
        "rules: plus_fifty=true,start_score=6,pack=36, suggested for 5 players"
    )
    assert not err
    code, out, err = run(["--players", "4", "--pack", "36", "--max-deals", "1"], capsys)
    assert code == 0
    assert "suggested" not in out
    assert not err
    assert "Stopped after 1 deal without a winner: nobody reached 0 (R31); raise --max-deals" in out


# ------------------------------------------------------------------ the arena's options


@pytest.mark.rule("R1", "R6")
def test_arena_takes_pack_and_one_spec_for_every_seat(capsys: pytest.CaptureFixture[str]) -> None:
    """``arena --players 7 --pack 36 --bots random``: unrecognized --pack, then "7 seats
    need at least 7 bots, got 1"; now seven random contestants under the suggestion."""
    argv = ["arena", "--players", "7", "--pack", "36", "--bots", "random", "--games", "7"]
    code, out, err = run([*argv, "--jobs", "1", "--quiet"], capsys)
    assert code == 0, err
    names = re.findall(r"^(random(?:#\d)?) ", out, re.M)
    assert sorted(names) == ["random", *(f"random#{i}" for i in range(2, 8))]
    assert "7 games on 1 board, 7 players, seed 2026, rules: plus_fifty=true,pack=36;" in out
    assert "suggested for 7 players" in err
    assert "adjudicated" not in out


def test_arena_default_bots_scale_with_the_players(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "--players", "5", "--pack", "36", "--games", "5", "--jobs", "1", "--quiet"]
    code, out, err = run(argv, capsys)
    assert code == 0, err
    names = re.findall(r"^(heuristic|random(?:#\d)?) ", out, re.M)
    assert sorted(names) == ["heuristic", "random", "random#2", "random#3", "random#4"]


def test_arena_pack_overrides_the_rules_and_an_unfinished_game_says_why(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["arena", "--players", "6", "--rules", "pack=32,start_score=200", "--pack", "36"]
    code, out, err = run([*argv, "--games", "6", "--max-deals", "1", "--jobs", "1"], capsys)
    assert code == 0, err
    assert "rules: start_score=200,pack=36;" in out
    assert "warning: with 6 players under these rules (start_score=200,pack=36)" in err
    assert "6 games reached 1 deal without a winner and were adjudicated" in out
    assert out.rstrip().endswith(
        "Unfinished: nobody reached 0 (R31); with 6 players the scores drift away from 0"
        " (R29): play with plus_fifty=true to end the game (RULES.md §9.3)."
    )
    code, _, err = run(["arena", "--players", "7", "--games", "7"], capsys)
    assert code == 2
    assert (
        "--players 7: 32 cards seat 2 to 4 players (R1); five to seven play with --pack 36" in err
    )


def test_arena_help_says_how_to_load_your_own_bot(tmp_path: Path) -> None:
    """Every form the help shows loads: a file, a dotted path, an engine."""
    text = build_parser("arena").format_help()
    for form in ("./mybot.py:MyBot", "mypackage.bots.MyBot", "engine:COMMAND ARGS", "policy:PATH"):
        assert form in text
    assert "./mybot.py:MyBot:depth=3" in text
    package = tmp_path / "mypackage"
    package.mkdir()
    (package / "__init__.py").write_text("")
    bot = (
        "import random\n"
        "class MyBot:\n"
        "    def __init__(self, depth: int = 1) -> None:\n"
        "        self.depth = depth\n"
        "    def choose(self, view, rng):\n"
        "        return view.legal_actions()[0]\n"
    )
    (package / "bots.py").write_text(bot)
    (tmp_path / "mybot.py").write_text(bot)
    engine = f"engine:{sys.executable} -m bohmisch_watten engine --bot random"
    specs = f"./mybot.py:MyBot:depth=3,mypackage.bots.MyBot,{engine}"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), str(tmp_path)])}
    done = subprocess.run(
        [sys.executable, "-m", "bohmisch_watten", "arena", "--players", "3", "--bots", specs,
         "--games", "3", "--max-deals", "2", "--jobs", "1", "--quiet"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    for label in ("./mybot.py:MyBot:depth=3", "mypackage.bots.MyBot", "engine:"):
        assert re.search(rf"^{re.escape(label)}", done.stdout, re.M)


def test_arena_table_counts_in_the_right_number() -> None:
    """ "4 games on 1 boards", "1 games reached": the nouns follow their numbers."""
    summary, _ = run_arena(["random", "random"], players=2, games=2, seed=1, max_deals=1)
    table = to_table(summary)
    assert "2 games on 1 board, 2 players" in table
    assert "2 games reached 1 deal without a winner and were adjudicated" in table
    summary, _ = run_arena(["random"] * 3, players=3, games=1, seed=1, max_deals=1)
    assert "3 games on 1 board," in to_table(summary)


# ------------------------------------------------------------------------ saved games


def _saved_state() -> GameState:
    rng = random.Random(4)
    state = new_game(3, rules=Rules(start_score=10))
    for _ in range(60):
        state = state.apply(
            state.sample_chance(rng) if state.is_chance_node else rng.choice(state.legal_actions())
        )
    assert not state.is_terminal
    return state


@pytest.mark.parametrize("name", ["game.txt", "game.json"])
def test_the_demo_saves_a_record_review_reads(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / name
    code, out, _ = run(["--players", "3", "--seed", "5", "--save", str(path)], capsys)
    assert code == 0
    assert out.rstrip().endswith(f"Saved the record to {path}.")
    data = path.read_text(encoding="utf-8")
    assert data.lstrip().startswith("{") is name.endswith(".json")
    record = load_record(data)
    end = replay(record)
    assert end.is_terminal
    assert f"Winners: {', '.join(f'seat {s}' for s in end.winners)}" in out
    assert record.tag("event") == "bohmisch_watten demo, seed 5"
    assert record.tag("seat2") == "heuristic"
    code, out, err = run(["review", str(path), "--bot", "search:rollouts=4", "--seats", "1",
                          "--quiet"], capsys)  # fmt: skip
    assert code == 0, err
    assert re.search(r"^\s+1\s+\d+ ", out, re.M)
    code, _, err = run(["--save", str(tmp_path / "missing" / "g.txt")], capsys)
    assert code == 2
    assert "no folder" in err


def test_review_reads_a_saved_state(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``review game.json`` of ``state.to_json()``: was "expected a
    bohmisch_watten.record document, got bohmisch_watten.state"."""
    state = _saved_state()
    path = tmp_path / "game.json"
    path.write_text(state.to_json(), encoding="utf-8")
    code, _, err = run(["review", str(path), "--bot", "search:rollouts=4", "--seats", "0",
                          "--quiet", "--json", str(tmp_path / "r.json")], capsys)  # fmt: skip
    assert code == 0, err
    review = json.loads((tmp_path / "r.json").read_text())
    assert review["decisions"]
    assert {d["seat"] for d in review["decisions"]} == {0}
    assert max(d["number"] for d in review["decisions"]) <= len(state.history)  # up to the save
    assert max(d["deal"] for d in review["decisions"]) in (state.deal_number - 1, state.deal_number)
    view = tmp_path / "view.json"
    view.write_text(state.view(0).to_json(), encoding="utf-8")
    code, _, err = run(["review", str(view)], capsys)
    assert code == 2
    assert "expected a bohmisch_watten.record or bohmisch_watten.state document" in err


def test_replay_example_reads_a_saved_state(tmp_path: Path) -> None:
    state = _saved_state()
    path = tmp_path / "game.json"
    path.write_text(state.to_json(), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "replay_record.py"), str(path)],
        env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith(
        f"The record stops in deal {state.deal_number}, phase {state.phase.name}."
    )


@pytest.mark.parametrize(("command", "argv"), [("review", ["game.txt"]), ("engine", [])])
def test_commands_whose_games_bring_their_rules_offer_no_rules_option(
    command: str, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    parser = build_parser(command)
    parser.parse_args(argv)  # the arguments alone are fine
    with pytest.raises(SystemExit) as exit_info:
        parser.parse_args([*argv, "--rules", "pack=36"])
    assert exit_info.value.code == 2
    assert "unrecognized arguments: --rules pack=36" in capsys.readouterr().err
