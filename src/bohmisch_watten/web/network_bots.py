"""The one gate between the network and the bots: a client names a bot, never code.

:func:`~bohmisch_watten.bots.make_bot` is as powerful as a local user needs: it imports
any module, loads any file, opens any checkpoint and starts any program
(``engine:COMMAND``), and it takes any work budget.  Nothing a client on the network
sends may reach it as it is.  Every network surface of the game server (the HTTP API's
``bots``; no websocket frame or query string names a bot) reads a bot name through
:meth:`NetworkBots.resolve`, which accepts only

* a built-in bot (``random``, ``heuristic``, ``search``, ``expert``) with only the
  parameters in :data:`NETWORK_PARAMETERS`, each held within its cap: work budgets
  counted in rollouts and worlds, never in seconds, so that one request cannot tie up
  the server's CPU;
* a name the operator registered when starting the server (``serve --bot
  mine=engine:./my_engine``, ``create_server(bots={"mine": …})``), which stands for
  the operator's spec and takes no parameters from the network.

Anything else is refused before anything is imported, opened or run, with a message
naming the allowed names.  The spec a resolved name stands for is built here from the
checked parts, so what reaches ``make_bot`` is always one of the allowed forms.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

import attrs

__all__ = [
    "LARGE_TABLE",
    "LARGE_TABLE_PARAMETERS",
    "MAX_BOT_CHARS",
    "NETWORK_PARAMETERS",
    "BotNameError",
    "Count",
    "NetworkBots",
    "Pick",
]

MAX_BOT_CHARS: Final = 120
"""The longest bot name read from the network."""


@attrs.frozen
class Count:
    """A whole-number parameter the network may set, from ``low`` to ``high``."""

    low: int
    high: int

    def read(self, text: str) -> str | None:
        """The canonical value of ``text``, None if it is not a number in range."""
        if not re.fullmatch(r"[0-9]{1,9}", text) or not self.low <= int(text) <= self.high:
            return None
        return str(int(text))

    def __str__(self) -> str:
        return f"{self.low}..{self.high}"


@attrs.frozen
class Pick:
    """A parameter the network may set to one of ``values`` (``0``/``1`` for a flag)."""

    values: tuple[str, ...]

    def read(self, text: str) -> str | None:
        """The canonical value of ``text`` (``true``/``false`` read as 1/0), or None."""
        text = {"true": "1", "false": "0"}.get(text, text) if self.values == _FLAG else text
        return text if text in self.values else None

    def __str__(self) -> str:
        return "|".join(self.values)


_FLAG: Final = ("0", "1")

NETWORK_PARAMETERS: Final[Mapping[str, Mapping[str, Count | Pick]]] = {
    "random": {},
    "heuristic": {},
    # 4 times the default rollouts: about 0.35 s for the slowest decision seen.
    "search": {
        "rollouts": Count(1, 480),
        "max_candidates": Count(1, 10),
        "rollout": Pick(("heuristic", "random")),
    },
    # The three-player table budgets (120 worlds, 6 proposals) at most, and no exact
    # solver at the exchange: about 0.85 s for the slowest decision seen.
    "expert": {
        "samples": Count(1, 120),
        "exchange_samples": Count(1, 80),
        "proposals": Count(1, 6),
        "max_candidates": Count(1, 8),
        "leaf": Pick(("respond", "rollout")),
        "race_near": Pick(_FLAG),
    },
}
"""Per built-in bot, the parameters a client on the network may set and their caps at
a table of two to four seats; every other parameter (``time_ms`` above all: seconds are
not a work budget) keeps its default.  The caps bound one decision to about a second on
a small machine."""

LARGE_TABLE: Final = 5
"""From this many seats (the 36-card pack, R1) the caps are :data:`LARGE_TABLE_PARAMETERS`."""

LARGE_TABLE_PARAMETERS: Final[Mapping[str, Mapping[str, Count | Pick]]] = {
    **NETWORK_PARAMETERS,
    # More seats deal more hidden cards to place and a deeper deal to solve: the
    # 3-seat caps cost the expert up to 2.8 s a decision at 7 seats.  These are its own
    # 7-seat defaults (TABLE_BUDGETS); the search bot's caps stay, its slowest decision
    # at 7 seats being a fraction of a second (benchmarks/RESULTS-budgets.md).
    "expert": {
        **NETWORK_PARAMETERS["expert"],
        "samples": Count(1, 40),
        "exchange_samples": Count(1, 30),
        "proposals": Count(1, 3),
        "max_candidates": Count(1, 5),
    },
}
"""The caps at a table of :data:`LARGE_TABLE` to seven seats, sized from 7-seat
36-card measurements (``benchmarks/request_budgets.py``)."""

_NAME: Final = re.compile(r"[a-z][a-z0-9_-]{0,23}")
"""A name the operator registers: short, lower case, no colon (no parameters)."""


class BotNameError(ValueError):
    """A bot name a client sent that the server does not allow; the message names the
    allowed ones."""


class NetworkBots:
    """The bots a client on the network may seat at a table.

    Args:
        registered: the operator's own bots, name -> :func:`make_bot` spec (any spec:
            the operator starts the server).  A name is lower case letters, digits,
            ``_`` and ``-`` (at most 24, starting with a letter) and no built-in name.

    Raises:
        TypeError: if ``registered`` is not a mapping of texts.
        ValueError: for a name that is not allowed.
    """

    def __init__(self, registered: Mapping[str, str] | None = None) -> None:
        registered = {} if registered is None else registered
        if not isinstance(registered, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in registered.items()
        ):
            raise TypeError("bots must map names to bot specs (texts)")
        for name, spec in registered.items():
            if not _NAME.fullmatch(name):
                raise ValueError(
                    f"bot name {name!r:.40}: use lower case letters, digits, _ and -"
                    " (at most 24, starting with a letter)"
                )
            if name in NETWORK_PARAMETERS:
                raise ValueError(f"bot name {name!r} is a built-in bot's: choose another")
            if not spec.strip():
                raise ValueError(f"bot name {name!r}: give a bot spec, e.g. {name}=expert")
        self.registered: Mapping[str, str] = dict(registered)
        """The operator's names and the specs they stand for."""

    @staticmethod
    def caps(name: str, players: int | None = None) -> Mapping[str, Count | Pick]:
        """The parameters a client may set for the built-in bot ``name`` at a table of
        ``players`` seats (None: of two to four), with their caps.

        Raises:
            KeyError: for a name that is no built-in bot's.
        """
        large = players is not None and players >= LARGE_TABLE
        return (LARGE_TABLE_PARAMETERS if large else NETWORK_PARAMETERS)[name]

    @property
    def allowed(self) -> str:
        """The allowed names as a message shows them, built-in bots with their caps (at
        a table of two to four seats; :meth:`allowed_at` for another size)."""
        return self.allowed_at(None)

    def allowed_at(self, players: int | None) -> str:
        """The allowed names as a message shows them, built-in bots with their caps at a
        table of ``players`` seats (None: of two to four)."""
        shown = []
        for name in NETWORK_PARAMETERS:
            caps = self.caps(name, players)
            shown.append(name + "".join(f"[:{key}={cap}]" for key, cap in caps.items()))
        return ", ".join(shown + list(self.registered))

    def _refuse(self, why: str, players: int | None) -> BotNameError:
        return BotNameError(f"{why}; the allowed bots are {self.allowed_at(players)}")

    def resolve(self, text: object, players: int | None = None) -> str:
        """The seat kind of the bot a client named: a registered name as it is, or a
        built-in bot's spec with its parameters checked and written canonically
        (``Search:rollouts=060`` -> ``search:rollouts=60``), within the caps of a table
        of ``players`` seats (:meth:`caps`; None: of two to four seats).

        Raises:
            BotNameError: for anything else (nothing is imported, opened or run).
        """
        if not isinstance(text, str) or not 0 < len(text) <= MAX_BOT_CHARS:
            raise self._refuse(f"a bot is a name of at most {MAX_BOT_CHARS} characters", players)
        name, *params = text.split(":")
        name = name.lower()
        if name in self.registered:
            if params:
                raise self._refuse(f"bot {name!r} takes no parameters from the network", players)
            return name
        if name not in NETWORK_PARAMETERS:
            raise self._refuse(f"unknown bot {text!r:.60}", players)
        caps = self.caps(name, players)
        parts = [name]
        seen: set[str] = set()
        for param in params:
            key, sep, value = param.partition("=")
            cap = caps.get(key)
            if not sep or cap is None:
                raise self._refuse(
                    f"bot {name!r}: {param!r:.40} is not a parameter a client may set"
                    f" (allowed: {', '.join(caps) or 'none'})",
                    players,
                )
            if key in seen:
                raise self._refuse(f"bot {name!r}: {key} is given twice", players)
            canonical = cap.read(value)
            if canonical is None:
                raise self._refuse(f"bot {name!r}: {key} must be {cap}, got {value!r:.20}", players)
            seen.add(key)
            parts.append(f"{key}={canonical}")
        return ":".join(parts)

    def spec(self, kind: str) -> str:
        """The :func:`~bohmisch_watten.bots.make_bot` spec of a seat ``kind``: the
        operator's spec of a registered name, else the kind itself."""
        return self.registered.get(kind, kind)
