"""The validators of a searching bot's budget, shared by every bot that has one.

A budget counted in work (samples, rollouts) must be a positive int, and the opt-in
wall-clock budget a positive number; a bad value names the bot's class and the field,
so ``make_bot("search:rollouts=x")`` says which setting was wrong.
"""

from __future__ import annotations

import attrs

__all__ = ["optional_count", "positive_count", "time_budget"]


def positive_count(instance: object, attribute: attrs.Attribute[int], value: object) -> None:
    """An attrs validator: ``value`` is an int of at least 1 (bools refused)."""
    owner = type(instance).__name__
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{owner}.{attribute.name} must be an int, got {value!r:.20}")
    if value < 1:
        raise ValueError(f"{owner}.{attribute.name} must be at least 1, got {value}")


def optional_count(instance: object, attribute: attrs.Attribute[int | None], value: object) -> None:
    """An attrs validator: ``value`` is None (a default the bot chooses) or, as for
    :func:`positive_count`, an int of at least 1."""
    if value is not None:
        positive_count(instance, attribute, value)  # type: ignore[arg-type]


def time_budget(instance: object, attribute: attrs.Attribute[float | None], value: object) -> None:
    """An attrs validator: ``value`` is None or a positive number of milliseconds."""
    if value is None:
        return
    owner = type(instance).__name__
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{owner}.{attribute.name} must be a number or None, got {value!r:.20}")
    if not value > 0:
        raise ValueError(f"{owner}.{attribute.name} must be positive, got {value}")
