"""The browser table refuses a seat it does not have with its own error, never a bare
ValueError or TypeError from ``apply()`` that its server does not catch."""

from __future__ import annotations

import random

import pytest

from bohmisch_watten.web import Table, TableError

from game_strategies import policy


def _table_at_seat_one() -> Table:
    """A table of three people where seat 1 is to act."""
    table = Table(players=3, humans=3, seed=1)
    rng = random.Random(2)
    while table.state.current_player != 1:
        if table.needs_auto:
            table.step()
        else:
            seat = table.state.current_player
            assert seat is not None
            table.act(seat, str(policy(table.state, rng)))
    return table


@pytest.mark.parametrize("seat", [7, -1, 3, True, 1.0])
def test_a_forged_seat_is_a_table_error(seat: int) -> None:
    table = _table_at_seat_one()  # True == 1.0 == 1: the seat to act, as a forger would try
    before = table.state
    for call in (lambda: table.act(seat, "fold"), lambda: table.hint(seat)):
        with pytest.raises(TableError, match="no seat"):
            call()
    assert table.state is before
    table.act(1, str(table.state.legal_actions()[0]))  # the table still plays
    assert table.state is not before
