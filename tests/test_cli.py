"""The demo: ``python -m bohmisch_watten`` prints a whole game a person can follow."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest

from bohmisch_watten import Rules
from bohmisch_watten.commands.cli import main, play_and_print


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_demo_prints_a_complete_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["--seed", "2026"], capsys)
    assert code == 0
    deals = len(re.findall(r"^=== Deal \d+", out, re.M))
    assert deals >= 1
    assert len(re.findall(r"^Trump card: ", out, re.M)) == deals
    assert len(re.findall(r"^Trick \d: ", out, re.M)) == 5 * deals
    assert len(re.findall(r"^Scores: ", out, re.M)) == deals
    assert re.search(r"^Cut: seat \d looks at ", out, re.M)
    assert re.search(r"^Exchange: seat \d plays, discards \d", out, re.M)
    assert re.search(r"^Winners: seat \d", out, re.M)
    assert re.search(r"^Losers: seat \d", out, re.M)


def test_same_seed_same_game(capsys: pytest.CaptureFixture[str]) -> None:
    _, first, _ = run(["--seed", "5", "--players", "3"], capsys)
    _, second, _ = run(["--seed", "5", "--players", "3"], capsys)
    _, other, _ = run(["--seed", "6", "--players", "3"], capsys)
    assert first == second
    assert first != other


@pytest.mark.parametrize(
    "argv",
    [
        ["--players", "2", "--schleck", "none", "--must-head", "false"],
        ["--schleck", "cutter_only", "--dealer-stock-limit", "3", "--overshoot", "added_back"],
        ["--plus-fifty", "yes", "--hearts-double", "off", "--min-fold-score", "8"],
        ["--start-score", "5", "--dealer", "2", "--seed", "11"],
    ],
)
def test_variant_options(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(argv, capsys)
    assert code == 0
    assert "Böhmisch Watten" in out
    assert "=== Deal 1" in out


@pytest.mark.rule("R1", "R6")
def test_seven_players_need_the_36_card_pack(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["--players", "7", "--max-deals", "2"], capsys)
    assert code == 2
    assert err.strip() == (
        "error: --players 7: 32 cards seat 2 to 4 players (R1); five to seven play with --pack 36"
    )
    code, out, _ = run(["--players", "7", "--rules", "pack=36", "--max-deals", "2"], capsys)
    assert code == 0
    assert out.startswith("Böhmisch Watten, 7 players, seed 2026, rules: pack=36\n")
    assert "ranks A K O U 10 9 8 7 6 (O" in out
    assert len(re.findall(r"^Trick \d: ", out, re.M)) == 10
    assert re.search(r"^Trick \d: (seat \d \w+, ){6}seat \d \w+ -> seat \d$", out, re.M)
    code, out, _ = run(["--rules", "pack=36", "--players", "5", "--plus-fifty", "true"], capsys)
    assert code == 0
    assert re.search(r"^Winners: seat \d", out, re.M)


def test_variants_are_shown(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(["--schleck", "none", "--seed", "1"], capsys)
    assert "rules: schleck=none" in out.splitlines()[0]
    assert "Cut: nobody looks at the cut card" in out


def test_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["--dealer", "7"], capsys)
    assert code == 2
    assert "--dealer" in err
    code, _, err = run(["--start-score", "0"], capsys)
    assert code == 2
    assert "start_score" in err
    with pytest.raises(SystemExit):
        main(["--players", "8"])
    with pytest.raises(SystemExit):
        main(["--must-head", "maybe"])


def test_max_deals_stops_a_long_game() -> None:
    out = io.StringIO()
    state = play_and_print(4, Rules(start_score=200), 1, 0, 2, out)
    assert not state.is_terminal
    assert "Stopped after 2 deals without a winner: nobody reached 0 (R31);" in out.getvalue()


def test_module_entry_point() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bohmisch_watten", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "--schleck" in result.stdout
    assert "--players" in result.stdout
