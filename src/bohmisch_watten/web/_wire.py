"""What both servers check of a client: its messages and the site its page came from."""

from __future__ import annotations

import unicodedata
from collections.abc import Collection
from typing import Any, Final

from starlette.websockets import WebSocket

from ..notation import parse_json
from ._guard import same_origin
from ._names import confusable_with_own_words, mixed_scripts, normalize

__all__ = ["MAX_MESSAGE_CHARS", "MAX_NAME", "check_message", "display_name", "foreign_origin"]

MAX_MESSAGE_CHARS: Final = 1024
"""The longest client message read; anything longer is refused unread."""

MAX_MESSAGE_DEPTH: Final = 4
"""The deepest nesting of a client message (``{"type": "play", "action": …}``)."""


def check_message(text: str | None) -> dict[str, Any] | str:
    """The message as a dict, or why it is refused (binary, too long, not a JSON object).

    Read by the library's one hardened parser: a repeated key (which a plain
    ``json.loads`` resolves silently to the last one), ``NaN`` and deep nesting are
    refused like any other malformed message.
    """
    if text is None:
        return "send text frames holding a JSON object"
    if len(text) > MAX_MESSAGE_CHARS:
        return f"message too long (at most {MAX_MESSAGE_CHARS} characters)"
    try:
        message = parse_json(
            text, "message", max_chars=MAX_MESSAGE_CHARS, max_depth=MAX_MESSAGE_DEPTH
        )
    except ValueError as error:
        return f"message is not JSON ({error})"
    if not isinstance(message, dict):
        return 'a message is a JSON object such as {"type": "hint"}'
    return message


def foreign_origin(socket: WebSocket, allowed: Collection[str] = ()) -> str | None:
    """Why a connection opened by another site's page is refused, None if it is ours
    (or of a site in ``allowed``, origins such as ``https://example.org``).

    Browsers send ``Origin`` with every websocket; a page of another site must not
    play a seat even if it learnt the link.
    """
    origin = socket.headers.get("origin")
    if origin is None or same_origin(origin, socket.headers.get("host"), frozenset(allowed)):
        return None
    return "connections from other sites are refused"


MAX_NAME: Final = 30
"""The longest display name."""

_REFUSED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Control, format (the direction marks and overrides such as U+202E, zero-width
characters), surrogate, private and unassigned characters, line and paragraph
separators."""


def display_name(text: object) -> str:
    """A person's display name as the table shows it: trimmed, in Unicode's
    compatibility composed form (NFKC: full-width letters read as the letters they
    show), spaces collapsed; "" for none.

    Raises:
        ValueError: naming what is wrong: not a text, too long, a control or direction
            character, lookalike alphabets mixed (``Yоu`` with a Cyrillic ``о``), or a
            name that reads like one the page uses itself ("You", "Seat 2", also as
            ``ＹＯＵ`` or ``Sеat 2``; :mod:`._names`).
    """
    if not isinstance(text, str):
        raise ValueError('a name must be a text such as "Anna"')
    text = normalize(text[: 4 * MAX_NAME])
    for char in text:
        if unicodedata.category(char) in _REFUSED_CATEGORIES:
            raise ValueError(
                f"a name may hold no control or direction character: U+{ord(char):04X}"
                f" in {text.encode('ascii', 'backslashreplace').decode()[:60]!r}"
            )
    name = " ".join(text.split())
    if len(name) > MAX_NAME:
        raise ValueError(f"the name {name[:MAX_NAME]!r}… is longer than {MAX_NAME} characters")
    mixed = mixed_scripts(name)
    if mixed:
        raise ValueError(
            f"a name may not mix the lookalike alphabets {' and '.join(m.title() for m in mixed)}:"
            f" {name.encode('ascii', 'backslashreplace').decode()[:60]!r}"
        )
    if confusable_with_own_words(name):
        raise ValueError(f"{name!r} reads like a name the page gives seats itself: choose another")
    return name
