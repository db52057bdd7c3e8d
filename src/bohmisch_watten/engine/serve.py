"""The engine side: any bot of this library served over engine protocol 1.

``python -m bohmisch_watten engine --bot search:rollouts=200`` reads the host's messages
on stdin and answers on stdout, so a program in another language (a GUI, a tournament
manager) can play against the library's bots.  The view in each ``decide`` is read back
with :func:`~bohmisch_watten.serialization.view_from_json`, which checks it, and the bot
decides from it alone.
"""

from __future__ import annotations

import json
import random
from typing import IO, Any, Final

from ..bots.base import Bot
from ..notation import action_to_string
from ..serialization import view_from_json
from .protocol import PROTOCOL_VERSION, encode

__all__ = ["serve"]

AUTHOR: Final = "bohmisch_watten"


def _view(data: Any) -> Any:
    document = {"format": "bohmisch_watten.view", "version": 1, "view": data}
    return view_from_json(json.dumps(document))


def serve(
    bot: Bot,
    name: str,
    stdin: IO[bytes],
    stdout: IO[bytes],
    log: IO[str] | None = None,
) -> int:
    """Answer the host's messages with ``bot`` until ``quit`` or the end of ``stdin``.

    A message this side cannot use (bad JSON, an unknown type, a view that does not
    read back) is answered on stderr-free terms: a ``decide`` is still answered, with
    the first legal action and a warning, so the host keeps a well-formed dialogue.

    Returns:
        The exit status: 0.
    """
    rng = random.Random(0)
    warnings: list[str] = []

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
            message = json.loads(raw)
            kind = message.get("type") if isinstance(message, dict) else None
        except ValueError:
            warnings.append(f"not JSON: {raw[:60]!r}")
            continue
        if kind == "hello":
            send({"type": "hello", "protocol": PROTOCOL_VERSION, "name": name,
                  "author": AUTHOR, "options": {}})  # fmt: skip
        elif kind == "options":
            values = message.get("values")
            for key in values if isinstance(values, dict) else ():
                warnings.append(f"unknown option {key!r}")
        elif kind == "new_game":
            seed = message.get("seed")
            rng = random.Random(seed if isinstance(seed, int) else 0)
        elif kind == "decide":
            legal = message.get("legal")
            legal = (
                [text for text in legal if isinstance(text, str)] if isinstance(legal, list) else []
            )
            try:
                answer = action_to_string(bot.choose(_view(message.get("view")), rng))
            except Exception as error:  # a view we cannot read: still answer legally
                warnings.append(f"{type(error).__name__}: {str(error)[:100]}")
                answer = legal[0] if legal else ""
            send({"type": "action", "action": answer})
        elif kind == "quit":
            break
        elif kind != "event":
            warnings.append(f"unknown message type {str(kind)[:30]!r}")
    return 0
