"""Seat arithmetic around the table: left, right and the order from forehand (R1, R2, R4).

Seats are numbered clockwise, so "left of X" is X+1 and "right of X" is X−1 modulo the
number of players (R1).  Forehand is left of the dealer, the cutter right of him (R2),
and the deal passes to the left (R4).  Dealing, the exchange and the first trick all
run clockwise from forehand, which is :func:`seat_order`.

These are written once here so that the engine, the views, the sampler, the events
and the dealing helpers cannot disagree on the direction of play.

>>> from bohmisch_watten.seats import left_of, right_of, seat_order
>>> left_of(3, 4), right_of(0, 4), seat_order(2, 4)
(0, 3, (3, 0, 1, 2))
"""

from __future__ import annotations

from functools import lru_cache

__all__ = ["left_of", "right_of", "seat_order"]


def left_of(seat: int, num_players: int) -> int:
    """The seat left of ``seat``: forehand of dealer ``seat`` (R2), the next dealer (R4)."""
    return (seat + 1) % num_players


def right_of(seat: int, num_players: int) -> int:
    """The seat right of ``seat``: the cutter of dealer ``seat`` (R2)."""
    return (seat - 1) % num_players


@lru_cache(maxsize=16)
def seat_order(dealer: int, num_players: int) -> tuple[int, ...]:
    """Every seat once, clockwise from forehand to the dealer (R2): dealing order.

    Cached: at most ten ``(dealer, num_players)`` pairs exist.
    """
    return tuple((dealer + 1 + i) % num_players for i in range(num_players))
