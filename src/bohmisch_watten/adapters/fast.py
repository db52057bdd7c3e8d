"""The encoding read straight off a :class:`GameState`, into preallocated numpy arrays.

:func:`bohmisch_watten.encoding.observation` takes a :class:`PlayerView`, which is the
safe way to say what a seat may know, but building the view and then a list of floats
costs far more than the engine's move.  Learning loops run millions of observations,
so this module computes **the same numbers** from the state's public compact reads
(``hand_masks``, ``trick_plays``, ``played_tricks``, ``deal_fields`` …):

* the 0/1 entries of the vector are one Python integer with bit ``k`` for column ``k``,
  built with shifts; the few fractional entries (tricks won, scores, stock) are written
  after it;
* numpy turns the integers of a whole batch into rows with one ``unpackbits`` call;
* the action mask is a 99-bit integer made the same way (a card play is
  ``play_mask << 67``), 103 bits with the 36-card pack (its own table and layout, R6:
  one plan per number of players and pack);
* :func:`bot_action` is a bot's move without building its view, for the two bots
  whose choice reads only what the state gives equally (RandomBot, HeuristicBot).

>>> import numpy as np
>>> from bohmisch_watten import new_game
>>> from bohmisch_watten.encoding import observation
>>> from bohmisch_watten.adapters.fast import encode_observation
>>> state = new_game(3)
>>> bool((encode_observation(state, 1) == np.float32(observation(state.view(1)))).all())
True

**Hidden information.**  A :class:`GameState` knows every card, so this module is a
trust boundary: for seat ``s`` it reads only ``hand_masks[s]``, ``discards[s]``, the
public facts of the deal (trump card, folds, exchange counts, tricks, the stock's size)
and, of the cutting ritual, only what R13 lets ``s`` see.  A seat's draws (R23) are not
in the compact fields; they come from ``views.drawn_cards(state, s)``, the reading that
fills ``state.view(s).draw_indices``, once per deal fields and seat.  The property test
in ``tests/test_fast_encoding.py`` proves that the result equals
:func:`~bohmisch_watten.encoding.observation` of ``state.view(s)`` — a function of the
view alone — for every seat of random states of every size and variant.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from ..actions import PLAY_ACTIONS, Action
from ..bots import Bot, HeuristicBot, RandomBot
from ..bots.policy import decide
from ..cards import CARDS, CRITICALS
from ..cards import bits as card_indices
from ..deals import DealFields, GameFields
from ..encoding import (
    EXCHANGE_BASE,
    EXCHANGE_TRUMP_BASE,
    FOLD_ID,
    NUM_ACTION_IDS,
    PLAY_BASE,
    id_to_action,
    layout,
    num_action_ids,
    observation_size,
)
from ..phases import Phase
from ..seats import left_of
from ..state import STOCK_LIMIT, GameState
from ..tricks import CRITICAL_MASK, PlayedTrick
from ..views import drawn_cards
from ._extras import needs_extra

with needs_extra(__name__, "gymnasium"):
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "Encoder",
    "Memo",
    "action_for",
    "bot_action",
    "encode_mask",
    "encode_observation",
    "mask_array",
    "mask_bits",
    "mask_row",
    "observation_bits",
    "observation_row",
]

_CUT: Final = Phase.CUT
_EXCHANGE: Final = Phase.EXCHANGE
_PLAY: Final = Phase.PLAY
_PHASE_ROW: Final = {phase: k for k, phase in enumerate(Phase)}
_CRITICAL_ROW: Final = {card.index: k for k, card in enumerate(CRITICALS)}
_SUIT: Final = tuple(int(card.suit) for card in CARDS)
"""The suit of every card id, the Sixes' included (their ids are not ``suit * 8 + rank``)."""
_CUT_MASK: Final = 1 << 0 | 1 << 1  # take, leave (R12)
_IDS36: Final = num_action_ids(36)
_CACHE_LIMIT: Final = 4096
_RANDOM: Final = RandomBot
_HEURISTIC: Final = HeuristicBot


class _Plan:
    """The column of every block for one number of players and pack, and the seat
    rotations."""

    def __init__(self, n: int, pack: int) -> None:
        at = {name: offset for name, offset, _ in layout(n, pack)}
        self.n = n
        self.pack = pack
        """The width of a per-card block, and the stock's divisor."""
        self.size = observation_size(n, pack)
        self.nbytes = (self.size + 7) // 8
        self.num_ids = num_action_ids(pack)
        self.mask_bytes = (self.num_ids + 7) // 8
        self.discards = at["discards"]
        self.draws = at["draws"]
        self.cut_seen = at["cut_seen"]
        self.trump_card = at["trump_card"]
        self.trump_suit = at["trump_suit"]
        self.trump_taken_bit = 1 << at["trump_taken"]
        self.criticals_taken = at["criticals_taken"]
        self.criticals_left = at["criticals_left"]
        self.trick = at["trick"]
        self.trick_leader = at["trick_leader"]
        self.played = at["played"]
        self.folded = at["folded"]
        self.exchanged = at["exchanged"]
        self.dealer = at["dealer"]
        self.forehand = at["forehand"]
        self.to_act = at["to_act"]
        self.phase_bit = {phase: 1 << at["phase"] + k for phase, k in _PHASE_ROW.items()}
        # The fractional columns, in the order observation_bits() returns their values.
        self.real_columns = np.array(
            [at["tricks_won"] + r for r in range(n)]
            + [at["scores"] + r for r in range(n)]
            + [at["stock"]],
            dtype=np.intp,
        )
        # rotation[me][seat]: the row of ``seat`` in ``me``'s per-seat blocks.
        self.rotation = tuple(tuple((seat - me) % n for seat in range(n)) for me in range(n))
        # order[me]: the seats in ``me``'s row order (me first, then clockwise, R6).
        self.order = tuple((*range(me, n), *range(me)) for me in range(n))


_PLANS: Final = {
    32: {n: _Plan(n, 32) for n in (2, 3, 4)},
    36: {n: _Plan(n, 36) for n in range(2, 8)},
}
"""``_PLANS[pack][num_players]``: the 32-card pack's own layout stays as it was (R6)."""


class Memo:
    """What an environment's encoding remembers between its steps, keyed by object.

    The finished tricks, the deal's fields and the game's fields are immutable tuples
    that the engine shares from one state to the next, so the columns read from them
    are worked out once per object and seat, and each recurring mask row is unpacked
    once.  The memo keeps **one** object of each kind, the last one encoded: a new
    object replaces it.  So it holds nothing the environment's current state does not
    hold as well, and it allocates nothing that outlives that state.  (A memo that
    kept thousands of them made Python's cyclic garbage collector run hundreds of
    times a second over what it kept: about an eighth of a vector step, measured.)
    Each environment (and each row of an :class:`Encoder`) owns one: nothing is
    shared between environments, threads or processes.
    """

    __slots__ = ("deal", "game", "masks", "played")

    def __init__(self) -> None:
        self.played: tuple[tuple[PlayedTrick, ...], list[int], list[int | None]] | None = None
        self.deal: tuple[DealFields, float, list[int | None]] | None = None
        self.game: tuple[GameFields, list[tuple[int, tuple[float, ...]] | None]] | None = None
        # Mask rows are keyed by value (a few hundred recur); numpy arrays and ints
        # are not tracked by the garbage collector, so this one may grow to a bound.
        self.masks: dict[int, npt.NDArray[np.int8]] = {}


def _played_bits(tricks: tuple[PlayedTrick, ...], seat: int, plan: _Plan, memo: Memo | None) -> int:
    """The ``played`` block: each seat's cards in the finished tricks, rotated (R27).

    The finished tricks change once a trick and are the same for every seat: with a
    ``memo`` each seat's cards are gathered once per new tuple, from the tuple before
    plus the one new trick when it extends that tuple, and rotated for a seat on its
    first read.
    """
    hit = memo.played if memo is not None else None
    if hit is not None and hit[0] is tricks:
        cards, rows = hit[1], hit[2]
        bits = rows[seat]
        if bits is not None:
            return bits
    else:
        if hit is not None and tricks[:-1] == hit[0]:  # one trick more than last time
            cards = hit[1].copy()
            for player, card in tricks[-1][0]:
                cards[player] |= 1 << card
        else:
            cards = [0] * plan.n
            for plays, _ in tricks:
                for player, card in plays:
                    cards[player] |= 1 << card
        rows = [None] * plan.n
        if memo is not None:
            memo.played = (tricks, cards, rows)
    base = plan.played
    width = plan.pack
    bits = 0
    for player, row in enumerate(plan.rotation[seat]):
        bits |= cards[player] << base + width * row
    rows[seat] = bits
    return bits


def _deal_bits(state: GameState, seat: int, plan: _Plan, memo: Memo | None) -> tuple[int, float]:
    """The columns that change a few times a deal: discards, draws, ritual, trump,
    folds, exchanges (R12–R23), and the stock's share; with a ``memo``, once per deal
    fields and seat."""
    deal = state.deal_fields
    hit = memo.deal if memo is not None else None
    if hit is not None and hit[0] is deal:
        bits = hit[2][seat]
        if bits is not None:
            return bits, hit[1]
        rows = hit[2]
    else:
        rows = [None] * plan.n
    rot = plan.rotation[seat]
    counts = deal.exchanged
    bits = deal.discards[seat] << plan.discards
    if counts[seat] > 0:
        # R23: a seat's draws are not among the compact fields (they are read off the
        # deal's shuffle); its own view holds them, and nobody else's.
        draws = 0
        for card in drawn_cards(state, seat):
            draws |= 1 << card
        bits |= draws << plan.draws
    for looker, card, taken in deal.cut:
        if taken:  # R13: a taken card is public
            bits |= 1 << plan.criticals_taken + 3 * rot[looker] + _CRITICAL_ROW[card]
        else:
            if looker == seat:  # R13: a card left is known to the seat that looked only
                bits |= 1 << plan.cut_seen + card
            if CRITICAL_MASK >> card & 1:  # declining a Critical is public
                bits |= 1 << plan.criticals_left + rot[looker]
    trump = deal.trump
    if trump >= 0:
        bits |= 1 << plan.trump_card + trump | 1 << plan.trump_suit + _SUIT[trump]
    if deal.took_trump:
        bits |= plan.trump_taken_bit
    folded = deal.folded
    for player in range(plan.n):
        r = rot[player]
        if folded[player]:
            bits |= 1 << plan.folded + r
        count = counts[player]
        if count >= 0:
            bits |= 1 << plan.exchanged + 6 * r + count
    stock = len(deal.pack) / plan.pack
    rows[seat] = bits
    if memo is not None and (hit is None or hit[0] is not deal):
        memo.deal = (deal, stock, rows)
    return bits, stock


def _game_bits(
    game: GameFields, seat: int, plan: _Plan, memo: Memo | None
) -> tuple[int, tuple[float, ...]]:
    """The columns that change once a deal: dealer, forehand, scores; with a ``memo``,
    once per game fields and seat."""
    hit = memo.game if memo is not None else None
    if hit is not None and hit[0] is game:
        rows = hit[1]
        row = rows[seat]
        if row is not None:
            return row
    else:
        rows = [None] * plan.n
        if memo is not None:
            memo.game = (game, rows)
    rot = plan.rotation[seat]
    dealer = game.dealer
    goal = 2 * game.rules.start_score
    scores = game.scores
    row = (
        1 << plan.dealer + rot[dealer] | 1 << plan.forehand + rot[left_of(dealer, plan.n)],  # R2
        tuple([min(max(scores[s], 0), goal) / goal for s in plan.order[seat]]),
    )
    rows[seat] = row
    return row


_WON: Final = {
    (won, seat): tuple(won[s] / 5 for s in (*range(seat, len(won)), *range(seat)))
    for n in range(2, 8)
    for won in itertools.product(range(6), repeat=n)
    if sum(won) <= 5
    for seat in range(n)
}
"""The rotated ``tricks_won`` block of every possible count, by (counts, seat)."""


def observation_bits(
    state: GameState, seat: int, memo: Memo | None = None
) -> tuple[int, tuple[float, ...]]:
    """``seat``'s observation as an integer of its 0/1 columns and its fractional values.

    Bit ``k`` of the integer is column ``k`` of
    :func:`~bohmisch_watten.encoding.observation`; the tuple holds the columns
    ``tricks_won``, ``scores`` and ``stock`` in that order (:attr:`Encoder.real_columns`).
    No argument checks: this is the inner loop (:func:`encode_observation` checks).
    With a ``memo`` (one per environment) the columns that change a few times a deal
    are worked out once per seat.
    """
    game = state.game_fields
    return _observation_bits(state, seat, _PLANS[game[1].pack][game[0]], memo)


def _observation_bits(
    state: GameState, seat: int, plan: _Plan, memo: Memo | None
) -> tuple[int, tuple[float, ...]]:
    """:func:`observation_bits` with the plan of the state's players and pack (R6)
    already at hand, as an :class:`Encoder` and :func:`observation_row` have it."""
    game = state.game_fields
    deal_bits, stock = _deal_bits(state, seat, plan, memo)
    game_bits, scores = _game_bits(game, seat, plan, memo)
    bits: int = state.hand_masks[seat] | deal_bits | game_bits
    rot = plan.rotation[seat]
    trick = state.trick_plays
    if trick:
        base = plan.trick
        width = plan.pack
        for player, card in trick:
            bits |= 1 << base + width * rot[player] + card
        bits |= 1 << plan.trick_leader + rot[trick[0][0]]
    tricks = state.played_tricks
    if tricks:
        bits |= _played_bits(tricks, seat, plan, memo)
    mover = state.current_player
    if mover is not None:
        bits |= 1 << plan.to_act + rot[mover]
    bits |= plan.phase_bit[state.phase]
    return bits, _WON[state.tricks_won, seat] + scores + (stock,)


@lru_cache(maxsize=1024)
def _exchange_bits(limit: int, dealer: bool, fold: bool) -> int:
    """The exchange ids legal for a five-card hand drawing at most ``limit`` cards.

    Exchange ids name hand positions (a 5-bit pattern of discards), so the set does not
    depend on the cards: every pattern of at most ``limit`` discards (R18, R20); for the
    dealer also every pattern of 1 to ``limit + 1`` discards taking the trump card
    (R19); fold when allowed (R21).
    """
    bits = 1 << FOLD_ID if fold else 0
    for pattern in range(32):
        size = pattern.bit_count()
        if size <= limit:
            bits |= 1 << EXCHANGE_BASE + pattern
        if dealer and 1 <= size <= limit + 1:
            bits |= 1 << EXCHANGE_TRUMP_BASE + pattern
    return bits


def mask_bits(state: GameState, seat: int) -> int:
    """``seat``'s action mask as an integer: bit ``i`` set when action id ``i`` is legal.

    Zero unless ``seat`` is to act.  The same ids as
    :func:`~bohmisch_watten.legal_action_mask`, worked out from the phase (R12), the
    play mask the engine keeps (R24–R26), or the exchange limits (R18–R21).
    """
    if state.current_player != seat:
        return 0
    phase = state.phase
    if phase is _PLAY:
        return state.play_mask << PLAY_BASE
    if phase is _CUT:
        return _CUT_MASK
    if phase is not _EXCHANGE:  # pragma: no cover - only PLAY, CUT and EXCHANGE have a mover
        return 0
    game = state.game_fields
    stock = len(state.deal_fields.pack)
    if seat == game.dealer:
        return _exchange_bits(min(game.rules.dealer_stock_limit, stock), True, False)
    fold = state.fold_forbidden_by(seat) is None
    return _exchange_bits(min(STOCK_LIMIT, stock), False, fold)


class Encoder:
    """Observations and masks of many (state, seat) pairs into preallocated arrays.

    One encoder serves one number of players and one pack; :meth:`encode` fills the
    first rows of :attr:`observations` and :attr:`masks` and returns views of them, so
    a vector environment reuses the same memory at every step (copy what you keep).

    Args:
        num_players: 2 to 4 with the 32-card pack, 2 to 7 with 36 (R1).
        capacity: the most pairs one call encodes.
        pack: 32 (default) or 36: the table of ids and the layout (R6).

    Raises:
        TypeError: naming ``pack`` if it is not an int.
        ValueError: for a bad pack or player count or a capacity below 1.
    """

    def __init__(self, num_players: int, capacity: int, pack: int = 32) -> None:
        observation_size(num_players, pack)  # checks both, naming them
        if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1:
            raise ValueError(f"capacity must be a positive int, got {capacity!r}")
        self._plan = _PLANS[pack][num_players]
        self.num_players = num_players
        self.pack = pack
        self.capacity = capacity
        self.observations: npt.NDArray[np.float32] = np.zeros(
            (capacity, self._plan.size), np.float32
        )
        self.masks: npt.NDArray[np.int8] = np.zeros((capacity, self._plan.num_ids), np.int8)
        self.real_columns = self._plan.real_columns
        # One memo a row: a vector environment keeps game i in row i, so each row's
        # memo follows one game.
        self._memos = [Memo() for _ in range(capacity)]
        self.mask_ints: list[int] = []
        """The masks of the last :meth:`encode` as integers (:func:`mask_bits`), by row."""

    def encode(
        self, states: Sequence[GameState], seats: Sequence[int]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """The observations and masks of ``seats[i]`` in ``states[i]``, one row each.

        Raises:
            ValueError: for more pairs than :attr:`capacity`, sequences of different
                lengths, or a state with another number of players or pack.
        """
        count = len(states)
        if count > self.capacity or len(seats) != count:
            raise ValueError(
                f"encode: {count} states and {len(seats)} seats for capacity {self.capacity}"
            )
        plan = self._plan
        n, nbytes, pack = plan.n, plan.nbytes, plan.pack
        obs_bytes = []
        mask_ints = []
        reals = []
        for state, seat, memo in zip(states, seats, self._memos, strict=False):
            game = state.game_fields
            if game[0] != n or game[1].pack != pack:
                raise ValueError(
                    f"encode: a {state.num_players}-player state with {game.rules.pack} "
                    f"cards for a {n}-player encoder with {pack}"
                )
            bits, values = _observation_bits(state, seat, plan, memo)
            obs_bytes.append(bits.to_bytes(nbytes, "little"))
            mask_ints.append(mask_bits(state, seat))
            reals.append(values)
        self.mask_ints = mask_ints
        mask_size = plan.mask_bytes
        mask_bytes = [bits.to_bytes(mask_size, "little") for bits in mask_ints]
        observations = self.observations[:count]
        masks = self.masks[:count]
        if count:
            raw = np.frombuffer(b"".join(obs_bytes), np.uint8).reshape(count, plan.nbytes)
            observations[:] = np.unpackbits(raw, axis=1, count=plan.size, bitorder="little")
            observations[:, plan.real_columns] = reals
            raw = np.frombuffer(b"".join(mask_bytes), np.uint8).reshape(count, mask_size)
            masks[:] = np.unpackbits(raw, axis=1, count=plan.num_ids, bitorder="little")
        return observations, masks


def _check(state: object, seat: object) -> GameState:
    if not isinstance(state, GameState):
        raise TypeError(f"state must be a GameState, got {type(state).__name__}")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise TypeError(f"seat must be an int, got {type(seat).__name__}")
    if not 0 <= seat < state.num_players:
        raise ValueError(f"seat must be a seat from 0 to {state.num_players - 1}, got {seat!r}")
    return state


def encode_observation(
    state: GameState, seat: int, memo: Memo | None = None
) -> npt.NDArray[np.float32]:
    """A new float32 array equal to ``observation(state.view(seat))``.

    Pass the same :class:`Memo` for the states of one game (as an environment does) and
    the columns that change a few times a deal are worked out once per seat.

    Raises:
        TypeError: naming ``state`` or ``seat`` for a value of the wrong type.
        ValueError: naming ``seat`` if it is not a seat of the game.
    """
    if memo is not None and not isinstance(memo, Memo):
        raise TypeError(f"memo must be a Memo or None, got {type(memo).__name__}")
    return observation_row(_check(state, seat), seat, memo)


def encode_mask(state: GameState, seat: int, memo: Memo | None = None) -> npt.NDArray[np.int8]:
    """A new int8 array equal to ``action_mask(state.view(seat))`` (``memo`` as for
    :func:`encode_observation`: each recurring mask is unpacked once).

    Raises:
        TypeError: naming ``state`` or ``seat`` for a value of the wrong type.
        ValueError: naming ``seat`` if it is not a seat of the game.
    """
    if memo is not None and not isinstance(memo, Memo):
        raise TypeError(f"memo must be a Memo or None, got {type(memo).__name__}")
    bits = mask_bits(_check(state, seat), seat)
    if state.game_fields[1].pack == 32:  # the rules; the 32-card pack's 99 ids
        return mask_array(bits, memo)
    return mask_array(bits, memo, _IDS36)


def observation_row(
    state: GameState, seat: int, memo: Memo | None = None
) -> npt.NDArray[np.float32]:
    """:func:`encode_observation` without the argument checks, for an environment that
    passes its own state and a seat it knows to be valid (one step's inner loop), and
    its own ``memo``."""
    game = state.game_fields
    plan = _PLANS[game[1].pack][game[0]]
    bits, reals = _observation_bits(state, seat, plan, memo)
    raw = np.frombuffer(bits.to_bytes(plan.nbytes, "little"), np.uint8)
    # One lookup of each byte's eight float32 columns: no unpacking, no conversion.
    out = _BYTE_COLUMNS.take(raw, axis=0).reshape(-1)[: plan.size]
    out[plan.real_columns] = reals
    return out


def _byte_columns() -> npt.NDArray[np.float32]:
    table = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little")
    columns = table.astype(np.float32)
    columns.flags.writeable = False
    return columns


_BYTE_COLUMNS: Final = _byte_columns()
"""Row ``b``: the eight 0/1 columns of byte value ``b``, lowest bit first; read-only."""


def mask_row(state: GameState, seat: int, memo: Memo | None = None) -> npt.NDArray[np.int8]:
    """:func:`encode_mask` without the argument checks (see :func:`observation_row`)."""
    if state.game_fields[1].pack == 32:  # the rules; the 32-card pack's 99 ids
        return mask_array(mask_bits(state, seat), memo)
    return mask_array(mask_bits(state, seat), memo, _IDS36)


def mask_array(
    bits: int, memo: Memo | None = None, size: int = NUM_ACTION_IDS
) -> npt.NDArray[np.int8]:
    """A new int8 row of ``size`` entries of the mask integer ``bits`` (of
    :func:`mask_bits`): 99 for the 32-card pack's ids, 103 for the 36-card pack's
    (:func:`~bohmisch_watten.encoding.num_action_ids`)."""
    row = memo.masks.get(bits) if memo is not None else None
    # The same integer is a row of 99 or of 103 entries: a memo met by both packs
    # unpacks it again.
    if row is None or len(row) != size:  # a few hundred masks recur: unpack each once
        raw = np.frombuffer(bits.to_bytes((size + 7) // 8, "little"), np.uint8)
        row = np.unpackbits(raw, count=size, bitorder="little").view(np.int8)
        if memo is None:
            return row
        if len(memo.masks) >= _CACHE_LIMIT:
            memo.masks.clear()
        memo.masks[bits] = row
    return row.copy()


def action_for(state: GameState, index: int) -> Action:
    """``id_to_action(state, index)``, a card's id answered first from the table.

    A card play's action is the same in every state (ids 67–98 are the 32 cards), and
    it is most of a game's decisions; every other id (the Sixes' 99–102 included: they
    are ids of the 36-card table only, R6), and every bad one, goes to
    :func:`~bohmisch_watten.encoding.id_to_action`, the one mapping (an exchange id
    names hand positions, R18).  Legality is :meth:`GameState.apply`'s to check.
    """
    if PLAY_BASE <= index < NUM_ACTION_IDS:
        return PLAY_ACTIONS[index - PLAY_BASE]
    return id_to_action(state, index)


def bot_action(bot: Bot, state: GameState, seat: int, rng: random.Random) -> Action:
    """``bot.choose(state.view(seat), rng)``, without building the view for two bots.

    :class:`RandomBot` and :class:`HeuristicBot` read only ``legal_actions()``, the
    seat's own hand, the trick and the trump card of their view, and the acting seat's
    view has the same legal actions, in the same order, as the state (R12, R18–R26):
    the same values come from the state here, so the choice is the same (a test
    checks it) and no other seat's card is read.  Any other bot gets its view.
    """
    kind = type(bot)
    if kind is _RANDOM:
        return rng.choice(state.legal_actions())
    if kind is _HEURISTIC:
        # The seat's own hand only, as its view gives it (``state.hands`` would build
        # every seat's).
        hand = tuple([CARDS[card] for card in card_indices(state.hand_masks[seat])])
        return decide(state.phase, state.legal_actions(), hand, state.trick, state.trump_card)
    return bot.choose(state.view(seat), rng)
