"""The messages of engine protocol 1: what the host writes and what it accepts back.

One JSON object per line, UTF-8, ``\\n`` at the end, in both directions (the spec is
``docs/engine-protocol.md``).  The builders here are the only place where a message to
an engine is made, so the leak test that checks them checks everything that crosses the
pipe: a ``decide`` carries the seat's :class:`~bohmisch_watten.views.PlayerView` document
and the legal actions in notation, an ``event`` the seat's events (R13, R23).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, Final

from ..events import Event, to_dicts
from ..notation import rules_to_string
from ..position import Position
from ..rules import Rules
from ..views import PlayerView

__all__ = [
    "GRACE_MS",
    "MAX_LINE_BYTES",
    "PROTOCOL_VERSION",
    "DecideEncoder",
    "decide_message",
    "encode",
    "event_message",
    "hello_message",
    "new_game_message",
    "options_message",
    "quit_message",
]

PROTOCOL_VERSION: Final = 1
"""The version of the protocol this module speaks, sent and expected in ``hello``."""

MAX_LINE_BYTES: Final = 1 << 20
"""The longest line (1 MiB, without its ``\\n``) the host reads from an engine; a longer
one is a protocol error, so an engine cannot make the host buffer without end."""

GRACE_MS: Final = 250
"""What the host waits beyond ``time_ms`` for an answer: pipes, scheduling and a loaded
machine cost time the engine cannot see, so a punctual engine is never forfeited."""


def encode(message: Mapping[str, Any]) -> bytes:
    """One message as one line: compact JSON, UTF-8, ending in ``\\n``."""
    text = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8") + b"\n"


def hello_message() -> dict[str, Any]:
    """``hello``: the first message; the engine answers with its own ``hello``."""
    return {"type": "hello", "protocol": PROTOCOL_VERSION}


def options_message(values: Mapping[str, object]) -> dict[str, Any]:
    """``options``: values for the options the engine declared; no answer."""
    return {"type": "options", "values": dict(values)}


def new_game_message(
    players: int, seat: int, rules: Rules, position: Position, seed: int | None = None
) -> dict[str, Any]:
    """``new_game``: the engine plays ``seat`` from ``position``; no answer.

    ``seed`` (optional in the protocol) lets an engine make its own randomness
    reproducible, as the host's generator is for an in-process bot.
    """
    message: dict[str, Any] = {
        "type": "new_game",
        "players": players,
        "seat": seat,
        "rules": rules_to_string(rules),
        "position": str(position),
    }
    if seed is not None:
        message["seed"] = seed
    return message


def decide_message(view: PlayerView, time_ms: int) -> dict[str, Any]:
    """``decide``: the seat's view, its legal actions in notation, and its time.

    The view document is ``view.to_dict()``: exactly what the seat may know; ``legal``
    is its ``legal_actions`` list (:func:`~bohmisch_watten.notation.action_to_string`
    of each legal action).
    """
    document = view.to_dict()
    return {
        "type": "decide",
        "view": document,
        "legal": list(document["legal_actions"]),
        "time_ms": time_ms,
    }


_PAST_MARK: Final = "\x00past_deals"
_PAST_JSON: Final = json.dumps(_PAST_MARK).encode("utf-8")


class DecideEncoder:
    """Encodes ``decide`` messages of one game, reusing the JSON of the past deals.

    A view carries every finished deal of the game (``past_deals``), most of a late
    decision's bytes; they do not change from one decision to the next, so their text
    is kept and only new deals are encoded.  The line is byte for byte
    ``encode(decide_message(view, time_ms))``.
    """

    def __init__(self) -> None:
        self._past: list[tuple[Any, bytes]] = []

    def encode(self, view: PlayerView, time_ms: int) -> tuple[bytes, list[str]]:
        """The ``decide`` line for ``view`` and the legal action texts it lists."""
        message = decide_message(view, time_ms)
        document = message["view"]
        texts = []
        for index, deal in enumerate(document["past_deals"]):
            if index < len(self._past) and self._past[index][0] == deal:
                texts.append(self._past[index][1])
                continue
            del self._past[index:]
            text = json.dumps(deal, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
            self._past.append((deal, text))
            texts.append(text)
        document["past_deals"] = _PAST_MARK
        line = encode(message).replace(_PAST_JSON, b"[" + b",".join(texts) + b"]", 1)
        return line, message["legal"]


def event_message(events: Iterable[Event]) -> dict[str, Any]:
    """``event``: what happened, as the engine's seat saw it; no answer."""
    return {"type": "event", "events": to_dicts(events)}


def quit_message() -> dict[str, Any]:
    """``quit``: the engine exits (so does one whose stdin reaches its end)."""
    return {"type": "quit"}
