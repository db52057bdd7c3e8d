"""Seat arithmetic (R1, R2, R4): one place for left, right and the dealing order."""

from __future__ import annotations

from itertools import pairwise

import pytest

from bohmisch_watten import new_game
from bohmisch_watten.seats import left_of, right_of, seat_order


@pytest.mark.rule("R1", "R2")
@pytest.mark.parametrize("n", [2, 3, 4])
def test_left_right_and_order_follow_the_clockwise_numbering(n: int) -> None:
    for seat in range(n):
        assert left_of(seat, n) == (seat + 1) % n  # R1: left of X is X+1
        assert right_of(left_of(seat, n), n) == seat  # R1: right of X is X-1
        order = seat_order(seat, n)
        assert sorted(order) == list(range(n))
        assert order[0] == left_of(seat, n)  # R2: forehand first ...
        assert order[-1] == seat  # ... the dealer last
        assert all(left_of(a, n) == b for a, b in pairwise(order))


@pytest.mark.rule("R2", "R4")
def test_the_state_uses_the_same_seats() -> None:
    state = new_game(4, dealer=1)
    assert state.forehand == left_of(1, 4) == 2
    assert state.cutter == right_of(1, 4) == 0
    assert new_game(2, dealer=0).forehand == new_game(2, dealer=0).cutter == 1
