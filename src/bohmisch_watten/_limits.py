"""The one message of every loader that refuses an input for its size.

Internal, a leaf: :func:`~bohmisch_watten.notation.check_text` (the documents and
records) and :meth:`Position.parse <bohmisch_watten.Position.parse>` (below the
notation) say it the same way, and both take ``max_chars=`` to raise the limit.
"""

from __future__ import annotations

__all__ = ["too_large"]


def too_large(what: str, size: int, unit: str, limit: int, raisable: bool = True) -> str:
    """The message for an input over its limit, saying how to raise it where one can."""
    message = f"{what} is too large: {size} {unit}, limit {limit}"
    if raisable:
        message += f"; for a trusted document pass max_chars={size} (or more) to the loader"
    return message
