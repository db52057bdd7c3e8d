"""Internal: every way a :class:`~bohmisch_watten.GameState` is built.

:func:`make` is the hot path of ``apply()``: attrs' frozen ``__init__`` sets every
field through ``object.__setattr__`` by name, while :func:`make` fills the slots of an
unfrozen twin class (same base, same slots) by plain assignment, the fastest store
Python has, and then makes it a GameState by assigning ``__class__``; it costs less than
half as much.  Nothing else happens in ``__init__`` for that class (no defaults,
converters or validators; ``__attrs_post_init__`` sets the two flags that follow from the
phase, ``is_chance_node`` and ``is_terminal``, which :func:`make` sets too), and
``tests/test_fast_paths.py`` proves that both build equal values.

:func:`build_state` is the one way other modules (views, records) build a state, by
name; :func:`at_position` and :func:`restore_state` serve ``new_game``,
``from_position`` and unpickling.  The state class registers itself with :func:`bind`
(through ``_effects.bind``, as ``play`` builds its states inline the same way) when
:mod:`~bohmisch_watten.state` is imported, so this module does not import it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from ._history import Node
from ._layout import fresh_deal, last_deal_of
from .actions import Action
from .facts import DealFields, GameFields
from .phase import Phase
from .position import Position
from .summary import PastDeals
from .tricks import PlayedTrick, Plays, legal_play_mask

if TYPE_CHECKING:
    from .state import GameState

__all__ = ["at_position", "bind", "build_state", "make", "restore_state"]

_NO_DEALS: Final = PastDeals()
_DEAL: Final = Phase.DEAL
_GAME_OVER: Final = Phase.GAME_OVER
_new_object: Final = object.__new__
_State: Any = None
"""The GameState class, once :func:`bind` ran."""
_Unfrozen: Any = None
"""Its unfrozen twin: the same slots, no frozen ``__setattr__``."""


def bind(state_class: type, unfrozen: type) -> None:
    """Register the state class and its unfrozen twin (called once, by ``_effects.bind``)."""
    global _State, _Unfrozen
    _State, _Unfrozen = state_class, unfrozen


def make(
    phase: Phase,
    current_player: int | None,
    hand_masks: tuple[int, ...],
    trick_plays: Plays,
    played_tricks: tuple[PlayedTrick, ...],
    tricks_won: tuple[int, ...],
    deal_fields: DealFields,
    game_fields: GameFields,
    play_mask: int,
    history_node: Node | None,
) -> GameState:
    """``GameState(...)`` with the same arguments, at less than half the cost (the hot path)."""
    state: Any = _new_object(_Unfrozen)
    state.phase = phase
    state.current_player = current_player
    state.hand_masks = hand_masks
    state.trick_plays = trick_plays
    state.played_tricks = played_tricks
    state.tricks_won = tricks_won
    state.deal_fields = deal_fields
    state.game_fields = game_fields
    state.play_mask = play_mask
    state.history_node = history_node
    state.is_chance_node = phase is _DEAL
    state.is_terminal = phase is _GAME_OVER
    state.__class__ = _State
    return state  # type: ignore[no-any-return]


def at_position(position: Position) -> GameState:
    """The chance node of ``position``'s deal, with an empty history starting there."""
    n = position.num_players
    return _State(  # type: ignore[no-any-return]
        Phase.DEAL, None, (0,) * n, (), (), (0,) * n, fresh_deal(n),
        GameFields(
            n, position.rules, position.dealer, position.deal_number, position.scores,
            position, _NO_DEALS,
        ),
        0, None,
    )  # fmt: skip


def build_state(
    *,
    position: Position,
    past: PastDeals = _NO_DEALS,
    phase: Phase = Phase.DEAL,
    current_player: int | None = None,
    pack: tuple[int, ...] = (),
    hands: tuple[int, ...] | None = None,
    trump: int = -1,
    took_trump: bool = False,
    folded: tuple[bool, ...] | None = None,
    exchanged: tuple[int, ...] | None = None,
    discards: tuple[int, ...] | None = None,
    cut: tuple[tuple[int, int, bool], ...] = (),
    trick: Plays = (),
    tricks: tuple[PlayedTrick, ...] = (),
    tricks_won: tuple[int, ...] | None = None,
    history: Node | None = None,
) -> GameState:
    """The one way other modules build a :class:`GameState`: by name, not by position.

    ``position`` is the start of the current deal and becomes the state's
    :attr:`~GameState.start_position` (the history, if any, starts there); ``past`` is
    the public record of earlier deals.  Cards are indices and hands bitmasks, as in the
    state's own fields.  With ``phase`` GAME_OVER, ``position`` is the position the final
    scores give (see :attr:`GameState.position`) and the result is the finished game.
    """
    n = position.num_players
    dealer, deal_number = position.dealer, position.deal_number
    if phase is Phase.GAME_OVER:
        dealer, deal_number = last_deal_of(position)
    hands = (0,) * n if hands is None else hands
    mask = 0
    if phase is Phase.PLAY and current_player is not None:
        mask = legal_play_mask(hands[current_player], trick, trump >> 3, position.rules.must_head)
    return _State(  # type: ignore[no-any-return]
        phase, current_player, hands, trick, tricks,
        (0,) * n if tricks_won is None else tricks_won,
        DealFields(
            pack, trump, took_trump, (False,) * n if folded is None else folded,
            (-1,) * n if exchanged is None else exchanged,
            (0,) * n if discards is None else discards, cut,
        ),
        GameFields(n, position.rules, dealer, deal_number, position.scores, position, past),
        mask, history,
    )  # fmt: skip


def restore_state(
    values: tuple[Any, ...], history: tuple[tuple[int | None, Action], ...]
) -> GameState:
    """Unpickle a state: its fields and its history as a flat tuple (see ``__reduce__``)."""
    node: Node | None = None
    for seat, action in history:
        node = (node, seat, action)
    if len(values) == 8:  # pickled by 0.3, before the play mask was kept
        phase, seat, hands, trick, _, _, deal, game = values
        mask = 0
        if phase is Phase.PLAY and seat is not None:
            mask = legal_play_mask(hands[seat], trick, deal[1] >> 3, game[1].must_head)
        values = (*values, mask)
    construct: Callable[..., GameState] = _State
    return construct(*values, node)
