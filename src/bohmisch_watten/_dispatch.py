"""Internal: ``GameState.apply`` — from an action to its effect through the phase machine.

Each action type has a trigger of :data:`~bohmisch_watten.phases.TRANSITIONS` and an
effect (:mod:`~bohmisch_watten._effects`); the compiled machine's entry for the state's
phase and that trigger decides the destination.  Phases in which nobody has a choice
(the cut when no Critical is offered, and the scoring) are passed through by their
automatic triggers, each a transition of the machine too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from ._effects import deal_cards, exchange, fold, play, score, shuffle, take_or_leave, wrong_phase
from .actions import Action, Exchange, Fold, LeaveCritical, PlayCard, Shuffle, TakeCritical
from .errors import IllegalActionError
from .phase import Phase
from .phases import AUTO_TRIGGERS, DECIDERS, Decider
from .turns import seat_may_act, turn_message

if TYPE_CHECKING:
    from .state import GameState

__all__ = ["apply"]

_Effect = Callable[["GameState", Any, Decider], "GameState"]
_AutoEffect = Callable[["GameState", Phase], "GameState"]


_EFFECTS: Final[dict[type, tuple[str, _Effect]]] = {
    PlayCard: ("play", play),
    Exchange: ("exchange", exchange),
    Fold: ("fold", fold),
    TakeCritical: ("take", take_or_leave),
    LeaveCritical: ("leave", take_or_leave),
    Shuffle: ("shuffle", shuffle),
}
"""Each action type's trigger in :data:`~bohmisch_watten.phases.TRANSITIONS` and effect."""

_STEPS: Final[dict[type, dict[Phase, tuple[_Effect, Decider]]]] = {
    kind: {phase: (effect, d) for (phase, t), d in DECIDERS.items() if t == trigger}
    for kind, (trigger, effect) in _EFFECTS.items()
}
"""``_STEPS[action type][phase]``: the effect and the compiled machine's entry for it."""
_PLAY: Final = Phase.PLAY
_PLAY_DECIDE: Final = _STEPS[PlayCard][_PLAY][1]
"""The compiled machine's entry for the commonest action, a card played in phase PLAY:
looked up once, here."""
_AUTO_EFFECTS: Final[dict[str, _AutoEffect]] = {"deal": deal_cards, "score": score}
_AUTO: Final[dict[Phase, tuple[Decider, _AutoEffect]]] = {
    phase: (DECIDERS[(phase, trigger)], _AUTO_EFFECTS[trigger])
    for phase, trigger in AUTO_TRIGGERS.items()
}
"""The automatic triggers by phase: the compiled machine's entry and the effect."""
assert _PLAY not in _AUTO  # apply() returns a state in phase PLAY without passing through


def apply(state: GameState, action: Action, *, seat: int | None = None) -> GameState:
    """The state after ``action``; this state is unchanged.

    ``seat`` is who sends the action.  A server relaying players' actions passes it,
    so that an action from a seat that is not to act (or from any seat at a chance
    node) is refused with a message that says whose turn it is and nothing else.
    Without it the action is taken for the seat to act (or for chance).

    Phases in which nobody has a choice (the cut when no Critical is offered, and
    the scoring) are passed through here, each by a transition of the phase machine.
    The action need not come from :meth:`legal_actions`: equal actions are
    interchangeable, so a UI may build one from a click.

    Raises:
        IllegalActionError: for anything not in :meth:`legal_actions` (at a chance
            node: anything but a :class:`Shuffle` of the 32 cards), naming the rule;
            for a ``seat`` that is not to act.
        TypeError: naming ``seat`` if it is neither None nor an int.
        ValueError: naming ``seat`` if it is not a seat of this game.

    Example:
        >>> from bohmisch_watten import DECK, Card, Exchange, Fold, Shuffle
        >>> from bohmisch_watten import IllegalActionError, new_game
        >>> state = new_game(2).apply(Shuffle(DECK))  # a known pack, top card first
        >>> " ".join(str(card) for card in state.hands[1])
        'E7 E8 E9 EA G7'
        >>> after = state.apply(Exchange({Card.parse("E8"), Card.parse("G7")}))
        >>> after.exchanged, " ".join(str(card) for card in after.hands[1])
        ((None, 2), 'E7 E9 EA G10 GU')
        >>> try:
        ...     after.apply(Fold())
        ... except IllegalActionError as error:
        ...     print(error)
        R21.1: nobody may fold in the first deal of the game
        >>> try:
        ...     after.apply(Fold(), seat=1)
        ... except IllegalActionError as error:
        ...     print(error)
        R18: it is seat 0's turn, not seat 1's
    """
    if seat is not None and not seat_may_act(seat, state.current_player, state.num_players):
        raise IllegalActionError(turn_message(state.phase, state.current_player, seat))
    if type(action) is PlayCard and state.phase is _PLAY:  # the same step, found sooner
        state = play(state, action, _PLAY_DECIDE)
        if state.phase is _PLAY:  # no automatic trigger in phase PLAY
            return state
        return _pass_through(state)
    steps = _STEPS.get(type(action))
    if steps is None:
        raise IllegalActionError(
            f"not an action: {action!r:.60} ({type(action).__name__}); expected "
            "Shuffle, TakeCritical, LeaveCritical, Fold, Exchange or PlayCard"
        )
    step = steps.get(state.phase)
    if step is None:
        trigger = _EFFECTS[type(action)][0]
        raise IllegalActionError(wrong_phase(state, trigger, action))
    return _pass_through(step[0](state, action, step[1]))


def _pass_through(state: GameState) -> GameState:
    """Fire the automatic triggers while their guards allow (the cut, the scoring)."""
    auto = _AUTO.get(state.phase)
    while auto is not None:
        dest = auto[0](state, None)
        if dest is None:
            break
        state = auto[1](state, dest)
        auto = _AUTO.get(state.phase)
    return state
