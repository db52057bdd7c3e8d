"""The legal exchanges of a five-card hand, as shared :class:`~bohmisch_watten.Exchange` actions.

At the exchange decision a player may discard any subset of his hand of at most three
cards (R18): 26 actions; the dealer also every subset of one to four cards taking the
trump card instead (R19): up to 56.  Finding each subset's shared action by its
bitmask costs a cache lookup per subset, which made this decision cost as much as
several card plays.  Here the subsets of up to three cards are read from tables indexed by the
cards themselves (``pairs[a][b]``), built once, on first use, from the same shared
actions (:data:`~bohmisch_watten.actions.EXCHANGES`); only the dealer's five four-card
discards go through the mask cache.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from .actions import EXCHANGES, EXCHANGES_WITH_TRUMP, Exchange

__all__ = ["exchange_options"]

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
_UP_TO: Final = (1, 6, 16, 26, 31)
"""``_UP_TO[k]``: how many subsets of a five-card hand have at most ``k`` cards."""


def _table(take_trump_card: bool) -> _Table:
    """``(singles[a], pairs[a][b], triples[a][b][c])`` for card indices ``a < b < c``.

    Slots that are no subset (``b <= a``) hold the empty exchange and are never read.
    """
    table = EXCHANGES_WITH_TRUMP if take_trump_card else EXCHANGES
    blank = EXCHANGES[0]
    singles = tuple(table[1 << a] for a in range(32))
    pairs = tuple(
        tuple(table[1 << a | 1 << b] if a < b else blank for b in range(32)) for a in range(32)
    )
    triples = tuple(
        tuple(
            tuple(table[1 << a | 1 << b | 1 << c] if a < b < c else blank for c in range(32))
            if a < b
            else ()
            for b in range(32)
        )
        for a in range(32)
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
        + _BITS[3][hand >> 24]
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
