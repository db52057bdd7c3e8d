"""Read-only records of finished tricks and deals, for UIs and logs."""

from __future__ import annotations

import attrs

from .cards import Card, Suit

__all__ = ["DealSummary", "Trick"]


@attrs.frozen(slots=True)
class Trick:
    """A completed trick: the plays in order (leader first) and the seat that won it.

    Folded players do not play, so a trick has one play per active player (R24).

    Attributes:
        plays: ``(seat, card)`` pairs in the order played, the leader first.
        winner: the seat whose card won the trick (R27); it leads the next one (R24).
    """

    plays: tuple[tuple[int, Card], ...]
    winner: int

    @property
    def leader(self) -> int:
        """The seat that led the trick."""
        return self.plays[0][0]


@attrs.frozen(slots=True)
class DealSummary:
    """What happened in a finished deal, kept on the following state so a UI can show it.

    Attributes:
        deal_number: 1 for the first deal of the game.
        dealer: the dealer's seat.
        trump_card: the turned-up trump card (R15).
        trump_suit: the trump suit (R16).
        trump_card_taken: whether the dealer took the trump card (R19).
        folded: per seat, whether that player folded (R18).
        exchanged: per seat, how many cards he exchanged (None if he folded).
        tricks: the five tricks in order.
        tricks_won: per seat, the number of tricks won.
        points: per seat, the change of score this deal (R29–R32).
        scores: per seat, the score after this deal.
        doubled: whether the points counted double because Hearts were trumps (R30).
    """

    deal_number: int
    dealer: int
    trump_card: Card
    trump_suit: Suit
    trump_card_taken: bool
    folded: tuple[bool, ...]
    exchanged: tuple[int | None, ...]
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    points: tuple[int, ...]
    scores: tuple[int, ...]
    doubled: bool
