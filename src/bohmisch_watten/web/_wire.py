"""What both servers check of a client: its messages and the site its page came from."""

from __future__ import annotations

from typing import Any, Final
from urllib.parse import urlsplit

from starlette.websockets import WebSocket

from ..notation import parse_json

__all__ = ["MAX_MESSAGE_CHARS", "check_message", "foreign_origin"]

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


def foreign_origin(socket: WebSocket) -> str | None:
    """Why a connection opened by another site's page is refused, None if it is ours.

    Browsers send ``Origin`` with every websocket; a page of another site must not
    play a seat even if it learnt the link.
    """
    origin = socket.headers.get("origin")
    if origin is None or urlsplit(origin).netloc == socket.headers.get("host"):
        return None
    return "connections from other sites are refused"
