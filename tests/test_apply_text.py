"""Actions as text: ``apply_text("play G8")`` (python-chess's ``push_san``); what apply raises."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bohmisch_watten import DECK, IllegalActionError, Shuffle, new_game, parse_action

ERRORS_PAGE = Path(__file__).resolve().parent.parent / "docs" / "api" / "errors.md"


def test_text_and_objects_give_the_same_states() -> None:
    rng = random.Random(8)
    state = new_game(3)
    checked = 0
    while not state.is_terminal and state.deal_number <= 3:
        if state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
            continue
        action = rng.choice(state.legal_actions())
        by_text = state.apply_text(str(action), seat=state.current_player)
        state = state.apply(action)
        assert by_text == state
        checked += 1
    assert checked > 20


def test_a_shuffle_and_a_move_as_text() -> None:
    state = new_game(2).apply_text("shuffle " + " ".join(str(c) for c in DECK))
    assert state == new_game(2).apply(Shuffle(DECK))
    after = state.apply_text("exchange E8, g7")  # the parser's freedom: case, commas
    assert after.exchanged == (None, 2)
    assert after.apply_text("exchange G8", seat=0) == after.apply(parse_action("exchange G8"))
    with pytest.raises(IllegalActionError, match="not an action"):
        after.apply("exchange G8")  # type: ignore[arg-type]  # apply takes objects only


@pytest.mark.rule("R18")
@pytest.mark.rule("R21")
def test_a_bad_text_is_an_illegal_action() -> None:
    state = new_game(2).apply(Shuffle(DECK)).apply_text("exchange E8 G7")
    with pytest.raises(IllegalActionError, match="not an action: 'dance'"):
        state.apply_text("dance")
    with pytest.raises(IllegalActionError, match="takes exactly one card"):
        state.apply_text("play")
    with pytest.raises(IllegalActionError, match="R21.1: nobody may fold"):
        state.apply_text("fold")
    with pytest.raises(IllegalActionError, match="R18: it is seat 0's turn, not seat 1's"):
        state.apply_text("fold", seat=1)
    with pytest.raises(IllegalActionError, match="phase is EXCHANGE"):
        state.apply_text("play G8")


def test_a_forged_seat_is_a_value_error_and_the_errors_page_says_so() -> None:
    state = new_game(3)
    state = state.apply(state.sample_chance(random.Random(1)))
    with pytest.raises(ValueError, match="seat") as error:
        state.apply_text("fold", seat=7)
    assert not isinstance(error.value, IllegalActionError)
    with pytest.raises(TypeError, match="seat"):
        state.apply_text("fold", seat=True)  # type: ignore[arg-type]
    page = ERRORS_PAGE.read_text(encoding="utf-8")
    assert "## What `apply()` raises" in page
    for cause in ("`seat=7`", "no action notation", "`TypeError`", "`ValueError`"):
        assert cause in page
