"""Internal: the legal actions of a state and the fold rule (R11, R12, R18–R26).

``GameState.legal_actions``, ``fold_forbidden_by`` and ``is_legal`` are the functions
of this module, bound as methods, so that ``state.py`` holds the state and this module
the question "what may be done now".  They read the state's public compact fields
(``hand_masks``, ``deal_fields``, ``game_fields`` …).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final

from ._layout import STOCK_LIMIT
from .actions import FOLD, LEAVE, PLAY_ACTIONS, TAKE, Action, PlayCard, Shuffle
from .cards import DECK, Card, Suit
from .exchange_options import exchange_options
from .phase import Phase
from .seats import right_of
from .tables import FULL_DECK, bits
from .turns import seat_may_act

if TYPE_CHECKING:
    from .state import GameState

__all__ = [
    "INDEX_OF_ID",
    "draw_shuffle",
    "fold_forbidden_by",
    "is_legal",
    "legal_actions",
    "pack_indices",
    "pack_problem",
]

# The phases as module constants: ``Phase.PLAY`` looks the member up on the enum class
# at every use (a slow attribute access in CPython 3.11), a constant is one global read.
_CUT: Final = Phase.CUT
_DEAL: Final = Phase.DEAL
_EXCHANGE: Final = Phase.EXCHANGE
_PLAY: Final = Phase.PLAY
_HEARTS: Final = int(Suit.HEARTS)
"""Hearts as a plain int: an int compares with an int faster than with an IntEnum."""


_PLAYS: Final = tuple(
    tuple(tuple(PLAY_ACTIONS[suit * 8 + i] for i in bits(byte)) for byte in range(256))
    for suit in range(4)
)
"""``_PLAYS[suit][byte]``: the PlayCard actions of one suit's eight bits of a hand mask."""


def _half_table(offset: int) -> dict[int, tuple[PlayCard, ...]]:
    """The PlayCard actions of every set of at most five cards among 16 (two suits).

    A hand holds five cards at most (R15), so in phase PLAY each half of the mask of
    playable cards is a key: 6,885 of them, built in a few milliseconds at import.
    """
    table: dict[int, tuple[PlayCard, ...]] = {0: ()}
    layer = table
    for _ in range(5):  # each set grows by a card above its highest: in card order
        layer = {
            mask | 1 << i: (*plays, PLAY_ACTIONS[offset + i])
            for mask, plays in layer.items()
            for i in range(mask.bit_length(), 16)
        }
        table.update(layer)
    return table


_PLAYS_LOW: Final = _half_table(0)
"""``_PLAYS_LOW[mask & 0xFFFF]``: the plays of Acorns and Leaves in a playable mask."""
_PLAYS_HIGH: Final = _half_table(16)
"""``_PLAYS_HIGH[mask >> 16]``: the plays of Hearts and Bells in a playable mask."""

INDEX_OF_ID: Final[dict[int, int]] = {id(card): card.index for card in DECK}
"""A card's index by the identity of the card: the 32 cards are singletons that live as
long as the module, so no other object has their ids (cheaper than hashing a card)."""


_ALL_INDICES: Final = frozenset(range(32))
_CARD_AT: Final = DECK.__getitem__
_SWAPS: Final = tuple((i, i + 1, (i + 1).bit_length()) for i in range(31, 0, -1))
"""The steps of ``random.Random.shuffle`` on 32 items: ``(i, i + 1, bits of i + 1)``."""
_new: Final = object.__new__
_set: Final = object.__setattr__

_drawn: tuple[tuple[Card, ...], tuple[int, ...]] = ((), ())
"""The pack of the last :class:`Shuffle` that :func:`draw_shuffle` made, and its indices.

The reference keeps that tuple alive, so no other object can have its identity, and a
tuple never changes: a Shuffle whose ``pack`` *is* this tuple holds exactly these cards,
and :func:`pack_indices` need not look them up and check them again.  One slot, replaced
as a whole (one store), so it never grows and a thread only ever sees a matching pair.
"""


def draw_shuffle(rng: random.Random) -> Shuffle:
    """A uniformly random :class:`Shuffle` from ``rng``: ``rng.shuffle`` of the deck (R11).

    For a plain ``random.Random`` the shuffle is done here, step for step the same
    Fisher–Yates as ``random.Random.shuffle`` (the same ``getrandbits`` calls, so the
    same pack and the same generator state after it: ``tests/test_fast_paths.py``
    compares them), without its two Python calls per card.  Any other generator (a
    subclass may draw differently) shuffles by its own method.
    """
    global _drawn
    if type(rng) is not random.Random:
        pack = list(DECK)
        rng.shuffle(pack)
        return Shuffle(pack)
    getrandbits = rng.getrandbits
    order = list(range(32))
    for i, n, k in _SWAPS:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        order[i], order[j] = order[j], order[i]
    indices = tuple(order)
    cards = tuple(map(_CARD_AT, indices))
    action: Shuffle = _new(Shuffle)
    _set(action, "pack", cards)  # a tuple of Cards already: the converter has nothing to do
    _drawn = (cards, indices)
    return action


def pack_indices(pack: tuple[object, ...]) -> tuple[int, ...] | None:
    """The card indices of a shuffle's ``pack``, or None if it is not the 32 cards (R11)."""
    drawn = _drawn
    if pack is drawn[0]:
        return drawn[1]
    found = tuple(map(INDEX_OF_ID.get, map(id, pack)))
    if len(found) != 32 or set(found) != _ALL_INDICES:
        return None
    return found  # type: ignore[return-value]  # no None in it: all 32 indices were found


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every action the player to act may take, without duplicates, in a fixed order.

    Empty at a chance node (use :meth:`sample_chance`, or any :class:`Shuffle` of the
    32 cards) and at the end of the game.
    """
    phase = state.phase
    if phase is _PLAY:
        mask = state.play_mask  # R24–R26, worked out when the state was made
        try:  # two lookups and one concatenation: the commonest question of a game
            return _PLAYS_LOW[mask & 0xFFFF] + _PLAYS_HIGH[mask >> 16]
        except KeyError:  # more than five cards in two suits: no hand of R15 holds them
            pass
        return (
            _PLAYS[0][mask & 255]
            + _PLAYS[1][mask >> 8 & 255]
            + _PLAYS[2][mask >> 16 & 255]
            + _PLAYS[3][mask >> 24]
        )
    if phase is _EXCHANGE:
        return _exchange_actions(state)
    if phase is _CUT:
        return (TAKE, LEAVE)
    return ()


def _exchange_actions(state: GameState) -> tuple[Action, ...]:
    seat = state.current_player
    assert seat is not None  # only the shuffle is chance (R11)
    stock = len(state.deal_fields.pack)
    game = state.game_fields
    hand = state.hand_masks[seat]
    if seat == game.dealer:  # R19: the dealer plays and may take the trump card
        limit = game.rules.dealer_stock_limit
        return exchange_options(hand, limit if limit < stock else stock, True)
    plain = exchange_options(hand, STOCK_LIMIT if stock > STOCK_LIMIT else stock, False)
    if _fold_rule(state, seat) is None:  # R18, R21
        return (FOLD, *plain)
    return plain


def fold_forbidden_by(state: GameState, seat: int | None = None) -> str | None:
    """Why ``seat`` (default: the player to act) may not fold now, or None (R21).

    The reason names the first of the six conditions of R21 that applies.
    """
    if seat is None:
        seat = state.current_player
    if seat is None or state.phase is not _EXCHANGE:
        return "R18: nobody is deciding whether to fold now"
    rule = _fold_rule(state, seat)
    if rule is None:
        return None
    game = state.game_fields
    if rule == "R21.1":
        return "R21.1: nobody may fold in the first deal of the game"
    if rule == "R21.2":
        return "R21.2: nobody may fold when Hearts are trumps"
    if rule == "R21.3":
        return (
            f"R21.3: seat {seat} may not fold with {game.rules.min_fold_score} points"
            f" or fewer (has {game.scores[seat]})"
        )
    if rule == "R21.4":
        return f"R21.4: seat {seat} folded in the previous deal"
    if rule == "R21.5":
        return "R21.5: the dealer must play"
    return f"R21.6: seat {seat} is the last non-dealer to decide and all others folded"


def _fold_rule(state: GameState, seat: int) -> str | None:
    """The first condition of R21 that forbids ``seat`` to fold in this exchange, or None.

    Only the rule's number, so that the legal actions, asked at every exchange decision,
    do not format a message; :func:`fold_forbidden_by` words it.
    """
    game = state.game_fields  # read once: this runs at every exchange decision
    if game.deal_number == 1:
        return "R21.1"
    deal = state.deal_fields
    if deal.trump >> 3 == _HEARTS:
        return "R21.2"
    if game.scores[seat] <= game.rules.min_fold_score:
        return "R21.3"
    folds = game.past.last_folded  # state.previous_folds, one property call less
    if (game.start.folded if folds is None else folds)[seat]:
        return "R21.4"
    dealer = game.dealer
    if seat == dealer:
        return "R21.5"
    n = game.num_players
    if seat == right_of(dealer, n) and all(
        deal.folded[s] for s in range(n) if s not in (seat, dealer)
    ):
        return "R21.6"
    return None


def is_legal(state: GameState, action: object, *, seat: int | None = None) -> bool:
    """Whether :meth:`apply` would accept ``action`` (chance nodes included).

    With ``seat``, also whether that seat is the one to act: False for any other
    seat, and for every seat at a chance node or at the end.

    Raises:
        TypeError: naming ``seat`` if it is neither None nor an int.
        ValueError: naming ``seat`` if it is not a seat of this game.
    """
    if seat is not None and not seat_may_act(seat, state.current_player, state.num_players):
        return False
    if state.phase is _DEAL:
        return isinstance(action, Shuffle) and pack_problem(action.pack) is None
    if isinstance(action, PlayCard) and state.phase is _PLAY:
        return bool(state.play_mask >> action.card.index & 1)
    return action in legal_actions(state)


def pack_problem(pack: tuple[object, ...]) -> str | None:
    """Why ``pack`` is not a shuffle of the 32 cards (R11), or None."""
    for card in pack:
        if type(card) is not Card:
            return f"R11: a shuffle holds Card objects only, got {card!r:.20}"
    if len(pack) != 32:
        return f"R11: a shuffle must hold all 32 cards once, got {len(pack)} cards"
    mask = 0
    for card in pack:
        mask |= 1 << INDEX_OF_ID[id(card)]
    if mask != FULL_DECK:
        missing = ", ".join(str(DECK[i]) for i in bits(FULL_DECK & ~mask))
        return f"R11: a shuffle must hold all 32 cards once; missing {missing}"
    return None
