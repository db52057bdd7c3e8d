"""The golden playthroughs in tests/golden/ are what the engine plays today.

Regenerate them on purpose with ``make golden`` (``python tests/golden/regenerate.py``).
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "golden"))

import regenerate


@pytest.mark.rule("R11", "R12", "R15", "R18", "R19", "R24", "R25", "R27", "R29", "R31", "R34")
@pytest.mark.parametrize("game", regenerate.GAMES, ids=lambda g: g.name)
def test_golden_playthrough_is_unchanged(game: regenerate.Game) -> None:
    assert game.path.exists(), f"{game.path.name} is missing: run `make golden`"
    expected = game.path.read_text(encoding="utf-8")
    actual = regenerate.render(game)
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), actual.splitlines(), "golden", "engine now", lineterm="", n=2
        )
        shown = "\n".join(list(diff)[:60])
        pytest.fail(
            f"{game.path.name} differs from what the engine plays now.  If the change is "
            f"intended, run `make golden` and review the diff.\n{shown}"
        )


def test_golden_files_are_exactly_the_listed_games() -> None:
    listed = {g.path.name for g in regenerate.GAMES}
    present = {p.name for p in regenerate.HERE.glob("*.txt")}
    assert present == listed
    assert {g.num_players for g in regenerate.GAMES} == {2, 3, 4, 7}
    assert {g.rules.pack for g in regenerate.GAMES} == {32, 36}
    variants = {str(g.rules) for g in regenerate.GAMES} - {""}
    assert len(variants) >= 2


def test_golden_files_show_every_legal_action_and_the_choice() -> None:
    for game in regenerate.GAMES:
        text = game.path.read_text(encoding="utf-8")
        steps = text.count("\n--- step ")
        assert steps > 10
        assert text.count("\nchosen ") == steps
        # Every decision (not the shuffles) lists the legal actions.
        assert text.count("\nlegal (") == steps - text.count("· chance\n")
