"""The phases of a deal and the machine that moves between them (R11–R34).

DEAL → CUT → EXCHANGE → PLAY → SCORE → DEAL | GAME_OVER.  The :class:`Phase` enum names
where a deal stands; the transitions are declared once, as data, in :data:`TRANSITIONS`,
and turned into a :class:`transitions.Machine` once at import (``auto_transitions=False``).
States are frozen, so they cannot be models of that machine; instead the machine is read
once into :data:`TABLE`, ``(phase, trigger)`` → the guarded destinations, and
:mod:`~bohmisch_watten.state` compiles that table once (:func:`compile_decider`) into
the lookup its ``apply()`` reads.  ``tests/test_phases.py`` proves the table, the
compiled deciders and the real machine agree for every phase, trigger and guard outcome.

Guards are named, as a ``transitions`` model names its callbacks: the machine holds the
names, :data:`bohmisch_watten.state.GUARDS` the pure functions of the state, so this
module knows nothing of the state but that it is passed along.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import Any, Final

from transitions import Machine

__all__ = [
    "AUTO_TRIGGERS",
    "MACHINE",
    "TABLE",
    "TRANSITIONS",
    "Decider",
    "Guard",
    "Option",
    "Phase",
    "compile_decider",
    "resolve",
]


class Phase(enum.Enum):
    """Where a deal stands.  Only :meth:`GameState.apply` moves from one to the next."""

    # Members are singletons compared by identity, so the identity hash is correct and,
    # unlike Enum's default (hash of the name, in Python), it costs nothing on the hot path.
    __hash__ = object.__hash__

    DEAL = "deal"
    """A chance node: the pack is to be shuffled and cut (R11)."""
    CUT = "cut"
    """The cutting ritual: a Critical is offered to the cutter or the dealer (R12–R14)."""
    EXCHANGE = "exchange"
    """Each player in turn folds or plays and exchanges (R18–R21)."""
    PLAY = "play"
    """Five tricks (R24–R27)."""
    SCORE = "score"
    """Passed through inside ``apply()``: the deal's points are posted (R29–R34)."""
    GAME_OVER = "game_over"
    """Someone reached the goal; ``winners`` and ``losers`` are set (R34)."""


Guard = Callable[[Any, Any], bool]
"""``guard(state, action)``: whether a guarded transition is taken, a pure function of the
state before the transition and the action that triggers it (None for the automatic
triggers ``deal`` and ``score``)."""

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

Option = tuple[Phase, tuple[str, ...], tuple[str, ...]]
"""One guarded destination: ``(dest, conditions, unless)``, the guards by name."""


def _read(machine: Machine) -> dict[tuple[Phase, str], tuple[Option, ...]]:
    """Read the machine's events into ``{(phase, trigger): (options in order)}``."""
    table: dict[tuple[Phase, str], tuple[Option, ...]] = {}
    for trigger, event in machine.events.items():
        for source, transitions in event.transitions.items():
            options: list[Option] = []
            for transition in transitions:
                conditions = tuple(str(c.func) for c in transition.conditions if c.target)
                unless = tuple(str(c.func) for c in transition.conditions if not c.target)
                dest = Phase(machine.get_state(str(transition.dest)).value)
                options.append((dest, conditions, unless))
            table[(Phase(machine.get_state(source).value), trigger)] = tuple(options)
    return table


TABLE: Final = _read(MACHINE)
"""The machine as data: ``TABLE[(phase, trigger)]`` lists the guarded destinations.

:meta hide-value:
"""


def resolve(options: tuple[Option, ...], evaluate: Callable[[str], bool]) -> Phase | None:
    """The destination of the first option whose guards pass, or None (no transition).

    ``evaluate(name)`` gives a guard's outcome: the agreement test substitutes chosen
    outcomes, :func:`compile_decider` specialises it for the real guards.
    """
    for dest, conditions, unless in options:
        if all(evaluate(name) for name in conditions) and not any(
            evaluate(name) for name in unless
        ):
            return dest
    return None


Decider = Callable[[Any, Any], "Phase | None"]
"""``decide(state, action)``: the destination phase, or None when no transition applies."""


def compile_decider(options: tuple[Option, ...], guards: Mapping[str, Guard]) -> Decider:
    """Specialise :func:`resolve` for one ``(phase, trigger)`` of :data:`TABLE`.

    The common shapes of :data:`TRANSITIONS` — one unguarded destination, one guarded
    destination, or a guard and its ``unless`` twin — become a single expression, so the
    hot path calls at most one guard.  ``guards`` maps each name to its function:
    :data:`bohmisch_watten.state.GUARDS` for ``apply()``, chosen outcomes in the test.
    """
    if len(options) == 1:
        dest, conditions, unless = options[0]
        if not conditions and not unless:
            return lambda state, action: dest
        if len(conditions) == 1 and not unless:
            guard = guards[conditions[0]]
            return lambda state, action: dest if guard(state, action) else None
    if len(options) == 2:
        (yes, cond_a, unless_a), (no, cond_b, unless_b) = options
        if len(cond_a) == 1 and not unless_a and not cond_b and unless_b == cond_a:
            guard = guards[cond_a[0]]
            return lambda state, action: yes if guard(state, action) else no
    return lambda state, action: resolve(  # pragma: no cover - no such shape today
        options, lambda name: guards[name](state, action)
    )
