"""Suits, ranks and the 32 cards of the Böhmisch Watten pack (R6–R10).

Every :class:`Card` is one of 32 interned singletons, so identity, equality and
hashing are cheap and a card can be used as a dictionary key or compared with ``is``.
Each card also carries a small integer :attr:`Card.index` (``suit * 8 + rank``);
the engine works on those integers and on bitmasks of them internally, and only
turns them into :class:`Card` objects at the public API boundary.
"""

from __future__ import annotations

import enum
from typing import Final

from attrs.exceptions import FrozenInstanceError

from .errors import check_instance

__all__ = [
    "BELLI",
    "CRITICALS",
    "DECK",
    "MAXI",
    "SPITZ",
    "Card",
    "Rank",
    "Suit",
]


class Suit(enum.IntEnum):
    """The four German suits, in the traditional order Eichel, Gras, Herz, Schellen."""

    ACORNS = 0
    LEAVES = 1
    HEARTS = 2
    BELLS = 3

    @property
    def letter(self) -> str:
        """The one-letter German code used in card notation (``E``, ``G``, ``H``, ``S``)."""
        return _SUIT_LETTERS[self]

    @property
    def label(self) -> str:
        """The English name, capitalised (``"Bells"``), for messages."""
        return self.name.capitalize()

    def __str__(self) -> str:
        """The English name, ``"Hearts"``: ``print(card.suit)`` reads as a word, not ``2``.

        The value stays an int (``int(Suit.HEARTS) == 2``, ``f"{suit:d}"``), as the
        engine's tables index by it.
        """
        return self.name.capitalize()


class Rank(enum.IntEnum):
    """The eight ranks, ordered from low to high (R6: A > K > O > U > 10 > 9 > 8 > 7)."""

    SEVEN = 0
    EIGHT = 1
    NINE = 2
    TEN = 3
    UNTER = 4
    OBER = 5
    KING = 6
    ACE = 7

    @property
    def symbol(self) -> str:
        """The rank part of card notation: ``A K O U 10 9 8 7``."""
        return _RANK_SYMBOLS[self]

    @property
    def label(self) -> str:
        """The English (or German, for Unter and Ober) name, capitalised: ``"King"``."""
        return self.name.capitalize()

    def __str__(self) -> str:
        """The name, ``"King"``: ``print(card.rank)`` reads as a word, not ``6``.

        The value stays an int (``int(Rank.KING) == 6``), ordered low to high (R6).
        """
        return self.name.capitalize()


_SUIT_LETTERS: Final = {Suit.ACORNS: "E", Suit.LEAVES: "G", Suit.HEARTS: "H", Suit.BELLS: "S"}
_RANK_SYMBOLS: Final = {
    Rank.SEVEN: "7",
    Rank.EIGHT: "8",
    Rank.NINE: "9",
    Rank.TEN: "10",
    Rank.UNTER: "U",
    Rank.OBER: "O",
    Rank.KING: "K",
    Rank.ACE: "A",
}
_LETTER_TO_SUIT: Final = {v: k for k, v in _SUIT_LETTERS.items()}
_SYMBOL_TO_RANK: Final = {v: k for k, v in _RANK_SYMBOLS.items()}

_INSTANCES: list[Card] = []


class Card:
    """One card of the 32-card pack: an interned, immutable, ordered value.

    ``Card(Suit.HEARTS, Rank.KING)`` returns the same object every time, so the 32
    cards are singletons.  Cards order by suit, then rank (the order of :data:`DECK`);
    that order is only for sorting and display: which card wins a trick depends on the
    trump suit (R9, R27).

    Notation: German suit letter plus rank, e.g. ``"HK"`` (Maxi), ``"S7"`` (Belli),
    ``"E7"`` (Spitz), ``"G10"``.  :meth:`parse` and :func:`str` round trip.

    Example:
        >>> from bohmisch_watten import MAXI, Card, Rank, Suit
        >>> Card(Suit.HEARTS, Rank.KING) is Card.parse("hk") is MAXI
        True
        >>> str(MAXI), MAXI.is_critical, MAXI.index
        ('HK', True, 22)
        >>> print(MAXI.suit, MAXI.rank)
        Hearts King
        >>> int(MAXI.suit), int(MAXI.rank)
        (2, 6)
        >>> sorted([Card.parse("S7"), Card.parse("EA")])
        [Card.parse('EA'), Card.parse('S7')]
    """

    __slots__ = ("_code", "index", "rank", "suit")

    suit: Suit
    rank: Rank
    index: int
    _code: str

    def __new__(cls, suit: Suit, rank: Rank) -> Card:
        if not isinstance(suit, Suit) or not isinstance(rank, Rank):
            raise TypeError(f"Card(suit, rank) takes a Suit and a Rank, got {suit!r} and {rank!r}")
        return _INSTANCES[suit * 8 + rank]

    @classmethod
    def _create(cls, suit: Suit, rank: Rank) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "index", suit * 8 + rank)
        object.__setattr__(card, "_code", suit.letter + rank.symbol)
        return card

    # The same exception as every attrs-frozen value of the library (states, actions,
    # rules), so that one ``except AttributeError`` or ``FrozenInstanceError`` fits all.
    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse card notation such as ``"HK"`` or ``"g10"`` (case-insensitive).

        Raises:
            TypeError: if ``text`` is not a string.
            ValueError: if ``text`` is not the code of one of the 32 cards.
        """
        check_instance(text, str, "text", "Card.parse(text)")
        code = text.strip().upper()
        suit = _LETTER_TO_SUIT.get(code[:1])
        rank = _SYMBOL_TO_RANK.get(code[1:])
        if suit is None or rank is None:
            raise ValueError(
                f"not a card: {text[:20]!r} (expected a suit letter E/G/H/S and a rank "
                "A K O U 10 9 8 7, e.g. 'HK' or 'G10')"
            )
        return _INSTANCES[suit * 8 + rank]

    @property
    def is_critical(self) -> bool:
        """True for Maxi, Belli and Spitz, the permanent top trumps (R7)."""
        return self.index in _CRITICAL_INDICES

    def __str__(self) -> str:
        return self._code

    def __repr__(self) -> str:
        return f"Card.parse({self._code!r})"

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other

    def __lt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.index >= other.index

    def _repr_svg_(self) -> str:
        """The card face, for Jupyter (see :mod:`bohmisch_watten.svg`)."""
        from .svg import card_svg  # svg draws cards, so it imports this module

        return card_svg(self)

    def __reduce__(self) -> tuple[type[Card], tuple[Suit, Rank]]:
        return (Card, (self.suit, self.rank))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


for _suit in Suit:
    for _rank in Rank:
        _INSTANCES.append(Card._create(_suit, _rank))

DECK: Final[tuple[Card, ...]] = tuple(_INSTANCES)
"""The 32 cards in canonical order (``DECK[i].index == i``): Acorns 7…A, Leaves, Hearts, Bells."""

MAXI: Final = Card(Suit.HEARTS, Rank.KING)
"""Maxi, the Hearts King: the highest card of the game (R7)."""
BELLI: Final = Card(Suit.BELLS, Rank.SEVEN)
"""Belli, the Bells Seven: the second Critical (R7)."""
SPITZ: Final = Card(Suit.ACORNS, Rank.SEVEN)
"""Spitz, the Acorns Seven: the third Critical (R7)."""
CRITICALS: Final[tuple[Card, ...]] = (MAXI, BELLI, SPITZ)
"""The three Criticals, highest first (R7)."""

_CRITICAL_INDICES: Final = frozenset(c.index for c in CRITICALS)


def bits(mask: int) -> list[int]:
    """The card indices in ``mask`` (bit ``i`` for ``DECK[i]``), ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
