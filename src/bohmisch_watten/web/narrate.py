"""The table's log: one line per move, written for one seat from what it may know.

A line never names a card the observer may not know (R13, R23): another seat's
exchange is told as a count, a Critical left in the cut is named only to the seat that
looked at it, and the pack of a shuffle is never shown.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action, Exchange, Fold, LeaveCritical, PlayCard, Shuffle, TakeCritical
from ..phase import Phase
from ..state import GameState

__all__ = ["narrate"]


def _verb(name: str, you: str, other: str) -> str:
    return f"{name} {you if name == 'You' else other}"


def _deal_start(after: GameState, observer: int, names: Sequence[str]) -> list[str]:
    """Lines for the moment the cards are dealt: what the observer saw, the trump card."""
    lines = []
    view = after.view(observer)
    for seat, card, taken, critical in view.cut_cards:
        if seat == observer and card is not None and not taken and not critical:
            lines.append(f"You looked at the cut card {card}: no Critical, it stays at the bottom.")
    trump = after.trump_card
    suit = after.trump_suit
    if trump is not None and suit is not None:
        double = " The deal counts double and nobody may fold." if suit.label == "Hearts" else ""
        lines.append(f"Trump card {trump}: {suit.label} are trumps.{double}")
    return lines


def narrate(
    before: GameState,
    seat: int | None,
    action: Action,
    after: GameState,
    observer: int,
    names: Sequence[str],
) -> list[str]:
    """The log lines of one move as ``observer`` may see it.

    Args:
        before: the state the move was made in.
        seat: who moved (None for chance).
        action: the move.
        after: the state after it.
        observer: the seat the lines are for; ``names[observer]`` should be "You".
        names: a display name per seat.
    """
    who = names[seat] if seat is not None else ""
    lines: list[str] = []
    if isinstance(action, Shuffle):
        lines.append(
            f"Deal {after.deal_number}: "
            + _verb(names[before.dealer], "shuffle", "shuffles")
            + ", "
            + _verb(names[before.cutter], "cut", "cuts")
            + "."
        )
    elif isinstance(action, TakeCritical):
        card = before.cut_cards[-1][1]  # R13: a taken Critical is shown to everybody
        lines.append(_verb(who, "take", "takes") + f" the Critical {card}.")
    elif isinstance(action, LeaveCritical):
        card = before.cut_cards[-1][1]  # R13: known only to the seat that looked
        shown = f" {card}" if seat == observer else ""
        lines.append(_verb(who, "leave", "leaves") + f" the Critical{shown} at the bottom.")
    elif isinstance(action, Fold):
        lines.append(_verb(who, "fold", "folds") + ".")
    elif isinstance(action, Exchange):
        trump = " and take the trump card" if action.take_trump_card else ""
        if seat == observer:
            given = " ".join(str(c) for c in sorted(action.discard)) or "nothing"
            drawn = " ".join(str(c) for c in after.view(observer).draws)
            got = f", draw {drawn}" if drawn else ""
            lines.append(f"You play and exchange {given}{got}{trump}.")
        else:
            trump = trump.replace("take", "takes")
            lines.append(f"{who} plays and exchanges {len(action.discard)} card(s){trump}.")
    elif isinstance(action, PlayCard):
        lines.append(_verb(who, "play", "plays") + f" {action.card}.")
        finished = after.tricks if after.phase is Phase.PLAY else ()
        if after.phase is not Phase.PLAY and after.last_deal is not before.last_deal:
            assert after.last_deal is not None
            finished = after.last_deal.tricks
        if len(finished) > len(before.tricks):
            winner = names[finished[-1].winner]
            lines.append(_verb(winner, "win", "wins") + f" trick {len(finished)}.")
    if after.phase is Phase.EXCHANGE and before.phase in (Phase.DEAL, Phase.CUT):
        lines += _deal_start(after, observer, names)
    if after.last_deal is not before.last_deal and after.last_deal is not None:
        deal = after.last_deal
        points = ", ".join(f"{names[s]} {p:+d}" for s, p in enumerate(deal.points))
        double = " (doubled: Hearts)" if deal.doubled else ""
        lines.append(f"Deal {deal.deal_number} is over. Points{double}: {points}.")
    if after.is_terminal and not before.is_terminal:
        winners = ", ".join(names[s] for s in after.winners)
        losers = ", ".join(names[s] for s in after.losers)
        lines.append(f"Game over. Winners: {winners}. Losers: {losers}.")
    return lines
