"""Reading the documents of release 0.1.0: every spelling that changed since, in one place.

Internal.  Release 0.1.0 wrote trick plays as ``[seat, card]`` pairs, a ``last_deal``
with a ``trump_suit``, the past deals of a view with eight fields only (``dealer``,
``cut``, ``trump_card``, ``trump_card_taken``, ``folded``, ``exchanged``, ``tricks``,
``scores``) and views without a ``position``.  Those documents still load
(tests/data/release_0_1_*); the current readers (:mod:`bohmisch_watten._strict_json`,
:mod:`bohmisch_watten.serialization`) call the functions here where an old spelling is
possible, and nothing else needs to know about it.  A future release that stops reading
0.1.0 documents deletes this module and its calls.
"""

from __future__ import annotations

from typing import Final

from ._strict_json import JSON, DealReader, read_array, read_bool, read_card
from .cards import DECK, Card, Suit
from .deals import DealSummary, PastDeals, Trick

__all__ = ["OLD_PAST_KEYS", "old_folds", "old_snapshot", "read_past_deals"]

OLD_PAST_KEYS: Final = frozenset(
    ("dealer", "cut", "trump_card", "trump_card_taken", "folded", "exchanged", "tricks", "scores")
)
"""The fields of a view's past deal as release 0.1.0 wrote it."""


# ---------------------------------------------------------------------- writing


def _plays(plays: tuple[tuple[int, Card], ...]) -> list[JSON]:
    """Trick plays as state documents of release 0.1.0 spelled them: ``[1, "HK"]``."""
    return [[seat, str(card)] for seat, card in plays]


def _summary(summary: DealSummary) -> dict[str, JSON]:
    """``last_deal`` as state documents of release 0.1.0 spelled it."""
    return {
        "deal_number": summary.deal_number,
        "dealer": summary.dealer,
        "trump_card": str(summary.trump_card),
        "trump_suit": summary.trump_suit.name.lower(),
        "trump_card_taken": summary.trump_card_taken,
        "folded": list(summary.folded),
        "exchanged": list(summary.exchanged),
        "tricks": [{"plays": _plays(t.plays), "winner": t.winner} for t in summary.tricks],
        "tricks_won": list(summary.tricks_won),
        "points": list(summary.points),
        "scores": list(summary.scores),
        "doubled": summary.doubled,
    }


def old_snapshot(
    snapshot: dict[str, JSON],
    trick: tuple[tuple[int, Card], ...],
    tricks: tuple[Trick, ...],
    last: DealSummary | None,
) -> dict[str, JSON]:
    """A state document's ``state`` object (``snapshot``) with release 0.1.0's spellings.

    Trick plays were ``[seat, card]`` pairs and ``last_deal`` had a ``trump_suit``; a
    loader accepts a field spelled either way.
    """
    return {
        **snapshot,
        "trick": _plays(trick),
        "tricks": [{"plays": _plays(t.plays), "winner": t.winner} for t in tricks],
        "last_deal": None if last is None else _summary(last),
    }


# ---------------------------------------------------------------------- reading


def old_folds(n: int, last: DealSummary | None) -> tuple[bool, ...]:
    """Who folded in the previous deal, for a 0.1.0 view (it has no ``position``)."""
    return (False,) * n if last is None else last.folded


def read_past_deals(
    read: DealReader,
    value: JSON,
    where: str,
    *,
    last_number: int,
    start_score: int,
    hearts_double: bool,
) -> PastDeals:
    """The ``past_deals`` of a view: entries as :meth:`DealReader.deal` reads them.

    Entries with release 0.1.0's eight fields are still read.  Their deal numbers end
    at ``last_number``, and since that release always started at a fresh game, their
    points follow from consecutive scores starting at ``start_score``.
    """
    items = read_array(value, where)
    out = []
    before: tuple[int, ...] = (start_score,) * read.n
    first = last_number - len(items) + 1
    for i, item in enumerate(items):
        at = f"{where}[{i}]"
        if isinstance(item, dict) and set(item) == OLD_PAST_KEYS:
            deal = _old_deal(read, item, at, first + i, before, hearts_double)
        else:
            deal = read.deal(item, at)
        before = deal.scores
        out.append(deal)
    return PastDeals(out)


def _old_deal(
    read: DealReader,
    data: dict[str, JSON],
    at: str,
    number: int,
    before: tuple[int, ...],
    hearts_double: bool,
) -> DealSummary:
    trump = read_card(data["trump_card"], f"{at}.trump_card")
    tricks = read.tricks(data["tricks"], f"{at}.tricks")
    won = [0] * read.n
    for _, winner in tricks:
        won[winner] += 1
    scores = read.per_seat(data["scores"], f"{at}.scores", read.score)
    cut = tuple(
        (seat, None if card < 0 else DECK[card], taken, critical)
        for seat, card, taken, critical in read.cut(data["cut"], f"{at}.cut")
    )
    return DealSummary(
        deal_number=max(number, 1),
        dealer=read.seat(data["dealer"], f"{at}.dealer"),
        trump_card=trump,
        trump_suit=trump.suit,
        trump_card_taken=read_bool(data["trump_card_taken"], f"{at}.trump_card_taken"),
        folded=read.per_seat(data["folded"], f"{at}.folded", read_bool),
        exchanged=read.per_seat(data["exchanged"], f"{at}.exchanged", read.count_or_none),
        tricks=tuple(
            Trick(tuple((s, DECK[c]) for s, c in plays), winner) for plays, winner in tricks
        ),
        tricks_won=tuple(won),
        points=tuple(a - b for a, b in zip(scores, before, strict=True)),
        scores=scores,
        doubled=trump.suit == Suit.HEARTS and hearts_double,
        cut=cut,
    )
