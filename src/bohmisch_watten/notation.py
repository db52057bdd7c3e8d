"""Text notation for cards, actions and rules; the input limits and the JSON parser of
every loader.

Action notation (the same strings as ``str(action)``; :func:`parse_action` is the exact
inverse and also accepts any case, extra spaces and commas between cards):

=================================  =========================================================
``shuffle EA EK … S7``             :class:`Shuffle`: all 32 cards, top of the pack first (R11)
``take`` / ``leave``               :class:`TakeCritical` / :class:`LeaveCritical` (R12)
``fold``                           :class:`Fold` (R18, R21)
``exchange``                       :class:`Exchange` of no cards: play, keep the hand (R18)
``exchange S9 G8``                 :class:`Exchange` discarding S9 and G8 (cards sorted)
``exchange S9 +trump``             the dealer takes the trump card for S9 (R19)
``play HK``                        :class:`PlayCard` (R24–R27)
=================================  =========================================================

Cards use the German notation of :class:`Card` (``E G H S`` + ``A K O U 10 9 8 7``).

Rules notation is ``str(rules)``: the fields that differ from the defaults as
``name=value`` pairs joined by commas, ``schleck=none,must_head=false``; the empty
string (or ``default``) means the default rules.  :func:`parse_rules` is its inverse;
both are the one rules codec of :mod:`bohmisch_watten.rules` with these separators.

Every parser here raises :class:`FormatError` (a :class:`ValueError`) and nothing else
for bad input.  Text inputs are limited to :data:`MAX_DOCUMENT_CHARS` characters (one
action or rules string to :data:`MAX_LINE_CHARS`), checked before any parsing, so that a
hostile input cannot make a loader slow.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any, Final

from .actions import (
    FOLD,
    LEAVE,
    PLAY_ACTIONS,
    TAKE,
    Action,
    Exchange,
    Fold,
    LeaveCritical,
    PlayCard,
    Shuffle,
    TakeCritical,
)
from .cards import PACK_SIZES, Card
from .errors import FormatError, counted
from .rules import Rules, rules_from_text

__all__ = [
    "DEAL_LIMIT",
    "MAX_DOCUMENT_CHARS",
    "MAX_LINE_CHARS",
    "SCORE_LIMIT",
    "action_to_string",
    "json_depth",
    "parse_action",
    "parse_card",
    "parse_json",
    "parse_rules",
    "rules_to_string",
]

MAX_DOCUMENT_CHARS: Final = 16_000_000
"""The largest document any loader reads, in characters (bytes for ``bytes`` input).

Sized by what the library itself writes: a game of 5,000 deals (four players,
``Rules(start_score=1000)``) is about 5 million characters as a text record (about
1,000 per deal), 4.6 million as a view document and 2 million as a state or record
document, so every document of such a game loads with the default.  16 million leaves
room for three times that and still bounds the memory and time a hostile input can
cost.  Loaders take a ``max_chars`` argument to raise it for trusted files.
"""

DEAL_LIMIT: Final = 10**15
"""The highest deal number a :class:`~bohmisch_watten.Position` or a document may hold.

The rules put no limit on a game's length: a game ends only when a score reaches the
goal (R31), and four players who keep taking no trick drift away from it for ever (four
heuristic bots did, in 2 games of 300, past deal 1,000,000: the old limit, which then
broke their views).  So the bound must lie beyond any game that can be played: at a
million deals a second a game would need more than thirty years to reach it.
"""

SCORE_LIMIT: Final = 10**17
"""The largest score (either sign) a :class:`~bohmisch_watten.Position` or a document may hold.

A deal moves a score by at most 10 points (R29, R30: +5 for no trick, doubled in
Hearts), and no start score is above 1,000 (R28), so no game of at most
:data:`DEAL_LIMIT` deals passes this.
"""


def too_large(what: str, size: int, unit: str, limit: int, raisable: bool = True) -> str:
    """The message for an input over its limit, saying how to raise it where one can."""
    message = f"{what} is too large: {size} {unit}, limit {limit}"
    if raisable:
        message += f"; for a trusted document pass max_chars={size} (or more) to the loader"
    return message


MAX_LINE_CHARS: Final = 1_000
"""The longest single action or rules string accepted (a shuffle is about 110)."""

_MAX_DISCARD: Final = 5  # R15: nobody holds more than five cards


def check_text(
    value: object, what: str, max_chars: int = MAX_DOCUMENT_CHARS, *, raisable: bool = True
) -> str:
    """``value`` as a ``str`` within ``max_chars``, else :class:`FormatError`.

    ``bytes`` are accepted and decoded as UTF-8, and a leading byte-order mark is
    dropped.  The length is checked before anything else, so that no work is done on an
    oversized input.

    Args:
        value: the input to check.
        what: what the input is, for the message (``"a state document"``).
        max_chars: the size limit.
        raisable: whether the caller takes ``max_chars=``; the message then says how to
            raise the limit.
    """
    if isinstance(value, (bytes, bytearray)):
        if len(value) > max_chars:
            raise FormatError(too_large(what, len(value), "bytes", max_chars, raisable))
        try:
            value = bytes(value).decode("utf-8")
        except UnicodeDecodeError as error:
            raise FormatError(f"{what} is not UTF-8: {error}") from None
    if not isinstance(value, str):
        raise FormatError(f"{what} must be a string, got {type(value).__name__}")
    if len(value) > max_chars:
        raise FormatError(too_large(what, len(value), "characters", max_chars, raisable))
    return value.removeprefix("\ufeff")  # a byte-order mark some editors write


def _quote(text: str) -> str:
    """``text`` shortened and quoted, so that a message never echoes a huge input."""
    return repr(text[:40] + "…") if len(text) > 40 else repr(text)


def parse_card(text: object) -> Card:
    """Parse card notation (``"HK"``, ``"g10"``), raising :class:`FormatError`.

    :meth:`Card.parse` raises a plain ``ValueError``; loaders use this function so that
    they raise their one documented exception type.
    """
    if not isinstance(text, str):
        raise FormatError(f"a card must be a string like 'HK', got {type(text).__name__}")
    if len(text) > 10:
        raise FormatError(f"not a card: {_quote(text)}")
    try:
        return Card.parse(text)
    except ValueError as error:
        raise FormatError(str(error)) from None


def _parse_cards(tokens: list[str], what: str) -> list[Card]:
    out = []
    seen: set[Card] = set()
    for token in tokens:
        card = parse_card(token)
        if card in seen:
            raise FormatError(f"{what} names {card} twice")
        seen.add(card)
        out.append(card)
    return out


def action_to_string(action: Action) -> str:
    """The notation of ``action`` (see the module docs); the same as ``str(action)``.

    Raises:
        FormatError: if ``action`` is not an action.
    """
    if not isinstance(action, _ACTION_TYPES):
        raise FormatError(f"not an action: {type(action).__name__}")
    return str(action)


_ACTION_TYPES: Final = (Shuffle, TakeCritical, LeaveCritical, Fold, Exchange, PlayCard)
_SIMPLE: Final[dict[str, Action]] = {"take": TAKE, "leave": LEAVE, "fold": FOLD}


def parse_action(text: object) -> Action:
    """Parse action notation such as ``"play HK"`` or ``"exchange S9 G8 +trump"``.

    The inverse of ``str(action)`` for every action; words and cards may be in any
    case, separated by any whitespace or commas.  A shuffle must name all 32 cards once
    and a discard at most five distinct cards, so that every string that parses denotes
    one action exactly (whether it is legal is for :meth:`GameState.apply` to say).

    Raises:
        FormatError: if ``text`` is not the notation of an action.
    """
    text = check_text(text, "an action", MAX_LINE_CHARS, raisable=False)
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise FormatError("empty action: expected take, leave, fold, exchange, play or shuffle")
    verb, args = tokens[0].lower(), tokens[1:]
    simple = _SIMPLE.get(verb)
    if simple is not None:
        if args:
            raise FormatError(f"{_quote(text)}: {verb!r} takes no arguments")
        return simple
    if verb == "play":
        if len(args) != 1:
            raise FormatError(f"{_quote(text)}: 'play' takes exactly one card, e.g. 'play HK'")
        return PLAY_ACTIONS[parse_card(args[0]).index]
    if verb == "exchange":
        take = [a for a in args if a.lower() == "+trump"]
        if len(take) > 1:
            raise FormatError(f"{_quote(text)}: '+trump' given twice")
        discard = _parse_cards([a for a in args if a.lower() != "+trump"], "an exchange")
        if len(discard) > _MAX_DISCARD:
            raise FormatError(
                f"{_quote(text)}: an exchange discards at most {_MAX_DISCARD} cards (R15, R18)"
            )
        return Exchange(frozenset(discard), bool(take))
    if verb == "shuffle":
        if len(args) not in PACK_SIZES:
            raise FormatError(
                "a shuffle must name all 32 cards, or 36 with the Sixes, top first (R6, R11); "
                f"got {counted(len(args), 'card')}"
            )
        return Shuffle(_parse_cards(args, "a shuffle"))
    raise FormatError(
        f"not an action: {_quote(text)} (expected take, leave, fold, exchange, play or shuffle)"
    )


def rules_to_string(rules: Rules) -> str:
    """The one-line notation of ``rules``: ``str(rules)``, ``""`` for the defaults.

    Raises:
        FormatError: if ``rules`` is not a :class:`Rules`.
    """
    if not isinstance(rules, Rules):
        raise FormatError(f"not a Rules object: {type(rules).__name__}")
    return str(rules)


def parse_rules(text: object) -> Rules:
    """Parse the one-line rules notation, e.g. ``"schleck=none,must_head=false"``.

    The inverse of ``str(rules)``.  The empty string and ``default`` mean the default
    rules; names and values may be in any case and surrounded by spaces; a field may
    appear only once.  Values are checked by :class:`Rules` itself.

    Raises:
        FormatError: for an unknown field, a repeated field or a bad value.
    """
    text = check_text(text, "a rules string", MAX_LINE_CHARS, raisable=False)
    try:
        return rules_from_text(text)
    except FormatError as error:
        raise FormatError(f"rules: {error}") from None


# ------------------------------------------------------------ strict JSON


def json_depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` in ``text``, ignoring string contents.

    Runs in linear time without recursion, so it is safe on any input; it exists so
    that the recursive JSON parser never sees a document deep enough to overflow.
    """
    if "[" not in text and "{" not in text:
        return 0
    # Drop escaped characters that matter (backslash, quote), then the insides of
    # strings (every other piece between quotes), then everything but brackets.
    parts = text.replace("\\\\", "").replace('\\"', "").split('"')
    brackets = _NOT_BRACKET.sub("", "".join(parts[::2]))
    if not brackets:
        return 0
    return max(accumulate(map(_BRACKET_STEP.__getitem__, brackets)))


_NOT_BRACKET: Final = re.compile(r"[^\[\]{}]+")
_BRACKET_STEP: Final = {"[": 1, "{": 1, "]": -1, "}": -1}


def _no_constants(name: str) -> None:
    raise FormatError(f"{name} is not allowed in a document")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise FormatError(f"field {key[:30]!r} appears twice in one object")
        out[key] = value
    return out


def parse_json(text: object, what: str, *, max_chars: int, max_depth: int) -> Any:
    """Parse hostile JSON text: the one parser of every loader.

    ``bytes`` are decoded as UTF-8 (see :func:`~bohmisch_watten.notation.check_text`).
    The size and the nesting are checked before the parser runs, so that neither a huge
    nor a deep input costs more than a linear scan; the parser then refuses duplicate
    keys (which :func:`json.loads` would silently resolve to the last one) and the
    ``NaN``/``Infinity`` constants (which are not JSON).

    Args:
        text: the input.
        what: what it is, for messages (``"a state document"``).
        max_chars: the size limit, in characters (bytes for ``bytes`` input).
        max_depth: the deepest nesting of arrays and objects allowed.

    Raises:
        FormatError: for anything but JSON within the limits, saying why.
    """
    text = check_text(text, what, max_chars)
    depth = json_depth(text)
    if depth > max_depth:
        raise FormatError(f"{what} is nested {depth} levels deep, limit {max_depth}")
    try:
        return json.loads(text, parse_constant=_no_constants, object_pairs_hook=_no_duplicates)
    except FormatError as error:
        raise FormatError(f"{what}: {error}") from None
    except (ValueError, RecursionError) as error:
        raise FormatError(f"{what} is not valid JSON: {str(error)[:100]}") from None
