"""The library's exception types, and the argument checks that raise the plain ones.

Every error a user sees names what was wrong: :class:`IllegalActionError` names the
rule, :class:`FormatError` the place in a document, and a ``TypeError`` from the checks
below the call and the argument.
"""

from __future__ import annotations

import random
import warnings
from typing import Final

__all__ = [
    "REMOVED_IN",
    "FormatError",
    "IllegalActionError",
    "check_bool",
    "check_instance",
    "check_int",
    "check_rng",
    "counted",
    "warn_deprecated",
]


class IllegalActionError(ValueError):
    """Raised by :meth:`GameState.apply` for anything not in ``legal_actions()``.

    The message names the rule that forbids the action and why, for example
    ``"R25.1: must follow Bells with SA or S9"``, so a UI can show it to a person as is.
    The state the action was applied to is unchanged (states are immutable).

    A message names only cards that the seat to act may know: its own hand, discards
    and draws, public cards, and the cards of the refused action itself.  A server that
    passes ``seat=`` to :meth:`GameState.apply` can therefore show the message to the
    seat that sent the action: a seat that is not to act is told whose turn it is and
    nothing else.
    """


class FormatError(ValueError):
    """Raised by every loader for input it cannot accept: the one exception to catch.

    ``from_json``, :func:`~bohmisch_watten.replay`, ``GameRecord.from_text`` and every
    ``parse_*`` function treat their input as hostile and report any problem with it —
    wrong types, missing or extra fields, an unknown format version, a document over the
    size limit, an impossible state, a record with an illegal action — as this one
    exception, never as ``KeyError``, ``TypeError``, ``IndexError`` or ``RecursionError``.
    The message says what is wrong and where, for example
    ``"record action 57: play EA: R25.1: must follow Bells with SA or S9"``.

    It is a :class:`ValueError`, so code that already catches ``ValueError`` keeps
    working.
    """


# ------------------------------------------------------------------ deprecations

REMOVED_IN: Final = "0.4.0"
"""The release that removes every deprecated name of the package.

Every deprecation warns through :func:`warn_deprecated`, which names this release, and
``tests/test_deprecations.py`` fails once ``__version__`` reaches it, so that no
deprecated name outlives its release.
"""


def warn_deprecated(what: str, instead: str, stacklevel: int = 3) -> None:
    """Warn that ``what`` is deprecated, will be removed in :data:`REMOVED_IN`, and what
    to use ``instead``: the one place every deprecation of the package goes through."""
    warnings.warn(
        f"{what} is deprecated and will be removed in {REMOVED_IN}: {instead}",
        DeprecationWarning,
        stacklevel=stacklevel,
    )


# --------------------------------------------------- argument checks, TypeError
# Python would fail anyway, but much later and deep inside (``'NoneType' object has no
# attribute 'shuffle'``), in a line of the library the caller never wrote.  One check at
# the boundary turns that into a message that names the call, the argument and the
# expected type.  Hot paths (``apply`` and ``legal_actions``) are not checked here: they
# have their own checks with rule IDs.


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


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` and the noun in the number it needs, for messages: "1 game", "4 games".

    Args:
        count: how many.
        noun: the singular.
        plural: the plural when it is not ``noun + "s"``.

    >>> from bohmisch_watten.errors import counted
    >>> counted(1, "board"), counted(0, "card"), counted(2, "match", "matches")
    ('1 board', '0 cards', '2 matches')
    """
    return f"{count} {noun if count == 1 else plural or noun + 's'}"
