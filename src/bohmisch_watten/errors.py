"""The library's exception types."""

from __future__ import annotations

__all__ = ["IllegalActionError"]


class IllegalActionError(ValueError):
    """Raised by :meth:`GameState.apply` for anything not in ``legal_actions()``.

    The message names the rule that forbids the action and why, for example
    ``"R25.1: must follow Bells with SA or S9"``, so a UI can show it to a person as is.
    The state the action was applied to is unchanged (states are immutable).
    """
