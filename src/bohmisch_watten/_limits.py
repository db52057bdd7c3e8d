"""The size limit of every loader and the one message for an input over it.

Internal, a leaf, so that every loader can share it whatever its layer: the documents
and records (through :func:`~bohmisch_watten.notation.check_text`),
:meth:`GameState.from_json <bohmisch_watten.GameState.from_json>` and
:meth:`Position.parse <bohmisch_watten.Position.parse>` all take ``max_chars=`` and say
the same thing when an input is over it.
"""

from __future__ import annotations

from typing import Final

__all__ = ["MAX_DOCUMENT_CHARS", "too_large"]

MAX_DOCUMENT_CHARS: Final = 16_000_000
"""The default ``max_chars`` of every document loader (see
:data:`bohmisch_watten.notation.MAX_DOCUMENT_CHARS`, which explains the figure)."""


def too_large(what: str, size: int, unit: str, limit: int, raisable: bool = True) -> str:
    """The message for an input over its limit, saying how to raise it where one can."""
    message = f"{what} is too large: {size} {unit}, limit {limit}"
    if raisable:
        message += f"; for a trusted document pass max_chars={size} (or more) to the loader"
    return message
