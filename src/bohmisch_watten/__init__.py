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

import importlib
from types import ModuleType
from typing import Final

from ._cores import native_core
from .actions import Action, Exchange, Fold, LeaveCritical, PlayCard, Shuffle, TakeCritical
from .cards import BELLI, CRITICALS, DECK, MAXI, SPITZ, Card, Rank, Suit
from .deals import DealSummary, Trick
from .encoding import (
    ACTION_TABLE_VERSION,
    NUM_ACTION_IDS,
    action_to_id,
    id_to_action,
    legal_action_mask,
)
from .errors import FormatError, IllegalActionError, warn_deprecated
from .notation import (
    MAX_DOCUMENT_CHARS,
    action_to_string,
    parse_action,
    parse_card,
    parse_rules,
    rules_to_string,
)
from .phases import Phase
from .position import Position
from .records import GameRecord, load_record, read_records, replay, write_records
from .rules import Overshoot, Rules, Schleck, suggested_rules
from .serialization import FORMAT_VERSION, from_json, to_json
from .state import GameState, new_game, next_game
from .tricks import card_strength
from .views import PlayerView, PublicDeal

__version__ = "0.2.0"
"""The release, written only here: the build (``[tool.setuptools.dynamic]``), the docs and
the changelog's newest release section read or match it."""

__all__ = [
    "ACTION_TABLE_VERSION",
    "BELLI",
    "CRITICALS",
    "DECK",
    "FORMAT_VERSION",
    "MAXI",
    "MAX_DOCUMENT_CHARS",
    "NUM_ACTION_IDS",
    "SPITZ",
    "Action",
    "Card",
    "DealSummary",
    "Exchange",
    "Fold",
    "FormatError",
    "GameRecord",
    "GameState",
    "IllegalActionError",
    "LeaveCritical",
    "Overshoot",
    "Phase",
    "PlayCard",
    "PlayerView",
    "Position",
    "PublicDeal",
    "Rank",
    "Rules",
    "Schleck",
    "Shuffle",
    "Suit",
    "TakeCritical",
    "Trick",
    "__version__",
    "action_to_id",
    "action_to_string",
    "card_strength",
    "from_json",
    "id_to_action",
    "legal_action_mask",
    "load_record",
    "native_core",
    "new_game",
    "next_game",
    "parse_action",
    "parse_card",
    "parse_rules",
    "read_records",
    "replay",
    "rules_to_string",
    "suggested_rules",
    "to_json",
    "write_records",
]

_DEPRECATED_MODULES: Final = {
    "phase": "phases",
    "facts": "deals",
    "summary": "deals",
    "tables": "tricks",
    "turns": "seats",
    "exchange_options": "actions",
    "action_ids": "encoding",
    "display": "state_text",
    "cli": "commands.cli",
}
"""Modules of release 0.2.0 merged into another: old name → the module that holds its names.

``bohmisch_watten.summary`` (an attribute of the package, as after ``import
bohmisch_watten``) still gives the new module, with a :class:`DeprecationWarning`,
until :data:`~bohmisch_watten.errors.REMOVED_IN`; ``from bohmisch_watten.summary import
…`` does not, so write ``from bohmisch_watten.deals import …`` (or import the name from
the package itself).
"""


def __getattr__(name: str) -> ModuleType:
    """The deprecated module names of :data:`_DEPRECATED_MODULES`, with a warning."""
    new = _DEPRECATED_MODULES.get(name)
    if new is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warn_deprecated(f"bohmisch_watten.{name}", f"its names are in bohmisch_watten.{new}")
    return importlib.import_module(f"{__name__}.{new}")
