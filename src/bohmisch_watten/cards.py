"""Suits, ranks and the cards of the Böhmisch Watten packs (R6–R10).

Every :class:`Card` is one of 36 interned singletons, so identity, equality and
hashing are cheap and a card can be used as a dictionary key or compared with ``is``.
Each card also carries a small integer :attr:`Card.index`: ``suit * 8 + rank`` for the
32 cards of the default pack (:data:`DECK`), and ``32 + suit`` for the four Sixes that
only the 36-card pack holds (R6), so the ids of the 32 cards never depend on the pack.
The engine works on those integers and on bitmasks of them internally, and only
turns them into :class:`Card` objects at the public API boundary.  The pack of a rule
set is :func:`pack_cards` — the one answer to "which cards are in play".
"""

from __future__ import annotations

import enum
from typing import Final

from attrs.exceptions import FrozenInstanceError

from .errors import check_instance

__all__ = [
    "BELLI",
    "CARDS",
    "CRITICALS",
    "DECK",
    "MAXI",
    "PACK_SIZES",
    "SIXES",
    "SPITZ",
    "SUIT_OF",
    "Card",
    "Rank",
    "Suit",
    "pack_cards",
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
    """The nine ranks, ordered from low to high (R6: A > K > O > U > 10 > 9 > 8 > 7 > 6).

    The Six is only in the 36-card pack (``Rules(pack=36)``); its value is -1 so that
    the other ranks keep the values the engine's tables index by, and it still ranks
    below the Seven.
    """

    SIX = -1
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
        """The rank part of card notation: ``A K O U 10 9 8 7 6``."""
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
    Rank.SIX: "6",
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
    """One card of the 36-card pack: an interned, immutable, ordered value.

    ``Card(Suit.HEARTS, Rank.KING)`` returns the same object every time, so the 36
    cards are singletons.  Cards order by their index: the 32 cards of :data:`DECK` by
    suit, then rank, then the four Sixes (:data:`SIXES`); that order is only for
    sorting and display: which card wins a trick depends on the trump suit (R9, R27).

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
        return _INSTANCES[_index(suit, rank)]

    @classmethod
    def _create(cls, suit: Suit, rank: Rank) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "index", _index(suit, rank))
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
            ValueError: if ``text`` is not the code of one of the 36 cards (a Six such
                as ``"E6"`` parses; whether it is in play is the pack's question,
                :func:`pack_cards`).
        """
        check_instance(text, str, "text", "Card.parse(text)")
        code = text.strip().upper()
        suit = _LETTER_TO_SUIT.get(code[:1])
        rank = _SYMBOL_TO_RANK.get(code[1:])
        if suit is None or rank is None:
            raise ValueError(
                f"not a card: {text[:20]!r} (expected a suit letter E/G/H/S and a rank "
                "A K O U 10 9 8 7 6, e.g. 'HK' or 'G10')"
            )
        return _INSTANCES[_index(suit, rank)]

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


def _index(suit: Suit, rank: Rank) -> int:
    """A card's id: ``suit * 8 + rank`` for the 32 cards, ``32 + suit`` for a Six."""
    return 32 + suit if rank < 0 else suit * 8 + rank


for _suit in Suit:
    for _rank in Rank:
        if _rank is not Rank.SIX:
            _INSTANCES.append(Card._create(_suit, _rank))
for _suit in Suit:
    _INSTANCES.append(Card._create(_suit, Rank.SIX))

DECK: Final[tuple[Card, ...]] = tuple(_INSTANCES[:32])
"""The 32 cards in canonical order (``DECK[i].index == i``): Acorns 7…A, Leaves, Hearts, Bells."""

SIXES: Final[tuple[Card, ...]] = tuple(_INSTANCES[32:])
"""The four Sixes, ``E6 G6 H6 S6``, with ids 32 to 35: in play only with ``Rules(pack=36)``."""

CARDS: Final[tuple[Card, ...]] = DECK + SIXES
"""Every card by its id (``CARDS[i].index == i``), the Sixes last: for turning an id back
into its card whatever the pack; which cards are in play is :func:`pack_cards`."""

SUIT_OF: Final[tuple[int, ...]] = tuple(int(card.suit) for card in CARDS)
"""``SUIT_OF[i]``: the printed suit of the card with id ``i`` (``i >> 3`` but for a Six)."""

PACK_SIZES: Final[tuple[int, ...]] = (32, 36)
"""The sizes a pack may have (R6): the 32-card pack, and the 36-card pack with the Sixes."""

_PACKS: Final[dict[int, tuple[Card, ...]]] = {32: DECK, 36: CARDS}


def pack_cards(pack: int) -> tuple[Card, ...]:
    """The cards of a pack of ``pack`` cards (R6), ``cards[i].index == i``.

    The one place that says which cards are in play: ``pack_cards(rules.pack)``.  The
    36-card pack is :data:`DECK` followed by :data:`SIXES`, so a card's id is the same
    in both packs.

    Raises:
        ValueError: for a size other than 32 or 36.
    """
    cards = _PACKS.get(pack)
    if cards is None:
        raise ValueError(f"R6: a pack has 32 or 36 cards, got {pack!r}")
    return cards


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
