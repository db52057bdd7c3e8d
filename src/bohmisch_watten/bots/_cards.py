"""The bots' rule-of-thumb values of cards: expected tricks of a card in a typical deal.

The rules themselves (effective suit, strength, who wins a trick, R7–R10, R27) are
:mod:`~bohmisch_watten.tricks`'s, which the bots call by their own names.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from ..cards import BELLI, DECK, MAXI, SPITZ, Card, Rank, Suit

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
    Rank.SIX: 0.18,  # the lowest trump of the 36-card pack (R6, R9)
}
_PLAIN_VALUE: Final = {Rank.ACE: 0.35, Rank.KING: 0.15, Rank.OBER: 0.08, Rank.UNTER: 0.05}
_CRITICAL_VALUE: Final = {MAXI: 1.0, BELLI: 0.95, SPITZ: 0.9}


def card_value(card: Card, trump: Suit) -> float:
    """Expected tricks of ``card`` in a typical deal (a club player's rule of thumb)."""
    critical = _CRITICAL_VALUE.get(card)
    if critical is not None:
        return critical
    if card.suit is trump:
        return _TRUMP_VALUE[card.rank]
    return _PLAIN_VALUE.get(card.rank, 0.02)


def mean_unseen_value(seen: Iterable[Card], trump: Suit) -> float:
    """The mean :func:`card_value` of the cards not in ``seen``: what a draw is worth.

    The mean runs over the 32 cards of :data:`DECK` with either pack: the Sixes (R6),
    worth little, are left out of this rule of thumb, and the opponent model of
    :mod:`~bohmisch_watten.bots.inference` counts the same way.
    """
    known = set(seen)
    values = [card_value(card, trump) for card in DECK if card not in known]
    return sum(values) / len(values) if values else 0.0
