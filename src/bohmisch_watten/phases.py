"""The phase machine: DEAL → CUT → EXCHANGE → PLAY → SCORE → DEAL | GAME_OVER.

The transitions are declared once, as data, in :data:`TRANSITIONS`, and turned into a
:class:`transitions.Machine` once at import (``auto_transitions=False``).  States are
frozen, so they cannot be models of that machine; instead the machine is *compiled*
into :data:`TABLE`, a dictionary from ``(phase, trigger)`` to the guarded destinations,
which :meth:`GameState.apply` uses on its hot path.  ``tests/test_phases.py`` proves the
table and the real machine agree for every phase, trigger and guard outcome.

Guards are pure functions ``guard(state, action) -> bool`` of the state *before* the
transition and the action that triggers it (``None`` for the automatic triggers
``deal`` and ``score``).  They read the state's public properties only, so this module
needs nothing of :mod:`~bohmisch_watten.state` but its type.  A guard that has to work
something out leaves its conclusion where the effect finds it: ``game_ends`` decides on
the state's kept ``deal_score``, which the scoring then posts.  The machine refers to them
by name, the way a ``transitions`` model would; :data:`GUARDS` maps the names to the functions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

from transitions import Machine

from .phase import Phase as Phase  # re-exported: importable from here, as before

if TYPE_CHECKING:
    from .state import GameState

__all__ = [
    "AUTO_TRIGGERS",
    "DECIDERS",
    "GUARDS",
    "MACHINE",
    "TABLE",
    "TRANSITIONS",
    "Decider",
    "Guard",
    "Option",
    "compile_decider",
    "resolve",
]


Guard = Callable[["GameState", Any], bool]
"""``guard(state, action)``: whether a guarded transition is taken (see :data:`GUARDS`)."""


def ritual_over(state: GameState, action: object) -> bool:
    """No Critical is on offer any more, so the cards are dealt (R12, R14, R15)."""
    return state.current_player is None


def dealer_decides(state: GameState, action: object) -> bool:
    """The dealer is the last to decide, so his exchange ends the phase (R18, R19)."""
    return state.current_player == state.game_fields.dealer  # the field, not the property


def completes_deal(state: GameState, action: object) -> bool:
    """This card completes the fifth trick (R24).

    The play effect takes this answer for the fifth trick: when the machine stays in
    PLAY there, the trick goes on; it is not tested again.
    """
    return len(state.played_tricks) == 4 and len(
        state.trick_plays
    ) + 1 == state.deal_fields.folded.count(False)


def game_ends(state: GameState, action: object) -> bool:
    """Posting this deal's points ends the game (R31, R33, R34).

    Decided on the state's :attr:`~bohmisch_watten.GameState.deal_score`, which the
    state keeps: the scoring that follows posts that same score, not a recomputed one.
    """
    return bool(state.deal_score.winners)


GUARDS: Final[Mapping[str, Guard]] = {
    "ritual_over": ritual_over,
    "dealer_decides": dealer_decides,
    "completes_deal": completes_deal,
    "game_ends": game_ends,
}
"""The guards by the names that :data:`TRANSITIONS` uses, as a ``transitions`` model would.

Keeping the names in the declaration (not the functions) is what lets the machine stay
plain data, and lets the agreement test substitute guards with chosen outcomes.

:meta hide-value:
"""

_D, _C, _E, _P, _S, _G = (
    Phase.DEAL,
    Phase.CUT,
    Phase.EXCHANGE,
    Phase.PLAY,
    Phase.SCORE,
    Phase.GAME_OVER,
)

TRANSITIONS: Final[list[dict[str, Any]]] = [
    {"trigger": "shuffle", "source": _D, "dest": _C},
    {"trigger": "take", "source": _C, "dest": _C},
    {"trigger": "leave", "source": _C, "dest": _C},
    {"trigger": "deal", "source": _C, "dest": _E, "conditions": ["ritual_over"]},
    {"trigger": "fold", "source": _E, "dest": _E},
    {"trigger": "exchange", "source": _E, "dest": _P, "conditions": ["dealer_decides"]},
    {"trigger": "exchange", "source": _E, "dest": _E, "unless": ["dealer_decides"]},
    {"trigger": "play", "source": _P, "dest": _S, "conditions": ["completes_deal"]},
    {"trigger": "play", "source": _P, "dest": _P, "unless": ["completes_deal"]},
    {"trigger": "score", "source": _S, "dest": _G, "conditions": ["game_ends"]},
    {"trigger": "score", "source": _S, "dest": _D, "unless": ["game_ends"]},
]
"""The whole phase machine as data: one dict per transition, in ``transitions`` syntax."""

AUTO_TRIGGERS: Final[Mapping[Phase, str]] = {Phase.CUT: "deal", Phase.SCORE: "score"}
"""Triggers that ``apply()`` fires by itself when their guards allow: nobody has a choice."""

MACHINE: Final = Machine(
    model=None,
    states=Phase,
    transitions=TRANSITIONS,
    initial=Phase.DEAL,
    auto_transitions=False,
)
"""The one :class:`transitions.Machine`, built at import; the source of :data:`TABLE`."""

Option = tuple[Phase, tuple[tuple[str, Guard], ...], tuple[tuple[str, Guard], ...]]
"""One guarded destination: ``(dest, conditions, unless)`` with guards as (name, function)."""


def _compile(machine: Machine) -> dict[tuple[Phase, str], tuple[Option, ...]]:
    """Read the machine's events into ``{(phase, trigger): (options in order)}``."""
    table: dict[tuple[Phase, str], tuple[Option, ...]] = {}
    for trigger, event in machine.events.items():
        for source, transitions in event.transitions.items():
            options: list[Option] = []
            for transition in transitions:
                conditions = tuple(
                    (str(c.func), GUARDS[str(c.func)]) for c in transition.conditions if c.target
                )
                unless = tuple(
                    (str(c.func), GUARDS[str(c.func)])
                    for c in transition.conditions
                    if not c.target
                )
                dest = Phase(machine.get_state(str(transition.dest)).value)
                options.append((dest, conditions, unless))
            table[(Phase(machine.get_state(source).value), trigger)] = tuple(options)
    return table


TABLE: Final = _compile(MACHINE)
"""The compiled machine: ``TABLE[(phase, trigger)]`` lists the guarded destinations.

:meta hide-value:
"""


def resolve(options: tuple[Option, ...], evaluate: Callable[[str, Guard], bool]) -> Phase | None:
    """The destination of the first option whose guards pass, or None (no transition).

    ``evaluate(name, guard)`` gives a guard's outcome; ``apply()`` calls the guard on the
    state, the agreement test substitutes chosen outcomes.
    """
    for dest, conditions, unless in options:
        if all(evaluate(name, g) for name, g in conditions) and not any(
            evaluate(name, g) for name, g in unless
        ):
            return dest
    return None


Decider = Callable[["GameState", Any], "Phase | None"]
"""``decide(state, action)``: the destination phase, or None when no transition applies."""


def _real_guard(name: str, guard: Guard) -> Guard:
    return guard


def compile_decider(
    options: tuple[Option, ...], guard_of: Callable[[str, Guard], Guard] | None = None
) -> Decider:
    """Specialise :func:`resolve` for one ``(phase, trigger)`` of the table.

    The common shapes of :data:`TRANSITIONS` — one unguarded destination, one guarded
    destination, or a guard and its ``unless`` twin — become a single expression, so the
    hot path calls at most one guard.  ``guard_of`` lets the agreement test substitute
    guards with chosen outcomes; ``apply()`` uses the real ones (``guard_of=None``).
    """
    of = guard_of or _real_guard
    if len(options) == 1:
        dest, conditions, unless = options[0]
        if not conditions and not unless:
            return lambda state, action: dest
        if len(conditions) == 1 and not unless:
            guard = of(*conditions[0])
            return lambda state, action: dest if guard(state, action) else None
    if len(options) == 2:
        (yes, cond_a, unless_a), (no, cond_b, unless_b) = options
        if len(cond_a) == 1 and not unless_a and not cond_b and unless_b == cond_a:
            guard = of(*cond_a[0])
            return lambda state, action: yes if guard(state, action) else no
    return lambda state, action: resolve(  # pragma: no cover - no such shape today
        options, lambda name, g: of(name, g)(state, action)
    )


DECIDERS: Final[dict[tuple[Phase, str], Decider]] = {
    key: compile_decider(options) for key, options in TABLE.items()
}
"""``DECIDERS[(phase, trigger)]``: the compiled table as one function per entry.

:meta hide-value:
"""
