"""Whose turn it is: the seat check behind ``apply(action, seat=...)`` (R11, R12, R18, R24).

A server or a UI that relays actions from several players must make sure an action
comes from the seat to act.  The check lives here so that the message it produces is
written once and says only whose turn it is: it names no card, because the seat that
was refused may not know any card of the seat to act (R23).
"""

from __future__ import annotations

import operator
from typing import Final, SupportsIndex

from .phase import Phase

__all__ = ["check_seat", "seat_may_act", "turn_message"]

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
