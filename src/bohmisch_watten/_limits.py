"""The size limit of every loader and the one message for an input over it.

Internal, a leaf, so that every loader can share it whatever its layer: the documents
and records (through :func:`~bohmisch_watten.notation.check_text`),
:meth:`GameState.from_json <bohmisch_watten.GameState.from_json>` and
:meth:`Position.parse <bohmisch_watten.Position.parse>` all take ``max_chars=`` and say
the same thing when an input is over it.
"""

from __future__ import annotations

from typing import Final

__all__ = ["DEAL_LIMIT", "MAX_DOCUMENT_CHARS", "SCORE_LIMIT", "too_large"]

MAX_DOCUMENT_CHARS: Final = 16_000_000
"""The default ``max_chars`` of every document loader (see
:data:`bohmisch_watten.notation.MAX_DOCUMENT_CHARS`, which explains the figure)."""

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
