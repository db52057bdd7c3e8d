"""The bot protocol: a seat's view in, one legal action out.

A bot sees a :class:`~bohmisch_watten.views.PlayerView`, never a
:class:`~bohmisch_watten.GameState`, so it cannot read another hand by accident (R13,
R23).  All of its randomness comes from the generator it is handed, so a seeded game is
the same game every time, in one process or spread over a cluster.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..actions import Action
    from ..views import PlayerView

__all__ = ["Bot", "ranked_hint"]


@runtime_checkable
class Bot(Protocol):
    """Anything with ``choose(view, rng) -> Action`` is a bot.

    Bots should be plain picklable values configured by their constructor (the arena
    sends them to worker processes) and deterministic given ``rng``.
    """

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """One action of ``view.legal_actions()`` for the seat of ``view``."""
        ...  # pragma: no cover


def ranked_hint(
    search: Callable[[PlayerView, random.Random], list[tuple[Action, float]]],
    view: PlayerView,
    rng: random.Random | None,
) -> list[tuple[Action, float]]:
    """The hint contract of every searching bot: ``search(view, rng)``, ranked best first.

    Empty when the seat has no decision to make; without ``rng`` a fixed seed, so the
    same view always gets the same hint (a UI's "hint" button must not flicker).
    """
    if not view.legal_actions():
        return []
    return search(view, rng if rng is not None else random.Random(0))
