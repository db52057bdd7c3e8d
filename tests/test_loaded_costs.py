"""A loaded game costs what a played one does: the first ``hash()`` and ``view()`` of a
replayed state do the same work at deal 80 as at deal 2.

Work is counted, not timed (a timed test on a shared machine is noise): the Python
calls and the allocations a call makes, traced with ``sys.setprofile`` and
``tracemalloc``.  Both are exact and repeatable, so the test can demand equality up to a
few calls, where a cost growing with the game would add hundreds.  The timing of the
same calls is ``benchmarks/long_game.py``.
"""

from __future__ import annotations

import random
import sys
import tracemalloc
from collections.abc import Callable
from types import FrameType
from typing import Any

import pytest

from bohmisch_watten import DECK, GameState, Phase, Rules, Shuffle, new_game, replay

DEALS = (2, 80)


def _long_game(seed: int) -> dict[int, GameState]:
    """The first lead of deals 2 and 80 of one long game, both dealt the same pack."""
    rng = random.Random(seed)
    pack = random.Random(seed + 1).sample(DECK, 32)
    state = new_game(4, rules=Rules(start_score=1000))
    out: dict[int, GameState] = {}
    while len(out) < len(DEALS):
        if state.is_chance_node and state.deal_number in DEALS:
            state = state.apply(Shuffle(pack))
            while state.phase is not Phase.PLAY:
                state = state.apply(state.legal_actions()[-1])
            out[state.deal_number] = state
        state = state.apply(
            state.sample_chance(rng) if state.is_chance_node else rng.choice(state.legal_actions())
        )
    return out


@pytest.fixture(scope="module")
def long_states() -> dict[int, GameState]:
    return _long_game(1)


def _calls(run: Callable[[], object]) -> int:
    count = 0

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return count


def _allocated(run: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]  # the peak: what the call held at once
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("what", ["hash", "view"])
def test_first_hash_and_view_of_a_loaded_state_are_flat(
    long_states: dict[int, GameState], what: str
) -> None:
    counts = {}
    for deal, state in long_states.items():
        seat = state.current_player
        assert seat is not None
        loaded = replay(state.record())  # a new object: nothing cached
        assert loaded == state
        played = state.apply(state.legal_actions()[0])  # also new, for comparison

        def first(s: GameState, seat: int = seat) -> object:
            return hash(s) if what == "hash" else s.view(seat)

        fresh = replay(state.record())
        counts[deal] = (
            _calls(lambda loaded=loaded: first(loaded)),
            _calls(lambda played=played: first(played)),
            _allocated(lambda fresh=fresh: first(fresh)),
        )
    (calls_2, played_2, bytes_2), (calls_80, played_80, bytes_80) = counts[2], counts[80]
    assert calls_2 <= played_2 + 5, counts
    assert len(long_states[80].history) > 30 * len(long_states[2].history)
    assert calls_80 <= calls_2 + 5, counts  # the same work, not work per deal
    assert calls_80 <= played_80 + 5, counts  # loaded costs what played costs
    assert bytes_80 <= 2 * bytes_2 + 4096, counts


def test_the_counters_see_work_that_grows_with_the_game(long_states: dict[int, GameState]) -> None:
    """The same counters on a call that walks the whole game: they grow (the test can fail)."""
    walks = {deal: _calls(lambda s=s: s.record()) for deal, s in long_states.items()}
    assert walks[80] > 10 * walks[2]
    sizes = {deal: _allocated(lambda s=s: s.history) for deal, s in long_states.items()}
    assert sizes[80] > 10 * sizes[2]
