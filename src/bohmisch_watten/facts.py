"""The public facts of the deal in progress, shared by GameState and PlayerView.

Also the types of the state's compact field groups (:class:`DealFields`,
:class:`GameFields`) and of its :attr:`~bohmisch_watten.GameState.deal_score`.

Both classes keep the same compact fields for what everybody at the table sees —
the trump card, who folded, how many cards each exchanged, the tricks — and turn them
into :class:`Card` objects the same way.  Keeping those properties here means a full
state and a seat's view can never describe the public part of a deal differently.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from .cards import DECK, Card, Suit
from .position import Position
from .rules import Rules
from .summary import PastDeals, Trick
from .tricks import PlayedTrick, Plays

__all__ = ["CutEntry", "CutLook", "DealFacts", "DealFields", "DealScore", "GameFields"]

CutEntry = tuple[int, int, bool, bool]
"""A look in the cut ritual as an observer knows it: ``(seat, card or -1, taken, critical)``.

``critical`` says whether the card was a Critical; for a card not taken this is public
because a Critical must be declined by a visible :class:`LeaveCritical` (README
decision) while any other card ends the ritual by itself (R12, R13).
"""

CARD_PAIRS: Final = tuple(tuple((seat, card) for card in DECK) for seat in range(4))
"""Shared ``(seat, Card)`` pairs, so listing a trick allocates no pair tuples."""
SUITS: Final = tuple(Suit)


class DealFields(NamedTuple):
    """The fields of the deal in progress that change a few times a deal (R11–R21).

    Never on a card played, so playing a card copies this one reference.
    """

    pack: tuple[int, ...]
    """The undealt cards, top first; the stock once dealt (R15)."""
    trump: int
    """The trump card's index, -1 before it is turned (R15)."""
    took_trump: bool
    """Whether the dealer took the trump card (R19)."""
    folded: tuple[bool, ...]
    """Per seat, whether he folded (R18)."""
    exchanged: tuple[int, ...]
    """Per seat, how many cards he exchanged, -1 if undecided or folded."""
    discards: tuple[int, ...]
    """Per seat, the bitmask of the cards he discarded."""
    cut: tuple[tuple[int, int, bool], ...]
    """The cutting ritual: ``(seat who looked, card index, taken)`` (R12, R13)."""


class GameFields(NamedTuple):
    """The fields that change once a deal, at the score, and where the history starts."""

    num_players: int
    rules: Rules
    dealer: int
    deal_number: int
    scores: tuple[int, ...]
    start: Position
    """The position the state's history starts from."""
    past: PastDeals
    """The public record of the finished deals, shared with the parent state."""


class DealScore(NamedTuple):
    """What the tricks won give once the deal is scored (R28–R34)."""

    points: tuple[int, ...]
    """Per seat, the points of the deal (R28–R30), before the goal rules."""
    scores: tuple[int, ...]
    """Per seat, the score once they are posted (R31–R33)."""
    winners: tuple[int, ...]
    """The seats that win the game with these scores; empty if the game goes on (R34)."""


class CutLook(NamedTuple):
    """One look in the cutting ritual (R12, R13), in the same shape on a state and a view.

    :attr:`GameState.cut_looks <bohmisch_watten.GameState.cut_looks>` knows every card;
    :attr:`PlayerView.cut_looks <bohmisch_watten.PlayerView.cut_looks>` has ``card``
    None where only another seat knows it.  ``critical`` is public either way: a
    Critical looked at is taken or visibly left, any other card ends the ritual (R12).
    """

    seat: int
    """The seat who looked: the cutter or the dealer (R12)."""
    card: Card | None
    """The card looked at; None on a view where only the looking seat knows it (R13)."""
    taken: bool
    """Whether the seat took it into his hand (a taken card is public, R13)."""
    critical: bool
    """Whether the card was a Critical (R7)."""


class DealFacts:
    """Mixin: public properties computed from the deal fields of its subclass.

    Subclasses are attrs classes that define the fields annotated here; the mixin has
    no slots and no fields of its own.
    """

    __slots__ = ()

    # The view's private fields, read by the default compact properties below; the
    # state keeps the same facts in public compact fields and overrides them.
    _trick: Plays
    _tricks: tuple[PlayedTrick, ...]
    _tricks_won: tuple[int, ...]
    _trump: int
    _took_trump: bool
    _folded: tuple[bool, ...]
    _exchanged: tuple[int, ...]

    # -------------------------------------------------- the compact form, read-only
    # Cards as indices 0–31 (``Card.index``), so that other modules (documents, bots,
    # encoders) read the deal without touching private fields (python-chess style).

    @property
    def trump_index(self) -> int:
        """The trump card's :attr:`Card.index <bohmisch_watten.Card.index>`; -1 before it
        is turned (R15)."""
        return self._trump

    @property
    def exchange_counts(self) -> tuple[int, ...]:
        """Per seat, how many cards he exchanged; -1 if undecided or folded (R23).

        The compact form of :attr:`exchanged`.
        """
        return self._exchanged

    @property
    def trick_plays(self) -> Plays:
        """The current trick as ``(seat, card index)`` pairs, leader first (R24).

        The compact form of :attr:`trick`.
        """
        return self._trick

    @property
    def played_tricks(self) -> tuple[PlayedTrick, ...]:
        """The completed tricks as ``((seat, card index) pairs, winner)``, in order (R27).

        The compact form of :attr:`tricks`.
        """
        return self._tricks

    @property
    def trump_card(self) -> Card | None:
        """The turned-up trump card of this deal, None before it is turned (R15).

        It stays the trump card for the whole deal, even after the dealer took it (R19).
        """
        trump = self.trump_index
        return DECK[trump] if trump >= 0 else None

    @property
    def trump_suit(self) -> Suit | None:
        """The trump suit of this deal (R16), None before the trump card is turned."""
        trump = self.trump_index
        return SUITS[trump >> 3] if trump >= 0 else None

    @property
    def trump_card_taken(self) -> bool:
        """Whether the dealer took the trump card in his exchange (R19)."""
        return self._took_trump

    @property
    def folded(self) -> tuple[bool, ...]:
        """Per seat, whether that player folded in this deal (R18, R23)."""
        return self._folded

    @property
    def exchanged(self) -> tuple[int | None, ...]:
        """Per seat, how many cards he exchanged; None if undecided or folded (R23)."""
        return tuple([None if k < 0 else k for k in self.exchange_counts])

    @property
    def trick(self) -> tuple[tuple[int, Card], ...]:
        """The current trick: ``(seat, card)`` pairs, leader first."""
        return tuple([CARD_PAIRS[seat][i] for seat, i in self.trick_plays])

    @property
    def cards_in_trick(self) -> int:
        """How many cards lie in the current trick (cheaper than ``len(trick)``)."""
        return len(self.trick_plays)

    @property
    def tricks_completed(self) -> int:
        """How many tricks of this deal are complete (cheaper than ``len(tricks)``)."""
        return len(self.played_tricks)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks of this deal, in order (R27)."""
        pairs = CARD_PAIRS
        return tuple(
            [
                Trick(tuple([pairs[s][i] for s, i in plays]), winner)
                for plays, winner in self.played_tricks
            ]
        )

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """Per seat, the tricks won in this deal so far."""
        return self._tricks_won
