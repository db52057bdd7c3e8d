"""A fixed-size numeric encoding of a :class:`PlayerView` for learning code.

Neural networks want a flat vector of numbers of one length and a mask over a fixed set
of actions.  This module turns a view into exactly that, in pure Python (lists of
floats and ints; the adapters turn them into numpy arrays):

* :func:`observation` — the observation vector, every entry in ``[0, 1]``, of length
  :func:`observation_size` ``(num_players, pack)``;
* :func:`action_mask` — 0/1 over the :func:`num_action_ids` ``(pack)`` action ids below
  (:data:`~bohmisch_watten.NUM_ACTION_IDS` = 99 for the 32-card pack, 103 for 36);
* :func:`observation_batch` and :func:`action_mask_batch` for many views at once.

It takes a view and nothing else, so it cannot put a card into the vector that the seat
may not know (R13, R23): two states that differ only in such cards give the seat equal
views and therefore equal vectors.

**Two tables, one per pack (R6).**  The 32-card game's ids and layout are fixed: a
policy trained on them keeps working, and tests pin every id and every block.  The
36-card pack (two to seven players, R1) has its own table and its own layout, built by
the same scheme with 36 cards: every function reads the pack from the rules of the view
or state it is handed, so it always uses the right table, and :func:`num_action_ids`,
:func:`layout` and :func:`observation_size` take the pack (default 32) to size a
network.  A network of one pack cannot read the other's vectors.

**Action ids.**  Every decision a player can face is one integer (table version
:data:`ACTION_TABLE_VERSION` = 1 for both packs):

========  ===========================================================================
id        action
========  ===========================================================================
0         ``take``: take the offered Critical (R12)
1         ``leave``: leave it (R12)
2         ``fold`` (R18, R21)
3 + p     ``exchange`` of the cards at hand positions ``p`` (R18), ``p`` = 0 … 31
35 + p    the same, taking the trump card (dealer only, R19), ``p`` = 0 … 31
67 + i    ``play``: play the card with :attr:`Card.index` ``i`` (R24): ``i`` = 0 … 31
          with the 32-card pack (ids 67 … 98, :data:`DECK` order: Acorns 7 8 9 10 U O
          K A, then Leaves, Hearts, Bells), ``i`` = 0 … 35 with the 36-card pack (ids
          67 … 102: the same 32, then 99 ``E6``, 100 ``G6``, 101 ``H6``, 102 ``S6``)
========  ===========================================================================

So the 32-card table has :data:`NUM_ACTION_IDS` = 99 ids and the 36-card table 103;
ids 0 … 98 mean the same in both, and 99 … 102 are the Sixes' plays.

**Discards are hand-relative.**  ``p`` is a 5-bit pattern over the player's hand sorted
by :attr:`Card.index` (the Sixes, ids 32 … 35, sort last): bit ``j`` set means
"discard the ``j``-th card".  In the exchange every hand holds exactly five cards
(R15) whatever the pack, so 32 patterns cover every discard choice, and the table stays
small (one id per set of cards would need about 47 000 ids with 32 cards, 66 000 with
36).  The price is that an exchange id means a different set of cards in a different
hand, so :func:`action_to_id` and :func:`id_to_action` take the state, or the acting
seat's view, which gives the same answers.  Some ids are never legal under any rules
(4 or 5 cards without the trump card; id 35, the trump card for nothing); they stay in
the table so that the arithmetic above holds.  With seven players the stock is empty
(R20): only id 3 (exchange nothing) and, for the dealer, ids 36, 37, 39, 43, 51 (give
up one card for the trump card, R19) are ever legal in the exchange.

Chance actions (:class:`Shuffle`) have no id: learning code samples them with
:meth:`GameState.sample_chance`.  :data:`ACTION_ID_NAMES` names every id of the 32-card
table, :func:`action_id_names` those of either.  A table never changes without a new
:data:`ACTION_TABLE_VERSION`.

**The observation layout.  Seats are relative.**  Every per-seat block is rotated so
that row 0 is the viewing seat, row 1 the seat after it (to its left, R6), and so on:
one network can play any seat.  The blocks, in order (:func:`layout` lists names,
offsets and sizes; ``n`` is the number of players, ``C`` the pack: 32 or 36; a card's
column in a per-card block is its :attr:`Card.index`, the Sixes at 32 … 35):

=====================  ==========  =================================================
block                  size        content
=====================  ==========  =================================================
``hand``               C           own cards by :attr:`Card.index` (in the ritual: the
                                   Criticals taken, R12)
``discards``           C           own discards of this deal (R23)
``draws``              C           own draws from the stock (R23)
``cut_seen``           C           cards this seat looked at in the ritual and left at
                                   the bottom (R13), including one offered right now
``trump_card``         C           the turned-up card (R15), all 0 before
``trump_suit``         4           its suit (R16)
``trump_taken``        1           the dealer took the trump card (R19)
``criticals_taken``    n × 3       per seat: Maxi, Belli, Spitz taken in the ritual
``criticals_left``     n           per seat: a Critical it declined (R12)
``trick``              n × C       per seat: its card in the trick on the table
``trick_leader``       n           who led that trick
``played``             n × C       per seat: its cards in the finished tricks (R27)
``tricks_won``         n           per seat: tricks won / 5
``folded``             n           per seat (R18)
``exchanged``          n × 6       per seat: one-hot 0 … 5 cards exchanged, all 0 while
                                   undecided or folded (R23)
``scores``             n           per seat: score / (2 × start score), clipped to
                                   ``[0, 1]`` (negative scores only end a game, R32)
``dealer``             n           one-hot
``forehand``           n           one-hot (the seat after the dealer, R6)
``to_act``             n           one-hot, all 0 at a chance node and at the end
``phase``              6           one-hot in :class:`Phase` order
``stock``              1           cards in the stock / C
=====================  ==========  =================================================

That is ``5 C + 12 + (2 C + 17) n`` numbers.  With the 32-card pack (two to four
players) ``172 + 81 n``: 334, 415 and 496 for 2, 3 and 4 players.  With the 36-card
pack (two to seven players) ``192 + 89 n``: 370, 459, 548, 637, 726 and 815 for 2 to 7
players.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Final, cast

from .actions import (
    EXCHANGES,
    EXCHANGES_WITH_TRUMP,
    FOLD,
    LEAVE,
    PLAY_ACTIONS,
    TAKE,
    Action,
    Exchange,
    Fold,
    LeaveCritical,
    PlayCard,
    Shuffle,
    TakeCritical,
)
from .cards import CARDS, CRITICALS, PACK_SIZES, bits
from .errors import FormatError
from .phases import Phase
from .state import GameState
from .views import PlayerView

__all__ = [
    "ACTION_ID_NAMES",
    "ACTION_TABLE_VERSION",
    "EXCHANGE_BASE",
    "EXCHANGE_TRUMP_BASE",
    "FOLD_ID",
    "LEAVE_ID",
    "NUM_ACTION_IDS",
    "PLAY_BASE",
    "TAKE_ID",
    "action_id_names",
    "action_mask",
    "action_mask_batch",
    "action_to_id",
    "id_to_action",
    "layout",
    "legal_action_mask",
    "num_action_ids",
    "observation",
    "observation_batch",
    "observation_size",
]

_PHASES = tuple(Phase)
_CRITICAL_ROW = {card.index: k for k, card in enumerate(CRITICALS)}
_MAX_EXCHANGE = 5  # R18: a player exchanges at most his five cards


def _check_pack(pack: object) -> int:
    """``pack`` itself if it is a pack size (R6), else TypeError/ValueError naming it."""
    if isinstance(pack, bool) or not isinstance(pack, int):
        raise TypeError(f"pack must be an int (32 or 36), got {type(pack).__name__}")
    if pack not in PACK_SIZES:
        raise ValueError(f"pack must be 32 or 36 (R6), got {pack}")
    return pack


@lru_cache(maxsize=16)
def layout(num_players: int, pack: int = 32) -> tuple[tuple[str, int, int], ...]:
    """The blocks of the observation: ``(name, offset, size)`` in order.

    ``pack`` chooses the table: per-card blocks are ``pack`` wide, and the 36-card pack
    seats up to seven players (R1).

    Raises:
        TypeError: naming ``pack`` if it is not an int.
        ValueError: if ``pack`` is not 32 or 36, or ``num_players`` is not 2 to 4 (32
            cards) or 2 to 7 (36 cards).
    """
    width = _check_pack(pack)
    top = 4 if width == 32 else 7
    if isinstance(num_players, bool) or num_players not in range(2, top + 1):
        raise ValueError(
            f"num_players must be 2 to {top} with the {width}-card pack, got {num_players!r}"
        )
    n = num_players
    sizes = (
        ("hand", width),
        ("discards", width),
        ("draws", width),
        ("cut_seen", width),
        ("trump_card", width),
        ("trump_suit", 4),
        ("trump_taken", 1),
        ("criticals_taken", 3 * n),
        ("criticals_left", n),
        ("trick", width * n),
        ("trick_leader", n),
        ("played", width * n),
        ("tricks_won", n),
        ("folded", n),
        ("exchanged", (_MAX_EXCHANGE + 1) * n),
        ("scores", n),
        ("dealer", n),
        ("forehand", n),
        ("to_act", n),
        ("phase", len(_PHASES)),
        ("stock", 1),
    )
    out = []
    offset = 0
    for name, size in sizes:
        out.append((name, offset, size))
        offset += size
    return tuple(out)


def observation_size(num_players: int, pack: int = 32) -> int:
    """The length of :func:`observation` for ``num_players`` and the pack.

    ``172 + 81 n`` with 32 cards, ``192 + 89 n`` with 36.

    Raises:
        TypeError: naming ``pack`` if it is not an int.
        ValueError: as :func:`layout`.
    """
    _, offset, size = layout(num_players, pack)[-1]
    return offset + size


def num_action_ids(pack: int = 32) -> int:
    """The size of the pack's id table: 99 with 32 cards, 103 with 36.

    Every id is in ``range(num_action_ids(pack))``; a policy has one output per id.

    Raises:
        TypeError: naming ``pack`` if it is not an int.
        ValueError: if ``pack`` is not 32 or 36.
    """
    return PLAY_BASE + _check_pack(pack)


def _check_view(view: object) -> PlayerView:
    if not isinstance(view, PlayerView):
        raise TypeError(f"view must be a PlayerView, got {type(view).__name__}")
    return view


def observation(view: PlayerView) -> list[float]:
    """The observation vector of ``view``: see the module docstring for the layout.

    The layout is that of the view's pack (``view.rules.pack``).

    Raises:
        TypeError: naming ``view`` if it is not a :class:`PlayerView`.
    """
    view = _check_view(view)
    n, me = view.num_players, view.player
    width = view.rules.pack
    at = {name: offset for name, offset, _ in layout(n, width)}
    out = [0.0] * observation_size(n, width)

    def rel(seat: int) -> int:
        return (seat - me) % n

    for card in view.hand:
        out[at["hand"] + card.index] = 1.0
    for card in view.discards:
        out[at["discards"] + card.index] = 1.0
    for card in view.draws:
        out[at["draws"] + card.index] = 1.0
    for seat, seen, taken, critical in view.cut_looks:
        if taken and seen is not None:
            out[at["criticals_taken"] + 3 * rel(seat) + _CRITICAL_ROW[seen.index]] = 1.0
        elif seen is not None:
            out[at["cut_seen"] + seen.index] = 1.0
        if critical and not taken:
            out[at["criticals_left"] + rel(seat)] = 1.0
    trump, suit = view.trump_card, view.trump_suit
    if trump is not None and suit is not None:
        out[at["trump_card"] + trump.index] = 1.0
        out[at["trump_suit"] + int(suit)] = 1.0
    out[at["trump_taken"]] = float(view.trump_card_taken)
    for i, (seat, card) in enumerate(view.trick):
        out[at["trick"] + width * rel(seat) + card.index] = 1.0
        if i == 0:
            out[at["trick_leader"] + rel(seat)] = 1.0
    for done in view.tricks:
        for seat, card in done.plays:
            out[at["played"] + width * rel(seat) + card.index] = 1.0
    goal = 2 * view.rules.start_score
    for seat in range(n):
        r = rel(seat)
        out[at["tricks_won"] + r] = view.tricks_won[seat] / 5
        out[at["folded"] + r] = float(view.folded[seat])
        count = view.exchanged[seat]
        if count is not None:
            out[at["exchanged"] + (_MAX_EXCHANGE + 1) * r + count] = 1.0
        out[at["scores"] + r] = min(max(view.scores[seat], 0), goal) / goal
    out[at["dealer"] + rel(view.dealer)] = 1.0
    out[at["forehand"] + rel(view.dealer + 1)] = 1.0
    if view.current_player is not None:
        out[at["to_act"] + rel(view.current_player)] = 1.0
    out[at["phase"] + _PHASES.index(view.phase)] = 1.0
    out[at["stock"]] = view.stock_size / width
    return out


def action_mask(view: PlayerView) -> list[int]:
    """1 at the id of every legal action of ``view``'s seat, else 0.

    One entry per id of the view's pack (99 with 32 cards, 103 with 36); all 0 when the
    seat is not to act.  Exchange ids name positions in the hand sorted in card order,
    as in the module docstring; this is :func:`~bohmisch_watten.legal_action_mask` of
    the view as 0/1 ints.

    Raises:
        TypeError: naming ``view`` if it is not a :class:`PlayerView`.
    """
    return [int(legal) for legal in legal_action_mask(_check_view(view))]


def observation_batch(views: Iterable[PlayerView]) -> list[list[float]]:
    """:func:`observation` of each view, one row per view (equal lengths for one game).

    Raises:
        TypeError: if an element is not a :class:`PlayerView`.
        ValueError: if the views are of games with different numbers of players or
            packs, so the rows would not form one array.
    """
    rows = [observation(view) for view in views]
    if len({len(row) for row in rows}) > 1:
        raise ValueError(
            "views of games with different numbers of players or packs cannot be batched"
        )
    return rows


def action_mask_batch(views: Iterable[PlayerView]) -> list[list[int]]:
    """:func:`action_mask` of each view, one row per view (99 or 103 entries by pack).

    Raises:
        TypeError: if an element is not a :class:`PlayerView`.
        ValueError: if the views are of games with different packs.
    """
    rows = [action_mask(view) for view in views]
    if len({len(row) for row in rows}) > 1:
        raise ValueError("views of games with different packs cannot be batched")
    return rows


# ------------------------------------------------------------ action ids
# The tables are in the module docstring: ids 0-98 are the 32-card table, 99-102 add the
# Sixes' plays for the 36-card table (R6).

ACTION_TABLE_VERSION: Final = 1
"""The version of the id tables; bumped on any change to either."""

TAKE_ID: Final = 0
"""The id of :class:`TakeCritical` (R12)."""
LEAVE_ID: Final = 1
"""The id of :class:`LeaveCritical` (R12)."""
FOLD_ID: Final = 2
"""The id of :class:`Fold` (R18, R21)."""
EXCHANGE_BASE: Final = 3
"""``EXCHANGE_BASE + p``: exchange the hand positions in the 5-bit pattern ``p``."""
EXCHANGE_TRUMP_BASE: Final = 35
"""``EXCHANGE_TRUMP_BASE + p``: the same, the dealer taking the trump card (R19)."""
PLAY_BASE: Final = 67
"""``PLAY_BASE + card.index``: play that card (either pack)."""
NUM_ACTION_IDS: Final = 99
"""The size of the 32-card table: every id is in ``range(NUM_ACTION_IDS)``
(:func:`num_action_ids` gives either pack's)."""

_HAND_SIZE: Final = 5  # R15: every hand holds five cards in the exchange


def _pattern_name(p: int) -> str:
    return "[" + " ".join(str(j) for j in range(_HAND_SIZE) if p >> j & 1) + "]"


def action_id_names(pack: int = 32) -> tuple[str, ...]:
    """A name for every id of the pack's table: the action notation, discards as hand
    positions (``"exchange [0 3] +trump"``, ``"play S6"``).

    Raises:
        TypeError: naming ``pack`` if it is not an int.
        ValueError: if ``pack`` is not 32 or 36.
    """
    return (
        "take",
        "leave",
        "fold",
        *(f"exchange {_pattern_name(p)}" for p in range(32)),
        *(f"exchange {_pattern_name(p)} +trump" for p in range(32)),
        *(f"play {card}" for card in CARDS[: _check_pack(pack)]),
    )


ACTION_ID_NAMES: Final[tuple[str, ...]] = action_id_names(32)
"""A name for every id of the 32-card table: the action notation, discards as hand
positions (``"exchange [0 3] +trump"``)."""


def _check_table(state: object) -> GameState | PlayerView:
    """``state`` itself if it is a state or a view, else TypeError naming the argument."""
    if not isinstance(state, (GameState, PlayerView)):
        raise TypeError(f"state must be a GameState or a PlayerView, got {type(state).__name__}")
    return state


def _hand_indices(state: GameState | PlayerView) -> list[int]:
    """The card indices of the hand of the player to act in the exchange, sorted.

    A view knows that hand only when its own seat is to act.
    """
    seat = state.current_player
    if state.phase is not Phase.EXCHANGE or seat is None:
        raise FormatError(
            f"exchange ids name hand positions and need the exchange phase; "
            f"the phase is {state.phase.name}"
        )
    if isinstance(state, PlayerView):
        if seat != state.player:
            raise FormatError(
                f"exchange ids name positions in the hand of seat {seat}, the seat to act; "
                f"this is seat {state.player}'s view"
            )
        return [card.index for card in state.hand]  # sorted by index
    return bits(state.hand_masks[seat])  # sorted by index


def action_to_id(state: GameState | PlayerView, action: Action) -> int:
    """The id of ``action`` for the player to act in ``state`` (a state or that seat's view).

    The table is that of the state's pack.  The state is needed for exchanges only
    (their ids are hand positions); take, leave, fold and play ids are the same in every
    state.  The action need not be legal, but an exchange must discard cards of the
    player's hand and a play must be of a card of the pack.  A learning loop that runs
    on views gets the same ids from the acting seat's view as from the full state.

    Raises:
        TypeError: naming ``state`` if it is neither a GameState nor a PlayerView.
        FormatError: for a :class:`Shuffle` (chance actions have no id), anything that
            is not an action, a play of a Six in the 32-card game, or an exchange
            outside the exchange phase or of cards not in the hand.
    """
    _check_table(state)
    if isinstance(action, PlayCard):
        index = action.card.index
        if index >= state.rules.pack:
            raise FormatError(f"{action}: {action.card} is no card of the 32-card pack (R6)")
        return PLAY_BASE + index
    if isinstance(action, TakeCritical):
        return TAKE_ID
    if isinstance(action, LeaveCritical):
        return LEAVE_ID
    if isinstance(action, Fold):
        return FOLD_ID
    if isinstance(action, Exchange):
        hand = _hand_indices(state)
        if len(hand) != _HAND_SIZE:
            raise FormatError(f"exchange ids need a five-card hand, not {len(hand)} cards")
        p = 0
        for card in action.discard:
            if card.index not in hand:
                raise FormatError(f"{action}: {card} is not in the hand of the player to act")
            p |= 1 << hand.index(card.index)
        return (EXCHANGE_TRUMP_BASE if action.take_trump_card else EXCHANGE_BASE) + p
    if isinstance(action, Shuffle):
        raise FormatError("a shuffle is a chance action and has no id (use sample_chance)")
    raise FormatError(f"not an action: {type(action).__name__}")


def id_to_action(state: GameState | PlayerView, action_id: int) -> Action:
    """The action that ``action_id`` stands for in ``state``, in the table of its pack.

    Every id stands for an action in every state, except the exchange ids outside the
    exchange phase; the action is not necessarily legal (check
    :func:`legal_action_mask`, or let :meth:`GameState.apply` say why not).

    Raises:
        TypeError: naming ``state`` if it is neither a GameState nor a PlayerView.
        FormatError: for a value that is not an id of the pack's table, or an exchange
            id outside the exchange phase (or on the view of a seat not to act).
    """
    _check_table(state)
    if isinstance(action_id, bool) or not isinstance(action_id, int):
        raise FormatError(f"an action id is an int, got {type(action_id).__name__}")
    pack = state.rules.pack
    size = PLAY_BASE + pack
    if not 0 <= action_id < size:
        raise FormatError(
            f"no action id {action_id}: the {pack}-card pack's ids run from 0 to {size - 1}"
        )
    if action_id >= PLAY_BASE:
        return PLAY_ACTIONS[action_id - PLAY_BASE]
    if action_id >= EXCHANGE_BASE:
        take = action_id >= EXCHANGE_TRUMP_BASE
        p = action_id - (EXCHANGE_TRUMP_BASE if take else EXCHANGE_BASE)
        hand = _hand_indices(state)
        mask = 0
        for j, index in enumerate(hand):
            if p >> j & 1:
                mask |= 1 << index
        if p >> len(hand):
            raise FormatError(f"action id {action_id}: the hand holds only {len(hand)} cards")
        return (EXCHANGES_WITH_TRUMP if take else EXCHANGES)[mask]
    return (TAKE, LEAVE, FOLD)[action_id]


def legal_action_mask(state: GameState | PlayerView) -> tuple[bool, ...]:
    """One boolean per id of the pack's table, True exactly at the ids of the legal actions.

    99 entries with 32 cards, 103 with 36.  All False at a chance node and at the end of
    the game, and on the view of a seat that is not to act; the acting seat's view gives
    the same mask as the state.

    Raises:
        TypeError: naming ``state`` if it is neither a GameState nor a PlayerView.
    """
    _check_table(state)
    mask = [False] * (PLAY_BASE + state.rules.pack)
    phase = state.phase
    if isinstance(state, PlayerView) and state.current_player != state.player:
        return tuple(mask)
    if phase is Phase.PLAY:
        for action in state.legal_actions():  # card plays only, of the state's pack (R24)
            mask[PLAY_BASE + cast(PlayCard, action).card.index] = True
    elif phase is Phase.CUT:
        for action in state.legal_actions():
            mask[action_to_id(state, action)] = True
    elif phase is Phase.EXCHANGE:
        hand = _hand_indices(state)
        position = {index: j for j, index in enumerate(hand)}
        for action in state.legal_actions():
            if isinstance(action, Exchange):
                p = 0
                for card in action.discard:
                    p |= 1 << position[card.index]
                base = EXCHANGE_TRUMP_BASE if action.take_trump_card else EXCHANGE_BASE
                mask[base + p] = True
            else:
                mask[FOLD_ID] = True
    return tuple(mask)
