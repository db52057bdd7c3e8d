"""HeuristicBot: a documented strategy a club player would recognise.

The decision rules and the rule IDs they rest on are listed in
:mod:`bohmisch_watten.bots.policy`.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import attrs

from .policy import decide

if TYPE_CHECKING:
    from ..actions import Action
    from ..views import PlayerView

__all__ = ["HeuristicBot"]


@attrs.frozen
class HeuristicBot:
    """Keeps Criticals and high trumps, folds weak hands, wins tricks cheaply.

    Deterministic: the generator is not used, so it is also a fixed, repeatable
    opponent for measuring other bots.  See :mod:`bohmisch_watten.bots.policy` for each
    decision rule and the rules (R7–R29) it depends on.
    """

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The heuristic's action for the seat of ``view``."""
        return decide(view.phase, view.legal_actions(), view.hand, view.trick, view.trump_card)
