"""The messages of engine protocols 1 and 2: what the host writes and accepts back.

One JSON object per line, UTF-8, ``\\n`` at the end, in both directions (the spec is
``docs/engine-protocol.md``, the JSON Schemas are ``schemas/*.json`` beside this
module).  The builders here are the only place where a message to an engine is made,
so the leak test that checks them checks everything that crosses the pipe: a ``decide``
carries the seat's :class:`~bohmisch_watten.views.PlayerView` document and the legal
actions in notation, an ``event`` the seat's events, a ``deal_over`` a finished deal's
public record (R13, R23).

Protocol 2 differs from 1 in one way: its ``decide`` carries the current deal's view
only, and every finished deal is sent once, in a ``deal_over``, so a message's size and
its cost to read do not grow with the game.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, Final

from ..deals import DealSummary, summary_to_dict
from ..events import Event, to_dicts
from ..notation import rules_to_string
from ..position import Position
from ..rules import Rules, rules_values
from ..views import PlayerView

__all__ = [
    "DEAL_VIEW_OMITS",
    "GRACE_MS",
    "MAX_LINE_BYTES",
    "PROTOCOLS",
    "PROTOCOL_VERSION",
    "DecideEncoder",
    "deal_over_message",
    "deal_view",
    "decide_message",
    "encode",
    "event_message",
    "hello_message",
    "new_game_message",
    "options_message",
    "quit_message",
]

PROTOCOL_VERSION: Final = 2
"""The newest protocol this module speaks."""

PROTOCOLS: Final = (1, 2)
"""Every protocol the host speaks, offered in its ``hello``; the engine picks one."""

DEAL_VIEW_OMITS: Final = ("legal_actions", "last_deal", "past_deals")
"""The keys of a protocol 1 view that a protocol 2 ``decide`` leaves out: the legal
actions are the message's ``legal``, and finished deals come once, in ``deal_over``."""

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
    """``hello``: the first message; the engine answers with its own ``hello``.

    ``protocol`` stays 1, what every engine understands; ``protocols`` offers the
    versions the host speaks, and the engine's answer names the one it chose.
    """
    return {"type": "hello", "protocol": 1, "protocols": list(PROTOCOLS)}


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


def decide_message(view: PlayerView, time_ms: int, protocol: int = 1) -> dict[str, Any]:
    """``decide``: the seat's view, its legal actions in notation, and its time.

    In protocol 1 the view document is ``view.to_dict()``: exactly what the seat may
    know, every finished deal included.  In protocol 2 it is :func:`deal_view`, the
    same without :data:`DEAL_VIEW_OMITS`.  ``legal`` is the notation
    (:func:`~bohmisch_watten.notation.action_to_string`) of each legal action.
    """
    if protocol == 1:
        document = view.to_dict()
        legal = list(document["legal_actions"])
    else:
        document = deal_view(view)
        legal = [str(action) for action in view.legal_actions()]
    return {"type": "decide", "view": document, "legal": legal, "time_ms": time_ms}


def _plays(plays: Iterable[tuple[int, object]]) -> list[dict[str, Any]]:
    return [{"seat": seat, "card": str(card)} for seat, card in plays]


def deal_view(view: PlayerView) -> dict[str, Any]:
    """The view of a protocol 2 ``decide``: ``view.to_dict()`` without the keys of
    :data:`DEAL_VIEW_OMITS`, built without them, so its cost does not grow with the game.

    Everything of the game before this deal that a player may need is in the deal's
    ``position`` (scores, dealer, deal number, who folded last) or was sent in a
    ``deal_over``.
    """
    trump = view.trump_card
    return {
        "player": view.player,
        "num_players": view.num_players,
        "rules": rules_values(view.rules),
        "phase": view.phase.value,
        "dealer": view.dealer,
        "deal_number": view.deal_number,
        "scores": list(view.scores),
        "current_player": view.current_player,
        "hand": [str(card) for card in view.hand],
        "discards": [str(card) for card in view.discards],
        "draws": [str(card) for card in view.draws],
        "cut": [
            {
                "seat": seat,
                "card": None if card is None else str(card),
                "taken": taken,
                "critical": critical,
            }
            for seat, card, taken, critical in view.cut_looks
        ],
        "trump_card": None if trump is None else str(trump),
        "trump_card_taken": view.trump_card_taken,
        "folded": list(view.folded),
        "exchanged": list(view.exchanged),
        "stock_size": view.stock_size,
        "hand_sizes": list(view.hand_sizes),
        "trick": _plays(view.trick),
        "tricks": [{"plays": _plays(trick.plays), "winner": trick.winner} for trick in view.tricks],
        "tricks_won": list(view.tricks_won),
        "winners": list(view.winners),
        "losers": list(view.losers),
        "position": str(view.position),
    }


def deal_over_message(deal: DealSummary) -> dict[str, Any]:
    """``deal_over`` (protocol 2): a finished deal, once; no answer.

    ``deal`` is the entry a protocol 1 view lists in ``past_deals``: all of it public.
    """
    return {"type": "deal_over", "deal": summary_to_dict(deal, cut=True)}


_PAST_MARK: Final = "\x00past_deals"
_PAST_JSON: Final = json.dumps(_PAST_MARK).encode("utf-8")


class DecideEncoder:
    """Encodes the ``decide`` messages of one game for one protocol.

    Protocol 1: a view carries every finished deal of the game (``past_deals``), most
    of a late decision's bytes; they do not change from one decision to the next, so
    their text is kept and only new deals are encoded.  The line is byte for byte
    ``encode(decide_message(view, time_ms))``.

    Protocol 2: the lines are ``deal_over`` for each finished deal not sent yet in this
    game, oldest first, then ``encode(decide_message(view, time_ms, 2))``.
    """

    def __init__(self, protocol: int = 1) -> None:
        self.protocol = protocol
        self._past: list[tuple[Any, bytes]] = []
        self._deals_sent = 0

    def encode(self, view: PlayerView, time_ms: int) -> tuple[bytes, list[str]]:
        """The lines to write before ``view``'s decision, and its legal action texts."""
        if self.protocol == 1:
            return self._encode_1(view, time_ms)
        past = view.past_summaries
        lines = b""
        if len(past) != self._deals_sent:
            if len(past) == self._deals_sent + 1 and past.last is not None:
                new: list[DealSummary] = [past.last]
            else:  # first sight of a game under way: every deal the view knows of
                new = list(past)[self._deals_sent :]
            lines = b"".join(encode(deal_over_message(deal)) for deal in new)
            self._deals_sent = len(past)
        message = decide_message(view, time_ms, 2)
        return lines + encode(message), message["legal"]

    def _encode_1(self, view: PlayerView, time_ms: int) -> tuple[bytes, list[str]]:
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
