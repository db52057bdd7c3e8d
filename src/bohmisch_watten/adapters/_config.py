"""Internal: every adapter's arguments, as Python values or as the text of a config file.

An RL configuration (YAML, Hydra, RLlib) passes strings and plain dicts:
``rules="must_head=false"``, ``players="3"``, ``opponents="heuristic"``.  The adapters
read each argument through these functions, so they all accept the same forms and
reject a bad one the same way: :class:`TypeError` for a wrong type and
:class:`ValueError` for a bad value, naming the parameter.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..bots import Bot, RandomBot, make_bot
from ..notation import parse_rules
from ..rules import Rules

__all__ = ["count_argument", "opponent_bots", "players_argument", "rules_argument"]


def rules_argument(value: object, name: str = "rules") -> Rules:
    """``value`` as :class:`Rules`: a Rules, the rules notation or a dict of fields.

    Raises:
        TypeError: naming ``name`` for another type or a field value of the wrong type.
        ValueError: naming ``name`` for a text or a field :class:`Rules` refuses.
    """
    if isinstance(value, Rules):
        return value
    if isinstance(value, str):
        try:
            return parse_rules(value)
        except ValueError as error:  # FormatError: "rules: unknown field ..."
            raise ValueError(f"{name}: {str(error).removeprefix('rules: ')}") from None
    if isinstance(value, Mapping):
        try:
            return Rules(**{str(key): field for key, field in value.items()})
        except TypeError as error:
            raise TypeError(f"{name}: {error}") from None
        except ValueError as error:
            raise ValueError(f"{name}: {error}") from None
    raise TypeError(
        f"{name} must be a Rules, a rules string or a dict of fields, got {type(value).__name__}"
    )


def count_argument(value: object, name: str, low: int, high: int | None = None) -> int:
    """``value`` as an int from ``low`` to ``high`` (no bound if None); digits welcome.

    Raises:
        TypeError: naming ``name`` for a value that is neither an int nor a string.
        ValueError: naming ``name`` for a string that is no integer or an int out of range.
    """
    if isinstance(value, str):
        text = value.strip()
        if not text.lstrip("+-").isdigit() or len(text) > 9:
            raise ValueError(f"{name} must be an integer, got {value!r:.40}")
        value = int(text)
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if value < low or (high is not None and value > high):
        span = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise ValueError(f"{name} must be {span}, got {value}")
    return value


def players_argument(value: object, rules: Rules, name: str = "players") -> int:
    """``value`` as a number of players the pack of ``rules`` seats (R1): 2 to 4 with
    32 cards, 2 to 7 with 36; digits welcome.

    Raises:
        TypeError: naming ``name`` for a value that is neither an int nor a string.
        ValueError: naming ``name`` (and the pack) for a count the pack cannot seat.
    """
    top = rules.max_players
    try:
        return count_argument(value, name, 2, top)
    except ValueError as error:
        if isinstance(value, str) and not value.strip().lstrip("+-").isdigit():
            raise
        raise ValueError(f"{error} with the {rules.pack}-card pack (R1)") from None


def opponent_bots(
    players: int, seat: int, opponents: object, name: str = "opponents"
) -> dict[int, Bot]:
    """The bot of every seat but ``seat``: one for all, or one each in seat order.

    Each is a bot or a spec for :func:`~bohmisch_watten.bots.make_bot` (``"heuristic"``,
    ``"search:rollouts=60"``); a string with commas is a list of specs (``"random,
    heuristic,random"``).  None means :class:`~bohmisch_watten.bots.RandomBot`.

    Raises:
        TypeError: naming ``name`` for something that is not a bot or a spec.
        ValueError: naming ``name`` for an unknown spec or a list of the wrong length.
    """
    others = [s for s in range(players) if s != seat]
    if opponents is None:
        opponents = RandomBot()
    if isinstance(opponents, str) and "," in opponents:
        opponents = [part.strip() for part in opponents.split(",")]
    if isinstance(opponents, Sequence) and not isinstance(opponents, str):
        if len(opponents) != len(others):
            raise ValueError(f"{name} must hold {len(others)} bots, got {len(opponents)}")
        given = list(opponents)
    else:
        given = [opponents] * len(others)
    bots: list[Bot] = []
    for bot in given:
        if isinstance(bot, str):
            try:
                bot = make_bot(bot)
            except ValueError as error:
                raise ValueError(f"{name}: {error}") from None
        if not isinstance(bot, Bot):
            raise TypeError(f"{name} must be bots (choose(view, rng)), got {bot!r:.40}")
        bots.append(bot)
    return dict(zip(others, bots, strict=True))
