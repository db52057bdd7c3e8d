"""The library's exception types."""

from __future__ import annotations

__all__ = ["FormatError", "IllegalActionError"]


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
