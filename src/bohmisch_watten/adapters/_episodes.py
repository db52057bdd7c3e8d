"""What the three adapters share: rules as flat parameters, episode ends and rewards.

Pure Python, no peer library: OpenSpiel, PettingZoo and Gymnasium must agree on what an
episode is and on what it pays, so they take it from here.

* A **whole-game** episode starts at :func:`~bohmisch_watten.new_game` and ends when
  the game is over (R31–R34) — or when ``max_deals`` deals have been played, because
  random play can let scores drift upwards for hundreds of deals (a seat without a
  trick gains 5 points, R29).  It pays :meth:`GameState.returns` (+1 winner, −1 loser,
  0 else) at the end, and 0 to everybody if the cap was hit.
* A **one-deal** episode starts at the beginning of one deal and ends when its points
  are posted.  It pays every seat minus its score change (R29–R32): scores race down to
  zero, so taking tricks is good; a folded seat gets 0, a doubled deal counts double
  (R30).
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from typing import Final

from ..rules import OPTIONAL_RULES, Rules, rules_values
from ..state import GameState

__all__ = [
    "MAX_DEAL_CHANGE",
    "RULE_PARAMS",
    "action_index",
    "deal_over",
    "deal_rewards",
    "decisions_per_deal",
    "rules_from_params",
]

MAX_DEAL_CHANGE: Final = 10
"""The largest score change of one deal: 5 tricks or none, doubled (R29, R30)."""


RULE_PARAMS: Final[dict[str, bool | int | str]] = {
    **rules_values(Rules()),
    **{name: getattr(Rules(), name) for name in sorted(OPTIONAL_RULES)},
}
"""One flat parameter per :class:`Rules` field, same name and default (enums as str)."""


def rules_from_params(params: Mapping[str, object]) -> Rules:
    """The :class:`Rules` given by the rule parameters in ``params`` (others ignored).

    Raises:
        ValueError: naming the field for a value :class:`Rules` does not accept.
        TypeError: naming the field for a value of the wrong type.
    """
    return Rules(**{name: params[name] for name in RULE_PARAMS if name in params})  # type: ignore[arg-type]


def decisions_per_deal(num_players: int) -> int:
    """An upper bound on the player decisions of one deal.

    At most three looks in the ritual (R12, R14), one exchange decision per seat (R18)
    and five cards per seat (R24).
    """
    return 3 + 6 * num_players


def deal_over(before: GameState, after: GameState) -> bool:
    """Whether the step from ``before`` to ``after`` posted a deal's points (R28)."""
    return after.deal_number != before.deal_number or (after.is_terminal and not before.is_terminal)


def deal_rewards(before: GameState, after: GameState) -> tuple[float, ...]:
    """Per seat, minus the score change from ``before`` to ``after`` (R29–R32).

    Zero for every seat unless the step posted a deal's points.
    """
    return tuple(float(b - a) for b, a in zip(before.scores, after.scores, strict=True))


def action_index(action: object) -> int:
    """``action`` as an int id; numpy integers are welcome, floats and None are not.

    Raises:
        TypeError: naming ``action`` if it is not an integer.
    """
    if isinstance(action, bool):
        raise TypeError("action must be an integer action id, got bool")
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(
            f"action must be an integer action id, got {type(action).__name__}"
        ) from None
