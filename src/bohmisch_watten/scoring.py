"""Scoring a deal and deciding the end of the game, as pure functions (R28–R34)."""

from __future__ import annotations

from collections.abc import Sequence
from operator import add as _add
from typing import Final

from .cards import Suit
from .rules import Overshoot, Rules

__all__ = ["deal_points", "game_result", "game_returns", "post_scores"]

_HEARTS: Final = Suit.HEARTS


def deal_points(
    tricks_won: Sequence[int], folded: Sequence[bool], trump_suit: int, rules: Rules
) -> tuple[int, ...]:
    """The raw points of a deal per seat, before R32 (R29, R30).

    An active player scores −1 per trick, or +5 for no trick; folded players score 0;
    with Hearts as trumps (and ``hearts_double``) everything counts double.
    """
    factor = 2 if trump_suit == _HEARTS and rules.hearts_double else 1
    return tuple(
        [
            0 if out else (-tricks * factor if tricks else 5 * factor)
            for tricks, out in zip(tricks_won, folded, strict=True)
        ]
    )


def post_scores(scores: Sequence[int], points: Sequence[int], rules: Rules) -> tuple[int, ...]:
    """The scores after a deal (R31, R32).

    With ``overshoot = added_back`` a player who would go below zero ends at his score
    before the deal plus the excess (2 points, takes 3 tricks: 2 + 1 = 3).
    """
    if len(scores) != len(points):
        raise ValueError("post_scores: scores and points must have one entry per seat")
    posted = tuple(map(_add, scores, points))  # R31
    if rules.overshoot is not Overshoot.ADDED_BACK or min(posted) >= 0:
        return posted
    return tuple(  # R32: the excess below zero is added back
        [
            before - after if after < 0 else after
            for before, after in zip(scores, posted, strict=True)
        ]
    )


def reached_goal(score: int, rules: Rules) -> bool:
    """Whether ``score`` reaches the goal: 0 or less (R31), exactly 0 (R32), 50+ (R33)."""
    if rules.plus_fifty and score >= 50:
        return True
    if rules.overshoot is Overshoot.ADDED_BACK:
        return score == 0
    return score <= 0


def game_result(scores: Sequence[int], rules: Rules) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Winners and losers after a deal, or two empty tuples if the game goes on (R34).

    Winners are the players who reached the goal; losers the highest scores among the
    rest.  If everybody reached the goal, the lowest scores win and the highest lose;
    if all scores are then equal, nobody has won yet and the game goes on. **[decision]**
    """
    if min(scores) > 0 and (not rules.plus_fifty or max(scores) < 50):
        return (), ()  # nobody can have reached the goal (R31-R33): the common case, cheaply
    reached = tuple(seat for seat, s in enumerate(scores) if reached_goal(s, rules))
    if not reached:
        return (), ()
    if len(reached) == len(scores):
        low, high = min(scores), max(scores)
        if low == high:
            return (), ()
        return (
            tuple(seat for seat, s in enumerate(scores) if s == low),
            tuple(seat for seat, s in enumerate(scores) if s == high),
        )
    rest = [seat for seat in range(len(scores)) if seat not in reached]
    high = max(scores[seat] for seat in rest)
    return reached, tuple(seat for seat in rest if scores[seat] == high)


def game_returns(
    num_players: int, winners: Sequence[int], losers: Sequence[int]
) -> tuple[float, ...]:
    """Per seat, +1.0 for a winner, -1.0 for a loser, 0.0 for everybody else (R34).

    Before the end of the game both lists are empty, so every return is 0.0: the
    zero-until-terminal convention of learning libraries.
    """
    out = [0.0] * num_players
    for seat in winners:
        out[seat] = 1.0
    for seat in losers:
        out[seat] = -1.0
    return tuple(out)
