"""The one page of the web table: HTML, CSS and script in one document, no external assets.

The card faces are drawn by :mod:`bohmisch_watten.svg` and embedded once; the script
only places them, so the page needs nothing from any other host.  Automation hooks:
every card element carries ``data-card`` (its notation) and, when it may be clicked
now, ``data-legal="true"``; the take, leave, fold and confirm-exchange buttons carry
``data-action``; ``<body>`` carries ``data-phase``, ``data-deal`` and ``data-turn``
(``you`` when this seat is to act).
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

from ..cards import DECK
from ..svg import card_back_svg, card_svg
from ._players import BOT_KINDS

__all__ = ["render_lobby", "render_page"]


@lru_cache(maxsize=4)
def _asset(name: str) -> str:
    """A file of ``assets/`` (page template, style, script), read once."""
    return resources.files(__package__).joinpath("assets", name).read_text(encoding="utf-8")


def _json_for_script(value: object) -> str:
    """JSON that is safe inside a ``<script>`` element (no ``</`` can end it early)."""
    return json.dumps(value).replace("</", "<\\/")


@lru_cache(maxsize=1)
def _cards_json() -> str:
    faces = {str(card): card_svg(card) for card in DECK}
    faces["back"] = card_back_svg()
    return _json_for_script(faces)


def render_page(token: str | None, *, table: int | None = None) -> str:
    """The page for the seat whose link carries ``token`` (the page itself holds no cards
    of any game: everything game-specific arrives over the websocket).

    Args:
        token: the seat link's token; None for a spectator's page of ``table``.
        table: the table's id on the game server (:mod:`.server`), None for the one
            table of :func:`~bohmisch_watten.web.app.create_app`.
    """
    base = "" if table is None else f"/api/tables/{table}"
    lobby = "" if table is None else ' <a href="/" class="lobby">Lobby</a>'
    return (
        _asset("page.html")
        .replace("{record}", f"{base}/record")
        .replace("{table}", _json_for_script(table))
        .replace("{lobby}", lobby)
        .replace("{css}", _asset("table.css"))
        .replace("{script}", _asset("table.js"))
        .replace("{review}", _json_for_script(f"{base}/review"))
        .replace("{token}", _json_for_script(token))
        .replace("{cards}", _cards_json())
    )


def render_lobby() -> str:
    """The lobby: the open tables and a form to create one, both through the HTTP API."""
    return (
        _asset("lobby.html")
        .replace("{css}", _asset("table.css"))
        .replace("{bots}", _json_for_script(list(BOT_KINDS)))
    )
