"""The phases of a deal, as an enum of their own (R11–R34).

Kept apart from :mod:`~bohmisch_watten.phases` (the ``transitions`` machine that moves
between them) so that modules that only name a phase — :mod:`~bohmisch_watten.turns`,
:mod:`~bohmisch_watten.display`, :mod:`~bohmisch_watten.svg` — do not load the machine.
``from bohmisch_watten.phases import Phase`` keeps working: it is the same class.
"""

from __future__ import annotations

import enum

__all__ = ["Phase"]


class Phase(enum.Enum):
    """Where a deal stands.  Only :meth:`GameState.apply` moves from one to the next."""

    # Members are singletons compared by identity, so the identity hash is correct and,
    # unlike Enum's default (hash of the name, in Python), it costs nothing on the hot path.
    __hash__ = object.__hash__

    DEAL = "deal"
    """A chance node: the pack is to be shuffled and cut (R11)."""
    CUT = "cut"
    """The cutting ritual: a Critical is offered to the cutter or the dealer (R12–R14)."""
    EXCHANGE = "exchange"
    """Each player in turn folds or plays and exchanges (R18–R21)."""
    PLAY = "play"
    """Five tricks (R24–R27)."""
    SCORE = "score"
    """Passed through inside ``apply()``: the deal's points are posted (R29–R34)."""
    GAME_OVER = "game_over"
    """Someone reached the goal; ``winners`` and ``losers`` are set (R34)."""
