"""The one page of the web table: HTML, CSS and script in one document, no external assets.

The card faces are drawn by :mod:`bohmisch_watten.svg` and embedded once; the script
only places them, so the page needs nothing from any other host.  Automation hooks:
every card element carries ``data-card`` (its notation) and, when it may be clicked
now, ``data-legal="true"``; the take, leave, fold and confirm-exchange buttons carry
``data-action``; ``<body>`` carries ``data-phase``, ``data-deal`` and ``data-turn``
(``you`` when this seat is to act).
"""

from __future__ import annotations

import html
import json
import re
from functools import lru_cache
from importlib import resources
from typing import Final

from ..cards import CARDS
from ..rules import Rules, rules_values, suggested_rules
from ..svg import card_back_svg, card_svg
from ._i18n import DEFAULT, LANGUAGES, gettext, messages
from ._players import BOT_KINDS

__all__ = ["render_lobby", "render_page"]


@lru_cache(maxsize=8)  # the five files of assets/, with room for one more
def _asset(name: str) -> str:
    """A file of ``assets/`` (page template, style, script), read once."""
    return resources.files(__package__).joinpath("assets", name).read_text(encoding="utf-8")


def _json_for_script(value: object) -> str:
    """JSON that is safe inside a ``<script>`` element (no ``</`` can end it early)."""
    return json.dumps(value).replace("</", "<\\/")


@lru_cache(maxsize=1)
def _cards_json() -> str:
    faces = {str(card): card_svg(card) for card in CARDS}
    faces["back"] = card_back_svg()
    return _json_for_script(faces)


_MARKED: Final = re.compile(r"\[\[(.+?)\]\]")
"""A fixed text of a template, ``[[Open tables]]``: its English id in the catalogs."""


def _translate(template: str, lang: str) -> str:
    """The template with every ``[[text]]`` in ``lang``, escaped for HTML, and the
    language switch (``?lang=``: the server remembers it in a cookie)."""
    switch = " | ".join(
        f'<a href="?lang={code}" data-lang="{code}" hreflang="{code}"'
        + (' aria-current="true"' if code == lang else "")
        + f">{code.upper()}</a>"
        for code in LANGUAGES
    )
    text = _MARKED.sub(lambda m: html.escape(gettext(lang, m.group(1)), quote=True), template)
    return text.replace("{lang}", lang).replace("{langs}", f' <nav class="langs">{switch}</nav>')


def _catalog_json(lang: str) -> str:
    """The catalog for the page's script (inserted last: its texts hold ``{fields}``)."""
    return _json_for_script(dict(messages(lang)))


def render_page(token: str | None, *, table: int | None = None, lang: str = DEFAULT) -> str:
    """The page for the seat whose link carries ``token`` (the page itself holds no cards
    of any game: everything game-specific arrives over the websocket).

    Args:
        token: the seat link's token; None for a spectator's page of ``table``.
        table: the table's id on the game server (:mod:`.server`), None for the one
            table of :func:`~bohmisch_watten.web.app.create_app`.
        lang: the page's language (:data:`~._i18n.LANGUAGES`).
    """
    base = "" if table is None else f"/api/tables/{table}"
    lobby = "" if table is None else f' <a href="/" class="lobby">{gettext(lang, "Lobby")}</a>'
    return (
        _translate(_asset("page.html"), lang)
        .replace("{langjs}", _json_for_script(lang))
        .replace("{record}", f"{base}/record")
        .replace("{table}", _json_for_script(table))
        .replace("{lobby}", lobby)
        .replace("{css}", _asset("table.css"))
        .replace("{script}", _asset("table.js"))
        .replace("{review}", _json_for_script(f"{base}/review"))
        .replace("{token}", _json_for_script(token))
        .replace("{cards}", _cards_json())
        .replace("{messages}", _catalog_json(lang))
    )


@lru_cache(maxsize=1)
def _rules_json() -> str:
    """The rules the lobby's choices start from: every field's default, and the rules
    :func:`~bohmisch_watten.suggested_rules` suggests for each pack and table size
    (RULES.md §9.3: ``plus_fifty`` from five seats on, so such a game ends).

    A suggestion names only the fields that differ from the defaults.  The page fills
    its choices with them and writes the chosen ones back as the rules
    notation the API reads, so the person never has to know it.
    """
    suggested = {
        str(pack): {
            str(players): rules_values(suggested_rules(players, pack), changed_only=True)
            for players in range(2, Rules(pack=pack).max_players + 1)
        }
        for pack in (32, 36)
    }
    return _json_for_script({"defaults": rules_values(Rules()), "suggested": suggested})


def render_lobby(lang: str = DEFAULT) -> str:
    """The lobby in ``lang``: the open tables and a form to create one, both through the
    HTTP API; each rule variant is a named choice that starts at the suggested rules."""
    return (
        _translate(_asset("lobby.html"), lang)
        .replace("{css}", _asset("table.css") + _asset("lobby.css"))
        .replace("{bots}", _json_for_script(list(BOT_KINDS)))
        .replace("{suggestions}", _rules_json())
        .replace("{messages}", _catalog_json(lang))
    )
