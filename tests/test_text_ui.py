"""The text UI example: the offered Critical, "you", the winning card, grouped exchanges."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bohmisch_watten import Exchange, LeaveCritical, Phase, TakeCritical

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
from text_ui import Table


def table_offering_a_critical() -> Table:
    for seed in range(400):
        table = Table(players=2, seed=seed)
        table.advance()
        if TakeCritical() in table.view.legal_actions():
            return table
    raise AssertionError("no Critical offered to the human in 400 games")  # pragma: no cover


@pytest.mark.rule("R12", "R13")
def test_the_offered_critical_is_shown_and_taken_or_left_by_number() -> None:
    table = table_offering_a_critical()
    card = table.view.cut_looks[-1].card
    screen = table.render()
    assert f"The cut card is {card} (" in screen
    assert "   1. take the Critical into your hand" in screen
    assert "   2. leave it at the bottom" in screen
    lines = table.handle("2")
    assert lines[0] == "You leave the Critical at the bottom."
    assert LeaveCritical() in [a for _, a in table.state.history]


@pytest.mark.rule("R18", "R19")
def test_the_exchange_is_grouped_not_numbered() -> None:
    table = Table(players=4, seed=1)
    table.advance()
    assert table.view.phase is Phase.EXCHANGE
    legal = [a for a in table.view.legal_actions() if isinstance(a, Exchange)]
    assert len(legal) > 30  # the engine's list is long ...
    screen = table.render()
    numbered = [line for line in screen.splitlines() if line.strip()[:3].rstrip(".").isdigit()]
    assert len(numbered) <= 2  # ... the person sees keep (and fold)
    assert "Or name up to 2 cards" in screen
    assert "'+trump' to take the trump card" in screen  # seat 0 deals (R19)
    hand = table.view.hand
    lines = table.handle(f"{hand[0]} {hand[1]}")  # typed cards are the exchange
    assert lines[0] == f"You play and exchange {hand[0]} {hand[1]}."
    drawn = " ".join(str(c) for c in table.view.draws)
    assert len(table.view.draws) == 2
    assert lines[1] == f"You draw {drawn}."


@pytest.mark.rule("R27")
def test_the_trick_says_who_is_winning_and_you_is_you() -> None:
    table = Table(players=4, seed=1)
    table.advance()
    table.handle("1")
    screen = table.render()
    assert "--- Deal 1, PLAY; you deal;" in screen
    assert "Trick: seat 1 HK, seat 2 SU, seat 3 S8 (Seat 1 is winning)" in screen
    lines = table.handle("G8")
    assert lines[:2] == ["You play G8.", "Seat 1 wins the trick."]
    assert not any(line.startswith("Seat 0") for line in lines)
