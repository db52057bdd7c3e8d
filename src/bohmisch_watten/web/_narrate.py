"""The table's log: one line per move, written for one seat from what it may know.

A line never names a card the observer may not know (R13, R23): another seat's
exchange is told as a count, a Critical left in the cut is named only to the seat that
looked at it, and the pack of a shuffle is never shown.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action
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
    TrickWon,
    TrumpCardTurned,
    describe,
)
from ..state import GameState

__all__ = ["narrate", "narrate_events"]


def _verb(name: str, you: str, other: str) -> str:
    return f"{name} {you if name == 'You' else other}"


def narrate(
    before: GameState,
    seat: int | None,
    action: Action,
    after: GameState,
    observer: int,
    names: Sequence[str],
) -> list[str]:
    """The log lines of one move as ``observer`` may see it.

    The lines are written from :func:`~bohmisch_watten.events.describe`'s events for
    ``observer``, the one place that decides what a seat may see of a move.

    Args:
        before: the state the move was made in.
        seat: who moved (None for chance).
        action: the move.
        after: the state after it.
        observer: the seat the lines are for; ``names[observer]`` should be "You".
        names: a display name per seat.
    """
    return narrate_events(describe(before, action, after, observer), before, observer, names)


def narrate_events(
    events: Sequence[Event], before: GameState, observer: int, names: Sequence[str]
) -> list[str]:
    """The log lines of the ``events`` of one move from ``before``, seen by ``observer``."""
    lines: list[str] = []
    for event in events:
        if isinstance(event, DealStarted):
            lines.append(
                f"Deal {event.deal_number}: "
                + _verb(names[before.dealer], "shuffle", "shuffles")
                + ", "
                + _verb(names[before.cutter], "cut", "cuts")
                + "."
            )
        elif isinstance(event, CriticalTaken):  # R13: a taken Critical is shown to all
            lines.append(_verb(names[event.seat], "take", "takes") + f" the Critical {event.card}.")
        elif isinstance(event, CriticalLeft):  # R13: known only to the seat that looked
            shown = "" if event.card is None else f" {event.card}"
            lines.append(
                _verb(names[event.seat], "leave", "leaves") + f" the Critical{shown} at the bottom."
            )
        elif isinstance(event, CutCardSeen):
            if event.seat == observer and event.card is not None and not event.critical:
                lines.append(
                    f"You looked at the cut card {event.card}: no Critical, it stays at the bottom."
                )
        elif isinstance(event, TrumpCardTurned):
            suit = event.card.suit
            double = (
                " The deal counts double and nobody may fold." if suit.label == "Hearts" else ""
            )
            lines.append(f"Trump card {event.card}: {suit.label} are trumps.{double}")
        elif isinstance(event, Folded):
            lines.append(_verb(names[event.seat], "fold", "folds") + ".")
        elif isinstance(event, Exchanged):
            lines.append(_exchange_line(event, names))
        elif isinstance(event, CardPlayed):
            lines.append(_verb(names[event.seat], "play", "plays") + f" {event.card}.")
        elif isinstance(event, TrickWon):
            number = before.tricks_completed + 1
            lines.append(_verb(names[event.seat], "win", "wins") + f" trick {number}.")
        elif isinstance(event, DealScored):
            points = ", ".join(f"{names[s]} {p:+d}" for s, p in enumerate(event.points))
            double = " (doubled: Hearts)" if event.doubled else ""
            lines.append(f"Deal {event.deal_number} is over. Points{double}: {points}.")
        elif isinstance(event, GameOver):
            winners = ", ".join(names[s] for s in event.winners)
            losers = ", ".join(names[s] for s in event.losers)
            lines.append(f"Game over. Winners: {winners}. Losers: {losers}.")
    return lines


def _exchange_line(event: Exchanged, names: Sequence[str]) -> str:
    """R23: the cards to their own seat, the count to everybody else."""
    trump = " and take the trump card" if event.took_trump_card else ""
    if event.discarded is not None and event.drawn is not None:
        given = " ".join(str(c) for c in event.discarded) or "nothing"
        drawn = " ".join(str(c) for c in event.drawn)
        got = f", draw {drawn}" if drawn else ""
        return f"You play and exchange {given}{got}{trump}."
    trump = trump.replace("take", "takes")
    return f"{names[event.seat]} plays and exchanges {event.count} card(s){trump}."
