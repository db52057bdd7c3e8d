"""Reading JSON values strictly, and the JSON shape of a finished deal, both ways.

Loaders treat their input as hostile (see :class:`~bohmisch_watten.FormatError`): each
reader here checks one value's type and range and names where it failed.  The finished
deals' JSON shape is read here, next to nothing above it, so that both the JSON
documents (:mod:`bohmisch_watten.serialization`) and the text form of records
(:mod:`bohmisch_watten.records`) read it the same way; :func:`summary_to_dict`, next
to its reader, writes it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import accumulate
from typing import Any, Final, TypeAlias, TypeVar

from .cards import DECK, Card, Suit
from .errors import FormatError
from .notation import parse_card
from .summary import DealSummary, PastDeals, Trick
from .tricks import PlayedTrick, Plays

__all__ = ["json_depth", "summary_to_dict"]

JSON: TypeAlias = Any
"""A value made of dict, list, str, int, bool and None."""
_V = TypeVar("_V")

_SCORE: Final = 10**6  # far beyond any score or deal number a game can reach


def _type_name(value: object) -> str:
    """The JSON name of ``value``'s type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return {dict: "an object", list: "an array", str: "a string", int: "a number"}.get(
        type(value), "a number"
    )


def _object(
    value: JSON, where: str, keys: tuple[str, ...], optional: tuple[str, ...] = ()
) -> dict[str, JSON]:
    """``value`` if it is an object with ``keys`` and perhaps ``optional``, else an error."""
    if not isinstance(value, dict):
        raise FormatError(f"{where}: expected an object, got {_type_name(value)}")
    missing = [key for key in keys if key not in value]
    if missing:
        raise FormatError(f"{where}: missing field(s) {', '.join(missing)}")
    extra = [key for key in value if key not in keys and key not in optional]
    if extra:
        shown = ", ".join(repr(key[:30]) for key in extra[:5])
        raise FormatError(f"{where}: unknown field(s) {shown}")
    return value


def _array(value: JSON, where: str, length: int | None = None) -> list[JSON]:
    if not isinstance(value, list):
        raise FormatError(f"{where}: expected an array, got {_type_name(value)}")
    if length is not None and len(value) != length:
        raise FormatError(f"{where}: expected {length} items, got {len(value)}")
    return value


def _int(value: JSON, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise FormatError(f"{where}: expected an integer, got {_type_name(value)}")
    if not low <= value <= high:
        raise FormatError(f"{where}: expected {low} to {high}, got {value!s:.20}")
    return value


def _bool(value: JSON, where: str) -> bool:
    if not isinstance(value, bool):
        raise FormatError(f"{where}: expected true or false, got {_type_name(value)}")
    return value


def _str(value: JSON, where: str) -> str:
    if not isinstance(value, str):
        raise FormatError(f"{where}: expected a string, got {_type_name(value)}")
    return value


def _card(value: JSON, where: str) -> Card:
    try:
        return parse_card(value)
    except FormatError as error:
        raise FormatError(f"{where}: {error}") from None


def _distinct_cards(value: JSON, where: str, length: int | None, most: int) -> list[Card]:
    items = _array(value, where, length)
    if len(items) > most:
        raise FormatError(f"{where}: at most {most} cards, got {len(items)}")
    cards = [_card(item, f"{where}[{i}]") for i, item in enumerate(items)]
    if len(set(cards)) != len(cards):
        twice = next(c for c in cards if cards.count(c) > 1)
        raise FormatError(f"{where}: {twice} appears twice")
    return cards


_SUMMARY_KEYS: Final = (
    "deal_number",
    "dealer",
    "trump_card",
    "trump_card_taken",
    "folded",
    "exchanged",
    "tricks",
    "tricks_won",
    "points",
    "scores",
    "doubled",
)
_PAST_KEYS: Final = (
    "dealer",
    "cut",
    "trump_card",
    "trump_card_taken",
    "folded",
    "exchanged",
    "tricks",
    "scores",
)


class _DealReader:
    """Reads the parts of a view dictionary with the seat count known."""

    def __init__(self, n: int) -> None:
        self.n = n

    def seat(self, value: JSON, where: str) -> int:
        return _int(value, where, 0, self.n - 1)

    def seat_or_none(self, value: JSON, where: str) -> int | None:
        return None if value is None else self.seat(value, where)

    def per_seat(self, value: JSON, where: str, read: Callable[[JSON, str], _V]) -> tuple[_V, ...]:
        items = _array(value, where, self.n)
        return tuple(read(item, f"{where}[{i}]") for i, item in enumerate(items))

    def seats(self, value: JSON, where: str) -> tuple[int, ...]:
        items = _array(value, where)
        if len(items) > self.n:
            raise FormatError(f"{where}: more seats than players")
        return tuple(self.seat(item, f"{where}[{i}]") for i, item in enumerate(items))

    def score(self, value: JSON, where: str) -> int:
        return _int(value, where, -_SCORE, _SCORE)

    def count(self, value: JSON, where: str) -> int:
        return _int(value, where, 0, 32)

    def count_or_none(self, value: JSON, where: str) -> int | None:
        return None if value is None else self.count(value, where)

    def card_index(self, value: JSON, where: str) -> int:
        return _card(value, where).index

    def cards(self, value: JSON, where: str) -> tuple[int, ...]:
        return tuple(c.index for c in _distinct_cards(value, where, None, 32))

    def mask(self, value: JSON, where: str) -> int:
        out = 0
        for index in self.cards(value, where):
            out |= 1 << index
        return out

    def plays(self, value: JSON, where: str) -> Plays:
        items = _array(value, where)
        if len(items) > self.n:
            raise FormatError(f"{where}: more plays than players")
        out = []
        for i, item in enumerate(items):
            play = _object(item, f"{where}[{i}]", ("seat", "card"))
            out.append(
                (
                    self.seat(play["seat"], f"{where}[{i}].seat"),
                    self.card_index(play["card"], f"{where}[{i}].card"),
                )
            )
        return tuple(out)

    def tricks(self, value: JSON, where: str) -> tuple[PlayedTrick, ...]:
        items = _array(value, where)
        if len(items) > 5:  # R24: five tricks
            raise FormatError(f"{where}: more than five tricks")
        out = []
        for i, item in enumerate(items):
            trick = _object(item, f"{where}[{i}]", ("plays", "winner"))
            out.append(
                (
                    self.plays(trick["plays"], f"{where}[{i}].plays"),
                    self.seat(trick["winner"], f"{where}[{i}].winner"),
                )
            )
        return tuple(out)

    def cut(self, value: JSON, where: str) -> tuple[tuple[int, int, bool, bool], ...]:
        items = _array(value, where)
        if len(items) > 3:  # R12: at most three looks
            raise FormatError(f"{where}: more than three looks in the ritual")
        out = []
        for i, item in enumerate(items):
            at = f"{where}[{i}]"
            look = _object(item, at, ("seat", "card", "taken", "critical"))
            card = -1 if look["card"] is None else self.card_index(look["card"], f"{at}.card")
            out.append(
                (
                    self.seat(look["seat"], f"{at}.seat"),
                    card,
                    _bool(look["taken"], f"{at}.taken"),
                    _bool(look["critical"], f"{at}.critical"),
                )
            )
        return tuple(out)

    def summary(self, value: JSON, where: str) -> DealSummary:
        data = _object(value, where, _SUMMARY_KEYS)
        trump = _card(data["trump_card"], f"{where}.trump_card")
        tricks = self.tricks(data["tricks"], f"{where}.tricks")
        return DealSummary(
            deal_number=_int(data["deal_number"], f"{where}.deal_number", 1, _SCORE),
            dealer=self.seat(data["dealer"], f"{where}.dealer"),
            trump_card=trump,
            trump_suit=trump.suit,  # R16: the printed suit, a Critical included
            trump_card_taken=_bool(data["trump_card_taken"], f"{where}.trump_card_taken"),
            folded=self.per_seat(data["folded"], f"{where}.folded", _bool),
            exchanged=self.per_seat(data["exchanged"], f"{where}.exchanged", self.count_or_none),
            tricks=tuple(
                Trick(tuple((s, DECK[c]) for s, c in plays), winner) for plays, winner in tricks
            ),
            tricks_won=self.per_seat(data["tricks_won"], f"{where}.tricks_won", self.count),
            points=self.per_seat(data["points"], f"{where}.points", self.score),
            scores=self.per_seat(data["scores"], f"{where}.scores", self.score),
            doubled=_bool(data["doubled"], f"{where}.doubled"),
        )

    def deal(self, value: JSON, where: str) -> DealSummary:
        """A finished deal with its public ritual: ``summary_to_dict(deal, cut=True)``."""
        if not isinstance(value, dict) or "cut" not in value:
            raise FormatError(f"{where}: expected an object with a field cut")
        rest = {key: item for key, item in value.items() if key != "cut"}
        summary = self.summary(rest, where)
        cut = tuple(
            (seat, None if card < 0 else DECK[card], taken, critical)
            for seat, card, taken, critical in self.cut(value["cut"], f"{where}.cut")
        )
        return _evolve(summary, cut)

    def past(
        self, value: JSON, where: str, *, last_number: int, start_score: int, hearts_double: bool
    ) -> PastDeals:
        """The ``past_deals`` of a view: entries as :meth:`deal` reads them.

        Documents of version 0.1.0 spelled an entry with eight fields only (``dealer``,
        ``cut``, ``trump_card``, ``trump_card_taken``, ``folded``, ``exchanged``,
        ``tricks``, ``scores``); such entries are still read.  Their deal numbers end at
        ``last_number``, and since that release always started at a fresh game, their
        points follow from consecutive scores starting at ``start_score``.
        """
        items = _array(value, where)
        out = []
        before: tuple[int, ...] = (start_score,) * self.n
        first = last_number - len(items) + 1
        for i, item in enumerate(items):
            at = f"{where}[{i}]"
            if isinstance(item, dict) and set(item) == set(_PAST_KEYS):
                deal = self._old_deal(item, at, first + i, before, hearts_double)
            else:
                deal = self.deal(item, at)
            before = deal.scores
            out.append(deal)
        return PastDeals(out)

    def _old_deal(
        self,
        data: dict[str, JSON],
        at: str,
        number: int,
        before: tuple[int, ...],
        hearts_double: bool,
    ) -> DealSummary:
        trump = _card(data["trump_card"], f"{at}.trump_card")
        tricks = self.tricks(data["tricks"], f"{at}.tricks")
        won = [0] * self.n
        for _, winner in tricks:
            won[winner] += 1
        scores = self.per_seat(data["scores"], f"{at}.scores", self.score)
        cut = tuple(
            (seat, None if card < 0 else DECK[card], taken, critical)
            for seat, card, taken, critical in self.cut(data["cut"], f"{at}.cut")
        )
        return DealSummary(
            deal_number=max(number, 1),
            dealer=self.seat(data["dealer"], f"{at}.dealer"),
            trump_card=trump,
            trump_suit=trump.suit,
            trump_card_taken=_bool(data["trump_card_taken"], f"{at}.trump_card_taken"),
            folded=self.per_seat(data["folded"], f"{at}.folded", _bool),
            exchanged=self.per_seat(data["exchanged"], f"{at}.exchanged", self.count_or_none),
            tricks=tuple(
                Trick(tuple((s, DECK[c]) for s, c in plays), winner) for plays, winner in tricks
            ),
            tricks_won=tuple(won),
            points=tuple(a - b for a, b in zip(scores, before, strict=True)),
            scores=scores,
            doubled=trump.suit == Suit.HEARTS and hearts_double,
            cut=cut,
        )


def _evolve(
    summary: DealSummary, cut: tuple[tuple[int, Card | None, bool, bool], ...]
) -> DealSummary:
    return DealSummary(
        deal_number=summary.deal_number,
        dealer=summary.dealer,
        trump_card=summary.trump_card,
        trump_suit=summary.trump_suit,
        trump_card_taken=summary.trump_card_taken,
        folded=summary.folded,
        exchanged=summary.exchanged,
        tricks=summary.tricks,
        tricks_won=summary.tricks_won,
        points=summary.points,
        scores=summary.scores,
        doubled=summary.doubled,
        cut=cut,
    )


def json_depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` in ``text``, ignoring string contents.

    Runs in linear time without recursion, so it is safe on any input; it exists so
    that the recursive JSON parser never sees a document deep enough to overflow.
    """
    if "[" not in text and "{" not in text:
        return 0
    # Drop escaped characters that matter (backslash, quote), then the insides of
    # strings (every other piece between quotes), then everything but brackets.
    parts = text.replace("\\\\", "").replace('\\"', "").split('"')
    brackets = _NOT_BRACKET.sub("", "".join(parts[::2]))
    if not brackets:
        return 0
    return max(accumulate(map(_BRACKET_STEP.__getitem__, brackets)))


_NOT_BRACKET: Final = re.compile(r"[^\[\]{}]+")
_BRACKET_STEP: Final = {"[": 1, "{": 1, "]": -1, "}": -1}


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
