"""Where a one-deal episode starts: a position text, or the default deal-2 position."""

from __future__ import annotations

from ..rules import Rules
from ..state import GameState, new_game

__all__ = ["deal_start"]


def deal_start(num_players: int, rules: Rules, position: str) -> GameState:
    """The state at the start of the deal given by ``position`` (placeholder)."""
    if position:
        raise ValueError("position texts are not supported yet")
    return new_game(num_players, rules=rules, dealer=0)
