"""Action ids on views: learning code gets the same ids from the acting seat's view."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given

from bohmisch_watten import (
    NUM_ACTION_IDS,
    Fold,
    FormatError,
    GameState,
    action_to_id,
    id_to_action,
    legal_action_mask,
)
from bohmisch_watten.encoding import EXCHANGE_BASE

from game_strategies import game_states


@given(game_states(max_steps=150))
def test_acting_view_gives_the_same_ids_as_the_state(state: GameState) -> None:
    for seat in range(state.num_players):
        view = state.view(seat)
        mask = legal_action_mask(view)
        if seat != state.current_player:
            assert not any(mask)
            continue
        assert mask == legal_action_mask(state)
        for action in state.legal_actions():
            action_id = action_to_id(view, action)
            assert action_id == action_to_id(state, action)
            assert id_to_action(view, action_id) == action
        for action_id in range(NUM_ACTION_IDS):
            try:
                expected = id_to_action(state, action_id)
            except FormatError:
                with pytest.raises(FormatError):
                    id_to_action(view, action_id)
            else:
                assert id_to_action(view, action_id) == expected


def test_exchange_ids_need_the_acting_seat(exchange_state: GameState) -> None:
    """A view of a seat not to act does not show the hand an exchange id points into."""
    other = (exchange_state.current_player + 1) % exchange_state.num_players  # type: ignore[operator]
    with pytest.raises(FormatError, match="seat to act"):
        id_to_action(exchange_state.view(other), EXCHANGE_BASE + 1)


@pytest.mark.parametrize("bad", [None, "state", 3, object()])
def test_anything_else_is_a_type_error(bad: Any) -> None:
    with pytest.raises(TypeError, match="state must be a GameState or a PlayerView"):
        action_to_id(bad, Fold())
    with pytest.raises(TypeError, match="state must be"):
        id_to_action(bad, 2)
    with pytest.raises(TypeError, match="state must be"):
        legal_action_mask(bad)


@pytest.fixture
def exchange_state() -> GameState:
    from helpers import dealt_state

    return dealt_state(3, {}, "E10")
