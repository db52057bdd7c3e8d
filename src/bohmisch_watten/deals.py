"""The facts of a deal: the one in progress and the finished ones (R11–R34).

A deal in progress is kept in compact fields, shared by :class:`~bohmisch_watten.GameState`
and :class:`~bohmisch_watten.PlayerView` through the mixin :class:`DealFacts`, so a full
state and a seat's view can never describe the public part of a deal differently: the
field groups (:class:`DealFields`, :class:`GameFields`), the score the tricks would
give (:class:`DealScore`) and the looks of the cutting ritual (:class:`CutLook`).

A finished deal is kept as a :class:`DealSummary` of its :class:`Trick` objects, which
holds only public facts (R13, R23), so the same object serves the full state and every
seat's view; a seat's view lists them as :class:`PublicDeal`.  The finished deals of a
game form a :class:`PastDeals`, a persistent linked list: appending a deal shares every
earlier one with the parent state, so a state costs the same to build at deal 80 as at
deal 2.  The engine appends each deal by :meth:`PastDeals.append_later`, which builds its
summary only when somebody reads it: a playout that never looks back does not pay for it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final, NamedTuple

import attrs

from .cards import CARDS, SUIT_OF, Card, Suit
from .position import Position
from .rules import Rules
from .tricks import PlayedTrick, Plays

__all__ = [
    "CutEntry",
    "CutLook",
    "DealFacts",
    "DealFields",
    "DealScore",
    "DealSummary",
    "GameFields",
    "PastDeals",
    "PublicDeal",
    "Trick",
    "summary_to_dict",
]


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
        cut: the looks of the cutting ritual as everybody saw them: ``(seat, card or
            None, taken, critical)``; a card looked at and not taken is None, only that
            seat knew it (R13).
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
    cut: tuple[tuple[int, Card | None, bool, bool], ...] = ()

    def public(self) -> PublicDeal:
        """This deal as a :class:`PublicDeal` (the shape of ``PlayerView.past_deals``)."""
        return PublicDeal(
            self.dealer, self.cut, self.trump_card, self.trump_card_taken, self.folded,
            self.exchanged, self.tricks, self.scores,
        )  # fmt: skip


class PublicDeal(NamedTuple):
    """The public record of one finished deal: what every seat saw (R13, R23).

    Attributes:
        dealer: the dealer's seat.
        cut: the looks of the ritual ``(seat, card or None, taken, critical)``; a card not
            taken is None because only the seat that looked knows it (R13).
        trump: the trump card (R15).
        took_trump: whether the dealer took it (R19).
        folded: per seat (R18).
        exchanged: per seat, cards exchanged, None for a folded player (R23).
        tricks: the five tricks in order (R27).
        scores: the scores after the deal (R29–R32).
    """

    dealer: int
    cut: tuple[tuple[int, Card | None, bool, bool], ...]
    trump: Card
    took_trump: bool
    folded: tuple[bool, ...]
    exchanged: tuple[int | None, ...]
    tricks: tuple[Trick, ...]
    scores: tuple[int, ...]

    def __setattr__(self, name: str, value: object) -> None:
        # One exception type for mutating any value of the library (attrs' own).
        raise attrs.exceptions.FrozenInstanceError

    def __delattr__(self, name: str) -> None:
        raise attrs.exceptions.FrozenInstanceError


class PastDeals:
    """The finished deals of a game, oldest first, as a persistent linked list.

    Immutable: :meth:`append` returns a new list that shares this one, so every state of
    a game shares the records of its earlier deals (appending never copies).  Equality
    compares the deals; the hash is computed once per list and kept, and copying or
    pickling flattens the list, so neither recurses at any length.

    Example:
        >>> from bohmisch_watten.deals import PastDeals
        >>> empty = PastDeals()
        >>> len(empty), tuple(empty), bool(empty), empty.last
        (0, (), False, None)
    """

    __slots__ = ("_hash", "_last", "_len", "_pending", "previous")

    previous: PastDeals | None
    _last: DealSummary | None
    _pending: tuple[Callable[[Any], DealSummary], Any, tuple[bool, ...]] | None
    """A deal appended by :meth:`append_later` and not read yet: its builder, the
    builder's argument and the deal's folds; None once built (or never pending)."""
    _len: int
    _hash: int | None

    def __init__(self, deals: Iterable[DealSummary] = ()) -> None:
        """The list of ``deals`` in order (a tuple or any iterable)."""
        node: PastDeals | None = None
        length = 0
        last: DealSummary | None = None
        for deal in deals:
            if not isinstance(deal, DealSummary):
                raise TypeError(f"PastDeals holds DealSummary objects, got {type(deal).__name__}")
            if last is not None:
                node = _node(node, last, length)
            last = deal
            length += 1
        self.previous, self._last, self._len, self._hash = node, last, length, None
        self._pending = None

    @property
    def last(self) -> DealSummary | None:
        """The newest deal, None if there is none.

        A deal appended by :meth:`append_later` is built here, on the first read, and
        kept: every later read gives the same object.
        """
        pending = self._pending
        if pending is not None:
            build, source, _ = pending
            self._last = build(source)  # before the pending deal is dropped: see below
            self._pending = None  # another thread sees either the pending deal or the built
        return self._last

    @property
    def last_folded(self) -> tuple[bool, ...] | None:
        """``last.folded``, None if there is no deal, without building a pending deal.

        R21.4 asks at every exchange decision who folded in the previous deal; answered
        from here, a game whose summaries nobody reads never builds them.
        """
        pending = self._pending
        if pending is not None:
            return pending[2]
        last = self._last
        return None if last is None else last.folded

    def append(self, deal: DealSummary) -> PastDeals:
        """A new list: this one plus ``deal``; this one is unchanged and shared."""
        return _node(self if self._len else None, deal, self._len + 1)

    def append_later(
        self, build: Callable[[Any], DealSummary], source: Any, folded: tuple[bool, ...]
    ) -> PastDeals:
        """A new list: this one plus the deal ``build(source)``, built when first read.

        ``build`` must be a pure function of ``source`` (an immutable value), so that when
        it runs makes no difference; ``folded`` must be the folds of the deal it builds
        (:attr:`last_folded` answers with them without building it).
        """
        node = _node(self if self._len else None, None, self._len + 1)
        node._pending = (build, source, folded)
        return node

    def __len__(self) -> int:
        return self._len

    def __bool__(self) -> bool:
        return self._len > 0

    def __iter__(self) -> Iterator[DealSummary]:
        out: list[DealSummary] = []
        node: PastDeals | None = self
        while node is not None and node.last is not None:
            out.append(node.last)
            node = node.previous
        return reversed(out)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PastDeals):
            return NotImplemented
        a: PastDeals | None = self
        b: PastDeals | None = other
        while a is not b:
            if a is None or b is None or a._len != b._len or a.last != b.last:
                return False
            a, b = a.previous, b.previous
        return True

    def __hash__(self) -> int:
        value = self._hash
        if value is None:
            pending: list[PastDeals] = []
            node: PastDeals | None = self
            while node is not None and node._hash is None:
                pending.append(node)
                node = node.previous
            value = 0 if node is None else node._hash
            for item in reversed(pending):
                value = hash((value, item.last))
                item._hash = value
        return value  # type: ignore[return-value]

    def __repr__(self) -> str:
        return f"<PastDeals: {self._len} finished deals>"

    def __reduce__(self) -> tuple[Any, ...]:
        return (PastDeals, (tuple(self),))

    def __copy__(self) -> PastDeals:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> PastDeals:
        return self


def _node(previous: PastDeals | None, deal: DealSummary | None, length: int) -> PastDeals:
    node = PastDeals.__new__(PastDeals)
    node.previous, node._last, node._len, node._hash = previous, deal, length, None
    node._pending = None
    return node


CutEntry = tuple[int, int, bool, bool]
"""A look in the cut ritual as an observer knows it: ``(seat, card or -1, taken, critical)``.

``critical`` says whether the card was a Critical; for a card not taken this is public
because a Critical must be declined by a visible :class:`LeaveCritical` (README
decision) while any other card ends the ritual by itself (R12, R13).
"""

CARD_PAIRS: Final = tuple(tuple((seat, card) for card in CARDS) for seat in range(8))
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
        return CARDS[trump] if trump >= 0 else None

    @property
    def trump_suit(self) -> Suit | None:
        """The trump suit of this deal (R16), None before the trump card is turned."""
        trump = self.trump_index
        return SUITS[SUIT_OF[trump]] if trump >= 0 else None

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


def summary_to_dict(summary: DealSummary, *, cut: bool = False) -> dict[str, Any]:
    """A finished deal as JSON data: one shape for ``last_deal`` and ``past_deals``.

    ``past_deals`` entries also carry the public looks of the ritual (``cut``).
    """
    out: dict[str, Any] = {
        "deal_number": summary.deal_number,
        "dealer": summary.dealer,
        "trump_card": str(summary.trump_card),
        "trump_card_taken": summary.trump_card_taken,
        "folded": list(summary.folded),
        "exchanged": list(summary.exchanged),
        "tricks": [
            {"plays": [{"seat": s, "card": str(c)} for s, c in t.plays], "winner": t.winner}
            for t in summary.tricks
        ],
        "tricks_won": list(summary.tricks_won),
        "points": list(summary.points),
        "scores": list(summary.scores),
        "doubled": summary.doubled,
    }
    if cut:
        out["cut"] = [
            {
                "seat": seat,
                "card": None if card is None else str(card),
                "taken": taken,
                "critical": critical,
            }
            for seat, card, taken, critical in summary.cut
        ]
    return out
