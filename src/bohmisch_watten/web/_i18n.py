"""The players' language: gettext catalogs (``locale/*/LC_MESSAGES/web.po``) read with Babel.

The people who play Böhmisch Watten mostly speak German, so the lobby, the table page
and the log come in German and English.  The ``.po`` files are the only source: they
are parsed by :mod:`babel.messages.pofile` when first needed, so a clean clone needs no
compile step and no ``.mo`` file can drift from its ``.po``.  The message ids are the
English texts with ``{named}`` fields; a missing or empty translation falls back to
the English id, so a page is never blank.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from importlib import resources
from typing import Final

from babel.messages.pofile import read_po
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from ..cards import CARDS, Card, Rank, Suit

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "card_name",
    "choose_language",
    "gettext",
    "messages",
    "suit_name",
]

LANGUAGES: Final = ("de", "en")
"""The languages with a catalog, German first: it is the players' own."""
DEFAULT: Final = "en"
"""The language when a visitor's browser asks for none of :data:`LANGUAGES`."""

_SUITS_DE: Final = {
    Suit.ACORNS: "Eichel",
    Suit.LEAVES: "Gras",
    Suit.HEARTS: "Herz",
    Suit.BELLS: "Schellen",
}
_RANKS_DE: Final = {Rank.UNTER: "Unter", Rank.OBER: "Ober", Rank.KING: "König", Rank.ACE: "Sau"}
_CRITICALS: Final = {"HK": "Maxi", "S7": "Belli", "E7": "Spitz"}


@lru_cache(maxsize=len(LANGUAGES))
def messages(lang: str) -> Mapping[str, str]:
    """The catalog of ``lang`` as a mapping from English id to translation (only the
    translated ones).

    Raises:
        ValueError: for a language without a catalog.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"lang must be one of {LANGUAGES}, not {lang!r}")
    path = resources.files(__package__).joinpath("locale", lang, "LC_MESSAGES", "web.po")
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    return {
        str(m.id): str(m.string)
        for m in catalog
        if m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string
    }


def gettext(lang: str, message: str, /, **fields: object) -> str:
    """``message`` in ``lang``, with its ``{fields}`` filled in (English if untranslated)."""
    text = messages(lang).get(message, message)
    return text.format(**fields) if fields else text


def _german_name(card: Card) -> str:
    rank = _RANKS_DE.get(card.rank, card.rank.symbol)
    name = f"{_SUITS_DE[card.suit]} {rank}"
    critical = _CRITICALS.get(str(card))
    return f"{critical} ({name})" if critical else name


_GERMAN_NAMES: Final = tuple(_german_name(card) for card in CARDS)
"""Every card's German name by index: the log names a card on most lines."""


def card_name(card: Card, lang: str) -> str:
    """A card as the players say it: ``Herz König`` (de); English keeps the notation, ``HK``.

    The three Criticals (R7) are called by their names: ``Maxi (Herz König)``.
    """
    if lang != "de":
        return str(card)
    return _GERMAN_NAMES[card.index]


def _parse_accept(header: str) -> list[tuple[float, int, str]]:
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        primary = tag.strip().lower().partition("-")[0]
        if primary and quality > 0:
            ranked.append((-quality, position, primary))
    return sorted(ranked)


def choose_language(
    accept_language: str | None, *, asked: str | None = None, cookie: str | None = None
) -> str:
    """The language of one request: an explicit ``?lang=`` first, then the cookie that
    remembers the last switch, then the browser's ``Accept-Language``, then :data:`DEFAULT`.

    Unknown or malformed values are ignored, never an error: a header is the visitor's.
    """
    for choice in (asked, cookie):
        if choice is not None and choice.strip().lower() in LANGUAGES:
            return choice.strip().lower()
    for _, _, primary in _parse_accept(accept_language or ""):
        if primary in LANGUAGES:
            return primary
        if primary == "*":
            return DEFAULT
    return DEFAULT


def suit_name(suit: Suit, lang: str) -> str:
    """A suit as the players say it: ``Herz`` (de), ``Hearts`` (en)."""
    return _SUITS_DE[suit] if lang == "de" else suit.label


COOKIE: Final = "lang"
"""The cookie that remembers a visitor's switch (``?lang=de``) for the next pages."""


def localized_html(
    request: Request, render: Callable[[str], str], headers: Mapping[str, str]
) -> Response:
    """The page ``render(lang)`` in the request's language (:func:`choose_language`); an
    explicit ``?lang=`` is remembered in the :data:`COOKIE` for a year."""
    asked = request.query_params.get("lang")
    lang = choose_language(
        request.headers.get("accept-language"), asked=asked, cookie=request.cookies.get(COOKIE)
    )
    response = HTMLResponse(render(lang), headers={**headers, "Vary": "Accept-Language, Cookie"})
    if asked is not None and asked.strip().lower() == lang:
        response.set_cookie(COOKIE, lang, max_age=365 * 86400, httponly=True, samesite="lax")
    return response
