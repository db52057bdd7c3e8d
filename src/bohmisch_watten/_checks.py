"""Type checks at the public entry points: a wrong argument is a ``TypeError`` that names it.

Python would fail anyway, but much later and deep inside (``'NoneType' object has no
attribute 'shuffle'``), in a line of the library the caller never wrote.  One check at
the boundary turns that into a message that names the call, the argument and the
expected type.  Hot paths (``apply`` and ``legal_actions``) are not checked here: they
have their own checks with rule IDs.

This module imports nothing from the package, so every layer may use it.
"""

from __future__ import annotations

import random

__all__ = ["check_bool", "check_instance", "check_int", "check_rng"]


def check_instance(value: object, expected: type, argument: str, call: str) -> None:
    """Raise ``TypeError`` unless ``value`` is an instance of ``expected``.

    Args:
        value: the argument as received.
        expected: the type the call needs.
        argument: the parameter's name, for the message.
        call: the call as the user writes it (``"next_game(state)"``), for the message.

    Raises:
        TypeError: ``next_game(state): state must be a GameState, got NoneType``.
    """
    if not isinstance(value, expected):
        raise TypeError(
            f"{call}: {argument} must be a {expected.__name__}, got {type(value).__name__}"
        )


def check_int(value: object, argument: str, call: str) -> None:
    """Raise ``TypeError`` unless ``value`` is an ``int`` (``True`` is not a seat number).

    Raises:
        TypeError: ``new_game(dealer=): dealer must be an int, got str``.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{call}: {argument} must be an int, got {type(value).__name__}")


def check_bool(value: object, argument: str, call: str) -> None:
    """Raise ``TypeError`` unless ``value`` is ``True`` or ``False`` (``1`` and ``"no"`` are not).

    Raises:
        TypeError: ``Rules(must_head=): must_head must be a bool, got str``.
    """
    if not isinstance(value, bool):
        raise TypeError(f"{call}: {argument} must be a bool, got {type(value).__name__}")


def check_rng(rng: object, call: str) -> None:
    """Raise ``TypeError`` unless ``rng`` is a :class:`random.Random` (or a subclass).

    The library draws from the caller's generator so that a seed reproduces a game; a
    module-level function such as ``random.shuffle`` or ``None`` is a mistake.

    Raises:
        TypeError: ``sample_chance(rng): rng must be a random.Random (for example
            random.Random(7)), got NoneType``.
    """
    if not isinstance(rng, random.Random):
        raise TypeError(
            f"{call}: rng must be a random.Random (for example random.Random(7)),"
            f" got {type(rng).__name__}"
        )
