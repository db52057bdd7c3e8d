"""The table's log: one line per move, written for one seat from what it may know.

A line never names a card the observer may not know (R13, R23): another seat's
exchange is told as a count, a Critical left in the cut is named only to the seat that
looked at it, and the pack of a shuffle is never shown.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from ..actions import Action
from ..cards import Suit
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
from ._i18n import DEFAULT, card_name, gettext, messages, suit_name

__all__ = ["narrate", "narrate_events"]


def narrate(
    before: GameState,
    seat: int | None,
    action: Action,
    after: GameState,
    observer: int,
    names: Sequence[str],
    *,
    lang: str = DEFAULT,
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
        lang: the language of the lines (:data:`~._i18n.LANGUAGES`).
    """
    events = describe(before, action, after, observer)
    return narrate_events(events, before, observer, names, lang=lang)


def _text(catalog: Mapping[str, str], message: str, /, **fields: object) -> str:
    """``message`` from ``catalog`` (a :func:`~._i18n.messages` mapping), as gettext does."""
    text = catalog.get(message, message)
    return text.format(**fields) if fields else text


def _clause(
    catalog: Mapping[str, str],
    seat: int,
    observer: int,
    names: Sequence[str],
    first: str,
    third: str,
    /,
    **fields: object,
) -> str:
    """One clause in the first person for the observer, in the third for anybody else
    (whose name is ``names[seat]``: only the observer's own name is ever "You")."""
    if seat == observer:
        return _text(catalog, first, **fields)
    return _text(catalog, third, name=names[seat], **fields)


def narrate_events(
    events: Sequence[Event],
    before: GameState,
    observer: int,
    names: Sequence[str],
    *,
    lang: str = DEFAULT,
) -> list[str]:
    """The log lines of the ``events`` of one move from ``before``, seen by ``observer``,
    in ``lang`` (the observer's own name is "You" in every language).

    Written with module functions, not closures made per call: a table narrates every
    move for every seat, in every language.
    """
    catalog = messages(lang)  # as gettext reads it, once per call, not once per line
    lines: list[str] = []
    for event in events:  # the events of every move first: the classes are disjoint
        if isinstance(event, CardPlayed):
            lines.append(
                _clause(
                    catalog,
                    event.seat,
                    observer,
                    names,
                    "You play {card}.",
                    "{name} plays {card}.",
                    card=card_name(event.card, lang),
                )
            )
        elif isinstance(event, TrickWon):
            lines.append(
                _clause(
                    catalog,
                    event.seat,
                    observer,
                    names,
                    "You win trick {number}.",
                    "{name} wins trick {number}.",
                    number=before.tricks_completed + 1,
                )
            )
        elif isinstance(event, DealStarted):
            shuffle = _clause(
                catalog, before.dealer, observer, names, "You shuffle", "{name} shuffles"
            )
            cut = _clause(catalog, before.cutter, observer, names, "You cut", "{name} cuts")
            lines.append(
                _text(
                    catalog,
                    "Deal {number}: {shuffle}, {cut}.",
                    number=event.deal_number,
                    shuffle=shuffle,
                    cut=cut,
                )
            )
        elif isinstance(event, CriticalTaken):  # R13: a taken Critical is shown to all
            lines.append(
                _clause(
                    catalog,
                    event.seat,
                    observer,
                    names,
                    "You take the Critical {card}.",
                    "{name} takes the Critical {card}.",
                    card=card_name(event.card, lang),
                )
            )
        elif isinstance(event, CriticalLeft):  # R13: known only to the seat that looked
            if event.card is None:
                lines.append(
                    _clause(
                        catalog,
                        event.seat,
                        observer,
                        names,
                        "You leave the Critical at the bottom.",
                        "{name} leaves the Critical at the bottom.",
                    )
                )
            else:
                lines.append(
                    _clause(
                        catalog,
                        event.seat,
                        observer,
                        names,
                        "You leave the Critical {card} at the bottom.",
                        "{name} leaves the Critical {card} at the bottom.",
                        card=card_name(event.card, lang),
                    )
                )
        elif isinstance(event, CutCardSeen):
            if event.seat == observer and event.card is not None and not event.critical:
                lines.append(
                    _text(
                        catalog,
                        "You looked at the cut card {card}: no Critical, it stays at the bottom.",
                        card=card_name(event.card, lang),
                    )
                )
        elif isinstance(event, TrumpCardTurned):
            suit = event.card.suit
            double = (
                _text(catalog, " The deal counts double and nobody may fold.")
                if suit is Suit.HEARTS
                else ""
            )
            lines.append(
                _text(
                    catalog,
                    "Trump card {card}: {suit} are trumps.",
                    card=card_name(event.card, lang),
                    suit=suit_name(suit, lang),
                )
                + double
            )
        elif isinstance(event, Folded):
            lines.append(
                _clause(catalog, event.seat, observer, names, "You fold.", "{name} folds.")
            )
        elif isinstance(event, Exchanged):
            lines.append(_exchange_line(event, names, lang))
        elif isinstance(event, DealScored):
            you = _text(catalog, "You")
            points = ", ".join(
                f"{you if s == observer else names[s]} {p:+d}" for s, p in enumerate(event.points)
            )
            double = _text(catalog, " (doubled: Hearts)") if event.doubled else ""
            lines.append(
                _text(
                    catalog,
                    "Deal {number} is over. Points{double}: {points}.",
                    number=event.deal_number,
                    double=double,
                    points=points,
                )
            )
        elif isinstance(event, GameOver):
            you = _text(catalog, "You")
            winners = ", ".join(you if s == observer else names[s] for s in event.winners)
            losers = ", ".join(you if s == observer else names[s] for s in event.losers)
            lines.append(
                _text(
                    catalog,
                    "Game over. Winners: {winners}. Losers: {losers}.",
                    winners=winners,
                    losers=losers,
                )
            )
    return lines


def _exchange_line(event: Exchanged, names: Sequence[str], lang: str) -> str:
    """R23: the cards to their own seat, the count to everybody else."""
    _ = functools.partial(gettext, lang)
    if event.discarded is not None and event.drawn is not None:
        trump = _(" and take the trump card") if event.took_trump_card else ""
        given = " ".join(card_name(c, lang) for c in event.discarded) or _("nothing")
        drawn = " ".join(card_name(c, lang) for c in event.drawn)
        got = _(", draw {drawn}", drawn=drawn) if drawn else ""
        return _("You play and exchange {given}{got}{trump}.", given=given, got=got, trump=trump)
    trump = _(" and takes the trump card") if event.took_trump_card else ""
    name = names[event.seat]
    if event.count == 0:  # R19: taking the trump card gives up a card, so not with none
        return _("{name} plays and exchanges no cards.", name=name)
    if event.count == 1:
        return _("{name} plays and exchanges 1 card{trump}.", name=name, trump=trump)
    return _(
        "{name} plays and exchanges {count} cards{trump}.",
        name=name,
        count=event.count,
        trump=trump,
    )
