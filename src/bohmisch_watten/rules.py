"""The variant switches of RULES.md §8, as one frozen value object, and its one text codec.

Every text form of a :class:`Rules` value is written and read here, so that they cannot
drift apart: the rules notation ``schleck=none,must_head=false`` (``str(rules)``,
:func:`~bohmisch_watten.notation.parse_rules`), the ``schleck:none;must_head:false``
field of a :class:`~bohmisch_watten.Position` and the ``rules`` object of the JSON
documents (:func:`rules_values`, every field as a JSON value).  Readers that check each
field's type themselves (the JSON loaders) take the fields and their plain types from
``RULE_TYPES``.  The forms differ only in
their separators and in how forgiving the reader is (:func:`rules_from_text`).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from typing import Any, Final, TypeVar

import attrs

from .errors import FormatError, check_bool, check_int

__all__ = [
    "Overshoot",
    "Rules",
    "Schleck",
    "rules_from_text",
    "rules_to_text",
    "rules_values",
    "suggested_rules",
]


class Schleck(enum.StrEnum):
    """Who may take Criticals in the cutting ritual (R12, R14)."""

    ALTERNATE = "alternate"
    """Cutter, then dealer, then cutter, each while the previous one took (R12)."""
    CUTTER_ONLY = "cutter_only"
    """Only the cutter, up to three cards (R14)."""
    NONE = "none"
    """Nobody looks, nobody takes (R14)."""


class Overshoot(enum.StrEnum):
    """What going below zero means (R31, R32)."""

    WINS = "wins"
    """Zero or fewer reaches the goal (R31)."""
    ADDED_BACK = "added_back"
    """The excess below zero is added back to the score; only an exact 0 wins (R32)."""


_E = TypeVar("_E", bound=enum.Enum)


def _convert_enum(enum_type: type[_E], name: str, value: object) -> _E:
    if isinstance(value, enum_type):
        return value
    if not isinstance(value, str):
        raise TypeError(
            f"Rules({name}=): {name} must be a str or {enum_type.__name__},"
            f" got {type(value).__name__}"
        )
    try:
        return enum_type(value)
    except ValueError:
        allowed = ", ".join(repr(m.value) for m in enum_type)
        raise ValueError(f"Rules.{name} must be one of {allowed}, got {value!r}") from None


def _to_schleck(value: object) -> Schleck:
    return _convert_enum(Schleck, "schleck", value)


def _to_overshoot(value: object) -> Overshoot:
    return _convert_enum(Overshoot, "overshoot", value)


def _check_bool(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    check_bool(value, attribute.name, f"Rules({attribute.name}=)")


def _check_int_in(low: int, high: int) -> Any:
    def check(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
        check_int(value, attribute.name, f"Rules({attribute.name}=)")
        if not (isinstance(value, int) and low <= value <= high):  # int: checked above
            raise ValueError(
                f"Rules.{attribute.name} must be an integer from {low} to {high}, got {value!r}"
            )

    return check


def _check_pack(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    check_int(value, attribute.name, f"Rules({attribute.name}=)")
    if value not in (32, 36):
        raise ValueError(f"Rules.pack must be 32 or 36 (R6), got {value!r}")


def _check_stock_limit(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    check_int(value, attribute.name, f"Rules({attribute.name}=)")
    if value not in (2, 3):
        raise ValueError(f"Rules.dealer_stock_limit must be 2 or 3, got {value!r}")


@attrs.frozen(slots=True)
class Rules:
    """The rule variants of a game (RULES.md §8); the defaults are the default rules.

    Enum-valued fields also accept their string value, so ``Rules(schleck="none")``
    equals ``Rules(schleck=Schleck.NONE)``.  Every field is validated: a value of the
    wrong type raises :class:`TypeError`, a bad value of the right type
    :class:`ValueError`, both naming the field.

    Attributes:
        schleck: the cutting ritual (R12, R14).
        dealer_stock_limit: how many cards the dealer may exchange with the stock (R19).
        must_head: whether heading and overtrumping are compulsory (R25, R26).
        overshoot: what going below zero means (R31, R32).
        plus_fifty: whether reaching 50 or more also wins (R33).
        start_score: the score every player starts with (R28).
        hearts_double: whether a deal with Hearts as trumps counts double (R30).
        min_fold_score: a player with this score or less may not fold (R21.3).
        pack: 32 cards, or 36 with the Sixes for two to seven players (R1, R6).

    Example:
        >>> from bohmisch_watten import Rules, Schleck
        >>> rules = Rules(schleck="none", must_head=False)
        >>> rules.schleck is Schleck.NONE, str(rules)
        (True, 'schleck=none,must_head=false')
        >>> Rules(min_fold_score=5000)
        Traceback (most recent call last):
          ...
        ValueError: Rules.min_fold_score must be an integer from -1000 to 1000, got 5000
        >>> Rules(min_fold_score="5")
        Traceback (most recent call last):
          ...
        TypeError: Rules(min_fold_score=): min_fold_score must be an int, got str
    """

    schleck: Schleck = attrs.field(default=Schleck.ALTERNATE, converter=_to_schleck)
    dealer_stock_limit: int = attrs.field(default=2, validator=_check_stock_limit)
    must_head: bool = attrs.field(default=True, validator=_check_bool)
    overshoot: Overshoot = attrs.field(default=Overshoot.WINS, converter=_to_overshoot)
    plus_fifty: bool = attrs.field(default=False, validator=_check_bool)
    start_score: int = attrs.field(default=20, validator=_check_int_in(1, 1000))
    hearts_double: bool = attrs.field(default=True, validator=_check_bool)
    min_fold_score: int = attrs.field(default=5, validator=_check_int_in(-1000, 1000))
    pack: int = attrs.field(default=32, validator=_check_pack)

    @property
    def max_players(self) -> int:
        """The largest table the pack allows (R1): 4 with 32 cards, 7 with 36."""
        return 4 if self.pack == 32 else 7

    def __str__(self) -> str:
        """Only the fields that differ from the defaults, e.g. ``schleck=none,must_head=false``."""
        return rules_to_text(self)


_BIG_TABLE: Final = 5
"""The smallest table for which :func:`suggested_rules` adds ``plus_fifty`` (RULES.md §9.3)."""


def suggested_rules(num_players: int, pack: int = 32) -> Rules:
    """The rules the rule book suggests for a table of ``num_players`` (RULES.md §9.3).

    Two to four players: the default rules with that pack.  Five to seven (the 36-card
    pack, R1, R6): the variant ``plus_fifty`` (R33) as well, because under the default
    goal such a game may never end (R29: every deal each active player who takes no
    trick scores +5, at least N − 5 of them), and reaching 50 ends it.  The library does
    not change the rules of the source for big tables; this is the advice a UI or a
    command offers by default, which players may override.

    Args:
        num_players: the seats, 2 to 4, or to 7 with ``pack=36`` (R1).
        pack: 32 or 36 cards (R6).

    Raises:
        TypeError: naming the argument, for a value that is not an int.
        ValueError: naming the argument, for a pack other than 32 or 36 or a table the
            pack cannot seat.

    Example:
        >>> from bohmisch_watten import suggested_rules
        >>> str(suggested_rules(4)), str(suggested_rules(7, pack=36))
        ('', 'plus_fifty=true,pack=36')
    """
    check_int(num_players, "num_players", "suggested_rules(num_players)")
    check_int(pack, "pack", "suggested_rules(pack=)")
    if pack not in (32, 36):
        raise ValueError(f"suggested_rules(pack=): pack must be 32 or 36 (R6), got {pack}")
    rules = Rules(pack=pack)
    if not 2 <= num_players <= rules.max_players:
        hint = "; five to seven play with pack=36" if pack == 32 and 5 <= num_players <= 7 else ""
        raise ValueError(
            f"suggested_rules(num_players): num_players must be 2 to {rules.max_players}"
            f" with the {pack}-card pack (R1), got {num_players}{hint}"
        )
    if num_players >= _BIG_TABLE:
        return Rules(pack=pack, plus_fifty=True)  # R33: RULES.md §9.3
    return rules


# ------------------------------------------------------------------ the text codec

_DEFAULT: Final = Rules()

RULE_TYPES: Final[Mapping[str, type]] = {
    field.name: (
        str
        if isinstance(getattr(_DEFAULT, field.name), enum.Enum)
        else type(getattr(_DEFAULT, field.name))
    )
    for field in attrs.fields(Rules)
}
"""Every field of :class:`Rules` in order, with the type of its plain value.

``bool`` or ``int``, or ``str`` for the enum fields (their value, ``"none"``): the type
a document or a text form holds for that field.  For the package's readers; not in
``__all__``.
"""

OPTIONAL_RULES: Final = frozenset({"pack"})
"""Fields added after release 0.2.0: a JSON document writes one only when it differs
from the default, and a reader accepts a document without it, so documents of the
32-card game stay byte for byte what 0.1.0 and 0.2.0 wrote and read."""

_INTEGER: Final = re.compile(r"[-+]?[0-9]{1,7}")
_BOOLS: Final = {"true": True, "false": False}


def rules_values(rules: Rules, *, changed_only: bool = False) -> dict[str, bool | int | str]:
    """The fields of ``rules`` as plain values in field order (an enum as its value).

    Args:
        rules: the rules to write.
        changed_only: only the fields that differ from the defaults (what the text
            forms write); otherwise every field (what a JSON document writes), but for
            a field of :data:`OPTIONAL_RULES` at its default.
    """
    out: dict[str, bool | int | str] = {}
    for name in RULE_TYPES:
        value = getattr(rules, name)
        if value == getattr(_DEFAULT, name) and (changed_only or name in OPTIONAL_RULES):
            continue
        out[name] = value.value if isinstance(value, enum.Enum) else value
    return out


def _value_text(value: bool | int | str) -> str:
    """A field's value as the text forms write it: ``true``, ``none``, ``3``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def rules_to_text(rules: Rules, *, pair: str = "=", sep: str = ",", default: str = "") -> str:
    """The fields that differ from the defaults as ``name=value`` pairs joined by ``,``.

    ``str(rules)`` is ``rules_to_text(rules)``; a :class:`~bohmisch_watten.Position`
    writes ``rules_to_text(rules, pair=":", sep=";", default="default")``.

    Args:
        rules: the rules to write.
        pair: what joins a field's name and value.
        sep: what separates two fields.
        default: the text for the default rules (no field differs).
    """
    items = rules_values(rules, changed_only=True).items()
    return sep.join(f"{name}{pair}{_value_text(value)}" for name, value in items) or default


def _short(text: str) -> str:
    return repr(text[:40] + "…") if len(text) > 40 else repr(text)


def _parse_value(name: str, raw: str, lenient: bool) -> bool | int | str:
    kind = RULE_TYPES[name]
    if kind is int:
        if _INTEGER.fullmatch(raw) is None:
            raise FormatError(f"{name} must be an integer, got {_short(raw)}")
        return int(raw)
    word = raw.lower() if lenient else raw
    if kind is bool:
        if word not in _BOOLS:
            raise FormatError(f"{name} must be true or false, got {_short(raw)}")
        return _BOOLS[word]
    return word


def rules_from_text(
    text: str, *, pair: str = "=", sep: str = ",", default: str = "default", lenient: bool = True
) -> Rules:
    """The inverse of :func:`rules_to_text` with the same separators.

    Args:
        text: the text to read (its length is the caller's to bound).
        pair: what joins a field's name and value.
        sep: what separates two fields.
        default: the word that means the default rules.
        lenient: whether names and words may be in any case and surrounded by spaces,
            and the empty text means the defaults (the rules notation); a strict reader
            (the position's field) takes exactly what :func:`rules_to_text` writes.

    Raises:
        FormatError: without a prefix (the caller says where), for an unknown or
            repeated field, a bad value, or values :class:`Rules` rejects.
    """
    stripped = text.strip() if lenient else text
    if (lenient and (not stripped or stripped.lower() == default)) or stripped == default:
        return _DEFAULT
    values: dict[str, object] = {}
    for item in stripped.split(sep):
        name, joined, raw = item.partition(pair)
        if lenient:
            name, raw = name.strip().lower(), raw.strip()
        if not joined or not name:
            shown = _short(item.strip() if lenient else item)
            raise FormatError(f"expected name{pair}value, got {shown} (or {default!r})")
        if name not in RULE_TYPES:
            known = ", ".join(RULE_TYPES)
            raise FormatError(f"unknown field {_short(name)} (fields: {known})")
        if name in values:
            raise FormatError(f"field {name} given twice")
        values[name] = _parse_value(name, raw, lenient)
    try:
        return Rules(**values)  # type: ignore[arg-type]
    except (TypeError, ValueError) as error:
        raise FormatError(str(error)) from None
