"""The actions a player (or chance) can take: small frozen value objects (R11–R25).

Actions do not carry the seat: the state knows whose turn it is
(:attr:`GameState.current_player`).  Equal actions are interchangeable, so
``state.apply(PlayCard(Card.parse("HK")))`` works whether or not the object came from
``legal_actions()``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, Final, TypeAlias

import attrs

from .cards import CARDS, Card, bits
from .dealing import deal_pack
from .errors import check_bool
from .rules import Rules

__all__ = [
    "Action",
    "Exchange",
    "Fold",
    "LeaveCritical",
    "Node",
    "PlayCard",
    "Shuffle",
    "TakeCritical",
    "exchange_options",
]


def _to_card_tuple(pack: Iterable[Card]) -> tuple[Card, ...]:
    if isinstance(pack, (str, bytes)) or not isinstance(pack, Iterable):
        raise TypeError(f"Shuffle.pack must be a sequence of Card objects, got {pack!r:.40}")
    return tuple(pack)


@attrs.frozen(slots=True)
class Shuffle:
    """Chance: shuffle and cut as one event, the 32 cards top first (R11).

    Any permutation of :data:`DECK` is accepted at a chance node, so a UI or a test can
    deal a chosen pack; :meth:`GameState.sample_chance` draws a uniformly random one.
    """

    pack: tuple[Card, ...] = attrs.field(converter=_to_card_tuple)

    def __str__(self) -> str:
        return "shuffle " + " ".join(str(c) for c in self.pack)

    @classmethod
    def deal(
        cls,
        hands: Sequence[Iterable[Card]],
        trump_card: Card,
        *,
        dealer: int = 0,
        stock: Iterable[Card] = (),
        cut_card: Card | None = None,
        taken: Iterable[Card] = (),
        rules: Rules | None = None,
    ) -> Shuffle:
        """The shuffle that deals ``hands`` and turns up ``trump_card`` (R12, R15).

        The inverse of dealing, for tests, puzzles and UIs that set up a position: see
        :func:`bohmisch_watten.dealing.deal_pack` for the arguments and the errors.
        ``dealer`` and ``rules`` must be those of the game the shuffle is applied to.

        Example:
            >>> from bohmisch_watten import Card, Shuffle, new_game
            >>> codes = ("HK EA E9 G8 S10", "GA GK GO GU G10")
            >>> hands = [[Card.parse(c) for c in h.split()] for h in codes]
            >>> state = new_game(2, dealer=1).apply(Shuffle.deal(hands, Card.parse("S9"), dealer=1))
            >>> " ".join(str(card) for card in state.hands[0]), str(state.trump_card)
            ('E9 EA G8 HK S10', 'S9')
        """
        pack = deal_pack(
            hands, trump_card, dealer=dealer, stock=stock, cut_card=cut_card, taken=taken,
            rules=Rules() if rules is None else rules,
        )  # fmt: skip
        return cls(pack)


@attrs.frozen(slots=True)
class TakeCritical:
    """Take the Critical offered in the cutting ritual into the hand (R12)."""

    def __str__(self) -> str:
        return "take"


@attrs.frozen(slots=True)
class LeaveCritical:
    """Decline the Critical offered in the cutting ritual; it stays at the bottom (R12, R13)."""

    def __str__(self) -> str:
        return "leave"


@attrs.frozen(slots=True)
class Fold:
    """Take no further part in this deal (R18, R21)."""

    def __str__(self) -> str:
        return "fold"


def _to_card_set(discard: Iterable[Card]) -> frozenset[Card]:
    if isinstance(discard, (str, bytes)) or not isinstance(discard, Iterable):
        raise TypeError(f"Exchange.discard must be a set of Card objects, got {discard!r:.40}")
    items = discard if isinstance(discard, frozenset) else tuple(discard)
    cards = frozenset(items)
    for card in cards:
        if not isinstance(card, Card):
            raise TypeError(
                f"Exchange.discard must contain Card objects, got {card!r:.20}"
                " (use Card.parse for notation)"
            )
    if len(cards) != len(items):  # R18: each card of the hand is discarded once at most
        twice = sorted({card for card in items if list(items).count(card) > 1})
        raise ValueError(f"Exchange.discard names {' '.join(map(str, twice))} more than once")
    return cards


def _check_bool(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    check_bool(value, attribute.name, f"Exchange({attribute.name}=)")


@attrs.frozen(slots=True)
class Exchange:
    """Play this deal and exchange the cards in ``discard`` (R18–R20).

    Non-dealers draw ``len(discard)`` cards from the top of the stock.  With
    ``take_trump_card=True`` (dealer only, R19) the dealer gives up every card in
    ``discard``, receives the turned-up trump card for one of them and the top stock
    cards for the rest.  An empty ``discard`` means "play without exchanging".
    """

    discard: frozenset[Card] = attrs.field(converter=_to_card_set)
    take_trump_card: bool = attrs.field(default=False, validator=_check_bool)
    discard_mask: int = attrs.field(init=False, eq=False, repr=False, hash=False)
    """The compact form of ``discard``: a bitmask of card indices (bit ``card.index``)."""

    def __attrs_post_init__(self) -> None:
        mask = 0
        for card in self.discard:
            mask |= 1 << card.index
        object.__setattr__(self, "discard_mask", mask)

    def __str__(self) -> str:
        # The cards in card order, which is index order: read off the mask, not sorted.
        parts = ["exchange", *[str(CARDS[i]) for i in bits(self.discard_mask)]]
        if self.take_trump_card:
            parts.append("+trump")
        return " ".join(parts)


def _check_card(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, Card):
        raise TypeError(
            f"PlayCard.card must be a Card, got {value!r:.20} (use Card.parse for notation)"
        )


@attrs.frozen(slots=True)
class PlayCard:
    """Play ``card`` to the current trick (R24–R27)."""

    card: Card = attrs.field(validator=_check_card)

    def __str__(self) -> str:
        return f"play {self.card}"


Action: TypeAlias = Shuffle | TakeCritical | LeaveCritical | Fold | Exchange | PlayCard
"""Any action :meth:`GameState.apply` understands."""

Node: TypeAlias = tuple[Any, int | None, Action]
"""A history as a linked list: ``(previous node or None, seat or None, action)``, newest
first, so that ``apply()`` extends it in constant time (``GameState.history_node``)."""

TAKE: Final = TakeCritical()
LEAVE: Final = LeaveCritical()
FOLD: Final = Fold()
PLAY_ACTIONS: Final[tuple[PlayCard, ...]] = tuple(PlayCard(card) for card in CARDS)
"""``PLAY_ACTIONS[i]`` plays ``CARDS[i]``; shared so that legal_actions() allocates nothing."""


_new: Final = object.__new__
_set: Final = object.__setattr__


def _built(mask: int, take: bool) -> Exchange:
    """``Exchange(cards of mask, take)`` without the checks that a caller's input needs.

    The tables below build thousands of exchanges from bitmasks of distinct cards, some
    of them in the middle of a game (a dealer's four-card discards): filling the three
    slots directly costs a fraction of attrs' ``__init__`` with its converter and
    validator.  ``tests/test_one_home.py`` checks both build equal values.
    """
    exchange = _new(Exchange)
    _set(exchange, "discard", frozenset([CARDS[i] for i in bits(mask)]))
    _set(exchange, "take_trump_card", take)
    _set(exchange, "discard_mask", mask)
    return exchange


@lru_cache(maxsize=1 << 16)  # every discard of up to 4 cards: 41,449 masks
def _plain_exchange(mask: int) -> Exchange:
    return _built(mask, False)


@lru_cache(maxsize=1 << 16)
def _exchange_with_trump(mask: int) -> Exchange:
    return _built(mask, True)


class _ExchangeTable:
    """``table[mask]``: the shared :class:`Exchange` of a discard bitmask.

    Backed by a bounded ``lru_cache`` on a pure function of the mask, so no module-level
    container grows with use; ``__getitem__`` *is* that cached function, which keeps
    ``map(EXCHANGES.__getitem__, masks)`` on the exchange decision as fast as a dict.
    """

    __slots__ = ()

    if TYPE_CHECKING:

        def __getitem__(self, mask: int) -> Exchange: ...


class _Plain(_ExchangeTable):
    __slots__ = ()
    __getitem__ = staticmethod(_plain_exchange)


class _WithTrump(_ExchangeTable):
    __slots__ = ()
    __getitem__ = staticmethod(_exchange_with_trump)


EXCHANGES: Final[_ExchangeTable] = _Plain()
"""``EXCHANGES[mask]``: the plain exchange discarding the cards of ``mask``."""
EXCHANGES_WITH_TRUMP: Final[_ExchangeTable] = _WithTrump()
"""``EXCHANGES_WITH_TRUMP[mask]``: the dealer's exchange taking the trump card (R19)."""


# ------------------------------------------------------------ the exchanges of a hand
# The legal exchanges of a five-card hand, as shared :class:`~bohmisch_watten.Exchange` actions.
#
# At the exchange decision a player may discard any subset of his hand of at most three
# cards (R18): 26 actions; the dealer also every subset of one to four cards taking the
# trump card instead (R19): up to 56.  Finding each subset's shared action by its
# bitmask costs a cache lookup per subset, which made this decision cost as much as
# several card plays.  Here the subsets of up to three cards are read from tables indexed by the
# cards themselves (``pairs[a][b]``), built once, on first use, from the same shared
# actions (:data:`~bohmisch_watten.actions.EXCHANGES`); only the dealer's five four-card
# discards go through the mask cache.

_Table = tuple[
    tuple[Exchange, ...],
    tuple[tuple[Exchange, ...], ...],
    tuple[tuple[tuple[Exchange, ...], ...], ...],
]

_BITS: Final = tuple(
    tuple(tuple(suit * 8 + i for i in range(8) if byte >> i & 1) for byte in range(256))
    for suit in range(4)
)
"""``_BITS[suit][byte]``: the card indices of one suit's eight bits of a hand mask."""
_SIX_BITS: Final = tuple(tuple(32 + i for i in range(4) if nibble >> i & 1) for nibble in range(16))
"""``_SIX_BITS[hand >> 32]``: the card indices of the Sixes in a hand (R6, ``pack = 36``)."""
_UP_TO: Final = (1, 6, 16, 26, 31)
"""``_UP_TO[k]``: how many subsets of a five-card hand have at most ``k`` cards."""


def _table(take_trump_card: bool) -> _Table:
    """``(singles[a], pairs[a][b], triples[a][b][c])`` for card indices ``a < b < c``.

    Slots that are no subset (``b <= a``) hold the empty exchange and are never read.
    """
    table = EXCHANGES_WITH_TRUMP if take_trump_card else EXCHANGES
    blank = EXCHANGES[0]
    singles = tuple(table[1 << a] for a in range(36))
    pairs = tuple(
        tuple(table[1 << a | 1 << b] if a < b else blank for b in range(36)) for a in range(36)
    )
    triples = tuple(
        tuple(
            tuple(table[1 << a | 1 << b | 1 << c] if a < b < c else blank for c in range(36))
            if a < b
            else ()
            for b in range(36)
        )
        for a in range(36)
    )
    return singles, pairs, triples


@cache
def _tables() -> tuple[Exchange, _Table, _Table]:
    """The empty exchange, the plain table and the table taking the trump card (R19).

    Built on first use (some 10,000 shared actions, a few hundredths of a second) rather
    than at import; a pure function without arguments, so caching it is no hidden state.
    """
    return EXCHANGES[0], _table(False), _table(True)


def exchange_options(hand: int, limit: int, dealer: bool) -> tuple[Exchange, ...]:
    """The exchanges of a five-card ``hand`` (bitmask) drawing at most ``limit`` stock cards.

    In a fixed order: by the number of cards discarded, then by card order (plain ones
    first).  For the dealer (R19) also those taking the trump card, which draw one card
    less, so they may discard up to ``limit + 1`` cards.

    Args:
        hand: the bitmask of the five cards (R15).
        limit: 0 to 3, the cards the player may draw (R18–R20).
        dealer: whether the player is the dealer (R19).
    """
    a, b, c, d, e = (  # the five cards, ascending: four table lookups, one per suit
        _BITS[0][hand & 255]
        + _BITS[1][hand >> 8 & 255]
        + _BITS[2][hand >> 16 & 255]
        + _BITS[3][hand >> 24 & 255]
        + _SIX_BITS[hand >> 32]
    )
    blank, plain_table, trump_table = _tables()
    singles, pairs, triples = plain_table
    pa, pb, pc, pd = pairs[a], pairs[b], pairs[c], pairs[d]
    ta, tb, tc = triples[a], triples[b], triples[c]
    tab, tac, tad, tbc, tbd, tcd = ta[b], ta[c], ta[d], tb[c], tb[d], tc[d]
    plain: tuple[Exchange, ...] = (
        blank,
        singles[a], singles[b], singles[c], singles[d], singles[e],
        pa[b], pa[c], pa[d], pa[e], pb[c], pb[d], pb[e], pc[d], pc[e], pd[e],
        tab[c], tab[d], tab[e], tac[d], tac[e], tad[e], tbc[d], tbc[e], tbd[e], tcd[e],
    )  # fmt: skip
    if limit < 3:
        plain = plain[: _UP_TO[limit]]
    if not dealer:
        return plain
    singles, pairs, triples = trump_table
    pa, pb, pc, pd = pairs[a], pairs[b], pairs[c], pairs[d]
    ta, tb, tc = triples[a], triples[b], triples[c]
    tab, tac, tad, tbc, tbd, tcd = ta[b], ta[c], ta[d], tb[c], tb[d], tc[d]
    with_trump = (
        singles[a], singles[b], singles[c], singles[d], singles[e],
        pa[b], pa[c], pa[d], pa[e], pb[c], pb[d], pb[e], pc[d], pc[e], pd[e],
        tab[c], tab[d], tab[e], tac[d], tac[e], tad[e], tbc[d], tbc[e], tbd[e], tcd[e],
    )  # fmt: skip
    if limit < 2:
        return plain + with_trump[: _UP_TO[limit + 1] - 1]
    if limit == 2:
        return plain + with_trump
    full = 1 << a | 1 << b | 1 << c | 1 << d | 1 << e
    four = EXCHANGES_WITH_TRUMP.__getitem__
    fours = (
        four(full ^ 1 << e), four(full ^ 1 << d), four(full ^ 1 << c), four(full ^ 1 << b),
        four(full ^ 1 << a),
    )  # fmt: skip
    return plain + with_trump + fours
