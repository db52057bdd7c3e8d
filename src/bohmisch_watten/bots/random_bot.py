"""RandomBot: the baseline every other bot should beat."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from ..actions import Action
    from ..views import PlayerView

__all__ = ["RandomBot"]


@attrs.frozen
class RandomBot:
    """Picks a uniformly random legal action from the generator it is handed."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """A uniformly random action of ``view.legal_actions()``."""
        return rng.choice(view.legal_actions())
