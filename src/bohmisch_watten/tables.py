"""Precomputed bitmask tables for trick play (R7–R10, R25, R27).

Cards are integers ``suit * 8 + rank`` and sets of cards are bitmasks of them.  For each
trump suit ``t`` and each *effective* led suit ``L`` (0–3 a plain suit, :data:`TRUMP`
for trumps) the tables give a card's strength in the trick and the set of cards that
would beat a given card.  Building them once here keeps the hot path to a few lookups.
"""

from __future__ import annotations

from typing import Final

from .cards import BELLI, CRITICALS, DECK, MAXI, SPITZ

TRUMP: Final = 4
"""The effective suit of every trump, Criticals included (R10)."""

FULL_DECK: Final = (1 << 32) - 1
CRITICAL_MASK: Final = sum(1 << c.index for c in CRITICALS)
SUIT_MASK: Final = tuple(sum(1 << c.index for c in DECK if c.suit == s) for s in range(4))

_CRITICAL_STRENGTH: Final = {MAXI.index: 40, BELLI.index: 39, SPITZ.index: 38}


def _strength(trump: int, led: int, card: int) -> int:
    """How strongly ``card`` competes for a trick led with effective suit ``led`` (R27)."""
    if card in _CRITICAL_STRENGTH:
        return _CRITICAL_STRENGTH[card]
    suit, rank = divmod(card, 8)
    if suit == trump:
        return 20 + rank
    if suit == led:
        return 10 + rank
    return 0


TRUMP_MASK: Final = tuple(SUIT_MASK[t] | CRITICAL_MASK for t in range(4))
"""``TRUMP_MASK[t]``: every trump when suit ``t`` is trumps (R9)."""

EFFECTIVE: Final = tuple(
    tuple(TRUMP if (TRUMP_MASK[t] >> i) & 1 else i // 8 for i in range(32)) for t in range(4)
)
"""``EFFECTIVE[t][card]``: the effective suit of a card (R10)."""

FOLLOW_MASK: Final = tuple(
    (*tuple(SUIT_MASK[s] & ~TRUMP_MASK[t] for s in range(4)), TRUMP_MASK[t]) for t in range(4)
)
"""``FOLLOW_MASK[t][L]``: the cards of effective suit ``L`` (R8: Criticals are only trumps)."""

STRENGTH: Final = tuple(
    tuple(tuple(_strength(t, led, i) for i in range(32)) for led in range(5)) for t in range(4)
)
"""``STRENGTH[t][L][card]``: higher wins; 0 cannot win (R27)."""

BEATS: Final = tuple(
    tuple(
        tuple(
            sum(1 << c for c in range(32) if STRENGTH[t][led][c] > STRENGTH[t][led][w])
            for w in range(32)
        )
        for led in range(5)
    )
    for t in range(4)
)
"""``BEATS[t][L][w]``: the cards that would beat ``w`` in a trick of effective suit ``L``."""


def bits(mask: int) -> list[int]:
    """The card indices in ``mask``, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
