"""bohmisch_watten: the rules of Böhmisch Watten (Kuddeln, Hudln) as a Python library.

A small set of immutable values — :class:`Card`, :class:`Rules`, the actions and
:class:`GameState` — one way to ask what may happen (:meth:`GameState.legal_actions`)
and one way to make it happen (:meth:`GameState.apply`).  Rule IDs (R1…R35) refer to
the project's rule book.

>>> import random
>>> from bohmisch_watten import new_game
>>> rng = random.Random(7)
>>> state = new_game(4)
>>> while not state.is_terminal:
...     if state.is_chance_node:
...         action = state.sample_chance(rng)
...     else:
...         action = rng.choice(state.legal_actions())
...     state = state.apply(action)
>>> len(state.winners) >= 1 and len(state.losers) >= 1
True
"""

from __future__ import annotations

from .actions import Action, Exchange, Fold, LeaveCritical, PlayCard, Shuffle, TakeCritical
from .cards import BELLI, CRITICALS, DECK, MAXI, SPITZ, Card, Rank, Suit
from .errors import IllegalActionError
from .phases import Phase
from .rules import Overshoot, Rules, Schleck
from .state import GameState, new_game, next_game
from .summary import DealSummary, Trick

__version__ = "0.1.0"

__all__ = [
    "BELLI",
    "CRITICALS",
    "DECK",
    "MAXI",
    "SPITZ",
    "Action",
    "Card",
    "DealSummary",
    "Exchange",
    "Fold",
    "GameState",
    "IllegalActionError",
    "LeaveCritical",
    "Overshoot",
    "Phase",
    "PlayCard",
    "Rank",
    "Rules",
    "Schleck",
    "Shuffle",
    "Suit",
    "TakeCritical",
    "Trick",
    "__version__",
    "new_game",
    "next_game",
]
