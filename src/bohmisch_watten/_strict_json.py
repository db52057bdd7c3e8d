"""Reading the values of JSON documents strictly: each reader names where it failed.

Internal: every loader of the package parses JSON with the public
:func:`~bohmisch_watten.notation.parse_json` (a size limit and a nesting limit checked
before the parser runs, no duplicate keys, no ``NaN`` or ``Infinity``) and reads its
values here, so that they all refuse the same hostile input the same way (see
:class:`~bohmisch_watten.FormatError`).  The finished deals' JSON shape is read here
(:class:`DealReader`) and written by :func:`bohmisch_watten.deals.summary_to_dict`, so
that the JSON documents
(:mod:`bohmisch_watten.serialization`) and the text form of records
(:mod:`bohmisch_watten.records`) read it the same way.  Documents of release 0.1.0 are
read by :mod:`bohmisch_watten._read_v0_1`, above this module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeAlias, TypeVar

from .cards import CARDS, Card
from .deals import DealSummary, Trick
from .errors import FormatError
from .notation import DEAL_LIMIT, SCORE_LIMIT, parse_card
from .tricks import PlayedTrick, Plays

__all__ = [
    "JSON",
    "DealReader",
    "read_array",
    "read_bool",
    "read_card",
    "read_distinct_cards",
    "read_int",
    "read_object",
    "read_str",
    "type_name",
    "with_cut",
]

JSON: TypeAlias = Any
"""A value made of dict, list, str, int, bool and None."""
_V = TypeVar("_V")


def type_name(value: object) -> str:
    """The JSON name of ``value``'s type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return {dict: "an object", list: "an array", str: "a string", int: "a number"}.get(
        type(value), "a number"
    )


def read_object(
    value: JSON, where: str, keys: tuple[str, ...], optional: tuple[str, ...] = ()
) -> dict[str, JSON]:
    """``value`` if it is an object with ``keys`` and perhaps ``optional``, else an error."""
    if not isinstance(value, dict):
        raise FormatError(f"{where}: expected an object, got {type_name(value)}")
    missing = [key for key in keys if key not in value]
    if missing:
        fields = "field" if len(missing) == 1 else "fields"
        raise FormatError(f"{where}: missing {fields} {', '.join(missing)}")
    extra = [key for key in value if key not in keys and key not in optional]
    if extra:
        shown = ", ".join(repr(key[:30]) for key in extra[:5])
        fields = "field" if len(extra) == 1 else "fields"
        raise FormatError(f"{where}: unknown {fields} {shown}")
    return value


def read_array(value: JSON, where: str, length: int | None = None) -> list[JSON]:
    if not isinstance(value, list):
        raise FormatError(f"{where}: expected an array, got {type_name(value)}")
    if length is not None and len(value) != length:
        raise FormatError(f"{where}: expected {length} items, got {len(value)}")
    return value


def read_int(value: JSON, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise FormatError(f"{where}: expected an integer, got {type_name(value)}")
    if not low <= value <= high:
        raise FormatError(f"{where}: expected {low} to {high}, got {value!s:.20}")
    return value


def read_bool(value: JSON, where: str) -> bool:
    if not isinstance(value, bool):
        raise FormatError(f"{where}: expected true or false, got {type_name(value)}")
    return value


def read_str(value: JSON, where: str) -> str:
    if not isinstance(value, str):
        raise FormatError(f"{where}: expected a string, got {type_name(value)}")
    return value


def read_card(value: JSON, where: str) -> Card:
    try:
        return parse_card(value)
    except FormatError as error:
        raise FormatError(f"{where}: {error}") from None


def read_distinct_cards(value: JSON, where: str, length: int | None, most: int) -> list[Card]:
    items = read_array(value, where, length)
    if len(items) > most:
        raise FormatError(f"{where}: at most {most} cards, got {len(items)}")
    cards = [read_card(item, f"{where}[{i}]") for i, item in enumerate(items)]
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


class DealReader:
    """Reads the parts of a view dictionary with the seat count known."""

    def __init__(self, n: int) -> None:
        self.n = n

    def seat(self, value: JSON, where: str) -> int:
        return read_int(value, where, 0, self.n - 1)

    def seat_or_none(self, value: JSON, where: str) -> int | None:
        return None if value is None else self.seat(value, where)

    def per_seat(self, value: JSON, where: str, read: Callable[[JSON, str], _V]) -> tuple[_V, ...]:
        items = read_array(value, where, self.n)
        return tuple(read(item, f"{where}[{i}]") for i, item in enumerate(items))

    def seats(self, value: JSON, where: str) -> tuple[int, ...]:
        items = read_array(value, where)
        if len(items) > self.n:
            raise FormatError(f"{where}: more seats than players")
        return tuple(self.seat(item, f"{where}[{i}]") for i, item in enumerate(items))

    def score(self, value: JSON, where: str) -> int:
        return read_int(value, where, -SCORE_LIMIT, SCORE_LIMIT)

    def count(self, value: JSON, where: str) -> int:
        return read_int(value, where, 0, 36)

    def count_or_none(self, value: JSON, where: str) -> int | None:
        return None if value is None else self.count(value, where)

    def card_index(self, value: JSON, where: str) -> int:
        return read_card(value, where).index

    def cards(self, value: JSON, where: str) -> tuple[int, ...]:
        return tuple(c.index for c in read_distinct_cards(value, where, None, 36))

    def mask(self, value: JSON, where: str) -> int:
        out = 0
        for index in self.cards(value, where):
            out |= 1 << index
        return out

    def plays(self, value: JSON, where: str) -> Plays:
        items = read_array(value, where)
        if len(items) > self.n:
            raise FormatError(f"{where}: more plays than players")
        out = []
        for i, item in enumerate(items):
            play = read_object(item, f"{where}[{i}]", ("seat", "card"))
            out.append(
                (
                    self.seat(play["seat"], f"{where}[{i}].seat"),
                    self.card_index(play["card"], f"{where}[{i}].card"),
                )
            )
        return tuple(out)

    def tricks(self, value: JSON, where: str) -> tuple[PlayedTrick, ...]:
        items = read_array(value, where)
        if len(items) > 5:  # R24: five tricks
            raise FormatError(f"{where}: more than five tricks")
        out = []
        for i, item in enumerate(items):
            trick = read_object(item, f"{where}[{i}]", ("plays", "winner"))
            out.append(
                (
                    self.plays(trick["plays"], f"{where}[{i}].plays"),
                    self.seat(trick["winner"], f"{where}[{i}].winner"),
                )
            )
        return tuple(out)

    def cut(self, value: JSON, where: str) -> tuple[tuple[int, int, bool, bool], ...]:
        items = read_array(value, where)
        if len(items) > 3:  # R12: at most three looks
            raise FormatError(f"{where}: more than three looks in the ritual")
        out = []
        for i, item in enumerate(items):
            at = f"{where}[{i}]"
            look = read_object(item, at, ("seat", "card", "taken", "critical"))
            card = -1 if look["card"] is None else self.card_index(look["card"], f"{at}.card")
            out.append(
                (
                    self.seat(look["seat"], f"{at}.seat"),
                    card,
                    read_bool(look["taken"], f"{at}.taken"),
                    read_bool(look["critical"], f"{at}.critical"),
                )
            )
        return tuple(out)

    def summary(self, value: JSON, where: str) -> DealSummary:
        data = read_object(value, where, _SUMMARY_KEYS)
        trump = read_card(data["trump_card"], f"{where}.trump_card")
        tricks = self.tricks(data["tricks"], f"{where}.tricks")
        return DealSummary(
            deal_number=read_int(data["deal_number"], f"{where}.deal_number", 1, DEAL_LIMIT),
            dealer=self.seat(data["dealer"], f"{where}.dealer"),
            trump_card=trump,
            trump_suit=trump.suit,  # R16: the printed suit, a Critical included
            trump_card_taken=read_bool(data["trump_card_taken"], f"{where}.trump_card_taken"),
            folded=self.per_seat(data["folded"], f"{where}.folded", read_bool),
            exchanged=self.per_seat(data["exchanged"], f"{where}.exchanged", self.count_or_none),
            tricks=tuple(
                Trick(tuple((s, CARDS[c]) for s, c in plays), winner) for plays, winner in tricks
            ),
            tricks_won=self.per_seat(data["tricks_won"], f"{where}.tricks_won", self.count),
            points=self.per_seat(data["points"], f"{where}.points", self.score),
            scores=self.per_seat(data["scores"], f"{where}.scores", self.score),
            doubled=read_bool(data["doubled"], f"{where}.doubled"),
        )

    def deal(self, value: JSON, where: str) -> DealSummary:
        """A finished deal with its public ritual: ``summary_to_dict(deal, cut=True)``."""
        if not isinstance(value, dict) or "cut" not in value:
            raise FormatError(f"{where}: expected an object with a field cut")
        rest = {key: item for key, item in value.items() if key != "cut"}
        summary = self.summary(rest, where)
        cut = tuple(
            (seat, None if card < 0 else CARDS[card], taken, critical)
            for seat, card, taken, critical in self.cut(value["cut"], f"{where}.cut")
        )
        return with_cut(summary, cut)


def with_cut(
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
