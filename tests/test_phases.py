"""The phase machine: the compiled table agrees with the real transitions.Machine."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest

from bohmisch_watten import GameState, Phase, PlayCard, new_game
from bohmisch_watten._effects import play
from bohmisch_watten.phases import (
    DECIDERS,
    GUARDS,
    MACHINE,
    TABLE,
    TRANSITIONS,
    compile_decider,
    resolve,
)


class _Probe:
    """A transitions model whose guards return chosen outcomes."""

    def __init__(self, outcomes: dict[str, bool]) -> None:
        for name in GUARDS:
            setattr(self, name, _constant(outcomes[name]))


def _constant(value: bool) -> Callable[..., bool]:
    return lambda *args: value


def _constant_guards(outcomes: dict[str, bool]) -> Callable[[str, object], Callable[..., bool]]:
    return lambda name, guard: _constant(outcomes[name])


def _lookup(outcomes: dict[str, bool]) -> Callable[[str, object], bool]:
    return lambda name, guard: outcomes[name]


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
        if options is None:
            assert (phase, trigger) not in DECIDERS
        else:
            decide = compile_decider(options, _constant_guards(outcomes))
            assert decide(None, None) == machine_dest, (phase, trigger, outcomes)  # type: ignore[arg-type]


def test_machine_has_no_auto_transitions_and_every_phase() -> None:
    assert set(MACHINE.states) == {p.name for p in Phase}
    assert not any(t.startswith("to_") for t in MACHINE.events)
    assert Phase.GAME_OVER not in {p for p, _ in TABLE}  # nothing leaves the end


def test_guards_are_named_pure_functions() -> None:
    used = {c for t in TRANSITIONS for c in (*t.get("conditions", ()), *t.get("unless", ()))}
    assert used == set(GUARDS)


def test_deciders_cover_the_table() -> None:
    assert set(DECIDERS) == set(TABLE)


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
        return DECIDERS[(Phase.PLAY, "play")](before, played)

    done = play(state, action, decide)
    assert asked == [action]
    assert done.phase is Phase.SCORE
    assert done.tricks_completed == 5
    overruled = play(state, action, lambda before, played: Phase.PLAY)
    assert overruled.tricks_completed == 4  # the machine said PLAY: the trick goes on
    assert overruled.cards_in_trick == state.cards_in_trick + 1
