"""A fixed-size numeric encoding of a :class:`PlayerView` for learning code.

Neural networks want a flat vector of numbers of one length and a mask over a fixed set
of actions.  This module turns a view into exactly that, in pure Python (lists of
floats and ints; the adapters turn them into numpy arrays):

* :func:`observation` — the observation vector, every entry in ``[0, 1]``, of length
  :func:`observation_size` ``(num_players)``;
* :func:`action_mask` — 0/1 over the :data:`~bohmisch_watten.NUM_ACTION_IDS` = 99
  action ids of :mod:`bohmisch_watten.encoding`;
* :func:`observation_batch` and :func:`action_mask_batch` for many views at once.

It takes a view and nothing else, so it cannot put a card into the vector that the seat
may not know (R13, R23): two states that differ only in such cards give the seat equal
views and therefore equal vectors.

**Seats are relative.**  Every per-seat block is rotated so that row 0 is the viewing
seat, row 1 the seat after it (to its left, R6), and so on: one network can play any
seat.  The blocks, in order (:func:`layout` lists names, offsets and sizes; ``n`` is the
number of players):

=====================  ==========  =================================================
block                  size        content
=====================  ==========  =================================================
``hand``               32          own cards by :attr:`Card.index` (in the ritual: the
                                   Criticals taken, R12)
``discards``           32          own discards of this deal (R23)
``draws``              32          own draws from the stock (R23)
``cut_seen``           32          cards this seat looked at in the ritual and left at
                                   the bottom (R13), including one offered right now
``trump_card``         32          the turned-up card (R15), all 0 before
``trump_suit``         4           its suit (R16)
``trump_taken``        1           the dealer took the trump card (R19)
``criticals_taken``    n × 3       per seat: Maxi, Belli, Spitz taken in the ritual
``criticals_left``     n           per seat: a Critical it declined (R12)
``trick``              n × 32      per seat: its card in the trick on the table
``trick_leader``       n           who led that trick
``played``             n × 32      per seat: its cards in the finished tricks (R27)
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
``stock``              1           cards in the stock / 32
=====================  ==========  =================================================

That is ``172 + 81 n`` numbers: 334, 415 and 496 for 2, 3 and 4 players.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Final

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
from .cards import CRITICALS, DECK, bits
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
    "action_mask",
    "action_mask_batch",
    "action_to_id",
    "id_to_action",
    "layout",
    "legal_action_mask",
    "observation",
    "observation_batch",
    "observation_size",
]

_PHASES = tuple(Phase)
_CRITICAL_ROW = {card.index: k for k, card in enumerate(CRITICALS)}
_MAX_EXCHANGE = 5  # R18: a player exchanges at most his five cards


@lru_cache(maxsize=8)
def layout(num_players: int) -> tuple[tuple[str, int, int], ...]:
    """The blocks of the observation: ``(name, offset, size)`` in order.

    Raises:
        ValueError: if ``num_players`` is not 2, 3 or 4.
    """
    if isinstance(num_players, bool) or num_players not in (2, 3, 4):
        raise ValueError(f"num_players must be 2, 3 or 4, got {num_players!r}")
    n = num_players
    sizes = (
        ("hand", 32),
        ("discards", 32),
        ("draws", 32),
        ("cut_seen", 32),
        ("trump_card", 32),
        ("trump_suit", 4),
        ("trump_taken", 1),
        ("criticals_taken", 3 * n),
        ("criticals_left", n),
        ("trick", 32 * n),
        ("trick_leader", n),
        ("played", 32 * n),
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


def observation_size(num_players: int) -> int:
    """The length of :func:`observation` for ``num_players`` (``172 + 81 n``).

    Raises:
        ValueError: if ``num_players`` is not 2, 3 or 4.
    """
    _, offset, size = layout(num_players)[-1]
    return offset + size


def _check_view(view: object) -> PlayerView:
    if not isinstance(view, PlayerView):
        raise TypeError(f"view must be a PlayerView, got {type(view).__name__}")
    _check_pack(view.rules.pack)
    return view


def _check_pack(pack: int) -> None:
    """Refuse the 36-card pack: this table of ids and this layout are the 32-card pack's."""
    if pack != 32:
        raise NotImplementedError(
            f"pack={pack}: the action ids and the observation layout cover only the "
            "32-card pack so far (R6)"
        )


def observation(view: PlayerView) -> list[float]:
    """The observation vector of ``view``: see the module docstring for the layout.

    Raises:
        TypeError: naming ``view`` if it is not a :class:`PlayerView`.
    """
    view = _check_view(view)
    n, me = view.num_players, view.player
    at = {name: offset for name, offset, _ in layout(n)}
    out = [0.0] * observation_size(n)

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
        out[at["trick"] + 32 * rel(seat) + card.index] = 1.0
        if i == 0:
            out[at["trick_leader"] + rel(seat)] = 1.0
    for done in view.tricks:
        for seat, card in done.plays:
            out[at["played"] + 32 * rel(seat) + card.index] = 1.0
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
    out[at["stock"]] = view.stock_size / 32
    return out


def action_mask(view: PlayerView) -> list[int]:
    """1 at the id of every legal action of ``view``'s seat, else 0 (99 entries).

    All 0 when the seat is not to act.  Exchange ids name positions in the hand sorted
    in card order, as in :mod:`bohmisch_watten.encoding`; this is
    :func:`~bohmisch_watten.legal_action_mask` of the view as 0/1 ints.

    Raises:
        TypeError: naming ``view`` if it is not a :class:`PlayerView`.
    """
    return [int(legal) for legal in legal_action_mask(_check_view(view))]


def observation_batch(views: Iterable[PlayerView]) -> list[list[float]]:
    """:func:`observation` of each view, one row per view (equal lengths for one game).

    Raises:
        TypeError: if an element is not a :class:`PlayerView`.
        ValueError: if the views are of games with different numbers of players, so the
            rows would not form one array.
    """
    rows = [observation(view) for view in views]
    if len({len(row) for row in rows}) > 1:
        raise ValueError("views of games with different numbers of players cannot be batched")
    return rows


def action_mask_batch(views: Iterable[PlayerView]) -> list[list[int]]:
    """:func:`action_mask` of each view, one row of 99 per view.

    Raises:
        TypeError: if an element is not a :class:`PlayerView`.
    """
    return [action_mask(view) for view in views]


# ------------------------------------------------------------ action ids
# Integer action ids for learning code: one fixed table over every decision.
#
# Learning code wants a fixed-size action space: a policy network has one output per id
# and a mask says which are legal.  This module maps every decision a player can face to
# one of :data:`NUM_ACTION_IDS` = 99 integers, table version
# :data:`ACTION_TABLE_VERSION` = 1:
#
# ========  ============================================================================
# id        action
# ========  ============================================================================
# 0         ``take``: take the offered Critical (R12)
# 1         ``leave``: leave it (R12)
# 2         ``fold`` (R18, R21)
# 3 + p     ``exchange`` of the cards at hand positions ``p`` (R18), ``p`` = 0 … 31
# 35 + p    the same, taking the trump card (dealer only, R19), ``p`` = 0 … 31
# 67 + i    ``play DECK[i]``: play the card with ``Card.index`` ``i`` (R24), ``i`` = 0 … 31
# ========  ============================================================================
#
# **Discards are hand-relative.**  ``p`` is a 5-bit pattern over the player's hand sorted
# in :data:`DECK` order (ascending :attr:`Card.index`): bit ``j`` set means "discard the
# ``j``-th card".  In the exchange every hand holds exactly five cards (R15), so 32
# patterns cover every discard choice, and the table stays small (99 ids, where one id per
# set of cards would need about 47 000).  The price is that an exchange id means a
# different set of cards in a different hand, so :func:`action_to_id` and
# :func:`id_to_action` take the state, or the acting seat's view, which gives the same
# answers.  Some ids are never legal under any rules (4 or 5 cards without the trump
# card; id 35, the trump card for nothing); they stay in the
# table so that the arithmetic above holds.
#
# Chance actions (:class:`Shuffle`) have no id: learning code samples them with
# :meth:`GameState.sample_chance`.  :data:`ACTION_ID_NAMES` names every id.
#
# The table never changes without a new :data:`ACTION_TABLE_VERSION`.

ACTION_TABLE_VERSION: Final = 1
"""The version of the id table; bumped on any change to it."""

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
"""``PLAY_BASE + card.index``: play that card."""
NUM_ACTION_IDS: Final = 99
"""The size of the table: every id is in ``range(NUM_ACTION_IDS)``."""

_HAND_SIZE: Final = 5  # R15: every hand holds five cards in the exchange


def _pattern_name(p: int) -> str:
    return "[" + " ".join(str(j) for j in range(_HAND_SIZE) if p >> j & 1) + "]"


ACTION_ID_NAMES: Final[tuple[str, ...]] = (
    "take",
    "leave",
    "fold",
    *(f"exchange {_pattern_name(p)}" for p in range(32)),
    *(f"exchange {_pattern_name(p)} +trump" for p in range(32)),
    *(f"play {card}" for card in DECK),
)
"""A name for every id: the action notation, discards as hand positions
(``"exchange [0 3] +trump"``)."""


def _check_table(state: object) -> GameState | PlayerView:
    """``state`` itself if it is a state or a view, else TypeError naming the argument."""
    if not isinstance(state, (GameState, PlayerView)):
        raise TypeError(f"state must be a GameState or a PlayerView, got {type(state).__name__}")
    _check_pack(state.rules.pack)
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

    The state is needed for exchanges only (their ids are hand positions); take, leave,
    fold and play ids are the same in every state.  The action need not be legal, but an
    exchange must discard cards of the player's hand.  A learning loop that runs on
    views gets the same ids from the acting seat's view as from the full state.

    Raises:
        TypeError: naming ``state`` if it is neither a GameState nor a PlayerView.
        FormatError: for a :class:`Shuffle` (chance actions have no id), anything that
            is not an action, or an exchange outside the exchange phase or of cards not
            in the hand.
    """
    _check_table(state)
    if isinstance(action, PlayCard):
        return PLAY_BASE + action.card.index
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
    """The action that ``action_id`` stands for in ``state``.

    Every id stands for an action in every state, except the exchange ids outside the
    exchange phase; the action is not necessarily legal (check
    :func:`legal_action_mask`, or let :meth:`GameState.apply` say why not).

    Raises:
        TypeError: naming ``state`` if it is neither a GameState nor a PlayerView.
        FormatError: for a value that is not an id of the table, or an exchange id
            outside the exchange phase (or on the view of a seat not to act).
    """
    _check_table(state)
    if isinstance(action_id, bool) or not isinstance(action_id, int):
        raise FormatError(f"an action id is an int, got {type(action_id).__name__}")
    if not 0 <= action_id < NUM_ACTION_IDS:
        raise FormatError(f"no action id {action_id}: ids run from 0 to {NUM_ACTION_IDS - 1}")
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
    """``NUM_ACTION_IDS`` booleans, True exactly at the ids of the legal actions.

    All False at a chance node and at the end of the game, and on the view of a seat
    that is not to act; the acting seat's view gives the same mask as the state.

    Raises:
        TypeError: naming ``state`` if it is neither a GameState nor a PlayerView.
    """
    _check_table(state)
    mask = [False] * NUM_ACTION_IDS
    phase = state.phase
    if isinstance(state, PlayerView) and state.current_player != state.player:
        return tuple(mask)
    if phase is Phase.PLAY or phase is Phase.CUT:
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
