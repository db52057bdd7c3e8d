"""A fixed-size numeric encoding of a :class:`PlayerView` for learning code.

Neural networks want a flat vector of numbers of one length and a mask over a fixed set
of actions.  This module turns a view into exactly that, in pure Python (lists of
floats and ints; the adapters turn them into numpy arrays):

* :func:`observation` — the observation vector, every entry in ``[0, 1]``, of length
  :func:`observation_size` ``(num_players)``;
* :func:`action_mask` — 0/1 over the :data:`~bohmisch_watten.NUM_ACTION_IDS` = 99
  action ids of :mod:`bohmisch_watten.action_ids`;
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

from .action_ids import legal_action_mask
from .cards import CRITICALS
from .phase import Phase
from .views import PlayerView

__all__ = [
    "action_mask",
    "action_mask_batch",
    "layout",
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
    return view


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
    in card order, as in :mod:`bohmisch_watten.action_ids`; this is
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
