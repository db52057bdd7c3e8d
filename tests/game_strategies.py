"""Hypothesis strategies shared by the property tests: rules, seeds, reachable states."""

from __future__ import annotations

import random

from hypothesis import strategies as st

from bohmisch_watten import (
    Action,
    Fold,
    GameState,
    Overshoot,
    Rules,
    Schleck,
    TakeCritical,
    new_game,
)

rules_strategy = st.builds(
    Rules,
    schleck=st.sampled_from(list(Schleck)),
    dealer_stock_limit=st.sampled_from([2, 3]),
    must_head=st.booleans(),
    overshoot=st.sampled_from(list(Overshoot)),
    plus_fifty=st.booleans(),
    start_score=st.one_of(st.integers(1, 8), st.integers(9, 60)),
    hearts_double=st.booleans(),
    min_fold_score=st.integers(-3, 12),
)
"""Every variant of RULES.md §8; low start scores often, so that games end."""

seeds = st.integers(0, 2**32 - 1)


def policy(state: GameState, rng: random.Random) -> Action:
    """Seeded random play with some taste for the rarer choices (fold, take)."""
    if state.is_chance_node:
        return state.sample_chance(rng)
    legal = state.legal_actions()
    if Fold() in legal and rng.random() < 0.3:
        return Fold()
    if TakeCritical() in legal and rng.random() < 0.5:
        return TakeCritical()
    return rng.choice(legal)


TARGETS = ("any", "cut", "exchange", "fold", "play", "deal", "game_over")


def _matches(state: GameState, target: str) -> bool:
    if target == "fold":
        return Fold() in state.legal_actions()
    return target == "any" or state.phase.value == target


@st.composite
def game_states(draw: st.DrawFn, max_steps: int = 300) -> GameState:
    """A state reached by seeded random play from a new game with drawn players and rules.

    After the drawn number of steps, play goes on (at most ``SEARCH`` more steps) until a
    drawn target is met: a phase, or "fold is legal", so that rare situations (a Critical
    on offer, a player allowed to fold, the end of the game) are drawn often enough.
    Play stops before the end of the game unless the target is the end.
    """
    n = draw(st.integers(2, 4), label="num_players")
    rules = draw(rules_strategy, label="rules")
    dealer = draw(st.integers(0, n - 1), label="dealer")
    rng = random.Random(draw(seeds, label="seed"))
    steps = draw(st.integers(0, max_steps), label="steps")
    target = draw(st.sampled_from(TARGETS), label="target")
    state = new_game(n, rules=rules, dealer=dealer)
    for i in range(steps + SEARCH):
        if state.is_terminal or (i >= steps and _matches(state, target)):
            break
        after = state.apply(policy(state, rng))
        if after.is_terminal and target != "game_over":
            break
        state = after
    return state


SEARCH = 3000
