"""The phase machine: the compiled table agrees with the real transitions.Machine."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest

from bohmisch_watten import GameState, Phase, PlayCard, new_game
from bohmisch_watten.actions import Exchange, Fold, LeaveCritical, Shuffle, TakeCritical
from bohmisch_watten.phases import (
    AUTO_TRIGGERS,
    MACHINE,
    TABLE,
    TRANSITIONS,
    compile_decider,
    resolve,
)
from bohmisch_watten.state import _AUTO, _STEPS, GUARDS


class _Probe:
    """A transitions model whose guards return chosen outcomes."""

    def __init__(self, outcomes: dict[str, bool]) -> None:
        for name in GUARDS:
            setattr(self, name, _constant(outcomes[name]))


def _constant(value: bool) -> Callable[..., bool]:
    return lambda *args: value


def _constant_guards(outcomes: dict[str, bool]) -> dict[str, Callable[..., bool]]:
    return {name: _constant(value) for name, value in outcomes.items()}


def _lookup(outcomes: dict[str, bool]) -> Callable[[str], bool]:
    return lambda name: outcomes[name]


TRIGGERS = sorted({t["trigger"] for t in TRANSITIONS})


@pytest.mark.parametrize(("phase", "trigger"), list(itertools.product(Phase, TRIGGERS)))
def test_table_agrees_with_machine_for_every_guard_outcome(phase: Phase, trigger: str) -> None:
    names = sorted(GUARDS)
    for values in itertools.product((False, True), repeat=len(names)):
        outcomes = dict(zip(names, values, strict=True))
        probe = _Probe(outcomes)
        MACHINE.add_model(probe, initial=phase)
        try:
            if trigger in MACHINE.get_triggers(phase):
                fired = probe.trigger(trigger, None, None)  # type: ignore[attr-defined]
                machine_dest = probe.state if fired else None  # type: ignore[attr-defined]
            else:
                machine_dest = None
        finally:
            MACHINE.remove_model(probe)
        options = TABLE.get((phase, trigger))
        table_dest = None if options is None else resolve(options, _lookup(outcomes))
        assert table_dest == machine_dest, (phase, trigger, outcomes)
        # The hot path's compiled decider, fed the same guard outcomes, agrees too.
        if options is not None:
            decide = compile_decider(options, _constant_guards(outcomes))
            assert decide(None, None) == machine_dest, (phase, trigger, outcomes)  # type: ignore[arg-type]


def test_machine_has_no_auto_transitions_and_every_phase() -> None:
    assert set(MACHINE.states) == {p.name for p in Phase}
    assert not any(t.startswith("to_") for t in MACHINE.events)
    assert Phase.GAME_OVER not in {p for p, _ in TABLE}  # nothing leaves the end


def test_guards_are_named_pure_functions() -> None:
    used = {c for t in TRANSITIONS for c in (*t.get("conditions", ()), *t.get("unless", ()))}
    assert used == set(GUARDS)


_TRIGGER_OF = {
    Shuffle: "shuffle",
    TakeCritical: "take",
    LeaveCritical: "leave",
    Fold: "fold",
    Exchange: "exchange",
    PlayCard: "play",
}


def test_the_table_apply_reads_covers_the_machine_exactly() -> None:
    """apply()'s table has one entry per (phase, trigger) of the machine, and no other."""
    compiled = {(phase, _TRIGGER_OF[kind]) for kind, steps in _STEPS.items() for phase in steps}
    compiled |= {(phase, AUTO_TRIGGERS[phase]) for phase in _AUTO}
    assert compiled == set(TABLE)


def test_the_compiled_deciders_agree_with_the_machine_on_real_states() -> None:
    """On the states of real games, each decider apply() reads gives the machine's answer."""
    rng = random.Random(5)
    checked = 0
    for _ in range(3):
        state = new_game(3)
        while not state.is_terminal:
            actions = state.legal_actions() or (state.sample_chance(rng),)
            for action in actions:
                options = TABLE[(state.phase, _TRIGGER_OF[type(action)])]
                expected = resolve(options, lambda name: GUARDS[name](state, action))  # noqa: B023
                assert _STEPS[type(action)][state.phase][1](state, action) == expected
                checked += 1
            if state.phase in _AUTO:  # CUT with a Critical on offer: the ritual goes on
                assert _AUTO[state.phase][0](state, None) is None
            state = state.apply(rng.choice(actions))
    assert checked > 100


def _last_card_of_a_deal() -> tuple[GameState, PlayCard]:
    """A state whose next card completes the fifth trick, and that card."""
    rng = random.Random(2)
    state = new_game(3)
    while not (state.phase is Phase.PLAY and state.tricks_completed == 4):
        actions = state.legal_actions()
        state = state.apply(rng.choice(actions) if actions else state.sample_chance(rng))
    while state.cards_in_trick + 1 < state.folded.count(False):
        state = state.apply(state.legal_actions()[0])
    action = state.legal_actions()[0]
    assert isinstance(action, PlayCard)
    return state, action


def test_the_play_takes_the_guards_answer_in_the_fifth_trick() -> None:
    """The guards decide once: the effect follows the machine, it does not test again."""
    state, action = _last_card_of_a_deal()
    asked: list[object] = []

    def decide(before: GameState, played: object) -> Phase | None:
        asked.append(played)
        return _STEPS[PlayCard][Phase.PLAY][1](before, played)

    done = state._apply_play(action, decide)
    assert asked == [action]
    assert done.phase is Phase.SCORE
    assert done.tricks_completed == 5
    overruled = state._apply_play(action, lambda before, played: Phase.PLAY)
    assert overruled.tricks_completed == 4  # the machine said PLAY: the trick goes on
    assert overruled.cards_in_trick == state.cards_in_trick + 1
