"""The engine side: any bot of this library served over the engine protocol.

``python -m bohmisch_watten engine --bot search:rollouts=200`` reads the host's messages
on stdin and answers on stdout, so a program in another language (a GUI, a tournament
manager) can play against the library's bots.  The view in each ``decide`` is read back
with :func:`~bohmisch_watten.serialization.view_from_json`, which checks it, and the bot
decides from it alone.  The bot's settings (the fields of
:class:`~bohmisch_watten.bots.SearchBot` and the like) are declared as engine options
in ``hello`` and set by an ``options`` message.

It speaks protocol 2 when the host offers it: the view of a ``decide`` is then the
current deal's, read and checked at a cost that does not grow with the game, and the
bot decides without the finished deals (their ``deal_over`` messages are not used).
``protocol=1`` asks for protocol 1, whose views carry every finished deal, for a bot
that learns from them (the expert bot's inference), at a cost that grows with the game.
"""

from __future__ import annotations

import json
import random
from typing import IO, Any, Final

import attrs

from ..bots.base import Bot
from ..notation import action_to_string, parse_json
from ..phases import Phase
from ..serialization import view_from_json
from ..state import new_game
from .protocol import MAX_LINE_BYTES, PROTOCOLS, deal_view, encode

__all__ = ["declared_options", "serve"]

AUTHOR: Final = "bohmisch_watten"


_OPTION_TYPES: Final = {bool: "bool", int: "int", float: "float", str: "string"}


def declared_options(bot: Bot) -> dict[str, dict[str, Any]]:
    """The bot's settings as engine options: the fields of an attrs bot whose default
    is a plain value (``rollouts``, ``rollout``, …), with that default."""
    cls: Any = type(bot)
    if not attrs.has(cls):
        return {}
    options = {}
    for field in attrs.fields(cls):
        value = getattr(bot, field.name)
        kind = _OPTION_TYPES.get(type(value))
        if kind is not None and field.init:
            options[field.name] = {"type": kind, "default": value}
    return options


def _configured(bot: Bot, values: object, warnings: list[str]) -> Bot:
    """``bot`` with the option ``values`` it declares; the others become warnings."""
    if not isinstance(values, dict):
        warnings.append("options: values must be an object")
        return bot
    known = declared_options(bot)
    changes = {}
    for key, value in values.items():
        if key not in known:
            warnings.append(f"unknown option {key!r}")
        else:
            changes[key] = value
    try:
        return attrs.evolve(bot, **changes) if changes else bot  # type: ignore[misc]
    except (TypeError, ValueError) as error:
        warnings.append(f"options not applied: {str(error)[:100]}")
        return bot


def _view(data: Any, legal: list[str], protocol: int) -> Any:
    """The checked view of a ``decide``; a protocol 2 view is completed first as the
    view of a game that started at this deal (no finished deals known)."""
    if protocol != 1 and isinstance(data, dict):
        data = {**data, "legal_actions": legal, "last_deal": None, "past_deals": []}
    document = {"format": "bohmisch_watten.view", "version": 1, "view": data}
    return view_from_json(json.dumps(document))


def _warm_up() -> None:
    """Read and check one view before answering ``hello``, which is not timed: the
    first reading in each phase loads modules and tables (the exchange's take 0.1 s)
    that a decision should not pay for."""
    rng = random.Random(0)
    state = new_game(2)
    while state.phase is not Phase.PLAY:  # the cut (if any), the exchange, a first card
        seat = state.current_player
        if seat is None:
            state = state.apply(state.sample_chance(rng))
            continue
        view = state.view(seat)
        _view(deal_view(view), [str(action) for action in view.legal_actions()], 2)
        state = state.apply(view.legal_actions()[-1])


def _chosen(offered: object, wanted: int | None) -> int:
    """The protocol to answer ``hello`` with: the newest both sides speak (1 if the
    host offers no list), or ``wanted`` when the host offers it."""
    listed = offered if isinstance(offered, list) else []
    versions = [v for v in listed if type(v) is int and v in PROTOCOLS]
    if wanted is not None and wanted in versions:
        return wanted
    return max(versions, default=1) if wanted is None else 1


def serve(
    bot: Bot,
    name: str,
    stdin: IO[bytes],
    stdout: IO[bytes],
    log: IO[str] | None = None,
    protocol: int | None = None,
) -> int:
    """Answer the host's messages with ``bot`` until ``quit`` or the end of ``stdin``.

    A message this side cannot use (bad JSON, an unknown type, a view that does not
    read back) is answered on stderr-free terms: a ``decide`` is still answered, with
    the first legal action and a warning, so the host keeps a well-formed dialogue.
    A ``decide`` with one legal action is answered with it at once: no bot has a choice
    there, and reading and checking the view is the costliest step of a decision.

    Args:
        protocol: the protocol to choose when the host offers it; None chooses the
            newest the host offers.

    Returns:
        The exit status: 0.
    """
    rng = random.Random(0)
    warnings: list[str] = []
    speaking = 1

    def send(message: dict[str, Any]) -> None:
        if warnings:
            message["warnings"] = list(warnings)
            warnings.clear()
        line = encode(message)
        if log is not None:
            log.write("< " + line.decode("utf-8"))
            log.flush()
        stdout.write(line)
        stdout.flush()

    for raw in stdin:
        if log is not None:
            log.write("> " + raw.decode("utf-8", "replace").rstrip("\n") + "\n")
            log.flush()
        try:
            message = parse_json(raw, "a message", max_chars=MAX_LINE_BYTES, max_depth=64)
            kind = message.get("type") if isinstance(message, dict) else None
        except ValueError:
            warnings.append(f"not JSON: {raw[:60]!r}")
            continue
        if kind == "hello":
            speaking = _chosen(message.get("protocols"), protocol)
            _warm_up()
            send({"type": "hello", "protocol": speaking, "name": name,
                  "author": AUTHOR, "options": declared_options(bot)})  # fmt: skip
        elif kind == "options":
            bot = _configured(bot, message.get("values"), warnings)
        elif kind == "new_game":
            seed = message.get("seed")
            rng = random.Random(seed if isinstance(seed, int) else 0)
        elif kind == "decide":
            legal = message.get("legal")
            legal = (
                [text for text in legal if isinstance(text, str)] if isinstance(legal, list) else []
            )
            try:
                if len(legal) == 1:  # no bot has a choice: spare reading the view
                    answer = legal[0]
                else:
                    view = _view(message.get("view"), legal, speaking)
                    answer = action_to_string(bot.choose(view, rng))
            except Exception as error:  # a view we cannot read: still answer legally
                warnings.append(f"{type(error).__name__}: {str(error)[:100]}")
                answer = legal[0] if legal else ""
            send({"type": "action", "action": answer})
        elif kind == "quit":
            break
        elif kind not in ("event", "deal_over"):
            warnings.append(f"unknown message type {str(kind)[:30]!r}")
    return 0
