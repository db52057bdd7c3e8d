"""Play a state out with given bots: to the end of the deal or of the game.

What the arena, a tutorial loop or a test needs: chance nodes (the shuffle, R11) are
drawn from the caller's generator, and each decision is asked of the bot of the seat to
act, which sees only that seat's view (R13, R23).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from ..state import GameState
    from .base import Bot

__all__ = ["play_out"]


def play_out(
    state: GameState,
    bots: Sequence[Bot],
    rng: random.Random,
    *,
    until: Literal["deal", "game"] = "game",
    max_deals: int | None = None,
) -> GameState:
    """Play ``state`` on with ``bots[seat]`` deciding for each seat.

    Args:
        state: where to start (a chance node, a decision, or the end).
        bots: one bot per seat.
        rng: draws the shuffles and is handed to the bots.
        until: ``"deal"`` stops when the current deal is scored (the next deal's
            shuffle is not drawn); ``"game"`` when the game is over (R31–R34).
        max_deals: also stop before the shuffle of a deal with a higher number (a
            safety net: random players can let a game drift for hundreds of deals).

    Returns:
        The last state reached.

    Raises:
        ValueError: if ``bots`` does not hold one bot per seat or ``until`` is unknown.
    """
    if len(bots) != state.num_players:
        raise ValueError(f"play_out needs {state.num_players} bots, got {len(bots)}")
    if until not in ("deal", "game"):
        raise ValueError(f"until must be 'deal' or 'game', got {until!r}")
    deal = state.deal_number
    while not state.is_terminal:
        if state.deal_number != deal and until == "deal":
            break
        if state.is_chance_node:
            if max_deals is not None and state.deal_number > max_deals:
                break
            state = state.apply(state.sample_chance(rng))
        else:
            seat = state.current_player
            assert seat is not None  # neither a chance node nor the end
            state = state.apply(bots[seat].choose(state.view(seat), rng))
    return state
