"""Hypothesis strategies for the serialization tests: reachable states of seeded games.

Self-contained (not shared with the engine's property tests) so that these tests draw
the same states whatever the other strategies do.  A drawn state is a position in a
seeded random game; the games are cached, so drawing many states of one game is cheap.
"""

from __future__ import annotations

import functools
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

MAX_STEPS = 1500
"""Random games are cut off after this many actions (a few hundred is usual)."""

rules_strategy = st.builds(
    Rules,
    schleck=st.sampled_from(list(Schleck)),
    dealer_stock_limit=st.sampled_from([2, 3]),
    must_head=st.booleans(),
    overshoot=st.sampled_from(list(Overshoot)),
    plus_fifty=st.booleans(),
    start_score=st.one_of(st.integers(1, 8), st.integers(9, 40)),
    hearts_double=st.booleans(),
    min_fold_score=st.integers(-3, 12),
)
"""Every variant of RULES.md §8, low start scores often so that games end."""


def _choose(state: GameState, rng: random.Random) -> Action:
    """Random play that folds and takes Criticals often, so rare fields get filled."""
    if state.is_chance_node:
        return state.sample_chance(rng)
    legal = state.legal_actions()
    if Fold() in legal and rng.random() < 0.3:
        return Fold()
    if TakeCritical() in legal and rng.random() < 0.6:
        return TakeCritical()
    return rng.choice(legal)


@functools.lru_cache(maxsize=512)
def game(num_players: int, rules: Rules, dealer: int, seed: int) -> tuple[GameState, ...]:
    """Every state of one seeded random game, the new game first."""
    rng = random.Random(seed)
    state = new_game(num_players, rules=rules, dealer=dealer)
    states = [state]
    while not state.is_terminal and len(states) <= MAX_STEPS:
        state = state.apply(_choose(state, rng))
        states.append(state)
    return tuple(states)


@st.composite
def games(draw: st.DrawFn) -> tuple[GameState, ...]:
    """All states of a random game with drawn players, rules, first dealer and seed."""
    n = draw(st.integers(2, 4), label="num_players")
    rules = draw(rules_strategy, label="rules")
    dealer = draw(st.integers(0, n - 1), label="dealer")
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    return game(n, rules, dealer, seed)


@st.composite
def reachable_states(draw: st.DrawFn) -> GameState:
    """A state reached by seeded random play: any phase, the end of the game included."""
    states = draw(games())
    where = draw(st.one_of(st.just(-1), st.integers(0, len(states) - 1)), label="index")
    return states[where]
