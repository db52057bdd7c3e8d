"""Costs that must not grow with the length of a game: views, samples, hashing, memory.

A script, not a test: ``python benchmarks/long_game.py [--repeat R]``.  One long random
four-player game (every player starts at 1000 points, so it lasts hundreds of deals);
at the first lead of deals 2, 10, 40 and 80 it measures, on a replayed twin whose
objects are all new (no cached hash, no cached sampler tables):

* ``view``: ``state.view(p)``;
* ``view+sample``: ``state.view(p)`` and its first ``sample_state`` (tables built);
* ``hash 1st``: ``hash(child)`` of a new child state, as a transposition table sees it;
* ``hash 2nd``: the same call again (cached);
* ``bytes/state``: what a retained state costs beyond its parent (tracemalloc), over
  the whole game so far.

Every figure is the median of ``--repeat`` runs.  Targets: view+sample at deal 80 at
most 1.5x deal 2; first hash at deal 80 at most 2x deal 2; second hash at most 2 us;
at most 700 bytes per retained state.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable

from bohmisch_watten import DECK, GameState, Phase, Rules, Shuffle, new_game, replay

DEALS = (2, 10, 40, 80)
RULES = Rules(start_score=1000)


def long_game(seed: int) -> dict[int, GameState]:
    """The states at the first lead of each deal in DEALS of one random game.

    Those deals are all played alike: the same pack, each player taking his last
    legal action (never a fold).  Dealing and deciding go clockwise from the dealer, so
    the measured deals are the same deal up to a rotation of the seats, and the
    figures differ only by what the length of the game costs.
    """
    rng = random.Random(seed)
    pack = random.Random(seed + 1).sample(DECK, 32)
    state = new_game(4, rules=RULES)
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


def timed(make: Callable[[], object], run: Callable[[object], object], repeat: int) -> float:
    """The median time of ``run(make())`` in seconds, ``make`` untimed."""
    times = []
    for _ in range(repeat):
        arg = make()
        gc.collect()
        gc.disable()  # as timeit does: a collection of the whole heap is not the call's cost
        start = time.perf_counter()
        run(arg)
        times.append(time.perf_counter() - start)
        gc.enable()
    return statistics.median(times)


def bytes_per_state(seed: int, actions: int) -> float:
    """Memory a retained state costs beyond its parent, over ``actions`` random actions."""
    rng = random.Random(seed)
    state = new_game(4, rules=RULES)
    pending = []
    for _ in range(actions):  # draw the actions first: the generator is not measured
        if state.is_chance_node:
            action = state.sample_chance(rng)
        else:
            action = rng.choice(state.legal_actions())
        pending.append(action)
        state = state.apply(action)
    state = new_game(4, rules=RULES)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = [state]
    for action in pending:
        state = state.apply(action)
        kept.append(state)
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    # The actions themselves were allocated before; what is left is the states' own.
    return (after - before) / len(pending)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    states = long_game(args.seed)
    rng = random.Random(args.seed)
    print(
        f"{'deal':>4} {'actions':>7} {'view (ms)':>9} {'view+sample (ms)':>16}"
        f" {'hash 1st (us)':>13} {'hash 2nd (us)':>13}"
    )
    rows = {}
    for deal, state in states.items():
        player = state.current_player
        assert player is not None
        action = state.legal_actions()[0]

        def twin(state: GameState = state) -> GameState:
            return replay(state.record())

        def view_of(s: object, player: int = player) -> object:
            return s.view(player)  # type: ignore[attr-defined]

        def sample_of(s: object, player: int = player) -> object:
            return s.view(player).sample_state(rng)  # type: ignore[attr-defined]

        view = timed(twin, view_of, args.repeat)
        sample = timed(twin, sample_of, args.repeat)
        children = [twin().apply(action) for _ in range(args.repeat)]
        first = []
        for child in children:
            start = time.perf_counter()
            hash(child)
            first.append(time.perf_counter() - start)
        second = []
        for child in children:
            start = time.perf_counter()
            hash(child)
            second.append(time.perf_counter() - start)
        rows[deal] = (view, sample, statistics.median(first), statistics.median(second))
        print(
            f"{deal:>4} {len(state.history):>7} {view * 1e3:>9.3f} {sample * 1e3:>16.3f}"
            f" {rows[deal][2] * 1e6:>13.2f} {rows[deal][3] * 1e6:>13.2f}"
        )
    memory = bytes_per_state(args.seed, 2000)
    print(f"bytes per retained state: {memory:.0f}")
    low, high = rows[DEALS[0]], rows[DEALS[-1]]
    print(
        f"view+sample deal {DEALS[-1]} / deal {DEALS[0]}: {high[1] / low[1]:.2f}x (target <= 1.5x);"
        f" first hash: {high[2] / low[2]:.2f}x (target <= 2x);"
        f" second hash {high[3] * 1e6:.2f} us (target <= 2 us);"
        f" {memory:.0f} bytes/state (target <= 700)"
    )


if __name__ == "__main__":
    main()
