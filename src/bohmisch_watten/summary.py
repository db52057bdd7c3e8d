"""Read-only records of finished tricks and deals, for UIs, logs and the state itself.

A finished deal is kept as a :class:`DealSummary`, which holds only public facts (R13,
R23), so the same object serves the full state and every seat's view.  The finished
deals of a game form a :class:`PastDeals`, a persistent linked list: appending a deal
shares every earlier one with the parent state, so a state costs the same to build at
deal 80 as at deal 2, and a view never replays anything.  The engine appends each deal
by :meth:`PastDeals.append_later`, which builds its summary (five :class:`Trick`
objects and the summary itself, a tenth of a random deal's cost) only when somebody
reads it: a playout that never looks back does not pay for it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple

import attrs

from .cards import Card, Suit

__all__ = ["DealSummary", "PastDeals", "PublicDeal", "Trick"]


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
        >>> from bohmisch_watten.summary import PastDeals
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
