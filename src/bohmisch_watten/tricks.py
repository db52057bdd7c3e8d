"""Trick play as pure functions: what may be played, who wins (R24–R27).

The public functions take :class:`~bohmisch_watten.Card` objects and a
:class:`~bohmisch_watten.Suit`, as a bot or a UI holds them (``view.hand``,
``view.trick``, ``view.trump_suit``): :func:`winning_play`, :func:`beats`,
:func:`legal_cards` and :func:`is_trump`.  They are the same rules ``apply()`` uses,
computed by the same bitmask functions: :func:`best_play`, :func:`legal_play_mask` and
:func:`explain_illegal_play`, on card indices and bitmasks (the compact form of
``state.trick_plays`` and ``state.hand_masks``), which the engine, the sampler and the
views call on their hot paths.

>>> from bohmisch_watten import Card, Suit
>>> from bohmisch_watten.tricks import beats, legal_cards, winning_play
>>> trick = [(1, Card.parse("S9")), (2, Card.parse("SK"))]
>>> winning_play(trick, Suit.ACORNS)
(2, Card.parse('SK'))
>>> beats(Card.parse("E8"), trick, Suit.ACORNS), beats(Card.parse("SO"), trick, Suit.ACORNS)
(True, False)
>>> hand = [Card.parse(c) for c in ("SA", "S8", "G7")]
>>> legal_cards(hand, trick, Suit.ACORNS, must_head=True)  # R25.1: follow and head
(Card.parse('SA'),)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from .cards import BELLI, CARDS, CRITICALS, MAXI, SPITZ, SUIT_OF, Card, Suit, bits
from .errors import check_bool

__all__ = [
    "TRUMP",
    "CardPlay",
    "Play",
    "PlayedTrick",
    "Plays",
    "beats",
    "best_play",
    "card_strength",
    "effective_suit",
    "explain_illegal_play",
    "is_trump",
    "legal_cards",
    "legal_play_mask",
    "outranks",
    "trick_winner",
    "winning_play",
]

# The precomputed bitmask tables of trick play (R7–R10, R25, R27): cards are integers
# ``suit * 8 + rank``, sets of cards bitmasks.  For each trump suit ``t`` and each
# *effective* led suit ``L`` (0–3 a plain suit, :data:`TRUMP` for trumps) they give a
# card's strength in the trick and the cards that would beat a given card, built once
# here so that the hot path is a few lookups.

TRUMP: Final = 4
"""The effective suit of every trump, Criticals included (R10)."""

FULL_DECK: Final = (1 << 32) - 1
CRITICAL_MASK: Final = sum(1 << c.index for c in CRITICALS)
SUIT_MASK: Final = tuple(sum(1 << c.index for c in CARDS if c.suit == s) for s in range(4))
"""``SUIT_MASK[s]``: the cards of suit ``s`` in either pack (its Six included, R6)."""

_CRITICAL_STRENGTH: Final = {MAXI.index: 40, BELLI.index: 39, SPITZ.index: 38}


def _strength(trump: int, led: int, card: int) -> int:
    """How strongly ``card`` competes for a trick led with effective suit ``led`` (R27)."""
    if card in _CRITICAL_STRENGTH:
        return _CRITICAL_STRENGTH[card]
    suit, rank = SUIT_OF[card], int(CARDS[card].rank)  # a Six: rank -1, below the Seven
    if suit == trump:
        return 20 + rank
    if suit == led:
        return 10 + rank
    return 0


TRUMP_MASK: Final = tuple(SUIT_MASK[t] | CRITICAL_MASK for t in range(4))
"""``TRUMP_MASK[t]``: every trump when suit ``t`` is trumps (R9), its Six included (it is
in no hand of the 32-card game)."""

EFFECTIVE: Final = tuple(
    tuple(TRUMP if (TRUMP_MASK[t] >> i) & 1 else SUIT_OF[i] for i in range(36)) for t in range(4)
)
"""``EFFECTIVE[t][card]``: the effective suit of a card (R10)."""

FOLLOW_MASK: Final = tuple(
    (*tuple(SUIT_MASK[s] & ~TRUMP_MASK[t] for s in range(4)), TRUMP_MASK[t]) for t in range(4)
)
"""``FOLLOW_MASK[t][L]``: the cards of effective suit ``L`` (R8: Criticals are only trumps)."""

STRENGTH: Final = tuple(
    tuple(tuple(_strength(t, led, i) for i in range(36)) for led in range(5)) for t in range(4)
)
"""``STRENGTH[t][L][card]``: higher wins; 0 cannot win (R27)."""

BEATS: Final = tuple(
    tuple(
        tuple(
            sum(1 << c for c in range(36) if STRENGTH[t][led][c] > STRENGTH[t][led][w])
            for w in range(36)
        )
        for led in range(5)
    )
    for t in range(4)
)
"""``BEATS[t][L][w]``: the cards that would beat ``w`` in a trick of effective suit ``L``."""


Play = tuple[int, int]
"""One card played to a trick in the compact form: ``(seat, card index)``.

The form of ``state.trick_plays``; ``state.trick`` and ``view.trick`` give the same
plays as ``(seat, Card)`` pairs (:data:`CardPlay`).
"""

Plays = tuple[Play, ...]
"""The cards played to one trick so far, in order, in the compact form of :data:`Play`
(the engine's and the sampler's form: ``state.trick_plays``)."""

PlayedTrick = tuple[Plays, int]
"""A finished trick in the compact form: its :data:`Plays` and the seat that won it (R27).

The form of ``state.played_tricks`` and ``view.played_tricks``.  ``state.tricks`` and
``view.tricks`` give the same tricks as :class:`~bohmisch_watten.Trick` values,
``Trick(plays=((seat, Card), …), winner=seat)``, which is what a bot or a UI reads.
"""


def best_play(trick: Sequence[Play], trump: int) -> Play:
    """The play currently winning ``trick`` (R27): highest Critical, trump, or led suit.

    Of a complete trick, its seat is the trick's winner, who leads the next (R24).
    """
    strength = STRENGTH[trump][EFFECTIVE[trump][trick[0][1]]]
    best = trick[0]
    for play in trick[1:]:
        if strength[play[1]] > strength[best[1]]:
            best = play
    return best


def legal_play_mask(hand: int, trick: Sequence[Play], trump: int, must_head: bool) -> int:
    """The cards of ``hand`` that may be played to ``trick`` (R25, R26).

    Args:
        hand: bitmask of the player's cards.
        trick: the plays so far, leader first.
        trump: the trump suit (0–3).
        must_head: whether heading and overtrumping are compulsory (R26).
    """
    if not trick:
        return hand  # R24: the leader may lead any card
    led = EFFECTIVE[trump][trick[0][1]]
    follow = hand & FOLLOW_MASK[trump][led]
    if not follow and led != TRUMP:
        follow = hand & TRUMP_MASK[trump]  # R25.2: void in a plain suit, must trump
    if not follow:
        return hand  # R25.4: neither the suit led nor a trump
    if must_head:  # best_play() inlined: this runs for every card played to a trick
        strength = STRENGTH[trump][led]
        winning = trick[0][1]
        for play in trick[1:]:
            if strength[play[1]] > strength[winning]:
                winning = play[1]
        heading = follow & BEATS[trump][led][winning]
        if heading:
            return heading  # R25.1-3: head / overtrump when possible
    return follow


def _names(mask: int) -> str:
    cards = [str(CARDS[i]) for i in bits(mask)]
    return cards[0] if len(cards) == 1 else ", ".join(cards[:-1]) + " or " + cards[-1]


def _suit_name(led: int) -> str:
    return "trumps" if led == TRUMP else Suit(led).label


def explain_illegal_play(
    seat: int, hand: int, card: int, trick: Sequence[Play], trump: int, must_head: bool
) -> str:
    """Why playing ``card`` is illegal, naming the rule (for :class:`IllegalActionError`).

    Only called on the error path, so clarity wins over speed here.
    """
    if not (hand >> card) & 1:
        return f"R24: seat {seat} does not hold {CARDS[card]} (holds {_names(hand)})"
    led = EFFECTIVE[trump][trick[0][1]]
    follow = hand & FOLLOW_MASK[trump][led]
    if follow:
        rule = "R25.3" if led == TRUMP else "R25.1"
        if not (follow >> card) & 1:
            what = "must play a trump on a trump lead" if led == TRUMP else "must follow"
            target = "" if led == TRUMP else f" {_suit_name(led)}"
            return f"{rule}: {what}{target} with {_names(follow)}"
        verb = "overtrump" if led == TRUMP else "head the trick"
        heading = legal_play_mask(hand, trick, trump, must_head)
        return f"{rule}: must {verb} with {_names(heading)}"
    trumps = hand & TRUMP_MASK[trump]
    if not (trumps >> card) & 1:
        return f"R25.2: void in {_suit_name(led)}, must trump with {_names(trumps)}"
    return f"R25.2: must overtrump with {_names(legal_play_mask(hand, trick, trump, must_head))}"


# ------------------------------------------------------------ card-level helpers

CardPlay = tuple[int, Card]
"""One card played to a trick: ``(seat, card)``, as in ``state.trick``."""


def _suit_index(trump_suit: object) -> int:
    if not isinstance(trump_suit, Suit):
        raise TypeError(f"trump_suit must be a Suit, got {trump_suit!r:.30}")
    return int(trump_suit)


def _card_index(card: object, name: str) -> int:
    if not isinstance(card, Card):
        raise TypeError(f"{name} must be a Card, got {card!r:.30} (use Card.parse for notation)")
    return card.index


def _plays(trick: Iterable[CardPlay]) -> tuple[Play, ...]:
    if isinstance(trick, (str, bytes)):
        raise TypeError(f"trick must be a sequence of (seat, Card) pairs, got {trick!r:.30}")
    out = []
    for play in trick:
        if not (isinstance(play, tuple) and len(play) == 2 and isinstance(play[0], int)):
            raise TypeError(f"trick must hold (seat, Card) pairs, got {play!r:.30}")
        out.append((play[0], _card_index(play[1], "each card of trick")))
    return tuple(out)


def is_trump(card: Card, trump_suit: Suit) -> bool:
    """Whether ``card`` is a trump: a Critical, or a card of the trump suit (R7–R10).

    >>> from bohmisch_watten import Card, Suit
    >>> from bohmisch_watten.tricks import is_trump
    >>> is_trump(Card.parse("S7"), Suit.HEARTS), is_trump(Card.parse("S8"), Suit.HEARTS)
    (True, False)
    """
    return bool(TRUMP_MASK[_suit_index(trump_suit)] >> _card_index(card, "card") & 1)


def effective_suit(card: Card, trump_suit: Suit) -> int:
    """The suit ``card`` counts as: :data:`TRUMP` for a trump, else its printed suit (R8, R10).

    >>> from bohmisch_watten import Card, Suit
    >>> from bohmisch_watten.tricks import TRUMP, effective_suit
    >>> effective_suit(Card.parse("HK"), Suit.ACORNS) == TRUMP
    True
    >>> effective_suit(Card.parse("G8"), Suit.ACORNS) == Suit.LEAVES
    True
    """
    return EFFECTIVE[_suit_index(trump_suit)][_card_index(card, "card")]


def card_strength(card: Card, trump_suit: Suit) -> int:
    """A number that orders cards by strength, for sorting a hand (R7–R9).

    Maxi > Belli > Spitz > the trumps by rank > the plain cards by rank (equal ranks of
    different plain suits are equal): the order in which a card wins a trick of its own
    effective suit.  Higher is stronger; only the order is meant, not the values.
    """
    index = _card_index(card, "card")
    return STRENGTH[_suit_index(trump_suit)][SUIT_OF[index]][index]


def outranks(card: Card, best: Card, led: int, trump_suit: Suit) -> bool:
    """Whether ``card`` would take a trick of effective suit ``led`` now won by ``best`` (R27).

    ``led`` is :func:`effective_suit` of the card led (:data:`TRUMP` or 0–3).
    """
    if isinstance(led, bool) or not isinstance(led, int) or not 0 <= led <= TRUMP:
        raise TypeError(f"led must be an effective suit from 0 to {TRUMP}, got {led!r:.20}")
    trump = _suit_index(trump_suit)
    return bool(BEATS[trump][led][_card_index(best, "best")] >> _card_index(card, "card") & 1)


def trick_winner(trick: Sequence[CardPlay], trump_suit: Suit | None) -> int | None:
    """The seat winning ``trick`` so far (R27); None for an empty trick or no trump yet.

    What a table shows beside the trick: :func:`winning_play`'s seat, tolerant of the
    moments when there is nothing to win.
    """
    if not trick or trump_suit is None:
        return None
    return winning_play(trick, trump_suit)[0]


def winning_play(trick: Sequence[CardPlay], trump_suit: Suit) -> CardPlay:
    """The ``(seat, card)`` pair winning ``trick`` so far (R27).

    The highest Critical, else the highest trump, else the highest card of the suit led
    (a Critical led counts as a trump lead, R8).  For a complete trick this is the
    trick's winner.

    Raises:
        ValueError: if ``trick`` is empty.
        TypeError: naming the argument, for anything but ``(seat, Card)`` pairs and a Suit.
    """
    plays = _plays(trick)
    if not plays:
        raise ValueError("trick must hold at least one play to have a winner")
    seat, card = best_play(plays, _suit_index(trump_suit))
    return seat, CARDS[card]


def beats(card: Card, trick: Sequence[CardPlay], trump_suit: Suit) -> bool:
    """Whether ``card``, played now, would take the lead of ``trick`` (R27).

    Given the suit led: a card of another plain suit never beats.  On an empty trick
    the card leads, and so takes the lead: True.

    Raises:
        TypeError: naming the argument, for anything but a Card, (seat, Card) pairs and
            a Suit.
    """
    _card_index(card, "card")
    plays = _plays(trick)
    trump = _suit_index(trump_suit)
    if not plays:
        return True
    led = EFFECTIVE[trump][plays[0][1]]
    return outranks(card, CARDS[best_play(plays, trump)[1]], led, trump_suit)


def legal_cards(
    hand: Iterable[Card], trick: Sequence[CardPlay], trump_suit: Suit, must_head: bool = True
) -> tuple[Card, ...]:
    """The cards of ``hand`` that may be played to ``trick``, in card order (R24–R26).

    Args:
        hand: the player's cards.
        trick: the plays so far, leader first (empty: any card may lead).
        trump_suit: the trump suit of the deal.
        must_head: the ``must_head`` rule (R26): whether heading the trick and
            overtrumping are compulsory; True by default, as in :class:`Rules`.

    Raises:
        TypeError: naming the argument, for anything but Cards, (seat, Card) pairs, a
            Suit and a bool.
    """
    if isinstance(hand, (str, bytes)) or not isinstance(hand, Iterable):
        raise TypeError(f"hand must be an iterable of Card objects, got {hand!r:.30}")
    check_bool(must_head, "must_head", "legal_cards(must_head=)")
    mask = 0
    for card in hand:
        mask |= 1 << _card_index(card, "each card of hand")
    legal = legal_play_mask(mask, _plays(trick), _suit_index(trump_suit), must_head)
    return tuple(CARDS[i] for i in bits(legal))
