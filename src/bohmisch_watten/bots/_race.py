"""The race to zero: each seat's chance to win from the scores, and a deal's worth in points.

The game is a race (R28–R34): what a deal is worth is not its points alone but how it
changes the chance to be the first to reach zero.  Taking the tricks that end the game
is worth more than its points, letting another seat take the tricks that end it costs
more, and near the end a seat plays for the tricks that win rather than for the most
tricks.  The model is a multinomial logit over the seats, the Bradley–Terry model of a
race: every score ``s`` has a *strength* ``STRENGTH[players - 2][s - LOW]`` and

    P(seat i wins) = exp(strength(s_i)) / sum_j exp(strength(s_j))

while the game goes on; once it is over (R31–R34) a winner's share is exactly 1/k for k
winners.  The tables are fitted by maximum likelihood on heuristic games
(``benchmarks/race_model.py``), so a lower score is never worse.

A bot compares actions in points, the unit of the rules and of the bots' hints, so
:class:`RaceValue` turns a chance into points *of the current position*: the change of
the seat's chance divided by what one point of its own score is worth now.  Far from
the goal this is the deal's points (the race is then linear); near it, a deal that ends
the game weighs what the game is worth.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..scoring import game_result
from ._race_tables import LOW, STRENGTH

if TYPE_CHECKING:
    from ..rules import Rules

__all__ = ["RaceValue", "strength", "win_chances"]

_STEP = 2
"""Points either side of the seat's score over which one point's worth is measured."""


def strength(score: int, players: int) -> float:
    """The fitted strength of ``score`` in a game of ``players`` (clamped to the table).

    The tables are fitted for two to four players; five to seven (the 36-card pack, R1)
    use the four-player table, the nearest fitted.  The logit itself counts every seat
    (the sum runs over all of them), so a seat's chance still shrinks with more rivals;
    only how fast a seat's strength falls with its score is the four-player one.  The
    race term is not turned off there instead: with many seats another seat near the
    goal is common, and stopping it is what the race is for.
    """
    table = STRENGTH[min(players, len(STRENGTH) + 1) - 2]
    return table[min(max(score, LOW), LOW + len(table) - 1) - LOW]


def _going_on(scores: Sequence[int]) -> tuple[float, ...]:
    """Each seat's chance if the game goes on from ``scores`` (the logit of the module)."""
    n = len(scores)
    weights = [math.exp(strength(s, n)) for s in scores]
    total = sum(weights)
    return tuple(w / total for w in weights)


def win_chances(scores: Sequence[int], rules: Rules) -> tuple[float, ...]:
    """Each seat's chance to win the game from ``scores`` after a deal (R31–R34).

    Exact once the game is over (a winner's share is 1/k for k winners, everybody
    else 0); the race model's logit while it goes on.
    """
    winners, _ = game_result(scores, rules)
    if winners:
        share = 1.0 / len(winners)
        return tuple(share if seat in winners else 0.0 for seat in range(len(scores)))
    return _going_on(scores)


class RaceValue:
    """What the scores after a deal are worth to ``me``, in points of the scores now.

    ``value(after)`` is the change of ``me``'s chance to win from the scores before the
    deal to ``after``, divided by the chance one point of his own score is worth now
    (measured over ``_STEP`` points either side): about minus his deal points while the
    game goes on, and the game's whole stake when the deal ends it (R31–R34).
    """

    def __init__(self, scores: Sequence[int], me: int, rules: Rules) -> None:
        self.me = me
        self.rules = rules
        before = list(scores)
        self.chance = _going_on(before)[me]
        before[me] = scores[me] - _STEP
        better = _going_on(before)[me]
        before[me] = scores[me] + _STEP
        worse = _going_on(before)[me]
        self.point = max((better - worse) / (2 * _STEP), 1e-4)

    def value(self, after: Sequence[int]) -> float:
        """The worth, in points now, of the deal that leaves the scores ``after``."""
        return (win_chances(after, self.rules)[self.me] - self.chance) / self.point
