"""Where a one-deal episode starts: a position text, or the default deal-2 position."""

from __future__ import annotations

from ..position import Position
from ..rules import Rules
from ..state import GameState

__all__ = ["deal_position", "deal_start"]


def deal_position(num_players: int, rules: Rules, text: str = "") -> Position:
    """The :class:`Position` of a one-deal episode.

    ``text`` is a position's text form; empty means the default: deal 2, dealer seat 1
    (the dealer moves on, R4), everyone at the start score and nobody folded before.
    Deal 1 would be a poor default because nobody may fold in it (R21.1).

    Raises:
        FormatError: for a text :meth:`Position.parse` refuses.
        ValueError: if the position's players or rules differ from ``num_players`` and
            ``rules`` (one game cannot have two of either).
    """
    if not text:
        return Position(
            num_players, rules, 1 % num_players, 2, (rules.start_score,) * num_players,
            (False,) * num_players,
        )  # fmt: skip
    position = Position.parse(text)
    if position.num_players != num_players:
        raise ValueError(
            f"the position is for {position.num_players} players, but players={num_players}"
        )
    if position.rules != rules:
        raise ValueError(
            f"the position's rules {position.rules} differ from the rule parameters {rules}"
        )
    return position


def deal_start(num_players: int, rules: Rules, text: str = "") -> GameState:
    """The state at the chance node of :func:`deal_position`'s deal."""
    return GameState.from_position(deal_position(num_players, rules, text))
