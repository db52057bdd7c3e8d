"""Speed of the encoding and of the three learning environments (4 players).

A script, not a test: ``python benchmarks/adapters.py [--repeats R] [--steps N]``.
Needs the ``[openspiel]``, ``[pettingzoo]`` and ``[gymnasium]`` extras.  Each figure is
the median of ``--repeats`` runs:

* ``encoding``: :func:`~bohmisch_watten.encoding.observation` plus
  :func:`~bohmisch_watten.encoding.action_mask` of one view, views taken from random
  games (building the view included);
* ``openspiel``: applied actions per second (player decisions and the 32 chance cards
  of every deal) in ``python_bohmisch_watten`` with random play, one-deal mode;
* ``pettingzoo``: AEC steps per second of ``raw_env`` with a masked random policy,
  ``last()`` (observation) included;
* ``gymnasium``: ``WattenEnv`` steps per second with a masked random policy (the three
  random bots' moves happen inside each step).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np
import pyspiel

import bohmisch_watten.adapters.openspiel  # noqa: F401  (registers the game)
from bohmisch_watten import new_game
from bohmisch_watten.adapters.gymnasium import WattenEnv
from bohmisch_watten.adapters.pettingzoo import raw_env
from bohmisch_watten.encoding import action_mask, observation


def encoding_rate(steps: int) -> float:
    rng = random.Random(1)
    states = []
    state = new_game(4)
    while len(states) < 200:
        if state.is_terminal:
            state = new_game(4)
        elif state.is_chance_node:
            state = state.apply(state.sample_chance(rng))
        else:
            states.append(state)
            state = state.apply(rng.choice(state.legal_actions()))
    start = time.perf_counter()
    for i in range(steps):
        s = states[i % len(states)]
        view = s.view(i % 4)
        observation(view)
        action_mask(view)
    return steps / (time.perf_counter() - start)


def openspiel_rate(steps: int) -> float:
    game = pyspiel.load_game("python_bohmisch_watten(players=4,mode=deal)")
    rng = np.random.default_rng(2)
    done = 0
    start = time.perf_counter()
    while done < steps:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
            done += 1
    return done / (time.perf_counter() - start)


def pettingzoo_rate(steps: int) -> float:
    env = raw_env(players=4)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    done = 0
    start = time.perf_counter()
    while done < steps:
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.reset()
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        done += 1
    return done / (time.perf_counter() - start)


def gymnasium_rate(steps: int) -> float:
    env = WattenEnv(4)
    _, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    start = time.perf_counter()
    for _ in range(steps):
        _, _, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"])))
        )
        if terminated or truncated:
            _, info = env.reset()
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--steps", type=int, default=4000)
    args = parser.parse_args()
    cases: list[tuple[str, str, Callable[[int], float]]] = [
        ("encoding", "views/s", encoding_rate),
        ("openspiel", "actions/s", openspiel_rate),
        ("pettingzoo", "steps/s", pettingzoo_rate),
        ("gymnasium", "steps/s", gymnasium_rate),
    ]
    for name, unit, run in cases:
        rates = [run(args.steps) for _ in range(args.repeats)]
        print(
            f"{name:11} median {statistics.median(rates):9,.0f} {unit}  "
            f"(min {min(rates):,.0f}, max {max(rates):,.0f})"
        )


if __name__ == "__main__":
    main()
