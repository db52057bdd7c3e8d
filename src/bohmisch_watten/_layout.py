"""Internal: the field layout of :class:`~bohmisch_watten.GameState`, by rate of change.

A state's fields are grouped by how often they change, so that ``apply()`` copies as
little as possible: what changes with every card (hands, trick, tricks, tricks won) is
four separate fields of the state; what changes a few times a deal is one
:class:`DealFields`; what changes once a deal is one :class:`GameFields`.  Playing a
card, the commonest action by far, copies one reference for each group.

Both groups are public, read-only, as ``state.deal_fields`` and ``state.game_fields``
(cards as indices, ``Card.index``; sets of cards as bitmasks), so that other modules
read the compact form without private fields; their types live in the public
:mod:`~bohmisch_watten.facts`.

Also here: the position a finished game gives, worked out once for the state, the view
and the state builder (R4, R34).
"""

from __future__ import annotations

from typing import Final

from .facts import DealFields, DealScore, GameFields
from .position import Position
from .rules import Rules
from .seats import left_of, right_of

__all__ = [
    "STOCK_LIMIT",
    "DealFields",
    "DealScore",
    "GameFields",
    "final_position",
    "fresh_deal",
    "last_deal_of",
]

_new_tuple: Final = tuple.__new__

STOCK_LIMIT: Final = 3
"""R18: a player who is not the dealer exchanges at most 3 cards with the stock."""


_FRESH: Final = tuple(
    DealFields((), -1, False, (False,) * n, (-1,) * n, (0,) * n, ()) for n in range(5)
)
"""``_FRESH[n]``: the deal fields between deals, shared (a tuple of tuples never changes)."""


def fresh_deal(
    n: int, pack: tuple[int, ...] = (), cut: tuple[tuple[int, int, bool], ...] = ()
) -> DealFields:
    """The deal fields before the trump card is turned: nobody folded or exchanged."""
    fresh = _FRESH[n]
    if not pack and not cut:
        return fresh
    # tuple.__new__ builds the named tuple without its Python-level __new__ (once a deal)
    return _new_tuple(
        DealFields, (pack, -1, False, fresh.folded, fresh.exchanged, fresh.discards, cut)
    )


def final_position(
    n: int,
    rules: Rules,
    dealer: int,
    deal_number: int,
    scores: tuple[int, ...],
    folds: tuple[bool, ...],
) -> Position:
    """The position a finished game gives: the next dealer and deal number (R4, R34).

    ``dealer`` and ``deal_number`` are the last deal's.  No deal is played from it, since
    someone has won; it is what ``state.position`` and ``view.position`` say at the end.
    """
    return Position(n, rules, left_of(dealer, n), deal_number + 1, scores, folds)


def last_deal_of(position: Position) -> tuple[int, int]:
    """The inverse of :func:`final_position`: the last deal's dealer and deal number."""
    return right_of(position.dealer, position.num_players), position.deal_number - 1
