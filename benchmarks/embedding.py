"""The cost of the embedding API: apply() with and without seat=, events per seat.

A script, not a test: ``python benchmarks/embedding.py [--repeat R] [--players N]``.
It records one seeded random game, then replays its actions R times in each mode and
prints the median time per action:

* ``apply``: ``state.apply(action)``, the baseline;
* ``apply seat=``: ``state.apply(action, seat=state.current_player)``, what a server
  does (chance actions without a seat);
* ``apply_with_events``: the same with the omniscient events;
* ``describe x N``: one ``apply`` and ``describe`` for every seat, as a server that
  tells each player what happened.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from bohmisch_watten import GameState, new_game
from bohmisch_watten.actions import Action
from bohmisch_watten.events import apply_with_events, describe


def record(num_players: int, seed: int) -> list[Action]:
    rng = random.Random(seed)
    state = new_game(num_players)
    actions: list[Action] = []
    while not state.is_terminal and state.deal_number <= 200:
        action = (
            state.sample_chance(rng) if state.is_chance_node else rng.choice(state.legal_actions())
        )
        actions.append(action)
        state = state.apply(action)
    return actions


Step = Callable[[GameState, Action], GameState]


def plain(state: GameState, action: Action) -> GameState:
    return state.apply(action)


def seated(state: GameState, action: Action) -> GameState:
    return state.apply(action, seat=state.current_player)


def with_events(state: GameState, action: Action) -> GameState:
    return apply_with_events(state, action, seat=state.current_player)[0]


def per_seat(state: GameState, action: Action) -> GameState:
    after = state.apply(action, seat=state.current_player)
    for seat in range(state.num_players):
        describe(state, action, after, seat)
    return after


def run(num_players: int, actions: list[Action], step: Step) -> float:
    """Seconds per action for one replay of ``actions``."""
    state = new_game(num_players)
    start = time.perf_counter()
    for action in actions:
        state = step(state, action)
    return (time.perf_counter() - start) / len(actions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    actions = record(args.players, args.seed)
    modes: list[tuple[str, Step]] = [
        ("apply", plain),
        ("apply seat=", seated),
        ("apply_with_events", with_events),
        (f"describe x {args.players}", per_seat),
    ]
    print(f"{len(actions)} actions, {args.players} players, median of {args.repeat} replays")
    times: dict[str, list[float]] = {name: [] for name, _ in modes}
    for _ in range(args.repeat):  # interleaved, so that machine load hits every mode alike
        for name, step in modes:
            times[name].append(run(args.players, actions, step))
    for name, _ in modes:
        print(f"{name:>18}: {statistics.median(times[name]) * 1e6:6.2f} µs/action")


if __name__ == "__main__":
    main()
