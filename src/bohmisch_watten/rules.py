"""The variant switches of RULES.md §8, as one frozen value object."""

from __future__ import annotations

import enum
from typing import Any, TypeVar

import attrs

from .checks import check_bool, check_int

__all__ = ["Overshoot", "Rules", "Schleck"]


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

    def __str__(self) -> str:
        """Only the fields that differ from the defaults, e.g. ``schleck=none,must_head=false``."""
        default = _DEFAULT
        parts = []
        for field in attrs.fields(Rules):
            value = getattr(self, field.name)
            if value != getattr(default, field.name):
                parts.append(f"{field.name}={_format(value)}")
        return ",".join(parts)


def _format(value: object) -> str:
    """A field's value as rules notation writes it: ``true``, ``none``, ``3``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, enum.Enum):
        return str(value.value)
    return str(value)


_DEFAULT = Rules()
