"""The web table: play Böhmisch Watten in a browser with friends and bots.

``python -m bohmisch_watten serve`` starts it (extra ``[web]``: Starlette, uvicorn,
websockets).  The package is the reference embedding of the library in a UI: the
server keeps the :class:`~bohmisch_watten.GameState`, sends each seat only frames built
from its :class:`~bohmisch_watten.views.PlayerView` (:mod:`.table`), and draws cards with
:mod:`bohmisch_watten.svg` (:mod:`.page`).  :mod:`.table` needs nothing beyond the
library; :mod:`.app` (one table in memory) and :mod:`.server` (the game server: many
tables stored through :mod:`.storage`, a lobby, an API, spectators) need Starlette.
"""

from __future__ import annotations

from .table import Seat, Table, TableError

__all__ = ["Seat", "Table", "TableError"]
