"""The computer players of the web table, chosen by name on the command line.

They are the library's own bots (:mod:`bohmisch_watten.bots`), each deciding from its
seat's :class:`~bohmisch_watten.views.PlayerView` only, so a bot at the table can no
more cheat than a person; the hint button asks the expert bot.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Final

from ..actions import Action
from ..bots import Bot, ExpertBot, make_bot
from ..bots.registry import BOT_NAMES
from ..views import PlayerView

__all__ = ["BOT_KINDS", "check", "choose", "hint"]

BOT_KINDS: Final = BOT_NAMES
"""The bot names ``serve --bots`` accepts; parameters may follow (``search:rollouts=60``)."""

_HINTS: Final = ExpertBot()


@lru_cache(maxsize=8)
def _bot(kind: str) -> Bot:
    return make_bot(kind)


def check(kind: str) -> None:
    """Raise ValueError, saying why, if ``kind`` names no bot (see :func:`make_bot`)."""
    _bot(kind)


def choose(kind: str, view: PlayerView, rng: random.Random) -> Action:
    """The action the bot ``kind`` takes in ``view`` (its seat must be to act)."""
    return _bot(kind).choose(view, rng)


def hint(view: PlayerView) -> Action | None:
    """The expert bot's best action for the seat of ``view``; None when it is not to act."""
    ranked = _HINTS.hint(view)
    return ranked[0][0] if ranked else None
