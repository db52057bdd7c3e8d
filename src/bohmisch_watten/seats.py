"""Seat arithmetic around the table: left, right and the order from forehand (R1, R2, R4).

Seats are numbered clockwise, so "left of X" is X+1 and "right of X" is X−1 modulo the
number of players (R1).  Forehand is left of the dealer, the cutter right of him (R2),
and the deal passes to the left (R4).  Dealing, the exchange and the first trick all
run clockwise from forehand, which is :func:`seat_order`.

These are written once here so that the engine, the views, the sampler, the events
and the dealing helpers cannot disagree on the direction of play.  Whose turn it is is
checked here too (:func:`seat_may_act`, behind ``apply(action, seat=...)``), with one
message that names no card: the refused seat may not know any card of the seat to act
(R23).

>>> from bohmisch_watten.seats import left_of, right_of, seat_order
>>> left_of(3, 4), right_of(0, 4), seat_order(2, 4)
(0, 3, (3, 0, 1, 2))
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from functools import lru_cache
from typing import Final, SupportsIndex

from .phases import Phase

__all__ = [
    "check_seat",
    "left_of",
    "right_of",
    "seat_may_act",
    "seat_order",
    "turn_message",
    "turn_text",
]


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


_WHO_ACTS: Final = {
    Phase.CUT: "R12",
    Phase.EXCHANGE: "R18",
    Phase.PLAY: "R24",
}


def check_seat(seat: object, num_players: int) -> int:
    """``seat`` as a seat number of a game of ``num_players``.

    Integer types other than ``int`` (a NumPy integer from a learning loop) are accepted
    through ``__index__``; ``bool`` is not, as ``True`` is no seat.

    Raises:
        TypeError: naming ``seat`` if it is not an integer.
        ValueError: naming ``seat`` if it is not a seat of the game.
    """
    if type(seat) is int:  # the common case first: a runtime-protocol check costs ~9 µs
        if not 0 <= seat < num_players:
            raise ValueError(f"seat must be a seat from 0 to {num_players - 1}, got {seat}")
        return seat
    if isinstance(seat, bool) or not isinstance(seat, SupportsIndex):
        raise TypeError(f"seat must be an int or None, got {type(seat).__name__}")
    index = operator.index(seat)
    if not 0 <= index < num_players:
        raise ValueError(f"seat must be a seat from 0 to {num_players - 1}, got {index}")
    return index


def seat_may_act(seat: object, current_player: int | None, num_players: int) -> bool:
    """Whether ``seat`` is the seat to act (never at a chance node or the end).

    Raises:
        TypeError, ValueError: as :func:`check_seat`, for a value that is no seat.
    """
    return check_seat(seat, num_players) == current_player


def turn_message(phase: Phase, current_player: int | None, seat: int) -> str:
    """The message for an action by ``seat`` when it is not that seat's turn.

    Only whose turn it is, with the rule that says so: nothing about any hand.
    """
    seat = operator.index(seat)
    if phase is Phase.GAME_OVER:
        return f"R31: the game is over; seat {seat} cannot act"
    if current_player is None:
        return f"R11: chance is to act (the shuffle), not seat {seat}"
    return f"{_WHO_ACTS[phase]}: it is seat {current_player}'s turn, not seat {seat}'s"


def turn_text(
    phase: Phase, current_player: int | None, winners: Sequence[int], losers: Sequence[int]
) -> str:
    """Who acts now, in words: a seat, chance (the shuffle), or the game's result."""
    if phase is Phase.GAME_OVER:
        return f"game over, winners {list(winners)}, losers {list(losers)}"
    if current_player is None:
        return "chance"
    return f"seat {current_player}"
