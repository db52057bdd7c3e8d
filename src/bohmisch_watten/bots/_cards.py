"""Card sense shared by the bots: effective suits, card power, who beats whom (R7–R10, R27).

The rules themselves (effective suit, strength, who wins) are
:mod:`~bohmisch_watten.tricks`'s, the one home of R27; the names here are the bots'
vocabulary for them, plus the bots' own rule-of-thumb values of cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from .. import tricks
from ..cards import BELLI, DECK, MAXI, SPITZ, Card, Rank, Suit

TRUMP: Final = tricks.TRUMP
"""The effective suit of a trump (R10), as :mod:`~bohmisch_watten.tricks` numbers it."""

# Expected tricks of one card in a typical deal: the hand evaluation of HeuristicBot.
# Criticals almost always win (R7); trumps by rank (R9); a plain ace sometimes wins its
# suit's lead (R27); anything else rarely does.
_TRUMP_VALUE: Final = {
    Rank.ACE: 0.75,
    Rank.KING: 0.65,
    Rank.OBER: 0.55,
    Rank.UNTER: 0.45,
    Rank.TEN: 0.38,
    Rank.NINE: 0.32,
    Rank.EIGHT: 0.27,
    Rank.SEVEN: 0.22,
}
_PLAIN_VALUE: Final = {Rank.ACE: 0.35, Rank.KING: 0.15, Rank.OBER: 0.08, Rank.UNTER: 0.05}
_CRITICAL_VALUE: Final = {MAXI: 1.0, BELLI: 0.95, SPITZ: 0.9}


def effective_suit(card: Card, trump: Suit) -> int:
    """``TRUMP`` for Criticals and trump-suit cards, else the printed suit (R8, R10)."""
    return tricks.effective_suit(card, trump)


def power(card: Card, trump: Suit) -> int:
    """A number that orders cards by strength: Criticals, then trumps, then plain (R7, R9)."""
    return tricks.card_strength(card, trump)


def beats(card: Card, best: Card, led: int, trump: Suit) -> bool:
    """Whether ``card`` would take over a trick now won by ``best`` (R27).

    Args:
        card: the candidate card.
        best: the card winning the trick so far.
        led: the effective suit of the card led (``TRUMP`` or a suit number).
        trump: the trump suit.
    """
    return tricks.outranks(card, best, led, trump)


def winning(trick: Sequence[tuple[int, Card]], trump: Suit) -> tuple[int, Card]:
    """The ``(seat, card)`` winning a non-empty trick so far (R27)."""
    return tricks.winning_play(trick, trump)


def card_value(card: Card, trump: Suit) -> float:
    """Expected tricks of ``card`` in a typical deal (a club player's rule of thumb)."""
    critical = _CRITICAL_VALUE.get(card)
    if critical is not None:
        return critical
    if card.suit is trump:
        return _TRUMP_VALUE[card.rank]
    return _PLAIN_VALUE.get(card.rank, 0.02)


def mean_unseen_value(seen: Iterable[Card], trump: Suit) -> float:
    """The mean :func:`card_value` of the cards not in ``seen``: what a draw is worth."""
    known = set(seen)
    values = [card_value(card, trump) for card in DECK if card not in known]
    return sum(values) / len(values) if values else 0.0
