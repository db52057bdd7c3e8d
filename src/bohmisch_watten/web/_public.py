"""What a spectator may see: the public part of a seat's view and of a move's events.

A spectator sits at no seat, so it may know only what every seat knows (R13, R23): the
played cards, the trump card, a Critical taken in the cut, the counts of the exchange and
the scores.  Both functions work by allow-list: a field or event type this module does
not know is dropped, so a new private field in the library cannot leak by default.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

import attrs

from ..events import (
    CardPlayed,
    CriticalLeft,
    CriticalTaken,
    CutCardSeen,
    DealScored,
    DealStarted,
    Event,
    Exchanged,
    Folded,
    GameOver,
    HandDealt,
    TrickWon,
    TrumpCardTurned,
)

__all__ = ["SPECTATOR", "public_events", "public_view"]

SPECTATOR: Final = -1
"""The observer number narration gets for a spectator: it is no seat, so never "You"."""

_PUBLIC_VIEW_FIELDS: Final = frozenset(
    {
        "num_players",
        "rules",
        "phase",
        "dealer",
        "deal_number",
        "scores",
        "current_player",
        "trump_card",
        "trump_card_taken",
        "folded",
        "exchanged",
        "stock_size",
        "hand_sizes",
        "trick",
        "tricks",
        "tricks_won",
        "winners",
        "losers",
        "position",
    }
)
_PUBLIC_DEAL_FIELDS: Final = frozenset(
    {
        "deal_number",
        "dealer",
        "trump_card",
        "trump_card_taken",
        "folded",
        "exchanged",
        "tricks",
        "tricks_won",
        "points",
        "scores",
        "doubled",
    }
)


def _public_cut(cut: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The cut as the table saw it: a taken Critical is shown (R13), a looked-at card not."""
    return [
        {
            "seat": c["seat"],
            "card": c["card"] if c["taken"] else None,
            "taken": c["taken"],
            "critical": c["critical"],
        }
        for c in cut
    ]


def _public_deal(deal: dict[str, Any]) -> dict[str, Any]:
    out = {key: value for key, value in deal.items() if key in _PUBLIC_DEAL_FIELDS}
    if "cut" in deal:
        out["cut"] = _public_cut(deal["cut"])
    return out


def public_view(view: dict[str, Any]) -> dict[str, Any]:
    """The public part of ``view`` (a :meth:`PlayerView.to_dict`), in the same shape: the
    seat's hand, discards, draws and legal actions are empty, ``player`` is None."""
    out = {key: value for key, value in view.items() if key in _PUBLIC_VIEW_FIELDS}
    out.update(player=None, hand=[], discards=[], draws=[], legal_actions=[])
    out["cut"] = _public_cut(view.get("cut", ()))
    last = view.get("last_deal")
    out["last_deal"] = None if last is None else _public_deal(last)
    out["past_deals"] = [_public_deal(deal) for deal in view.get("past_deals", ())]
    return out


_PUBLIC_EVENTS: Final = (
    DealStarted,
    CriticalTaken,
    TrumpCardTurned,
    Folded,
    CardPlayed,
    TrickWon,
    DealScored,
    GameOver,
)


def public_events(events: Iterable[Event]) -> tuple[Event, ...]:
    """The events of one move as a spectator sees them: hands, looked-at cut cards and
    exchanged cards are blanked (counts and "a Critical was left" stay)."""
    out: list[Event] = []
    for event in events:
        if isinstance(event, _PUBLIC_EVENTS):
            out.append(event)
        elif isinstance(event, HandDealt):
            out.append(attrs.evolve(event, cards=None))
        elif isinstance(event, (CriticalLeft, CutCardSeen)):
            out.append(attrs.evolve(event, card=None))
        elif isinstance(event, Exchanged):
            out.append(attrs.evolve(event, discarded=None, drawn=None))
    return tuple(out)
