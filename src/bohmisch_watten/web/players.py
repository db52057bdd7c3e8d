"""The computer players of the web table, chosen by name on the command line.

Each bot decides from its seat's :class:`~bohmisch_watten.views.PlayerView` only, so a
bot at the table can no more cheat than a person.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from ..actions import Action, Exchange, PlayCard
from ..views import PlayerView

__all__ = ["BOT_KINDS", "choose", "hint"]

Chooser = Callable[[PlayerView, random.Random], Action]


def _random(view: PlayerView, rng: random.Random) -> Action:
    return rng.choice(view.legal_actions())


def _simple(view: PlayerView, rng: random.Random) -> Action:
    """A plain legal choice: keep the hand, play the lowest legal card."""
    legal = view.legal_actions()
    plays = [a for a in legal if isinstance(a, PlayCard)]
    if plays:
        return min(plays, key=lambda a: (a.card.rank, a.card.suit))
    keep = [a for a in legal if isinstance(a, Exchange) and not a.discard]
    return keep[0] if keep else legal[0]


BOT_KINDS: Final[dict[str, Chooser]] = {
    "random": _random,
    "heuristic": _simple,
    "search": _simple,
}
"""The bot names ``serve --bots`` accepts, and how each one chooses."""


def choose(kind: str, view: PlayerView, rng: random.Random) -> Action:
    """The action the bot ``kind`` takes in ``view`` (its seat must be to act)."""
    return BOT_KINDS[kind](view, rng)


def hint(view: PlayerView) -> Action | None:
    """A suggested action for the seat of ``view``, None when it is not to act."""
    if not view.legal_actions():
        return None
    return _simple(view, random.Random(0))
