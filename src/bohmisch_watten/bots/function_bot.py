"""A plain function as a bot: ``choose(view, rng)`` delegating to ``function(view, rng)``.

The one notion of a bot is an object with ``choose(view, rng) -> Action``
(:class:`~bohmisch_watten.bots.base.Bot`).  A function with the same signature is the
shortest way to write one, so wherever a bot is wanted by name
(:func:`~bohmisch_watten.bots.make_bot`, the arena's ``--bots``) a function is
wrapped in a :class:`FunctionBot`; in code, wrap it yourself:
``play_out(state, [FunctionBot(greedy), RandomBot()], rng)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from ..actions import Action
    from ..views import PlayerView

__all__ = ["FunctionBot"]


def _callable(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not callable(value):
        raise TypeError(f"FunctionBot.function must be callable, got {type(value).__name__}")


@attrs.frozen
class FunctionBot:
    """A bot whose decisions are ``function(view, rng)``.

    It pickles when the function does (a module-level function does), so the arena
    can send it to worker processes.

    Attributes:
        function: called with the seat's view and the bot's generator; returns one of
            ``view.legal_actions()``.
    """

    function: Callable[[PlayerView, random.Random], Action] = attrs.field(validator=_callable)

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """``function(view, rng)``."""
        return self.function(view, rng)
